/* SPDX-License-Identifier: MIT */
/* defaults.c: the runner's options as they are before anything is said (tks_options_init):
 * what tks_run_benchmark's callers start from, tks_main's parser and tickscope sys alike. */
#include <string.h>

#include "tickscope/bench.h"

void tks_options_init(tks_options *o)
{
    memset(o, 0, sizeof *o);
    o->method = -1;
    o->mode = TKS_MODE_LATENCY;
    o->min_time = 0.2;
    o->repetitions = 1;
    o->pin_cpu = -1;
    o->format = TKS_FORMAT_CONSOLE;
    o->report_file_format = TKS_FORMAT_JSON;
    o->compare_threshold = 0.01;
    o->color = -1; /* Google Benchmark's --benchmark_color=auto */
}
