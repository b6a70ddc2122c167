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
 * The machine's codes (env.*, platform.*) are the list's last lines, in tickscope/diag_machine.h.
 * A new diagnostic is one line here and one call where it is found (docs/ARCHITECTURE.md). */
#ifndef TICKSCOPE_DIAG_H
#define TICKSCOPE_DIAG_H

#include <stddef.h>

#include "tickscope/common.h"
#include "tickscope/diag_machine.h"

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
    X(BENCH_UNDER_CYCLE, WARNING, "bench.under_cycle", "cycles:%.2f lo:%.2f hi:%.2f",          \
      "under one core cycle ({cycles}, interval [{lo}, {hi}]): less than any dependent "         \
      "instruction takes, below what latency mode resolves here (optimised away?); check with " \
      "--mode throughput")                                                                        \
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
    X(BENCH_HARNESS_KEPT, WARNING, "bench.harness_kept", "",                                      \
      "latency mode could not take the fences' harness out of this figure: no reference chain "  \
      "could be fitted in this run and the block ran twice too few times for its own "          \
      "correction, so the figure holds what the fences add around work beyond an empty window " \
      "(a few core cycles, either way); give it more time (--min-time) or use --mode throughput") \
    /* the core-cycle rate a figure was converted at, when it is not one rate of this run */    \
    X(BENCH_RATE_CALIBRATED, NOTE, "bench.rate_calibrated", "rate:%.3f",                           \
      "core cycles at this boot's calibrated rate ({rate} core cycles per tick): no reference "   \
      "chain could be fitted in this run, so a core clock that moved since is not seen")         \
    X(BENCH_RATE_MIXED, WARNING, "bench.rate_mixed", "implied:%.3f rate:%.3f",                     \
      "the core-cycle figure implies {implied} core cycles per tick where the run's reference "   \
      "chain read {rate}: its windows were converted at the rates measured around them, which "  \
      "moved during the run (a busy machine, a neighbour on the core); compare ticks or ns, or "  \
      "run it again")                                                                             \
    /* the add check (src/stats/add_check_fit.h): does the reference run one add a cycle? (the */ \
    /* benchmarks' and asm's reference chains) */                                            \
    X(CORE_ADD_CHAIN_SLOW, NOTE, "core.add_chain_slow",                                          \
      "cycles:%.4f mul:%.3f fp:%.3f mlat:%.0f flat:%.0f",                                         \
      "the reference's dependent adds took {cycles} core cycles each: dependent multiplies and "  \
      "floating-point adds timed beside them read {mul} and {fp} adds where whole numbers of "    \
      "cycles ({mlat} and {flat}) are due, so core cycles are converted at the rate those two "   \
      "chains give (one-cycle chains lose cycles to a busy neighbour on the core, such as the "   \
      "host's other hyperthread; a chain of such instructions measures that much over its count, " \
      "and a benchmark's interval in latency mode reaches down as far, to the cost on a core of " \
      "its own)")                                                                                 \
    X(CORE_ADD_CHAIN_UNCHECKED, WARNING, "core.add_chain_unchecked", "mul:%.3f fp:%.3f",         \
      "the check of the reference's adds failed: dependent multiplies read {mul} adds and "       \
      "floating-point adds {fp}, which disagree on what one add cost (or put it over 5% from "   \
      "one cycle); core cycles assume one add a cycle and may be off as much; run it again")    \
    X(CORE_ADD_CHAIN_UNREAD, WARNING, "core.add_chain_unread", "mul:%.3f fp:%.3f",               \
      "the check of the reference's adds could not be read: dependent multiplies read {mul} "    \
      "adds and floating-point adds {fp}, not both near a whole number of adds as latencies "   \
      "are (another thread sharing the core, or a disturbed run); core cycles assume one add a " \
      "cycle, unconfirmed, and may be off by as much as those chains are off a whole number")   \
    /* one process's interval against a second, shorter process (src/runner/next_process.c) */ \
    X(BENCH_WITHIN_PROCESS, WARNING, "bench.within_process",                                       \
      "unit:s here:%.2f next:%.2f percent:%+.1f",                                                  \
      "a second, shorter process read {next} {unit} where this one read {here} ({percent}%, "     \
      "beyond both intervals): the figure moves from one process to the next (physical pages, "  \
      "address layout), so its interval holds within this process only; --processes N gives "   \
      "the interval the next process falls in")                                                   \
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
    X(CMP_ONE_PROCESS, WARNING, "compare.one_process", "benchmarks:%.0f",                          \
      "{benchmarks} benchmark(s) were tested on repetitions of one process: the test sees how "   \
      "repetitions vary within a process, not how processes do, so a process that ran slow "     \
      "throughout reads as a change; for a gate, measure each side with --processes 5 or more")  \
    X(CMP_GATE_ASSUMED, WARNING, "compare.gate_assumed_spread",                                    \
      "benchmarks:%.0f cv:%.2f failed:%.0f",                                                       \
      "--fail-on-regression on {benchmarks} benchmark(s) with too few runs for a test: each is "   \
      "gated on its runs' own intervals and spread plus an assumed spread between processes of "  \
      "{cv}% of the figure a process (as measured on hosted CI runners; docs/compare.md), the "   \
      "interval marked ~; {failed} lie beyond the gate even so and fail it, the others are NOT "  \
      "TESTED")                                                                                   \
    X(CMP_NOT_TESTED, ERROR, "compare.not_tested", "benchmarks:%.0f gate:%.2f",                    \
      "{benchmarks} benchmark(s) NOT TESTED against the +{gate}% gate: too few runs for a test, "  \
      "and a change their runs and the assumed spread can explain; exit status 3 unless a "      \
      "regression fails the gate; a test needs 4 runs a side (--processes 4 for tickscope's "    \
      "files, --benchmark_repetitions=4 for Google Benchmark's)")                                 \
    X(CMP_COUNTER_ONE_SIDE, WARNING, "compare.counter_one_side",                                   \
      "name:s counter:s has:s why:s",                                                              \
      "{name}: {counter} is in the {has} file only (the other {why}): not compared")               \
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
    X(SYS_CURVE_RATE_MIXED, WARNING, "sys.curve_rate_mixed", "kib:%.0f implied:%.3f rate:%.3f",    \
      "the curve's core cycles at {kib} KiB imply {implied} core cycles per tick where its "      \
      "run's reference chain read {rate}: its windows were converted at rates that moved; read "  \
      "that point in ticks")                                                                      \
    X(SYS_WITHIN_RUN, NOTE, "sys.within_run", "",                                                  \
      "the intervals are this run's (the scatter of its windows): a second run of a row can "     \
      "read outside them, by 10% or more on a shared machine; run the suite again (or --only "   \
      "the rows that matter, several times) to see how far its rows move")                        \
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
      "no shared page for the ping-pong: {errno}")                                                 \
    /* a run held to a time budget (--quick: src/sys/budget.c) and its working sets (mem_plan.c) */ \
    X(SYS_TIME_LEFT_OUT, WARNING, "sys.time_left_out", "rows:%.0f budget:%.1f ids:s",             \
      "left out, not measured: {ids} ({rows} in all): the suite's {budget} s of the run's time "  \
      "budget ran out before them; measure them with --only, or without --quick")                \
    X(SYS_TIME_CUT, WARNING, "sys.time_cut", "got:%.3f asked:%.3f",                                \
      "sampled for {got} s of the {asked} s it would have had: cut short to hold the run's time " \
      "budget, so its interval is wider than a full run's")                                       \
    X(SYS_CURVE_CUT, WARNING, "sys.curve_cut", "kib:%.0f planned_kib:%.0f",                        \
      "the curve stops at {kib} KiB of the {planned_kib} KiB planned: the suite's share of the "  \
      "time budget ran out (lat_ram, lat_ram_huge and the level rows past it are left out)")     \
    X(SYS_QUICK_CAPPED, NOTE, "sys.quick_capped", "mib:%.0f full_mib:%.0f",                        \
      "--quick: the largest working set is {mib} MiB, not the {full_mib} MiB of a full run (4x "  \
      "the last-level cache): linking and touching it would take most of the run")               \
    X(SYS_QUICK_WITHIN_CACHES, WARNING, "sys.quick_within_caches", "kib:%.0f llc_kib:%.0f",        \
      "not beyond the caches: --quick's largest working set ({kib} KiB) fits in the {llc_kib} "   \
      "KiB last-level cache /sys declares; run without --quick (or with --max-set) for memory")  \
    /* ---- what a sys row holds (its note: how it was measured, what it includes) */              \
    X(SYS_ROW_OVERHEAD, NOTE, "sys.row.overhead", "",                                              \
      "the empty window of the clock method, as validate measures it: what every other row "       \
      "has had subtracted")                                                                        \
    X(SYS_ROW_LOOP, NOTE, "sys.row.loop", "",                                                      \
      "the slope of an empty block repeated k times: the repetition loop's decrement and "         \
      "branch")                                                                                    \
    X(SYS_ROW_CALL, NOTE, "sys.row.call", "",                                                      \
      "one call per window: argument set-up, call, the callee's ret")                              \
    X(SYS_ROW_CALL_STACK, NOTE, "sys.row.call_stack", "",                                          \
      "one call per window: argument set-up, call, the callee's ret, the stack slot and its "      \
      "release")                                                                                   \
    X(SYS_ROW_CALL_INDIRECT, NOTE, "sys.row.call_indirect", "",                                    \
      "through a function pointer, always the same target (predicted): compare with call_0")       \
    X(SYS_ROW_BRANCH_PREDICTED, NOTE, "sys.row.branch_predicted", "",                              \
      "throughput slope; the branch is predicted every time")                                      \
    X(SYS_ROW_BRANCH_RANDOM, NOTE, "sys.row.branch_random", "",                                    \
      "throughput slope; taken on the generator's low bit, so mispredicted about half the "        \
      "time")                                                                                      \
    X(SYS_ROW_BRANCH_MISS, NOTE, "sys.row.branch_miss", "",                                        \
      "2 x (branch_random - branch_predicted): half the random branches miss")                     \
    X(SYS_ROW_GETPID, NOTE, "sys.row.getpid", "",                                                  \
      "syscall(SYS_getpid): into the kernel and back, no C library cache")                         \
    X(SYS_ROW_CLOCK_GETTIME, NOTE, "sys.row.clock_gettime", "",                                    \
      "answered in user space by the vDSO: no kernel entry")                                       \
    X(SYS_ROW_SYSCALL_ENTRY, NOTE, "sys.row.syscall_entry", "",                                    \
      "getpid - clock_gettime: a trip into the kernel, less the vDSO's clock read")                \
    X(SYS_ROW_GETPPID, NOTE, "sys.row.getppid", "",                                                \
      "getppid(), alone between the fences: its latency")                                          \
    X(SYS_ROW_GETPPID_STREAM, NOTE, "sys.row.getppid_stream", "",                                  \
      "getppid() k times a window, the slope over k: a call in a stream, as perf bench "           \
      "syscall basic's loop times it")                                                             \
    X(SYS_ROW_SCHED_YIELD, NOTE, "sys.row.sched_yield", "",                                        \
      "with nothing else runnable on this CPU it returns at once: a system call through the "      \
      "scheduler")                                                                                 \
    X(SYS_ROW_FAULT_MINOR, NOTE, "sys.row.fault_minor", "",                                        \
      "a store to a page unmapped just before (MADV_DONTNEED): the fault, a zeroed page, the "     \
      "TLB refill")                                                                                \
    X(SYS_ROW_FAULT_FILE, NOTE, "sys.row.fault_file", "",                                          \
      "a load from a file page unmapped just before, still in the page cache: no I/O, so "         \
      "Linux counts it minor")                                                                     \
    X(SYS_ROW_FAULT_MAJOR, NOTE, "sys.row.fault_major", "faults:%.0f",                             \
      "the page evicted (POSIX_FADV_DONTNEED) before each window; {faults} major faults "          \
      "counted over the run")                                                                      \
    X(SYS_ROW_FORK, NOTE, "sys.row.fork", "",                                                      \
      "the child exits at once; the parent's page tables are copied, and the child waits its "     \
      "turn for a CPU (on a busy machine, the run queue is in it)")                                \
    X(SYS_ROW_SPAWN, NOTE, "sys.row.posix_spawn", "",                                              \
      "vfork-style spawn, exec of /bin/true, its run and exit")                                    \
    X(SYS_ROW_THREAD, NOTE, "sys.row.thread", "",                                                  \
      "a thread that returns at once")                                                             \
    X(SYS_ROW_PIPE_SELF, NOTE, "sys.row.pipe_self", "",                                            \
      "what the ctxsw rows subtract twice")                                                        \
    X(SYS_ROW_PIPE_ONE_CPU, NOTE, "sys.row.pipe_one_cpu", "",                                      \
      "one round trip: two 1-byte writes, two reads, two switches")                                \
    X(SYS_ROW_PIPE_TWO_CPUS, NOTE, "sys.row.pipe_two_cpus", "",                                    \
      "one round trip: two 1-byte writes, two reads, two cross-CPU wake-ups")                      \
    X(SYS_ROW_PIPE_PLACED, NOTE, "sys.row.pipe_placed", "percent:%.0f",                            \
      "one round trip, placed by the scheduler (as perf bench sched pipe runs): both on one "      \
      "CPU in {percent}% of the windows")                                                          \
    X(SYS_ROW_FUTEX, NOTE, "sys.row.futex", "",                                                    \
      "half a round trip: a FUTEX_WAKE, a switch, and the wait's return (the futex calls are "     \
      "part of it)")                                                                               \
    X(SYS_ROW_CTXSW, NOTE, "sys.row.ctxsw", "",                                                    \
      "(round trip - 2 x pipe_self) / 2: the pipe's own write and read subtracted")                \
    X(SYS_ROW_LEVEL, NOTE, "sys.row.level", "kib:%.0f level_kib:%.0f level:%.0f",                  \
      "the curve at {kib} KiB, inside the {level_kib} KiB L{level} /sys reports")                  \
    X(SYS_ROW_LEVEL_CURVE, NOTE, "sys.row.level_curve", "kib:%.0f level_kib:%.0f level:%.0f",      \
      "the curve at {kib} KiB, inside the {level_kib} KiB L{level} the curve shows")               \
    X(SYS_ROW_LAT_RAM, NOTE, "sys.row.lat_ram", "kib:%.0f",                                        \
      "the curve's largest set, {kib} KiB, 4 KiB pages: cache and TLB misses")                     \
    X(SYS_ROW_LAT_RAM_HUGE, NOTE, "sys.row.lat_ram_huge", "kib:%.0f",                              \
      "the same {kib} KiB over transparent huge pages: fewer TLB misses")                          \
    X(SYS_ROW_TLB_PAGES, NOTE, "sys.row.tlb_pages", "lines:%.0f",                                  \
      "{lines} lines, each in its own 4 KiB page: a dTLB miss each, the line itself cached")       \
    X(SYS_ROW_TLB_PACKED, NOTE, "sys.row.tlb_packed", "lines:%.0f pages:%.0f",                     \
      "{lines} lines in {pages} pages, random order")                                              \
    X(SYS_ROW_TLB_MISS, NOTE, "sys.row.tlb_miss", "",                                              \
      "tlb_pages - tlb_packed: the same loads, one page each")                                     \
    X(SYS_ROW_READ_BW, NOTE, "sys.row.read_bw", "",                                                \
      "one pass of 64-bit loads into four sums")                                                   \
    X(SYS_ROW_WRITE_BW, NOTE, "sys.row.write_bw", "",                                              \
      "one memset of the buffer (the C library's)")                                                \
    X(SYS_ROW_COPY_BW, NOTE, "sys.row.copy_bw", "",                                                \
      "one memcpy of half the buffer onto the other half: bytes copied per ns")                    \
    /* ---- why ours and perf bench's differ by more than 10% (--versus-perf) */                   \
    X(SYS_PERF_OURS_MISSING, NOTE, "sys.perf.ours_missing", "",                                    \
      "ours not measured in this run")                                                             \
    X(SYS_PERF_ONE_CPU, NOTE, "sys.perf.one_cpu", "perf_us:%.3g pinned_us:%.3g",                   \
      "placement: perf's figure is a one-CPU one (unpinned {perf_us} us, pinned to one CPU "       \
      "{pinned_us})")                                                                              \
    X(SYS_PERF_TWO_CPUS, NOTE, "sys.perf.two_cpus", "perf_us:%.3g ours_two_us:%.3g pinned_us:%.3g",\
      "placement: perf's figure is a two-CPU one (unpinned {perf_us} us, our two-CPU round "       \
      "trip {ours_two_us}; perf pinned to one CPU {pinned_us})")                                   \
    X(SYS_PERF_PLACEMENT_UNKNOWN, NOTE, "sys.perf.placement_unknown", "perf_us:%.3g pinned_us:%.3g ours_two_us:%.3g",\
      "perf unpinned {perf_us} us: neither its one-CPU figure {pinned_us} nor our two-CPU "        \
      "{ours_two_us}")                                                                             \
    X(SYS_PERF_OURS_SHARE, NOTE, "sys.perf.ours_share", "percent:%.0f one_us:%.3g two_us:%.3g",    \
      "ours had both on one CPU in {percent}% of its windows (pinned: one CPU {one_us} us, "       \
      "two CPUs {two_us})")                                                                        \
    X(SYS_PERF_OFF_CPU, NOTE, "sys.perf.off_cpu", "percent:%.0f on_cpu:%.3g unit:s ours_percent:%+.1f",\
      "perf was on a CPU for {percent}% of its wall time (its rusage): on a CPU it took "          \
      "{on_cpu} {unit}, ours {ours_percent}% from that")                                           \
    X(SYS_PERF_EVERY_WINDOW, NOTE, "sys.perf.every_window", "ours:%.3g percent:%+.1f",             \
      "over every window (interrupts and stolen time in, as in perf's wall time) ours is "         \
      "{ours}, {percent}%")                                                                        \
    X(SYS_PERF_SPREAD, NOTE, "sys.perf.spread", "runs:%.0f lo:%.3g hi:%.3g percent:%.0f",          \
      "perf's own {runs} runs ranged {lo} to {hi} ({percent}% apart): the load moved that "        \
      "much")                                                                                      \
    X(SYS_PERF_UNEXPLAINED, WARNING, "sys.perf.unexplained", "runs:%.0f percent:%.0f every_window:%+.0f",\
      "not explained by what this run measured (perf's {runs} runs within {percent}%, every "      \
      "window counted {every_window}%)")                                                           \
    /* ---- tickscope validate's recommendation (src/analysis/validate.c) */                       \
    X(VALIDATE_ERGODIC_BEST, NOTE, "validate.ergodic_best", "method:s spread:%g overhead:%.0f",    \
      "{method} fences both ends of the window and is ergodic here (all ensemble minimums "        \
      "within {spread} tick(s) of each other, variances stable), with the lowest overhead and "    \
      "variance of those that are; overhead {overhead} ticks")                                     \
    X(VALIDATE_ERGODIC_ONLY, NOTE, "validate.ergodic_only", "method:s spread:%g overhead:%.0f",    \
      "{method} fences both ends of the window and is ergodic here (all ensemble minimums "        \
      "within {spread} tick(s) of each other, variances stable); overhead {overhead} ticks "       \
      "(the only eligible method measured)")                                                       \
    X(VALIDATE_NOT_ERGODIC, WARNING, "validate.not_ergodic", "method:s overhead:%.0f spread:%g",   \
      "{method} fences both ends of the window and has the lowest overhead ({overhead} "           \
      "ticks), but no eligible method was ergodic here: ensemble minimums spread over "            \
      "{spread} ticks. Pin to a quiet CPU (--pin), try --fifo, and treat single results with "     \
      "caution")                                                                                   \
    X(VALIDATE_NONE, ERROR, "validate.none", "",                                                   \
      "no method that fences both ends of the window could be measured here")                       \
    TKS_DIAG_LIST_MACHINE(X)
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
