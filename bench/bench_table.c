/* SPDX-License-Identifier: MIT */
/* bench_table.c: `tickscope asm --table`, the instruction table of the CPU at hand, judged: its
 * wall time from an empty cache (target: at most 15 minutes on 2 cores) and its CPU time, its
 * size (target: at least 1,000 forms on an x86-64-v4 CPU), a second run from an empty cache
 * beside the first (target: at least 98% of the measurements within each other's 95% interval),
 * a third from the first's cache (only what changed is measured), and the agreement with the
 * published figures of bench/published_instructions.csv for this CPU (targets: latencies within
 * 0.05 cycles on 95% of them, throughputs within 5%), every disagreement listed with both
 * figures; a throughput apart of a form that carries a one-cycle chain through its destination
 * is also put beside the published figure times what such a chain costs on this CPU, measured
 * in the same run (carried_cost). argv[1] is the tickscope binary (as `make bench` runs it);
 * argv[2], when given, is an --only filter for a quicker look ("r64", "ymm"). Exit 1 when the
 * latencies miss their target on a CPU known_cpu.h knows (the other targets are printed, judged
 * by whoever reads them: the time and the agreement between runs depend on the machine's load);
 * on any other CPU a line says there is nothing published to hold the table to. */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>

#include "asm/cpu_table.h"
#include "child.h"
#include "known_cpu.h"
#include "tickscope.h"

#ifndef PUBLISHED
#define PUBLISHED "published_instructions.csv"
#endif

/* One run of the table into dir/table.csv with dir as the cache: wall and CPU seconds. */
static int run_table(const char *tickscope, const char *dir, const char *only, double *wall,
                     double *cpu)
{
    char out[600];
    char *args[12];
    int n = 0, rc;
    struct rusage before, after;
    snprintf(out, sizeof out, "%s/table.csv", dir);
    args[n++] = (char *)tickscope;
    args[n++] = "asm";
    args[n++] = "--table";
    args[n++] = "--quiet";
    args[n++] = "--format";
    args[n++] = "csv";
    args[n++] = "--out";
    args[n++] = out;
    if (only) {
        args[n++] = "--only";
        args[n++] = (char *)only;
    }
    args[n] = NULL;
    setenv("TICKSCOPE_CACHE_DIR", dir, 1);
    getrusage(RUSAGE_CHILDREN, &before);
    rc = bench_run_child(args, wall);
    getrusage(RUSAGE_CHILDREN, &after);
    *cpu = (double)(after.ru_utime.tv_sec - before.ru_utime.tv_sec) +
           (double)(after.ru_stime.tv_sec - before.ru_stime.tv_sec) +
           1e-6 * (double)(after.ru_utime.tv_usec - before.ru_utime.tv_usec +
                           after.ru_stime.tv_usec - before.ru_stime.tv_usec);
    return rc;
}

static const tks__asm_entry *find(const tks__asm_table *t, const char *form, const char *key)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->e[i].form, form) == 0 && strcmp(t->e[i].key, key) == 0)
            return &t->e[i];
    return NULL;
}

/* What a one-cycle chain through the destination costs on this CPU, as a factor: the same
 * instruction with its destination carried from copy to copy (lea {r}, [{r}+1]) and not
 * (lea {r}, [r14+1]), in throughput mode, three times each in turns, the fastest of each kept
 * (other load only slows a run down). A published throughput counts the ports an instruction
 * may use; a form that reads its destination (add r64, r64) runs as such chains in any
 * throughput measurement, so where the factor is above 1 it is what such a form can reach.
 * 0 and *factor (with its interval, crosswise), or -1 when a run failed. */
