/* SPDX-License-Identifier: MIT */
/* env_internal.h: what the environment checks share: the context they read /proc and /sys
 * through, the helpers that write a finding, and the checks, one function each. */
#ifndef TKS_PLATFORM_ENV_INTERNAL_H
#define TKS_PLATFORM_ENV_INTERNAL_H

#include <stddef.h>

#include "base/diag.h"
#include "tickscope.h"

#define CPU_DIR "/sys/devices/system/cpu"
#define PMU_DIR "/sys/bus/event_source/devices"
#define CLOCKSOURCE_DIR "/sys/devices/system/clocksource/clocksource0"

struct tks__env_ctx {
    const tks_env_input *in;
    const char *root;
    int cpu;
};

/* ---- writing findings: codes and values (tickscope/diag_machine.h), never words */

/* Set f's finding: its status and first code, dropping what an earlier one wrote. */
void tks__env_found(tks_env_finding *f, int status, enum tks_diag_code code,
                    const tks_diag_value *v, size_t n);
/* Append to what was found (detail) or to the remedy (advice). */
void tks__env_add(tks_diags *ds, enum tks_diag_code code, const tks_diag_value *v, size_t n);

#define TKS__ENV_N(...) (sizeof TKS__DIAG_ARGS(__VA_ARGS__) / sizeof(tks_diag_value))
#define FINDING(f, st, code, ...)                                                                  \
    tks__env_found((f), (st), TKS_DIAG_##code, TKS__DIAG_ARGS(__VA_ARGS__), TKS__ENV_N(__VA_ARGS__))
#define FINDING0(f, st, code) tks__env_found((f), (st), TKS_DIAG_##code, NULL, 0)
#define DETAIL(f, code, ...)                                                                       \
    tks__env_add(&(f)->found, TKS_DIAG_##code, TKS__DIAG_ARGS(__VA_ARGS__), TKS__ENV_N(__VA_ARGS__))
#define DETAIL0(f, code) tks__env_add(&(f)->found, TKS_DIAG_##code, NULL, 0)
#define ADVICE(f, code, ...)                                                                       \
    tks__env_add(&(f)->advice, TKS_DIAG_##code, TKS__DIAG_ARGS(__VA_ARGS__), TKS__ENV_N(__VA_ARGS__))
#define ADVICE0(f, code) tks__env_add(&(f)->advice, TKS_DIAG_##code, NULL, 0)

/* A path or name into a buffer (snprintf, which truncates safely; one function keeps GCC's
 * truncation warnings, which cannot know the values, off the call sites). */
__attribute__((format(printf, 3, 4)))
void tks__env_put(char *buf, size_t size, const char *fmt, ...);
/* Appends to a string being built, keeping it terminated when it no longer fits. */
__attribute__((format(printf, 3, 4)))
void tks__env_append(char *buf, size_t size, const char *fmt, ...);
/* The finding of a check whose file could not be read (what: "read", "find", "parse"). */
void tks__env_unknown(tks_env_finding *f, const char *what, const char *path);

/* ---- reading files, under the input's root */

int tks__env_exists(const struct tks__env_ctx *c, const char *path);
/* The text of a small file, without the trailing blanks some sysfs lists end with. */
int tks__env_read_text(const struct tks__env_ctx *c, const char *path, char *buf, size_t size);
int tks__env_read_long(const struct tks__env_ctx *c, const char *path, long *v);
/* A file of this CPU's: /sys/devices/system/cpu/cpuN/<rest>. */
void tks__env_cpu_path(const struct tks__env_ctx *c, const char *rest, char *buf, size_t size);
/* A whole word of a space-separated list, so "tsc" does not match "tsc-early". */
int tks__env_has_word(const char *list, const char *word);

/* ---- the checks, in the order tks_env_check reports them. Each fills f->status, f->found
 * and, when there is something to do, f->advice. */

/* env_cpu.c: the clock and the CPU it runs on */
void tks__env_check_hypervisor(const struct tks__env_ctx *c, tks_env_finding *f);
void tks__env_check_invariant_tsc(const struct tks__env_ctx *c, tks_env_finding *f);
void tks__env_check_clocksource(const struct tks__env_ctx *c, tks_env_finding *f);
void tks__env_check_governor(const struct tks__env_ctx *c, tks_env_finding *f);
void tks__env_check_frequency(const struct tks__env_ctx *c, tks_env_finding *f);
void tks__env_check_turbo(const struct tks__env_ctx *c, tks_env_finding *f);
void tks__env_check_smt(const struct tks__env_ctx *c, tks_env_finding *f);
/* env_sched.c: what else runs on, or interrupts, the measuring CPU */
void tks__env_check_isolation(const struct tks__env_ctx *c, tks_env_finding *f);
void tks__env_check_nmi_watchdog(const struct tks__env_ctx *c, tks_env_finding *f);
/* env_process.c: what the measuring process may use, and how it was built */
void tks__env_check_perf_counters(const struct tks__env_ctx *c, tks_env_finding *f);
void tks__env_check_aslr(const struct tks__env_ctx *c, tks_env_finding *f);
/* env_sched.c */
void tks__env_check_load(const struct tks__env_ctx *c, tks_env_finding *f);
void tks__env_check_rt_throttling(const struct tks__env_ctx *c, tks_env_finding *f);
/* env_process.c */
void tks__env_check_build(const struct tks__env_ctx *c, tks_env_finding *f);

#endif
