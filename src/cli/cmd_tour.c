/* SPDX-License-Identifier: MIT */
/* cmd_tour.c: a short characterisation of this machine: validate every method, a short resolution
 * run with the recommended one, and a verdict in one paragraph. Under ten seconds. */
#include "cli/cmd_tour.h"

#include "cli/measure.h"

#include <string.h>

/* The command once the platform has a home: cmd_tour frees it on every path. */
static int tour_with(int argc, char **argv, tks_platform *platform)
{
    struct cli_common common;
    struct cli_kernel kernel;
    struct cli_run run;
    tks_validate_options vo;
    tks_resolution_options ro;
    tks_validation *v;
    tks_resolution_result *r;
    int rc;
    (void)argv;
    if (argc > 0)
        return cli_usage_error(NULL, "the tour takes no options");
    printf("tickscope %s: characterising this machine (a few seconds).\n\n", TKS_VERSION_STRING);
    cli_common_init(&common, NULL);
    cli_kernel_init(&kernel);
    if ((rc = cli_platform("tour", &common, platform)) != 0)
        return rc;
    printf("== 1. info: what ticks here?\n\n");
    tks__report_info_summary(platform, stdout);
    fflush(stdout);
    cli_run_init(&run, &common, &kernel, NULL, NULL);
    tks_validate_options_init(&vo);
    cli_run_options(&run, &vo.common);
    if ((rc = tks_validate_run(&vo, &v)) != 0)
        return cli_failure("validate: %s", tks_strerror(rc));
    printf("\n== 2. validate: which way of reading the clock can be trusted here?\n\n");
    tks__report_validation_text(v, platform, stdout);
    if (v->recommended < 0) {
        tks_validation_free(v);
        return cli_failure("no method could be recommended on this machine");
    }

    tks_resolution_options_init(&ro);
    cli_run_options(&run, &ro.common);
    ro.method = v->recommended;
    ro.method_reason = "recommended above";
    ro.max_work = 60;
    if ((rc = tks_resolution_run(&ro, &r)) != 0) {
        tks_validation_free(v);
        return cli_failure("resolution: %s", tks_strerror(rc));
    }
    printf("\n== 3. resolution: how small a difference can be seen?\n\n");
    tks__report_resolution_summary(r, platform, stdout);
    tks__report_verdict(v, r, platform, stdout);
    tks_resolution_result_free(r);
    tks_validation_free(v);
    return CLI_EXIT_OK;
}

int cmd_tour(int argc, char **argv)
{
    return cli_with_platform(tour_with, argc, argv);
}
