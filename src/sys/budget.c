/* SPDX-License-Identifier: MIT */
/* budget.c: a suite held to a time budget (tks_sys_options.budget; --quick): each row gets its
 * share of the time left, a row whose share is less than its sampling time is cut short (said
 * on the row: sys.time_cut), and once the time is spent the rows still to come are left out (said
 * for the suite: sys.time_left_out). Without a budget nothing here changes a row. */
#include <stdlib.h>
#include <string.h>

#include "base/now.h"
#include "sys/sys_internal.h"

double tks__sys_time_share(double left, size_t rows_left, double ratio, double want)
{
    double share;
    if (!(left > 0))
        return 0;
    share = left / (double)(rows_left ? rows_left : 1) / (ratio > 1 ? ratio : 1);
    return share < want ? share : want;
}

void tks__sys_budget_start(struct tks__sys_run *run)
{
    run->deadline = run->o->budget > 0 ? tks__now_s() + run->o->budget : 0;
}

/* Wall time per second of sampling asked, over the rows measured so far (1 before any). */
static double ratio(const struct tks__sys_run *run)
{
    return run->asked > 0 ? run->spent / run->asked : 1;
}

static size_t rows_left(const struct tks__sys_run *run)
{
    return run->total > run->done ? run->total - run->done : 1;
}

int tks__sys_out_of_time(const struct tks__sys_run *run)
{
    return run->deadline > 0 && tks__now_s() >= run->deadline;
}

double tks__sys_budget_time(struct tks__sys_run *run, double want)
{
    if (!(run->deadline > 0))
        return want;
    return tks__sys_time_share(run->deadline - tks__now_s(), rows_left(run), ratio(run), want);
}

void tks__sys_budget_spent(struct tks__sys_run *run, double asked, double wall)
{
    run->asked += asked;
    run->spent += wall;
}

void tks__sys_left_out(struct tks__sys_run *run, const char *id)
{
    size_t have = run->left_out ? strlen(run->left_out) : 0, len = strlen(id);
    char *v = realloc(run->left_out, have + len + 3);
    if (!v)
        return;
    if (have) {
        memcpy(v + have, ", ", 2);
        have += 2;
    }
    memcpy(v + have, id, len + 1);
    run->left_out = v;
    run->n_left_out++;
}

int tks__sys_was_left_out(const struct tks__sys_run *run, const char *id)
{
    size_t len = strlen(id);
    for (const char *s = run->left_out; s && (s = strstr(s, id)) != NULL; s += len)
        if ((s == run->left_out || s[-1] == ' ') && (s[len] == ',' || !s[len]))
            return 1;
    return 0;
}

void tks__sys_budget_end(struct tks__sys_run *run)
{
    if (run->n_left_out)
        tks__diag(&run->r->diags, TKS_DIAG_SYS_TIME_LEFT_OUT, TKS__DN(run->n_left_out),
                  TKS__DN(run->o->budget), TKS__DS(run->left_out));
    free(run->left_out);
    run->left_out = NULL;
}
