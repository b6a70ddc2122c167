/* SPDX-License-Identifier: MIT */
/* record_platform.h: the machine's facts as a recording's platform section (docs/recording.md). */
#ifndef TKS_PLATFORM_RECORD_PLATFORM_H
#define TKS_PLATFORM_RECORD_PLATFORM_H

#include "base/record_codec.h"
#include "tickscope/platform.h"

/* p's facts, the CPU's features among them, as fields. */
void tks__record_platform_encode(tks__rec_buf *b, const tks_platform *p);
/* A platform section's body into p (zeroed first). 0, or -1 when it is damaged. */
int tks__record_platform_decode(const unsigned char *b, size_t n, tks_platform *p);

#endif