static int carried_cost(tks_asm_interval *factor)
{
    static const char *const code[2] = {"lea {r}, [r14+1]", "lea {r}, [{r}+1]"};
    tks_asm_interval best[2] = {{NAN, NAN, NAN}, {NAN, NAN, NAN}};
    for (int round = 0; round < 6; round++) {
        tks_asm_options o;
        tks_asm_result res;
        int j = round % 2, rc;
        tks_asm_options_init(&o);
        o.code = code[j];
        o.mode = TKS_ASM_THROUGHPUT;
        o.budget = 0.1;
        rc = tks_asm_run(&o, &res);
        if (rc == 0 && !(res.core_cycles.value >= best[j].value))
            best[j] = res.core_cycles;
        tks_asm_result_free(&res);
        if (rc != 0)
            return -1;
    }
    if (!(best[0].lo > 0 && best[1].lo > 0))
        return -1;
    printf("\nA one-cycle chain through the destination: %s %.4f [%.4f, %.4f] a copy, %s %.4f "
           "[%.4f, %.4f]\n", code[0], best[0].value, best[0].lo, best[0].hi, code[1],
           best[1].value, best[1].lo, best[1].hi);
    *factor = (tks_asm_interval){best[1].value / best[0].value, best[1].lo / best[0].hi,
                                 best[1].hi / best[0].lo};
    printf("  a copy that carries its destination costs x%.3f [%.3f, %.3f] the one that does not\n",
           factor->value, factor->lo, factor->hi);
    return 0;
}

/* Whether form carries a one-cycle chain through its destination: the table measured the
 * latency from its first operand to itself (L0-0), one cycle. */
static int carries_one_cycle(const tks__asm_table *a, const char *form)
{
    const tks__asm_entry *e = find(a, form, "L0-0");
    return e && !e->res.rc && fabs(e->res.cycles.value - 1) <= 0.05;
}

/* The published rows of this CPU beside run a; carried (NULL: not measured) is what a one-cycle
 * chain through the destination costs here: a throughput that differs, of a form that carries
 * one, is also given against the published figure times it. Returns 1 when the latencies miss
 * their target (95% within 0.05 cycles) or none could be compared, else 0. */
static int published(const tks__asm_table *a, const char *cpu_key,
                     const tks_asm_interval *carried)
{
    char path[1024], line[512];
    const char *slash = strrchr(__FILE__, '/');
    FILE *f;
    int lat = 0, lat_ok = 0, thr = 0, thr_ok = 0, absent = 0, thr_carried = 0, thr_carried_ok = 0;
    snprintf(path, sizeof path, "%.*s/%s", slash ? (int)(slash - __FILE__) : 1,
             slash ? __FILE__ : ".", PUBLISHED);
    if (!(f = fopen(path, "r"))) {
        printf("\nPublished figures: cannot read %s\n", path);
        return 1;
    }
    printf("\nBeside the published figures for %s (%s; sources in its header):\n", cpu_key, path);
    printf("  %-30s %-6s %9s  %-20s %9s  %s\n", "form", "meas.", "ours", "95% interval",
           "published", "verdict");
    while (fgets(line, sizeof line, f)) {
        char cpu[32], form[80], key[16], src[16], verdict[160];
        double pub;
        const tks__asm_entry *e;
        int is_lat, ok;
        if (line[0] == '#' || strncmp(line, "cpu,", 4) == 0 ||
            sscanf(line, "%31[^,],\"%79[^\"]\",%15[^,],%lf,%15s", cpu, form, key, &pub, src) != 5 ||
            strcmp(cpu, cpu_key) != 0)
            continue;
        is_lat = key[0] == 'L';
        e = find(a, form, key);
        if (!e || e->res.rc) {
            printf("  %-30s %-6s %9s  %-20s %9.3f  not measured (%s)\n", form, key, "-", "-", pub,
                   e ? e->res.error : "not in the table");
            absent++;
            continue;
        }
        ok = is_lat ? fabs(e->res.cycles.value - pub) <= 0.05
                    : fabs(e->res.cycles.value / pub - 1) <= 0.05;
        snprintf(verdict, sizeof verdict, "%s (%s %+.3f%s)", ok ? "agrees" : "DIFFERS", src,
                 is_lat ? e->res.cycles.value - pub : 100 * (e->res.cycles.value / pub - 1),
                 is_lat ? "" : "%");
        if (!is_lat && !ok && carried && carries_one_cycle(a, form)) {
            double due = pub * carried->value, off = e->res.cycles.value / due - 1;
            size_t at = strlen(verdict);
            int near = fabs(off) <= 0.05;
            thr_carried++;
            thr_carried_ok += near;
            snprintf(verdict + at, sizeof verdict - at, "; carried, x%.3f: %.3f, %+.1f%%: %s",
                     carried->value, due, 100 * off, near ? "agrees" : "differs");
        }
        printf("  %-30s %-6s %9.3f  [%7.3f, %7.3f]  %9.3f  %s\n", form, key, e->res.cycles.value,
               e->res.cycles.lo, e->res.cycles.hi, pub, verdict);
        lat += is_lat, lat_ok += is_lat && ok;
        thr += !is_lat, thr_ok += !is_lat && ok;
    }
    fclose(f);
    printf("Latencies within 0.05 cycles: %d of %d (%.0f%%; target 95%%); throughputs within 5%%: "
           "%d of %d (%.0f%%); %d published forms not measured\n", lat_ok, lat,
           lat ? 100.0 * lat_ok / lat : 0, thr_ok, thr, thr ? 100.0 * thr_ok / thr : 0, absent);
    if (thr_carried)
        printf("Of the %d throughputs apart, %d are of forms that carry a one-cycle chain through "
               "their destination: %d of them within 5%% of the published figure times what such a "
               "chain costs here\n", thr - thr_ok, thr_carried, thr_carried_ok);
    if (!lat || 100 * lat_ok < 95 * lat) {
        printf("MISSED: the latencies' target (95%% within 0.05 cycles of the published figure)\n");
        return 1;
    }
    return 0;
}

