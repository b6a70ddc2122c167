/* SPDX-License-Identifier: MIT */
/* tickscope.h: the public API of libtickscope, one header per topic:
 *   tickscope/clock.h     the clock reads and THE list of methods (freestanding, no libc)
 *   tickscope/common.h    version, error codes, output formats
 *   tickscope/diag.h      diagnostics with codes: THE list of warnings and notes
 *   tickscope/stats.h     ensemble statistics, estimates, fits, resolution (pure functions)
 *   tickscope/method.h    CPU features, method names and the policy for choosing one
 *   tickscope/sample.h    taking samples (user space or the kernel module)
 *   tickscope/platform.h  what the machine is (TSC rate, quantum, core clock, environment)
 *   tickscope/analysis.h  validate (which method?) and resolution (how small a difference?)
 *   tickscope/bench.h     benchmarks of your own code
 *   tickscope/paired.h    two benchmarks measured in turns: is B faster than A?
 *   tickscope/region.h    regions inside an application
 *   tickscope/sys.h       the machine's costs: cpu, os and mem suites (tickscope sys)
 * Not included here: tickscope/iaperf.h (the IAPerf article's macros) and tickscope/kmod.h (the
 * kernel module's protocol). */
#ifndef TICKSCOPE_H
#define TICKSCOPE_H

#include "tickscope/clock.h"
#include "tickscope/common.h"
#include "tickscope/diag.h"
#include "tickscope/stats.h"
#include "tickscope/method.h"
#include "tickscope/sample.h"
#include "tickscope/platform.h"
#include "tickscope/analysis.h"
#include "tickscope/asm.h"
#include "tickscope/bench.h"
#include "tickscope/paired.h"
#include "tickscope/region.h"
#include "tickscope/sys.h"

#endif
