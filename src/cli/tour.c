/* tour.c: a short characterisation of this machine: validate every method, a short resolution
 * run with the recommended one, and a verdict in one paragraph. Under ten seconds. */
#include "cli/tour.h"

#include <string.h>

#include "cli/info.h"
#include "cli/resolution.h"
#include "cli/validate.h"

static void verdict(const struct experiment *x, const struct resolution *r)
{
    const struct tks_cpu_features *f = tks_cpu_features_get();
    const struct method_result *m = &x->m[x->recommended];
    printf("\nVerdict: on this %s CPU%s, read the clock with `%s`. Its empty window costs "
           "%llu ticks, %s; subtract it from what you measure. The counter advances in steps of "
           "%llu tick(s), so one reading cannot resolve less than that; over many samples the "
           "minimum resolves %zu instruction(s) and the phase-averaged mean %zu (0 = not "
           "resolved), and one dependent add costs %.3f ticks. ",
           f->vendor[0] ? f->vendor : "arm64", f->hypervisor ? " under a hypervisor" : "",
           tks_method_info((enum tks_method)x->recommended)->name,
           (unsigned long long)m->across.min_of_minimums,
           m->erg.ergodic ? "the same in every ensemble (ergodic)" : "but not stably (not ergodic)",
           (unsigned long long)x->quantum, r->res_min, r->res_mean, r->fit_mean.slope);
    if (tks_core_cycles_per_tick(&x->platform) > 0)
        printf("At %.3f core cycles per tick (%s), that add is %.2f core cycles. ",
               tks_core_cycles_per_tick(&x->platform),
               x->platform.core.counter ? "counted" : "estimated",
               r->fit_mean.slope * tks_core_cycles_per_tick(&x->platform));
    if (x->m[TKS_METHOD_CPUID].available && x->m[TKS_METHOD_CPUID].rc == 0)
        printf("CPUID costs about %llu ticks per window here%s. ",
               (unsigned long long)x->m[TKS_METHOD_CPUID].across.min_of_minimums,
               f->hypervisor ? " because it traps to the hypervisor" : "");
    if (!f->invariant_tsc)
        printf("Warning: this CPU has no invariant TSC, so ticks are not time. ");
    printf("Run `tickscope validate --help` and `tickscope resolution --help` for more.\n");
}

int cmd_tour(int argc, char **argv)
{
    struct experiment x;
    struct resolution r;
    int rc;
    (void)argv;
    if (argc > 0)
        return cli_usage_error(NULL, "the tour takes no options");
    printf("tickscope %s: characterising this machine (a few seconds).\n\n", TKS_VERSION_STRING);
    experiment_init(&x);
    if ((rc = cli_platform("tour", &x.common, &x.platform)) != 0)
        return rc;
    printf("== 1. info: what ticks here?\n\n");
    info_print_summary(&x.platform, stdout);
    fflush(stdout);
    if ((rc = experiment_run(&x)) != 0)
        return cli_failure("validate: %s", tks_strerror(rc));
    printf("\n== 2. validate: which way of reading the clock can be trusted here?\n\n");
    validate_print_text(&x, stdout);
    if (x.recommended < 0)
        return cli_failure("no method could be recommended on this machine");

    resolution_init(&r);
    r.method = x.recommended;
    r.method_note = "recommended above";
    r.max_work = 60;
    r.platform = &x.platform;
    if ((rc = resolution_run(&r)) != 0) {
        resolution_free(&r);
        return cli_failure("resolution: %s", tks_strerror(rc));
    }
    printf("\n== 3. resolution: how small a difference can be seen?\n\n");
    resolution_print_summary(&r, stdout);
    verdict(&x, &r);
    resolution_free(&r);
    return CLI_EXIT_OK;
}
