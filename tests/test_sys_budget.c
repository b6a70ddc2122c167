/* SPDX-License-Identifier: MIT */
/* test_sys_budget.c: a suite whose time budget is spent before its first row (1 ns) measures
 * nothing and says so: the rows it was asked for are left out, named in the suite's
 * sys.time_left_out (a derived row whose sources were left out with them), and the mem suite's
 * curve stops before its first point (sys.curve_cut) with the level rows taken from it left out.
 * The mem suite reads a /sys tree declaring a 300 MiB L3, so --quick's 128 MiB plan is said
 * (sys.quick_capped). Nothing here is measured: the platform is a fixture. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "tickscope/sys.h"

static void platform(tks_platform *p)
{
    memset(p, 0, sizeof *p);
    p->tsc_hz = 2e9;
    p->invariant_tsc = 1;
    p->quantum.quantum = 26;
}

/* The diagnostic with this code in ds, or NULL. */
static const tks_diag *find(const tks_diags *ds, enum tks_diag_code code)
{
    for (size_t i = 0; i < ds->n; i++)
        if (ds->items[i].code == code)
            return &ds->items[i];
    return NULL;
}

static void cpu_left_out(void)
{
    const char *const only[] = {"loop", "branch_predicted", "branch_random", "branch_miss", NULL};
    tks_sys_options o;
    tks_platform p;
    tks_sys_result *r = NULL;
    const tks_diag *d;
    char *msg;
    platform(&p);
    tks_sys_options_init(&o);
    o.quick = 1;
    o.only = only;
    o.budget = 1e-9;
    CHECK(tks_sys_run(TKS_SYS_CPU, &o, &p, &r) == 0);
    if (!r)
        return;
    CHECK_EQ_U64(r->n_ops, 0);
    CHECK(find(&r->diags, TKS_DIAG_SYS_WITHIN_RUN) == NULL); /* nothing measured, no interval */
    d = find(&r->diags, TKS_DIAG_SYS_TIME_LEFT_OUT);
    CHECK(d != NULL);
    if (d) {
        CHECK_EQ_U64(d->n_values, 3);
        CHECK_NEAR(d->values[0].num, 4, 0);
        CHECK(d->values[2].str && !strcmp(d->values[2].str,
                                          "loop, branch_predicted, branch_random, branch_miss"));
        msg = tks_diag_message(d);
        CHECK(msg && !strcmp(msg, "left out, not measured: loop, branch_predicted, branch_random, "
                                  "branch_miss (4 in all): the suite's 0.0 s of the run's time "
                                  "budget ran out before them; measure them with --only, or "
                                  "without --quick"));
        free(msg);
    }
    tks_sys_result_free(r);
}

static void put(const char *dir, const char *name, const char *text)
{
    char path[600];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void mem_curve_cut(void)
{
    const char *const only[] = {"curve", "lat_l1", "lat_l2", "lat_l3", "lat_ram", NULL};
    const char *const levels[][3] = {{"1", "Data", "48K"}, {"2", "Unified", "1024K"},
                                     {"3", "Unified", "300M"}};
    char root[] = "/tmp/tks_sys_budget.XXXXXX", dir[300], cmd[400];
    tks_sys_options o;
    tks_platform p;
    tks_sys_result *r = NULL;
    const tks_diag *d;
    if (!mkdtemp(root)) {
        CHECK(0);
        return;
    }
    for (int i = 0; i < 3; i++) {
        snprintf(dir, sizeof dir, "%s/sys/devices/system/cpu/cpu0/cache/index%d", root, i);
        snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
        CHECK(system(cmd) == 0);
        put(dir, "level", levels[i][0]);
        put(dir, "type", levels[i][1]);
        put(dir, "size", levels[i][2]);
    }
    platform(&p);
    tks_sys_options_init(&o);
    o.quick = 1;
    o.only = only;
    o.root = root;
    o.huge_pages = 0;
    o.budget = 1e-9;
    CHECK(tks_sys_run(TKS_SYS_MEM, &o, &p, &r) == 0);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", root);
    if (!r)
        return;
    CHECK_EQ_U64(r->n_caches, 3);
    CHECK_EQ_U64(r->n_curve, 0);
    CHECK_EQ_U64(r->n_ops, 0);
    /* 128 MiB of the 4 x 300 = 1200 a full run takes */
    d = find(&r->diags, TKS_DIAG_SYS_QUICK_CAPPED);
    CHECK(d && d->values[0].num == 128 && d->values[1].num == 1200);
    /* stopped before the first point, 0 KiB, of 128 MiB = 131072 KiB */
    d = find(&r->diags, TKS_DIAG_SYS_CURVE_CUT);
    CHECK(d && d->values[0].num == 0 && d->values[1].num == 131072);
    d = find(&r->diags, TKS_DIAG_SYS_TIME_LEFT_OUT);
    CHECK(d && d->values[0].num == 4 && d->values[2].str &&
          !strcmp(d->values[2].str, "lat_l1, lat_l2, lat_l3, lat_ram"));
    tks_sys_result_free(r);
}

int main(void)
{
    cpu_left_out();
    mem_curve_cut();
    CHECK_DONE();
}
