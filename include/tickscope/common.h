/* SPDX-License-Identifier: MIT */
/* tickscope/common.h: what every part of the API shares: the version, error codes, the export
 * macro and the output formats. */
#ifndef TICKSCOPE_COMMON_H
#define TICKSCOPE_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TKS_VERSION_STRING "0.1.0"

/* Every function of the library's documented API carries TKS_API: the shared library is built
 * with hidden visibility, so only these are exported. */
#if defined(__GNUC__) || defined(__clang__)
#define TKS_API __attribute__((visibility("default")))
#else
#define TKS_API
#endif

/* Errors: functions that can fail return 0 or one of these (negative). */
#define TKS_OK        0
#define TKS_EINVAL   (-1)  /* bad argument */
#define TKS_ENOMEM   (-2)  /* allocation failed */
#define TKS_EUNAVAIL (-3)  /* method or feature not available on this CPU */
#define TKS_EIO      (-4)  /* file could not be written or read */
#define TKS_EPERM    (-5)  /* not permitted (pinning, real-time priority) */
#define TKS_EDISCARD (-6)  /* too many samples had to be discarded */
#define TKS_ERANGE   (-7)  /* a count or size is out of the supported range */
#define TKS_ENODEV   (-8)  /* the kernel module is not loaded (no /dev/tickscope) */
#define TKS_EBUSY    (-9)  /* the kernel module is in use by another process */
#define TKS_EPROTO   (-10) /* the kernel module speaks another protocol version */
#define TKS_EINTR    (-11) /* interrupted: a fatal signal, or the system freezing for a suspend */
#define TKS_ETIME    (-12) /* a kernel run reached the module's time limit (max_run_ms) */

TKS_API const char *tks_strerror(int err);

/* Output formats, for every result kind (benchmarks, regions, the command's reports).
 * TKS_FORMAT_DEFAULT: whatever the caller was configured with. */
enum tks_format {
    TKS_FORMAT_DEFAULT = -1,
    TKS_FORMAT_CONSOLE = 0, /* text for people (the regions call it TKS_REGION_TEXT) */
    TKS_FORMAT_JSON,
    TKS_FORMAT_CSV,
    TKS_FORMAT_MARKDOWN,
    TKS_FORMAT_HTML,        /* one self-contained page with its figures (benchmarks, compare, sys, asm) */
    TKS_FORMAT_XML          /* asm --table: uops.info's instructions.xml layout */
};
/* "console", "json", "csv", "markdown", "html", "xml" (NULL for anything else), and back (-1 if unknown;
 * "text" is taken for "console"). */
TKS_API const char *tks_format_name(enum tks_format f);
TKS_API int tks_format_from_name(const char *name);

#ifdef __cplusplus
}
#endif
#endif /* TICKSCOPE_COMMON_H */
