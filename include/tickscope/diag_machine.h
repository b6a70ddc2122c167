/* SPDX-License-Identifier: MIT */
/* tickscope/diag_machine.h: the machine's part of THE diagnostics list (tickscope/diag.h includes
 * it at the end of TKS_DIAG_LIST; the same X(NAME, severity, "id", "values", "template") lines):
 * the environment checks' findings (env.*) and their remedies (env.*.fix), the TSC rate's reason,
 * the core clock's counter and the calibration cache (platform.*). */
#ifndef TICKSCOPE_DIAG_MACHINE_H
#define TICKSCOPE_DIAG_MACHINE_H

/* clang-format off */
#define TKS_DIAG_LIST_MACHINE(X)                                                                   \
    /* ---- an environment check's finding (src/platform/env_*.c) and what to do (.fix) */        \
    X(ENV_UNREADABLE, NOTE, "env.unreadable", "check:s what:s path:s",                             \
      "{check} unknown (cannot {what} {path})")                                                    \
    X(ENV_UNREADABLE_FIX, NOTE, "env.unreadable.fix", "path:s",                                    \
      "check by hand: ls -l {path} (a container may hide or mask /proc and /sys)")                 \
    X(ENV_HYPERVISOR, WARNING, "env.hypervisor", "name:s",                                         \
      "running under a hypervisor ({name}): CPUID traps, the host may scale or offset the TSC, "   \
      "and other guests steal time")                                                               \
    X(ENV_HYPERVISOR_FIX, NOTE, "env.hypervisor.fix", "",                                          \
      "prefer --method lfence or rdtscp (not cpuid); compare with bare metal before trusting "     \
      "differences under 10 cycles")                                                               \
    X(ENV_NO_HYPERVISOR, NOTE, "env.no_hypervisor", "",                                            \
      "no hypervisor (CPUID hypervisor bit clear)")                                                \
    X(ENV_HYPERVISOR_UNKNOWN, NOTE, "env.hypervisor_unknown", "",                                  \
      "hypervisor unknown (CPUID not read, no /sys/hypervisor/type)")                              \
    X(ENV_HYPERVISOR_UNKNOWN_FIX, NOTE, "env.hypervisor_unknown.fix", "",                          \
      "check with: systemd-detect-virt, or grep -wm1 hypervisor /proc/cpuinfo")                    \
    X(ENV_INVARIANT_TSC, NOTE, "env.invariant_tsc", "",                                            \
      "invariant TSC: it ticks at one rate through frequency changes and sleep states")            \
    X(ENV_NO_INVARIANT_TSC, WARNING, "env.no_invariant_tsc", "",                                   \
      "no invariant TSC: ticks are not time (the TSC rate follows frequency changes / stops in "   \
      "sleep states)")                                                                             \
    X(ENV_NO_INVARIANT_TSC_FIX, NOTE, "env.no_invariant_tsc.fix", "",                              \
      "fix the frequency (cpupower frequency-set -g performance), keep the CPU awake (boot with "  \
      "processor.max_cstate=1), and time long intervals with clock_gettime")                       \
    X(ENV_INVARIANT_TSC_UNKNOWN, NOTE, "env.invariant_tsc_unknown", "",                            \
      "invariant TSC unknown (CPUID leaf 0x80000007 not read)")                                    \
    X(ENV_INVARIANT_TSC_UNKNOWN_FIX, NOTE, "env.invariant_tsc_unknown.fix", "",                    \
      "check with: grep -wo -e constant_tsc -e nonstop_tsc /proc/cpuinfo | sort -u (both "         \
      "present: invariant)")                                                                       \
    X(ENV_CLOCKSOURCE, NOTE, "env.clocksource", "current:s", "clocksource {current}")              \
    X(ENV_CLOCKSOURCES_AVAILABLE, NOTE, "env.clocksources_available", "available:s",               \
      "available: {available}")                                                                   \
    X(ENV_CLOCKSOURCE_UNSTABLE, WARNING, "env.clocksource_unstable",                               \
      "current:s want:s available:s",                                                              \
      "clocksource {current}: the kernel found the TSC unstable ({want} is not in available "      \
      "'{available}'); clock_gettime is slower and its rate is not the TSC's")                     \
    X(ENV_CLOCKSOURCE_UNSTABLE_FIX, NOTE, "env.clocksource_unstable.fix", "",                      \
      "check dmesg for 'TSC unstable' (dmesg | grep -i tsc); boot with tsc=reliable only if you "  \
      "know it is")                                                                                \
    X(ENV_CLOCKSOURCE_OTHER, WARNING, "env.clocksource_other", "current:s want:s",                 \
      "clocksource {current}, not {want}: clock_gettime is slower and its rate is not the TSC's")  \
    X(ENV_CLOCKSOURCE_OTHER_FIX, NOTE, "env.clocksource_other.fix", "want:s",                      \
      "echo {want} > /sys/devices/system/clocksource/clocksource0/current_clocksource")            \
    X(ENV_CLOCKSOURCE_UNLISTED_FIX, NOTE, "env.clocksource_unlisted.fix", "",                      \
      "(if available_clocksource lists it)")                                                       \
    X(ENV_NO_CPUFREQ, NOTE, "env.no_cpufreq", "cpu:%.0f",                                          \
      "no cpufreq driver for cpu{cpu} (usual in a VM): the frequency is set by the host or "       \
      "firmware")                                                                                  \
    X(ENV_NO_CPUFREQ_FIX, NOTE, "env.no_cpufreq.fix", "",                                          \
      "in a VM ask the host to fix the frequency; on bare metal set it in the BIOS, or load a "    \
      "cpufreq driver (intel_pstate, acpi-cpufreq) and rerun")                                     \
    X(ENV_GOVERNOR_PERFORMANCE, NOTE, "env.governor_performance", "cpu:%.0f",                      \
      "governor 'performance' on cpu{cpu}")                                                        \
    X(ENV_GOVERNOR, WARNING, "env.governor", "governor:s cpu:%.0f",                                \
      "governor '{governor}' on cpu{cpu}")                                                         \
    X(ENV_GOVERNOR_FIX, NOTE, "env.governor.fix", "cpu:%.0f",                                      \
      "cpupower -c {cpu} frequency-set -g performance (or echo performance > "                     \
      "/sys/devices/system/cpu/cpu{cpu}/cpufreq/scaling_governor)")                                \
    X(ENV_FREQ_RANGE, NOTE, "env.frequency_range", "lo_mhz:%.0f hi_mhz:%.0f",                      \
      "frequency {lo_mhz}-{hi_mhz} MHz")                                                           \
    X(ENV_FREQ_HARDWARE, NOTE, "env.frequency_hardware", "lo_mhz:%.0f hi_mhz:%.0f",                \
      "hardware {lo_mhz}-{hi_mhz} MHz")                                                            \
    X(ENV_FREQ_HIDDEN, NOTE, "env.frequency_hidden", "cpu:%.0f",                                   \
      "frequency range of cpu{cpu} not visible (no cpufreq driver)")                               \
    X(ENV_FREQ_HIDDEN_FIX, NOTE, "env.frequency_hidden.fix", "",                                   \
      "see the governor check; the core clock below is measured, not read")                        \
    X(ENV_FREQ_FIXED, NOTE, "env.frequency_fixed", "cpu:%.0f mhz:%.0f",                            \
      "cpu{cpu} frequency fixed at {mhz} MHz")                                                     \
    X(ENV_FREQ_VARIES, WARNING, "env.frequency_varies", "cpu:%.0f lo_mhz:%.0f hi_mhz:%.0f",        \
      "cpu{cpu} frequency may vary between {lo_mhz} and {hi_mhz} MHz")                             \
    X(ENV_FREQ_VARIES_FIX, NOTE, "env.frequency_varies.fix", "cpu:%.0f mhz:%.0f",                  \
      "pin the frequency: cpupower -c {cpu} frequency-set -d {mhz}MHz -u {mhz}MHz")                \
    X(ENV_TURBO_ON, WARNING, "env.turbo_on", "switch:s value:%.0f",                                \
      "turbo boost on ({switch} {value}): the frequency rises above base when few cores are "      \
      "busy, and falls as the chip heats")                                                         \
    X(ENV_TURBO_ON_FIX, NOTE, "env.turbo_on.fix", "value:%.0f path:s", "echo {value} > {path}")    \
    X(ENV_TURBO_OFF, NOTE, "env.turbo_off", "switch:s value:%.0f",                                 \
      "turbo boost off ({switch} {value})")                                                        \
    X(ENV_NO_TURBO_CONTROL, NOTE, "env.no_turbo_control", "",                                      \
      "no turbo control exposed (usual in a VM)")                                                  \
    X(ENV_NO_TURBO_CONTROL_FIX, NOTE, "env.no_turbo_control.fix", "",                              \
      "in a VM ask the host to disable turbo; on bare metal disable it in the BIOS setup")         \
    X(ENV_SMT_ALONE, NOTE, "env.smt_alone", "cpu:%.0f siblings:s",                                 \
      "cpu{cpu} has its core to itself (thread siblings: {siblings})")                             \
    X(ENV_SMT_SHARED, WARNING, "env.smt_shared", "cpu:%.0f others:s",                              \
      "cpu{cpu} shares its core with CPU(s) {others} (SMT): work there slows this one")           \
    X(ENV_SMT_SHARED_FIX, NOTE, "env.smt_shared.fix", "others:s",                                  \
      "keep CPU(s) {others} idle, or disable SMT: echo off > /sys/devices/system/cpu/smt/control") \
    X(ENV_ISOLATED, NOTE, "env.isolated", "cpu:%.0f isolated:s nohz:s",                            \
      "cpu{cpu} is isolated and tickless (isolated {isolated}, nohz_full {nohz})")                 \
    X(ENV_ISOLATED_TICKING, NOTE, "env.isolated_ticking", "cpu:%.0f",                              \
      "cpu{cpu} is isolated but not tickless: the timer tick still interrupts it")                 \
    X(ENV_ISOLATED_TICKING_FIX, NOTE, "env.isolated_ticking.fix", "cpu:%.0f",                      \
      "add nohz_full={cpu} rcu_nocbs={cpu} to the kernel command line")                            \
    X(ENV_ISOLATED_ELSEWHERE, WARNING, "env.isolated_elsewhere", "isolated:s cpu:%.0f",            \
      "CPU(s) {isolated} isolated but measuring on cpu{cpu}")                                      \
    X(ENV_ISOLATED_ELSEWHERE_FIX, NOTE, "env.isolated_elsewhere.fix", "first:%.0f",                \
      "--pin {first} (an isolated CPU)")                                                           \
    X(ENV_TICKLESS_SHARED, NOTE, "env.tickless_shared", "cpu:%.0f",                                \
      "cpu{cpu} is tickless (nohz_full) but not isolated: the scheduler can run other tasks on "   \
      "it")                                                                                        \
    X(ENV_TICKLESS_SHARED_FIX, NOTE, "env.tickless_shared.fix", "cpu:%.0f",                        \
      "boot with isolcpus={cpu} as well and measure with --pin {cpu}")                             \
    X(ENV_NOT_ISOLATED, NOTE, "env.not_isolated", "cpu:%.0f",                                      \
      "cpu{cpu} is not isolated: the scheduler and timer ticks can interrupt it")                  \
    X(ENV_NOT_ISOLATED_FIX, NOTE, "env.not_isolated.fix", "cpu:%.0f",                              \
      "boot with isolcpus={cpu} nohz_full={cpu} rcu_nocbs={cpu} and measure with --pin {cpu}")     \
    X(ENV_CMDLINE_ISOLATION, NOTE, "env.cmdline_isolation", "words:s", "cmdline {words}")          \
    X(ENV_CMDLINE_NO_ISOLCPUS, NOTE, "env.cmdline_no_isolcpus", "",                                \
      "no isolcpus= on the kernel command line")                                                   \
    X(ENV_NMI_WATCHDOG_OFF, NOTE, "env.nmi_watchdog_off", "", "NMI watchdog off")                  \
    X(ENV_NMI_WATCHDOG, WARNING, "env.nmi_watchdog", "",                                           \
      "NMI watchdog on: a periodic non-maskable interrupt lands in some samples (and holds a "     \
      "performance counter)")                                                                      \
    X(ENV_NMI_WATCHDOG_FIX, NOTE, "env.nmi_watchdog.fix", "path:s",                                \
      "echo 0 > {path} (or sysctl kernel.nmi_watchdog=0)")                                         \
    X(ENV_NO_PMU, NOTE, "env.no_pmu", "",                                                          \
      "no hardware performance-counter PMU exposed (perf_event 'cpu' device missing): core "       \
      "cycles are estimated, not counted")                                                         \
    X(ENV_NO_PMU_FIX, NOTE, "env.no_pmu.fix", "",                                                  \
      "on a VM ask the host to expose the PMU (e.g. KVM -cpu host,pmu=on); on bare metal check "   \
      "the kernel has CONFIG_PERF_EVENTS and the CPU's PMU driver")                                \
    X(ENV_PARANOID_NO_RDPMC, WARNING, "env.paranoid_no_rdpmc", "level:%.0f",                       \
      "perf_event_paranoid {level} refuses counters to users, and user-space rdpmc disabled "      \
      "(rdpmc 0)")                                                                                 \
    X(ENV_PARANOID_NO_RDPMC_FIX, NOTE, "env.paranoid_no_rdpmc.fix", "rdpmc_path:s",                \
      "sysctl kernel.perf_event_paranoid=2; echo 1 > {rdpmc_path}")                                \
    X(ENV_PARANOID, WARNING, "env.paranoid", "level:%.0f",                                         \
      "perf_event_paranoid {level} refuses counters to users")                                     \
    X(ENV_PARANOID_FIX, NOTE, "env.paranoid.fix", "",                                              \
      "sysctl kernel.perf_event_paranoid=2 (or lower), or run with CAP_PERFMON")                   \
    X(ENV_NO_RDPMC, WARNING, "env.no_rdpmc", "level:%.0f",                                         \
      "user-space rdpmc disabled (rdpmc 0, perf_event_paranoid {level}): counters are read "       \
      "through a system call")                                                                     \
    X(ENV_NO_RDPMC_FIX, NOTE, "env.no_rdpmc.fix", "rdpmc_path:s", "echo 1 > {rdpmc_path}")         \
    X(ENV_COUNTERS_USABLE, NOTE, "env.counters_usable", "level:%.0f",                              \
      "core cycle counter usable (perf_event_paranoid {level})")                                   \
    X(ENV_RDPMC, NOTE, "env.rdpmc", "rdpmc:%.0f", "rdpmc {rdpmc}")                                 \
    X(ENV_RDPMC_UNREADABLE, NOTE, "env.rdpmc_unreadable", "", "rdpmc unreadable")                  \
    X(ENV_ASLR_OFF, NOTE, "env.aslr_off", "", "address-space randomisation off")                   \
    X(ENV_ASLR, NOTE, "env.aslr", "level:%.0f",                                                    \
      "address-space randomisation on ({level}): code and data alignment change between runs")     \
    X(ENV_ASLR_FIX, NOTE, "env.aslr.fix", "",                                                      \
      "compare runs under 'setarch -R' or sysctl kernel.randomize_va_space=0")                     \
    X(ENV_NO_OTHER_TASKS, NOTE, "env.no_other_tasks", "", "no other runnable tasks")               \
    X(ENV_OTHER_TASKS, WARNING, "env.other_tasks", "tasks:%.0f",                                   \
      "{tasks} other runnable task(s)")                                                            \
    X(ENV_OTHER_TASKS_FIX, NOTE, "env.other_tasks.fix", "",                                        \
      "measure on an idle machine (see top), or isolate a CPU and --pin to it")                    \
    X(ENV_LOAD_AVERAGE, NOTE, "env.load_average", "load:%.2f", "1-minute load average {load}")     \
    X(ENV_RT_UNTHROTTLED, NOTE, "env.rt_unthrottled", "", "real-time throttling off")              \
    X(ENV_RT_THROTTLED, NOTE, "env.rt_throttled", "runtime_us:%.0f period_us:%.0f",                \
      "SCHED_FIFO tasks limited to {runtime_us} of every {period_us} us")                          \
    X(ENV_RT_THROTTLED_FIX, NOTE, "env.rt_throttled.fix", "",                                      \
      "--fifo paces itself around it; or sysctl kernel.sched_rt_runtime_us=-1 (with care)")        \
    X(ENV_BUILD_ASAN, WARNING, "env.build_asan", "", "tickscope was built with AddressSanitizer")  \
    X(ENV_BUILD_ASAN_FIX, NOTE, "env.build_asan.fix", "",                                          \
      "use the plain build for measurements: cmake -DTKS_SANITIZE=OFF -DCMAKE_BUILD_TYPE=Release") \
    X(ENV_BUILD_UNOPTIMISED, WARNING, "env.build_unoptimised", "",                                 \
      "tickscope was built without optimisation")                                                  \
    X(ENV_BUILD_UNOPTIMISED_FIX, NOTE, "env.build_unoptimised.fix", "",                            \
      "rebuild with the default (Release) build: cmake -DCMAKE_BUILD_TYPE=Release")                \
    X(ENV_BUILD_OPTIMISED, NOTE, "env.build_optimised", "",                                        \
      "tickscope was built with optimisation")                                                     \
    X(ENV_BUILD_UNKNOWN, NOTE, "env.build_unknown", "", "build unknown (optimisation not reported)")\
    X(ENV_BUILD_UNKNOWN_FIX, NOTE, "env.build_unknown.fix", "",                                    \
      "pass tks_build_optimized() as optimized_build")                                             \
    /* ---- the platform's own checks (src/platform/platform.c) */                                \
    X(ENV_RATE_UNKNOWN, WARNING, "env.rate_unknown", "", "TSC rate unknown: no source gave one")   \
    X(ENV_RATE_UNKNOWN_FIX, NOTE, "env.rate_unknown.fix", "",                                      \
      "pass --tsc-hz HZ (e.g. from the kernel log: dmesg | grep tsc)")                             \
    X(ENV_RATE_DISAGREE, WARNING, "env.rate_disagree",                                             \
      "source:s mhz:%.6f chosen:s chosen_mhz:%.6f ppm:%.0f",                                       \
      "{source} says {mhz} MHz but the {chosen} rate is {chosen_mhz} MHz ({ppm} ppm apart)")       \
    X(ENV_RATE_DISAGREE_FIX, NOTE, "env.rate_disagree.fix", "chosen:s",                            \
      "the TSC may be scaled by a hypervisor or the declared figure is nominal; tickscope uses "   \
      "the {chosen} rate, pass --tsc-hz to choose another")                                        \
    X(ENV_RATE_AGREE, NOTE, "env.rate_agree", "mhz:%.6f source:s sources:%.0f",                    \
      "TSC rate {mhz} MHz ({source}); all {sources} sources agree")                                \
    X(ENV_RATE_ALONE, NOTE, "env.rate_alone", "mhz:%.6f source:s",                                 \
      "TSC rate {mhz} MHz ({source}); no other source to compare it with")                         \
    X(ENV_CORE_VARIED, WARNING, "env.core_varied", "percent:%.1f",                                 \
      "the core clock varied by {percent}% between rounds of the add chain")                       \
    X(ENV_CORE_VARIED_FIX, NOTE, "env.core_varied.fix", "",                                        \
      "the frequency is changing or the CPU is shared: fix the frequency (see governor, turbo) "   \
      "and run 'tickscope info --recalibrate' on an idle machine")                                 \
    X(ENV_CORE_DISAGREE, WARNING, "env.core_disagree", "counter:%.4f chain:%.4f",                  \
      "the cycle counter ({counter} cycles/tick) and the add chain ({chain}) disagree")            \
    X(ENV_CORE_DISAGREE_FIX, NOTE, "env.core_disagree.fix", "",                                    \
      "dependent adds may not retire one per cycle on this CPU; trust the counter")                \
    X(ENV_CORE_STEADY, NOTE, "env.core_steady", "percent:%.1f rounds:%.0f",                        \
      "core clock steady: {percent}% spread over {rounds} rounds")                                 \
    X(ENV_CORE_ADDS_HOLD, NOTE, "env.core_adds_hold", "mul:%.3f fp:%.3f mlat:%.0f flat:%.0f",     \
      "one add a core cycle: dependent multiplies and floating-point adds timed beside the chain " \
      "read {mul} and {fp} adds ({mlat} and {flat} due)")                                          \
    X(ENV_CORE_ADDS_SLOW, WARNING, "env.core_adds_slow",                                           \
      "cycles:%.4f mul:%.3f fp:%.3f mlat:%.0f flat:%.0f",                                         \
      "the chain's adds took {cycles} core cycles each: dependent multiplies and floating-point "  \
      "adds timed beside them read {mul} and {fp} adds where {mlat} and {flat} are due, so the "   \
      "core clock is given at the rate those two give (another thread shares the core)")           \
    X(ENV_CORE_ADDS_SLOW_FIX, NOTE, "env.core_adds_slow.fix", "",                                  \
      "instructions of one cycle lose cycles to that thread as the adds did: measure when it is "  \
      "gone (in a guest, the host's other hyperthread: ask for a core of your own)")               \
    X(ENV_CORE_ADDS_UNCHECKED, WARNING, "env.core_adds_unchecked", "mul:%.3f fp:%.3f",             \
      "the check of the chain's adds failed: dependent multiplies read {mul} adds and "           \
      "floating-point adds {fp}, which disagree on what one add cost (or put it over 5% from "    \
      "one cycle); the core clock assumes one add a cycle and may be off as much")                 \
    X(ENV_CORE_ADDS_UNCHECKED_FIX, NOTE, "env.core_adds_unchecked.fix", "",                        \
      "run it again on a quieter machine")                                                         \
    X(ENV_CPUID_COST, NOTE, "env.cpuid_cost", "ticks:%.0f", "one CPUID costs {ticks} ticks (median)")\
    X(ENV_CPUID_TRAPS, WARNING, "env.cpuid_traps", "ticks:%.0f",                                   \
      "one CPUID costs {ticks} ticks (median): it traps to the hypervisor")                        \
    X(ENV_CPUID_TRAPS_FIX, NOTE, "env.cpuid_traps.fix", "",                                        \
      "avoid the CPUID-fenced methods (cpuid, rdtscp) here; use lfence")                           \
    X(ENV_PIN_REFUSED, WARNING, "env.pin_refused", "cpu:%.0f errno:e",                             \
      "could not pin to CPU {cpu} ({errno}): the calibrations and the core clock were measured "   \
      "unpinned")                                                                                  \
    X(ENV_PIN_REFUSED_FIX, NOTE, "env.pin_refused.fix", "",                                        \
      "--pin a CPU this process may run on (taskset -cp $$ lists them)")                           \
    /* ---- why the TSC rate is the one chosen (tks_platform.hz_reason) */                        \
    X(PLATFORM_RATE_GIVEN, NOTE, "platform.rate.given", "", "given with --tsc-hz")                 \
    X(PLATFORM_RATE_MEASURED, NOTE, "platform.rate.measured", "ppm:%.2g",                          \
      "measured against CLOCK_MONOTONIC_RAW to +-{ppm} ppm, so tickscope's nanoseconds are the "  \
      "system clock's")                                                                            \
    X(PLATFORM_RATE_NOISY, NOTE, "platform.rate.noisy", "ppm:%.0f source:s",                       \
      "the measurement was too noisy (+-{ppm} ppm); {source} is the most direct declared rate")    \
    X(PLATFORM_RATE_UNMEASURED, NOTE, "platform.rate.unmeasured", "source:s",                      \
      "the rate could not be measured; {source} is the most direct declared rate")                 \
    X(PLATFORM_RATE_NONE, WARNING, "platform.rate.none", "",                                       \
      "no source gave a rate: results stay in ticks; pass --tsc-hz to convert")                    \
    /* ---- how the core clock's cycle counter was read, or why there is none (core.counter) */   \
    X(PLATFORM_COUNTER_REFUSED, NOTE, "platform.counter.refused", "errno:e",                       \
      "no hardware cycle counter: perf_event_open(cycles) failed: {errno}")                        \
    X(PLATFORM_COUNTER_SILENT, NOTE, "platform.counter.silent", "",                                \
      "no hardware cycle counter: the cycles event opened but did not count the chain")            \
    X(PLATFORM_COUNTER_READ, NOTE, "platform.counter.read", "why:s",                               \
      "read with read(): {why}")                                                                   \
    X(PLATFORM_COUNTER_RDPMC, NOTE, "platform.counter.rdpmc", "", "read with rdpmc")               \
    /* ---- the per-boot calibration cache (tks_platform.cache) */                                \
    X(PLATFORM_CACHE_HIT, NOTE, "platform.cache.hit", "",                                          \
      "from this boot's cache, the core clock measured now (--recalibrate measures all)")          \
    X(PLATFORM_CACHE_NO_DIR, NOTE, "platform.cache.no_dir", "",                                    \
      "not cached: no cache directory (TICKSCOPE_CACHE_DIR is empty, or no HOME)")                 \
    X(PLATFORM_CACHE_NO_BOOT, NOTE, "platform.cache.no_boot", "",                                  \
      "not cached: this boot cannot be identified (/proc/sys/kernel/random/boot_id)")              \
    X(PLATFORM_MEASURED, NOTE, "platform.measured", "", "measured")                                \
    X(PLATFORM_RECALIBRATED, NOTE, "platform.recalibrated", "", "measured (--recalibrate)")        \
    X(PLATFORM_CACHE_FOREIGN, NOTE, "platform.cache.foreign", "",                                  \
      "cache file ignored: not a tickscope calibration file")                                      \
    X(PLATFORM_CACHE_NEWER, NOTE, "platform.cache.newer", "",                                      \
      "cache file ignored: written by a newer tickscope, in a later format")                       \
    X(PLATFORM_CACHE_OLDER, NOTE, "platform.cache.older", "",                                      \
      "cache file ignored: an older format")                                                       \
    X(PLATFORM_CACHE_DAMAGED, NOTE, "platform.cache.damaged", "",                                  \
      "cache file ignored: damaged or cut short: its checksum does not match")                     \
    X(PLATFORM_CACHE_OTHER_BOOT, NOTE, "platform.cache.other_boot", "",                            \
      "cache file not used: measured on another boot, CPU or version")                             \
    X(PLATFORM_CACHE_UNREADABLE_LINE, NOTE, "platform.cache.unreadable_line", "",                  \
      "cache file ignored: a line this tickscope cannot read")                                     \
    X(PLATFORM_CACHE_BUSY_TASKS, NOTE, "platform.cache.busy_tasks", "tasks:%.0f",                  \
      "not cached: {tasks} other runnable task(s) while calibrating (/proc/stat procs_running)")    \
    X(PLATFORM_CACHE_BUSY_STEAL, NOTE, "platform.cache.busy_steal", "jiffies:%.0f",                \
      "not cached: the hypervisor stole {jiffies} jiffies of CPU time while calibrating "          \
      "(/proc/stat steal)")                                                                        \
    X(PLATFORM_CACHE_STORED, NOTE, "platform.cache.stored", "", "cached for this boot")            \
    X(PLATFORM_CACHE_UNWRITABLE, NOTE, "platform.cache.unwritable", "",                            \
      "could not write the cache")
/* clang-format on */

#endif /* TICKSCOPE_DIAG_MACHINE_H */
