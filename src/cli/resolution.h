/* resolution.h: the white paper's resolution test (3.3): one more dependent add per ensemble,
 * a straight line through the results, and the smallest step each estimator can see. */
#ifndef TKS_CLI_RESOLUTION_H
#define TKS_CLI_RESOLUTION_H

#include "cli/cli.h"
#include "cli/kernel.h"

#define LONG_CHAIN_ROUNDS 3
#define RES_ROUNDS 10

struct res_point {
    uint32_t n;
    uint64_t min;
    double median, mean, mean_ci, variance;
    uint64_t max_deviation;
};

struct resolution {
    /* input */
    int method;               /* -1: choose with a short validation */
    uint32_t max_work, samples;
    struct cli_common common;
    struct cli_kernel kernel;     /* --kernel: the samples come from the module (cli_kernel_ready first) */
    FILE *raw;
    const tks_platform *platform; /* for nanoseconds and core cycles; NULL: ticks only */
    /* output */
    const char *method_note;  /* why this method, for people */
    uint64_t quantum;
    struct res_point *points; /* max_work + 1 of them */
    uint32_t npoints, samples_taken;
    uint32_t spurious_minimums;
    uint64_t discarded;
    tks_fit fit_mean, fit_min;
    size_t res_min, res_mean;            /* 0: not resolved at any step up to npoints/2 */
    double res_min_fraction, res_mean_fraction;
    double long_chain_ticks_per_add;     /* from TKS_WORK_MAX adds minus none */
    double seconds;
    struct cli_kernel_stats kstats;
};

void resolution_init(struct resolution *r);
int resolution_run(struct resolution *r); /* 0 or a TKS_E* code */
void resolution_free(struct resolution *r);
void resolution_print_summary(const struct resolution *r, FILE *f);
void resolution_print_text(const struct resolution *r, FILE *f);
void resolution_write_json(const struct resolution *r, tks_json *j);
int cmd_resolution(int argc, char **argv);

#endif
