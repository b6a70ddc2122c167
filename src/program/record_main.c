/* SPDX-License-Identifier: MIT */
/* record_main.c: --record FILE in a benchmark program (record_main.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "platform/record_platform.h"
#include "program/record_main.h"
#include "tickscope/sys.h"

/* The machine's section: its facts, and the caches /sys declares (not read by the analysis:
 * what a reader of the recording wants to know of the machine). */
void tks__recording_platform(tks__rec_buf *file, const tks_platform *p)
{
    tks__rec_buf b = {0};
    tks_sys_cache_level lv[8];
    size_t n = tks_sys_cache_levels(NULL, lv, 8);
    tks__record_platform_encode(&b, p);
    for (size_t i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "cache_l%d_%s", lv[i].level, lv[i].type);
        tks__rec_put_u64(&b, name, lv[i].bytes);
    }
    tks__rec_put_section(file, TKS__REC_PLATFORM, &b);
    tks__rec_free(&b);
}

int tks__recording_begin(tks__recorder *rec, const char *path, const tks_options *o,
                         const tks_platform *p, const char *prog,
                         const tks__record_instance *v, size_t n, char *err, size_t errlen)
{
    tks__rec_buf file = {0}, prog_b = {0};
    int e;
    memset(rec, 0, sizeof *rec);
    rec->role = "run";
    if ((rec->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644)) < 0) {
        snprintf(err, errlen, "--record: %s: %s", path, strerror(errno));
        return -1;
    }
    tks__rec_put_header(&file);
    tks__recording_platform(&file, p);
    tks__record_program_encode(&prog_b, prog, o, v, n);
    tks__rec_put_section(&file, TKS__REC_PROGRAM, &prog_b);
    e = file.oom ? ENOMEM : tks__record_write(rec->fd, &file);
    tks__rec_free(&file);
    tks__rec_free(&prog_b);
    if (e) {
        close(rec->fd);
        snprintf(err, errlen, "--record: %s: %s", path, strerror(e));
        return -1;
    }
    tks__record_set(rec);
    return 0;
}

int tks__recording_join(tks__recorder *rec, const char *path, const char *role, char *err,
                        size_t errlen)
{
    memset(rec, 0, sizeof *rec);
    rec->role = role;
    if ((rec->fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)) < 0) {
        snprintf(err, errlen, "--record: %s: %s", path, strerror(errno));
        return -1;
    }
    tks__record_set(rec);
    return 0;
}

int tks__recording_end(tks__recorder *rec, const char *path, char *err, size_t errlen)
{
    tks__record_set(NULL);
    if (close(rec->fd) != 0 && !rec->failed)
        rec->failed = errno;
    if (rec->failed) {
        snprintf(err, errlen, "--record: %s: %s", path, strerror(rec->failed));
        return -1;
    }
    return 0;
}