static int bench_main(int argc, char **argv)
{
    char dir_a[] = "/tmp/tickscope-bench-table-XXXXXX", dir_b[] = "/tmp/tickscope-bench-table-XXXXXX";
    char path[600], err[512], load[64] = "?";
    const char *only = argc > 2 ? argv[2] : NULL, *cpu_name;
    double wall[3], cpu[3];
    tks__asm_table a, b;
    tks__asm_diff d;
    tks_cpu_identity id;
    enum cpu which;
    FILE *lf;
    size_t failed = 0;
    int missed = 0;
    const char *exe = argc > 1 ? argv[1] : "build/tickscope";
    if (bench_check_exe("bench_table", exe) != 0)
        return 1;
    if (!mkdtemp(dir_a) || !mkdtemp(dir_b)) {
        fprintf(stderr, "bench_table: cannot make temporary directories\n");
        return 1;
    }
    tks_cpu_identity_probe(&id);
    which = which_cpu(&id, &cpu_name);
    if ((lf = fopen("/proc/loadavg", "r"))) {
        if (!fgets(load, sizeof load, lf))
            snprintf(load, sizeof load, "?");
        load[strcspn(load, "\n")] = 0;
        fclose(lf);
    }
    printf("CPU: %s (%s family 0x%x model 0x%x), %s; load average before: %s\n", id.brand,
           id.vendor, id.family, id.model, cpu_name, load);
    printf("tickscope asm --table%s%s, from an empty cache, twice; then from the first's cache\n",
           only ? " --only " : "", only ? only : "");
    if (run_table(exe, dir_a, only, &wall[0], &cpu[0]) != 0 ||
        run_table(exe, dir_b, only, &wall[1], &cpu[1]) != 0 ||
        run_table(exe, dir_a, only, &wall[2], &cpu[2]) != 0)
        fprintf(stderr, "bench_table: a run of the table failed (some rows could not be measured; "
                "their errors are in the CSV)\n");
    snprintf(path, sizeof path, "%s/table.csv", dir_a);
    if (tks__asm_table_read_csv(path, &a, err, sizeof err) != 0) {
        fprintf(stderr, "bench_table: %s\n", err);
        return 1;
    }
    snprintf(path, sizeof path, "%s/table.csv", dir_b);
    if (tks__asm_table_read_csv(path, &b, err, sizeof err) != 0) {
        fprintf(stderr, "bench_table: %s\n", err);
        return 1;
    }
    for (size_t i = 0; i < a.n; i++) {
        failed += a.e[i].res.rc != 0;
        a.forms += i == 0 || strcmp(a.e[i].form, a.e[i - 1].form) != 0;
    }
    printf("\nSize: %zu forms, %zu measurements (%zu failed); target at least 1,000 forms on an "
           "x86-64-v4 CPU\n", a.forms, a.n, failed);
    printf("Wall time from an empty cache: %.0f s and %.0f s (target at most 900 s on 2 cores); "
           "CPU time %.0f s and %.0f s (what an idle 2-core machine would take at most)\n",
           wall[0], wall[1], cpu[0], cpu[1]);
    printf("Per measurement: %.3f s wall, %.3f s CPU\n", wall[0] / (double)(a.n ? a.n : 1),
           cpu[0] / (double)(a.n ? a.n : 1));
    printf("From the first run's cache: %.1f s wall (only what is not cached is measured)\n",
           wall[2]);
    if (tks__asm_table_diff(&a, &b, &d) == 0) {
        size_t both = d.same + d.differ;
        printf("Two runs: %zu of %zu measurements within each other's 95%% intervals (%.1f%%; "
               "target 98%%), %zu apart\n", d.same, both, both ? 100.0 * (double)d.same /
               (double)both : 0, d.differ);
        for (size_t i = 0, shown = 0; i < d.n && shown < 15; i++)
            if (d.rows[i].differs && d.rows[i].a && d.rows[i].b) {
                printf("  apart: %-32s %-6s %.3f [%.3f, %.3f] and %.3f [%.3f, %.3f]\n",
                       d.rows[i].a->form, d.rows[i].a->key, d.rows[i].a->res.cycles.value,
                       d.rows[i].a->res.cycles.lo, d.rows[i].a->res.cycles.hi,
                       d.rows[i].b->res.cycles.value, d.rows[i].b->res.cycles.lo,
                       d.rows[i].b->res.cycles.hi);
                shown++;
            }
        free(d.rows);
    }
    {
        tks_asm_interval carried;
        int have = carried_cost(&carried) == 0;
        if (!have)
            printf("\nA one-cycle chain through the destination: could not be measured\n");
        if (which == CPU_OTHER)
            printf("\nNo published figures for %s (family 0x%x model 0x%x): the table is not held "
                   "to any.\n", id.brand, id.family, id.model);
        else
            missed = published(&a, which == CPU_ZEN5 ? "zen5" : which == CPU_ZEN4 ? "zen4" : "golden_cove",
                               have ? &carried : NULL);
    }
    tks__asm_table_free(&a);
    tks__asm_table_free(&b);
    if ((lf = fopen("/proc/loadavg", "r"))) {
        if (fgets(load, sizeof load, lf))
            printf("\nLoad average after: %s", load);
        fclose(lf);
    }
    {
        char *rm[] = {"/bin/rm", "-rf", dir_a, dir_b, NULL};
        double ignored;
        bench_run_child(rm, &ignored);
    }
    return missed;
}

int main(int argc, char **argv)
{
    int status = bench_start(argc, argv, "usage: bench_table [path/to/tickscope [ONLY]]\n"
                             "tickscope asm --table: its time, size, two runs' agreement and the "
                             "published figures of this CPU beside ours; ONLY: an --only filter.\n");
    return status >= 0 ? status : bench_main(argc, argv);
}
