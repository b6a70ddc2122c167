/* SPDX-License-Identifier: MIT */
/* tickscope/diag.h: diagnostics with codes. Every warning and note a result carries is one of
 * the codes below with the numbers (and names) that make it, never prose: the message is
 * rendered from the code's template when a report is written (tks_diag_message), at any length,
 * and a program reading a result (or its JSON, where each diagnostic is {code, severity,
 * message, values}) tells one diagnostic from another by its code, not its wording.
 *
 * TKS_DIAG_LIST is THE list: one line per code, X(NAME, severity, "id", "values", "template").
 *   id        stable, dotted: what JSON and programs match on ("bench.interval_wide");
 *   values    the values it carries, in order, each "name:kind" where kind is a printf
 *             conversion for a number ("%.3f", "%.1f", "%llu" is written "%.0f") or "s" for a
 *             name taken from the data (a host, a CPU, a method), or "e" for an errno;
 *   template  the message, with {name} where a value goes.
 * A new diagnostic is one line here and one call where it is found (docs/ARCHITECTURE.md). */
#ifndef TICKSCOPE_DIAG_H
#define TICKSCOPE_DIAG_H

#include <stddef.h>

#include "tickscope/common.h"

#ifdef __cplusplus
extern "C" {
#endif

enum tks_severity {
    TKS_SEV_NOTE = 0,   /* how a figure was obtained; nothing to act on */
    TKS_SEV_WARNING,    /* the figure stands, with a reason to doubt or an advice */
    TKS_SEV_ERROR       /* a part could not be measured */
};

/* clang-format off */
#define TKS_DIAG_LIST(X)                                                                           \
    /* ---- a benchmark run (src/runner/) */                                                   \
    X(BENCH_UNOPTIMISED, WARNING, "bench.unoptimised", "",                                         \
      "the benchmark was compiled without optimisation: these are the costs of a debug build; "   \
      "rebuild its file with -O2")                                                                 \
    X(BENCH_BELOW_GAP, WARNING, "bench.below_gap", "ticks:%.3f gap:%.3f",                          \
      "below the harness gap: its windows read {ticks} ticks over empty ones, less than the "     \
      "{gap} ticks the fences add around any work; next to nothing ran (optimised away?), below " \
      "what latency mode resolves here: check with --mode throughput")                            \
    X(BENCH_NEGATIVE, WARNING, "bench.negative", "mode:s ticks:%.3f lo:%.3f hi:%.3f",              \
      "negative ({ticks} ticks, interval [{lo}, {hi}]): the block made the window shorter than "  \
      "the empty one; it is below what {mode} mode resolves here")                                \
    X(BENCH_ZERO_LATENCY, WARNING, "bench.zero_latency", "ticks:%.3f lo:%.3f hi:%.3f",             \
      "indistinguishable from zero ({ticks} ticks, interval [{lo}, {hi}]): too small for latency " \
      "mode to see here, or optimised away; check with --mode throughput")                        \
    X(BENCH_ZERO_THROUGHPUT, WARNING, "bench.zero_throughput", "ticks:%.3f lo:%.3f hi:%.3f",       \
      "indistinguishable from zero ({ticks} ticks, interval [{lo}, {hi}]): too small for "        \
      "throughput mode to see here, or optimised away; keep its result with tks_do_not_optimize, "\
      "its inputs with tks_opaque")                                                               \
    X(BENCH_LOOP_FLOOR, WARNING, "bench.loop_floor", "ticks:%.3f cycles:%.2f",                     \
      "at the repetition loop's own cost ({ticks} ticks = {cycles} core cycles a repetition, "    \
      "measured in this run): in a loop the block costs at most this; a chain of one "            \
      "single-cycle instruction costs exactly this, anything cheaper (or removed by the "         \
      "compiler: tks_do_not_optimize, tks_opaque) reads the same")                                \
    X(BENCH_MODES_OVERLAP, WARNING, "bench.modes_overlap", "unit:s fenced:%.2f stream:%.2f",       \
      "one fenced execution ({fenced} {unit}) and the block in a stream ({stream} a repetition, " \
      "measured alongside) disagree: its work overlaps from one execution to the next "          \
      "(independent instructions: one window's figure depends on the fences), or the run was "   \
      "disturbed; for its cost use --mode throughput")                                            \
    X(BENCH_MODES_REPEATED, WARNING, "bench.modes_repeated", "unit:s fenced:%.2f stream:%.2f",     \
      "one fenced execution ({fenced} {unit}) and the block in a stream ({stream} a repetition, " \
      "measured alongside) disagree: it costs more repeated (state it consumes, a cache or "     \
      "predictor it trains, or a disturbed run); check with --mode throughput")                   \
    X(BENCH_INTERVAL_WIDE, WARNING, "bench.interval_wide", "percent:%.1f",                         \
      "the 95% interval is +-{percent}% of the estimate (over 5%): give it more time "            \
      "(--min-time), pin it (--pin CPU) or quiet the machine")                                    \
    X(BENCH_DISCARDED, WARNING, "bench.discarded", "percent:%.1f migrated:%.0f backwards:%.0f",    \
      "{percent}% of the windows were discarded ({migrated} changed CPU, {backwards} went "       \
      "backwards): pin the benchmark with --pin CPU")                                             \
    X(BENCH_FEW_WINDOWS, WARNING, "bench.few_windows", "windows:%.0f",                             \
      "only {windows} windows fitted in the time budget: raise --min-time")                       \
    X(BENCH_CORE_DRIFT, WARNING, "bench.core_drift", "percent:%+.1f start:%.3f end:%.3f",          \
      "the core clock changed by {percent}% during this run ({start} to {end} core cycles per "   \
      "tick): compare core cycles, not ticks or ns")                                              \
    X(BENCH_PIN_REFUSED, WARNING, "bench.pin_refused", "cpu:%.0f errno:e",                         \
      "could not pin to CPU {cpu} ({errno}): ran unpinned")                                       \
    X(BENCH_FIFO_REFUSED, WARNING, "bench.fifo_refused", "errno:e",                                \
      "could not run under SCHED_FIFO ({errno}): ran at normal priority")                         \
    X(BENCH_FORKED, NOTE, "bench.forked", "errno:e",                                               \
      "measured in a forked child: the program could not be run again ({errno}), so its "        \
      "address layout was not drawn anew")                                                        \
    /* ---- event counters (src/sample/events.c): an event asked for and not counted; the */  \
    /* run goes on with the others (the software events count on any machine) */              \
    X(EVENTS_NO_PMU_VM, ERROR, "events.no_pmu_vm", "events:s",                                     \
      "{events} not counted: no PMU in this virtual machine (the hypervisor exposes none); "      \
      "software events still count: give the guest a virtual PMU (QEMU/KVM: -cpu host,pmu=on) " \
      "or run on bare metal")                                                                     \
    X(EVENTS_NO_PMU, ERROR, "events.no_pmu", "events:s",                                           \
      "{events} not counted: the kernel has no PMU for them (no core PMU under "                  \
      "/sys/bus/event_source/devices); software events still count: a kernel built with this "   \
      "CPU's perf driver")                                                                        \
    X(EVENTS_PARANOID, ERROR, "events.paranoid", "events:s level:%.0f",                            \
      "{events} not counted: perf_event_paranoid is {level}: sysctl kernel.perf_event_paranoid=2, "\
      "or give the program CAP_PERFMON")                                                          \
    X(EVENTS_NOT_PERMITTED, ERROR, "events.not_permitted", "events:s level:%.0f errno:e",          \
      "{events} not counted: perf_event_open was refused ({errno}) although perf_event_paranoid " \
      "is {level}: a container without CAP_PERFMON or a seccomp policy forbids it: run with "    \
      "CAP_PERFMON (docker run --cap-add PERFMON) and a seccomp profile allowing perf_event_open")\
    X(EVENTS_UNKNOWN, ERROR, "events.unknown", "events:s",                                         \
      "{events}: unknown event name: perf's generic names (cycles, instructions, branches, "      \
      "branch-misses, cache-references, cache-misses, task-clock, page-faults, "                  \
      "context-switches, cpu-migrations, ...), rHEX, or PMU/EVENT/ as the kernel lists them in "  \
      "/sys/bus/event_source/devices/*/events/")                                                  \
    X(EVENTS_UNSUPPORTED, ERROR, "events.unsupported", "events:s errno:e",                         \
      "{events} not counted: perf_event_open refused them ({errno}): this PMU does not count "    \
      "them, or not together with the others")                                                    \
    X(EVENTS_MULTIPLEXED, NOTE, "events.multiplexed", "percent:%.1f",                              \
      "the event counters were on the PMU {percent}% of the time (it had too few counters for "   \
      "all of them, or other programs used it): their figures are scaled up; ask for fewer")      \
    /* ---- two benchmarks in turns (src/runner/paired.c) */                                   \
    X(PAIRED_SELF, WARNING, "paired.self", "name:s",                                               \
      "{name} is compared with itself: an A/A comparison, which should read indistinguishable")   \
    /* ---- two result files compared (src/analysis/compare.c) */                              \
    X(CMP_TOOLS_DIFFER, WARNING, "compare.tools_differ", "old:s new:s",                            \
      "the files come from different tools (old: {old}, new: {new}): only ns can be compared")    \
    X(CMP_HOSTS_DIFFER, WARNING, "compare.hosts_differ", "old:s new:s",                            \
      "different machines: old ran on host '{old}', new on '{new}'")                               \
    X(CMP_CPUS_DIFFER, WARNING, "compare.cpus_differ", "old:s new:s",                              \
      "different CPUs: old {old}, new {new}")                                                     \
    X(CMP_TSC_DIFFER, WARNING, "compare.tsc_differ", "old_mhz:%.3f new_mhz:%.3f",                  \
      "different TSC rates (old {old_mhz} MHz, new {new_mhz} MHz): ticks are not comparable, "    \
      "core cycles are")                                                                          \
    X(CMP_METHODS_DIFFER, WARNING, "compare.methods_differ", "old:s new:s",                        \
      "different clock methods (old {old}, new {new}): their windows differ")                     \
    X(CMP_MODES_DIFFER, WARNING, "compare.modes_differ", "old:s new:s",                            \
      "different modes (old {old}, new {new}): latency and throughput measure different things")  \
    X(CMP_VERSIONS_DIFFER, WARNING, "compare.versions_differ", "old:s new:s",                      \
      "different tickscope versions (old {old}, new {new})")                                      \
    X(CMP_DEBUG_BUILD, WARNING, "compare.debug_build", "side:s",                                   \
      "a benchmark library built for debugging wrote the {side} file: its figures are suspect")   \
    X(CMP_TOO_FEW_RUNS, WARNING, "compare.too_few_runs", "benchmarks:%.0f",                        \
      "{benchmarks} benchmark(s) have too few runs for a test across runs: a rank test needs 4 "  \
      "and 4 (or 3 and 5) to reach p < 0.05, and a single run's interval is within-run only; "    \
      "measure with --repetitions 5 or --processes 5 or more a side")                             \
    /* ---- tickscope asm (src/asm/) */                                                         \
    X(ASM_CHAIN_UNUSED, WARNING, "asm.chain_unused", "",                                           \
      "--chain has no effect: the snippet has no {r}, {x} or {y} to put the register in")        \
    X(ASM_SAME_COPIES, NOTE, "asm.same_copies", "",                                                \
      "throughput: every copy is the same code; if it writes a register it reads, the copies "   \
      "form a chain and this is its latency (write {r} or {x} for a register that changes from "  \
      "copy to copy)")                                                                            \
    X(ASM_NOT_LINEAR, WARNING, "asm.not_linear", "r2:%.4f",                                        \
      "the unrolls do not lie on a line (r2 {r2}, below 0.99): the machine was busy, or the "     \
      "snippet's cost depends on how often it ran; give it more --budget")                        \
    X(ASM_NO_DISASM, NOTE, "asm.no_disasm", "why:s",                                               \
      "the code as it ran could not be disassembled: {why}")                                      \
    /* ---- tickscope sys (src/sys/): a row measured through the benchmark runner carries the */ \
    /* runner's codes; these are sys's own */                                                   \
    X(SYS_INTERVAL_WIDE, WARNING, "sys.interval_wide", "percent:%.1f",                             \
      "the 95% interval is +-{percent}% of the figure (over 5%): give it more time (--time) or "  \
      "quiet the machine")                                                                        \
    X(SYS_DISCARDED, WARNING, "sys.discarded", "percent:%.1f migrated:%.0f backwards:%.0f",        \
      "{percent}% of the windows were discarded ({migrated} changed CPU, {backwards} went "       \
      "backwards)")                                                                               \
    X(SYS_FEW_WINDOWS, WARNING, "sys.few_windows", "windows:%.0f",                                 \
      "only {windows} windows fitted in the time budget: raise --time")                           \
    X(SYS_MODES_DISAGREE, WARNING, "sys.modes_disagree", "unit:s fenced:%.2f stream:%.2f",         \
      "one fenced execution ({fenced} {unit}) and the same work in a stream ({stream} a "         \
      "repetition) disagree: its work overlaps from one execution to the next, or the run was "   \
      "disturbed")                                                                                \
    X(SYS_FAULTS_MINOR, WARNING, "sys.faults_minor", "faults:%.0f windows:%.0f",                   \
      "only {faults} major faults for {windows} windows: the file system kept the page in "       \
      "memory (tmpfs?), so most were minor")                                                      \
    X(SYS_LEVEL_NO_KNEE, WARNING, "sys.level_no_knee", "kib:%.0f",                                 \
      "the curve shows no level ending near the {kib} KiB /sys reports (no knee within one "      \
      "step): this working set may already be served from further out")                          \
    X(SYS_LEVEL_ELSEWHERE, WARNING, "sys.level_elsewhere",                                         \
      "kib:%.0f knee_kib:%.0f at:%.1f next:%.1f next_kib:%.0f at_huge:%.1f next_huge:%.1f",       \
      "no knee near the {kib} KiB /sys reports: the curve's level ends at {knee_kib} KiB ({at} "  \
      "core cycles there, {next} at {next_kib} KiB; over huge pages {at_huge} and {next_huge}), " \
      "so this row is taken inside that")                                                         \
    X(SYS_BELOW_GAP, WARNING, "sys.below_gap", "ticks:%.3f gap:%.3f",                              \
      "below the harness gap: its windows read {ticks} ticks over empty ones, less than the "     \
      "{gap} ticks the fences add around any work")                                               \
    X(SYS_ZERO, WARNING, "sys.zero", "ticks:%.3f lo:%.3f hi:%.3f",                                 \
      "indistinguishable from zero ({ticks} ticks, interval [{lo}, {hi}]): too small to see here")\
    X(SYS_NO_CACHE_SIZES, NOTE, "sys.no_cache_sizes", "",                                          \
      "no cache sizes in /sys: the curve goes to 128 MiB and the levels are the curve's alone")   \
    X(SYS_MEMORY_SHORT, ERROR, "sys.memory_short", "mib:%.0f buffers_mib:%.0f free_mib:%.0f",      \
      "a {mib} MiB working set (two buffers of it, {buffers_mib} MiB) is more than the "          \
      "{free_mib} MiB of free memory: refused")                                                   \
    X(SYS_HUGE_NO_MEMORY, NOTE, "sys.huge_no_memory", "",                                          \
      "no memory for the huge-page buffer: the curve is small pages only")                        \
    X(SYS_HUGE_REFUSED, NOTE, "sys.huge_refused", "",                                              \
      "transparent huge pages refused (see /sys/kernel/mm/transparent_hugepage/enabled): the "    \
      "curve is small pages only")                                                                \
    X(SYS_HUGE_BACKED, NOTE, "sys.huge_backed", "mib:%.0f of_mib:%.0f",                            \
      "huge pages: the kernel backed {mib} of {of_mib} MiB with 2 MiB pages")                     \
    X(SYS_NO_FAULT_PAGE, NOTE, "sys.no_fault_page", "errno:e",                                     \
      "no page to fault in: mmap failed ({errno})")                                               \
    X(SYS_NO_FAULT_FILE, NOTE, "sys.no_fault_file", "",                                            \
      "no file to fault in (/var/tmp, $TMPDIR): the file faults are left out")                    \
    X(SYS_PIN_REFUSED, NOTE, "sys.pin_refused", "cpu:%.0f errno:e row:s",                          \
      "could not pin to CPU {cpu} ({errno}): {row} measured unpinned")                            \
    X(SYS_PARTNER_UNPINNED, NOTE, "sys.partner_unpinned", "row:s",                                 \
      "the partner of {row} could not pin itself: it ran unpinned")                               \
    X(SYS_NO_SHARED_PAGE, NOTE, "sys.no_shared_page", "errno:e",                                   \
      "no shared page for the ping-pong: {errno}")
/* clang-format on */

enum tks_diag_code {
#define TKS__DIAG_ENUM(name, sev, id, values, text) TKS_DIAG_##name,
    TKS_DIAG_LIST(TKS__DIAG_ENUM)
#undef TKS__DIAG_ENUM
    TKS_DIAG_COUNT
};

#define TKS_DIAG_VALUES_MAX 8

/* One value of a diagnostic: a number, or a name (str != NULL, owned by the diagnostic). */
typedef struct tks_diag_value {
    double num;
    char *str;
} tks_diag_value;

typedef struct tks_diag {
    enum tks_diag_code code;
    size_t n_values;                          /* as many as the list names for the code */
    tks_diag_value values[TKS_DIAG_VALUES_MAX];
} tks_diag;

/* The diagnostics of one result, in the order they were found (owned; tks_diags_free). */
typedef struct tks_diags {
    tks_diag *items;
    size_t n, cap;
} tks_diags;

/* What the list says of a code; NULL for a code outside it. */
typedef struct tks_diag_info {
    const char *id;
    enum tks_severity severity;
    const char *values;   /* "name:kind name:kind" */
    const char *text;     /* the template */
} tks_diag_info;

TKS_API const tks_diag_info *tks_diag_info_of(enum tks_diag_code code);
/* The code whose id this is, or -1. */
TKS_API int tks_diag_code_from_id(const char *id);
/* "note", "warning", "error". */
TKS_API const char *tks_severity_name(enum tks_severity s);
/* The value named so ("ticks"): its number (NaN for a name or a missing value). */
TKS_API double tks_diag_number(const tks_diag *d, const char *name);
/* The message, rendered from the code's template: allocated (free it), NULL when out of memory. */
TKS_API char *tks_diag_message(const tks_diag *d);
/* Nonzero when ds holds the code. */
TKS_API int tks_diags_has(const tks_diags *ds, enum tks_diag_code code);
TKS_API void tks_diags_free(tks_diags *ds);

#ifdef __cplusplus
}
#endif
#endif /* TICKSCOPE_DIAG_H */
