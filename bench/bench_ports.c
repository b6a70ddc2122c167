/* SPDX-License-Identifier: MIT */
/* bench_ports.c: `tickscope asm --ports` (tks_ports_infer) on integer ALU, shift, multiply, FP
 * add/multiply/FMA, shuffle and vector-integer forms beside the default blockers, against the
 * published port usage of the CPU at hand: for every form its port count, and for every mix of
 * a form with a blocker the ports the mix says they share (sets are known up to the ports'
 * names, so sizes and overlaps are what can be compared). Prints every disagreement
 * with both figures, the agreement per family, and the wall time (target: the whole catalogue in
 * at most 30 minutes on 2 cores).
 *
 * Published sets, Zen 5, from two models that disagree, each checked on its own:
 * - GCC: AMD's scheduling model for znver5 in GCC (gcc/config/i386/zn4zn5.md, 2024, by AMD's
 *   engineers): six integer ALUs for add/sub/logic and mov; imul on ALU1 only; FP add on
 *   FP2/FP3, FP multiply and FMA on FP0/FP1, vector integer add and logic on all four FP pipes,
 *   FP shuffles on FP1-FP3, integer shuffles on FP1/FP2, vpmuludq on FP0/FP3; four AGUs for
 *   loads and stores. No port set for shifts by an immediate (modelled as microcoded).
 * - SOG: AMD's Software Optimization Guide for Zen 5 (publication 58455, section 2.10.2), as
 *   LLVM's znver5 model encodes it (llvm/lib/Target/X86/X86ScheduleZnver5.td, 2024): the six
 *   ALUs; multiplies and shifts/rotates on three of them (ALU0-2); FP add FP2/FP3, multiply and
 *   FMA FP0/FP1, vector integer add FP0-FP3, shuffles FP1/FP2, vpmuludq FP0/FP1; four AGUs.
 * Other CPUs: no published table here yet (their sets are printed unchecked). */
#include <string.h>

#include "child.h"
#include "known_cpu.h"
#include "tickscope.h"
#include "tickscope/asm_ports.h"

struct pub {
    const char *name, *code, *family;
    char group;        /* published group of ports: 'I' integer ALUs, 'F' FP pipes, 'A' AGUs */
    unsigned set[2];   /* per model (GCC, SOG): bit i is port i of the group; 0: none */
};

static const struct pub forms[] = {
    {"add r64, imm", "add {r}, 1", "add/sub/logic", 'I', {0x3f, 0x3f}},
    {"sub r64, imm", "sub {r}, 7", "add/sub/logic", 'I', {0x3f, 0x3f}},
    {"and r64, imm", "and {r}, 7", "add/sub/logic", 'I', {0x3f, 0x3f}},
    {"xor r64, imm", "xor {r}, 7", "add/sub/logic", 'I', {0x3f, 0x3f}},
    {"shl r64, imm", "shl {r}, 3", "shifts", 'I', {0, 0x07}},
    {"sar r64, imm", "sar {r}, 3", "shifts", 'I', {0, 0x07}},
    {"imul r64, r64", "imul {r}, {r}", "multiplies", 'I', {0x02, 0x07}},
    {"vpmuludq ymm", "vpmuludq {y}, {y}, {y}", "multiplies", 'F', {0x09, 0x03}},
    {"vaddpd ymm", "vaddpd {y}, {y}, {y}", "FP add/mul/FMA", 'F', {0x0c, 0x0c}},
    {"vmulpd ymm", "vmulpd {y}, {y}, {y}", "FP add/mul/FMA", 'F', {0x03, 0x03}},
    {"vfmadd231pd ymm", "vfmadd231pd {y}, {y}, {y}", "FP add/mul/FMA", 'F', {0x03, 0x03}},
    {"vshufpd ymm", "vshufpd {y}, {y}, {y}, 5", "shuffles", 'F', {0x0e, 0x06}},
    {"vpshufd ymm", "vpshufd {y}, {y}, 27", "shuffles", 'F', {0x06, 0x06}},
    {"vpaddq ymm", "vpaddq {y}, {y}, {y}", "vector integer", 'F', {0x0f, 0x0f}},
};
/* The default blockers' published sets, by name prefix (tks_ports_default_blockers). */
static const struct pub blockers[] = {
    {"alu:", NULL, "blockers", 'I', {0x3f, 0x3f}},
    {"mul:", NULL, "blockers", 'I', {0x02, 0x07}},
    {"load:", NULL, "blockers", 'A', {0x0f, 0x0f}},
    {"store:", NULL, "blockers", 'A', {0x0f, 0x0f}},
    {"fadd:", NULL, "blockers", 'F', {0x0c, 0x0c}},
    {"fmul:", NULL, "blockers", 'F', {0x03, 0x03}},
    {"shuffle:", NULL, "blockers", 'F', {0x0e, 0x06}},
    {"vint:", NULL, "blockers", 'F', {0x0f, 0x0f}},
};
#define NF (sizeof forms / sizeof forms[0])
#define NB (sizeof blockers / sizeof blockers[0])

static int popcount(unsigned v)
{
    int n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

#define NMODELS 2
static const char *const model_names[NMODELS] = {
    "GCC (zn4zn5.md)", "SOG (AMD publication 58455, as LLVM's X86ScheduleZnver5.td has it)"};

/* The entry of inferred form f with a set in model m (NULL: none). */
static const struct pub *published(const tks_ports_form *f, int m)
{
    for (size_t i = 0; i < NF; i++)
        if (!strcmp(f->name, forms[i].name))
            return forms[i].set[m] ? &forms[i] : NULL;
    for (size_t i = 0; i < NB; i++)
        if (!strncmp(f->name, blockers[i].name, strlen(blockers[i].name)))
            return &blockers[i];
    return NULL;
}

/* The ports a and b share in model m (none across groups). */
static int overlap(const struct pub *a, const struct pub *b, int m)
{
    return a->group == b->group ? popcount(a->set[m] & b->set[m]) : 0;
}

static const char *status_name(enum tks_ports_status s)
{
    return s == TKS_PORTS_ASSIGNED ? "assigned" : s == TKS_PORTS_AMBIGUOUS ? "ambiguous"
           : s == TKS_PORTS_INCONSISTENT ? "inconsistent" : s == TKS_PORTS_UNBLOCKED ? "unblocked"
           : "not placed";
}

/* The load average now, for every figure printed. */
static void print_load(const char *when)
{
    char load[64] = "?";
    FILE *lf = fopen("/proc/loadavg", "r");
    if (lf) {
        if (!fgets(load, sizeof load, lf))
            snprintf(load, sizeof load, "?\n");
        fclose(lf);
    }
    printf("Load average %s: %s", when, load);
}

/* Whether every mix of form i with a published blocker allows model m's overlap; with
 * counted_only, only the mixes with blockers whose own port count is the model's (a blocker the
 * model counts wrong cannot tell whether the form's set is right). */
static int mixes_agree(const tks_ports_result *r, size_t i, const struct pub *pi, int m,
                       int counted_only)
{
    int ok = 1;
    for (size_t k = 0; k < r->n_pairs; k++) {
        const tks_ports_pair *p = &r->pairs[k];
        size_t j = p->a == i ? p->b : p->a;
        const struct pub *pb;
        int want;
        if ((p->a != i && p->b != i) || !(pb = published(&r->forms[j], m)) ||
            (counted_only && r->forms[j].ports != popcount(pb->set[m])))
            continue;
        want = overlap(pi, pb, m);
        if (p->overlap >= 0)
            ok &= p->overlap == want;
        else if (p->ranged)
            ok &= p->ov_lo <= want && want <= p->ov_hi;
    }
    return ok;
}

/* Model m against what ran: every mix whose range excludes its overlap, the agreement per
 * family (a form agrees when its port count is the model's and every mix with a published
 * blocker allows the model's overlap: sets are known up to the ports' names), and the totals. */
static void check_model(const tks_ports_result *r, int m)
{
    int size_ok = 0, size_n = 0, ov_ok = 0, ov_n = 0;
    printf("\nAgainst %s:\n", model_names[m]);
    for (size_t k = 0; k < r->n_pairs; k++) {
        const tks_ports_pair *p = &r->pairs[k];
        const struct pub *pa = published(&r->forms[p->a], m), *pb = published(&r->forms[p->b], m);
        int want;
        if (!pa || !pb || !p->ranged)
            continue;
        want = overlap(pa, pb, m);
        ov_n++;
        ov_ok += p->ov_lo <= want && want <= p->ov_hi;
        if (want < p->ov_lo || want > p->ov_hi)
            printf("  differs: %-26.26s with %-26.26s shares %d..%d (%.2f [%.2f, %.2f]), "
                   "published %d; %.1f a cycle%s\n", r->forms[p->a].name, r->forms[p->b].name,
                   p->ov_lo, p->ov_hi, p->shared, p->shared_lo, p->shared_hi, want,
                   (p->ka + p->kb) / p->mix.value, p->width_bound ? " (w)" : "");
    }
    for (size_t i = 0; i < r->n_forms; i++) {
        const struct pub *p = published(&r->forms[i], m);
        if (p) {
            size_n++;
            size_ok += r->forms[i].ports == popcount(p->set[m]);
        }
    }
    printf("  per family (port count and every readable mix within its interval; then only the "
           "mixes with blockers the model counts right):\n");
    for (size_t fam = 0; fam < NF; fam++) {
        int agree = 0, counted = 0, total = 0;
        if (fam > 0 && !strcmp(forms[fam].family, forms[fam - 1].family))
            continue;
        for (size_t i = r->n_blockers; i < r->n_forms; i++) {
            const struct pub *p = published(&r->forms[i], m);
            int n_ok;
            if (!p || strcmp(p->family, forms[fam].family))
                continue;
            total++;
            n_ok = r->forms[i].ports == popcount(p->set[m]);
            agree += n_ok && mixes_agree(r, i, p, m, 0);
            counted += n_ok && mixes_agree(r, i, p, m, 1);
        }
        if (total)
            printf("    %-16s %d of %d forms agree; %d of %d beside blockers counted right\n",
                   forms[fam].family, agree, total, counted, total);
        else
            printf("    %-16s none published\n", forms[fam].family);
    }
    printf("  port counts: %d of %d forms agree; shared ports: %d of %d mixes agree (mixes that "
           "could not say are left out)\n", size_ok, size_n, ov_ok, ov_n);
}

/* Mixes at the machine's width. */
static int width_bound(const tks_ports_result *r)
{
    int n = 0;
    for (size_t k = 0; k < r->n_pairs; k++)
        n += r->pairs[k].width_bound;
    return n;
}

static int bench_main(void)
{
    tks_cpu_identity id;
    tks_timer_quantum q;
    tks_asm_options o;
    tks_asm_row rows[NF];
    tks_ports_result r;
    const char *cpu_name;
    enum cpu cpu;
    int bound;
    double t0;
    if (tks_cpu_identity_probe(&id) != 0 || tks_timer_quantum_measure(&q) != 0) {
        fprintf(stderr, "bench_ports: cannot examine this machine\n");
        return 1;
    }
    cpu = which_cpu(&id, &cpu_name);
    printf("CPU: %s (%s family 0x%x model 0x%x), %s\n", id.brand, id.vendor, id.family,
           id.model, cpu_name);
    memset(rows, 0, sizeof rows);
    for (size_t i = 0; i < NF; i++) {
        snprintf(rows[i].name, sizeof rows[i].name, "%s", forms[i].name);
        snprintf(rows[i].code, sizeof rows[i].code, "%s", forms[i].code);
        rows[i].mode = TKS_ASM_THROUGHPUT;
    }
    tks_asm_options_init(&o);
    o.budget = 0.1;
    o.quantum = q.quantum;
    print_load("before");
    t0 = bench_now();
    if (tks_ports_infer(&o, rows, NF, NULL, 0, NULL, NULL, &r) != 0) {
        fprintf(stderr, "bench_ports: %s\n", r.error);
        tks_ports_result_free(&r);
        return 1;
    }
    bound = width_bound(&r);
    printf("%zu forms and %zu blockers: %zu snippets measured in %.1f s (target for the whole "
           "catalogue: 30 min)\nwidth %.2f [%.2f, %.2f] instructions a cycle (with loads %.2f "
           "[%.2f, %.2f]), widest mix %.2f; %d of %zu mixes width-bound\n\n",
           r.n_forms - r.n_blockers, r.n_blockers, r.runs, bench_now() - t0, r.width.value,
           r.width.lo, r.width.hi, r.width_memory.value, r.width_memory.lo, r.width_memory.hi,
           r.widest_mix, bound, r.n_pairs);
    /* where the time went: the harness's runs against the rest (assembling, checking, the
     * children's start), the runs a snippet took, what the memo and the skipped mixes saved */
    printf("time: %.1f s running %zu runs (%.2f a snippet, %.3f s each), %.1f s assembling and "
           "checking, %.1f s else; %zu snippets from memory, %zu mixes reversed, %zu taken again "
           "beside slow NOPs, %zu NOP bodies saved, %zu mixes skipped\n\n", r.seconds_running,
           r.harness_runs,
           r.runs ? (double)r.harness_runs / (double)r.runs : 0.0,
           r.harness_runs ? r.seconds_running / (double)r.harness_runs : 0.0,
           r.seconds_assembling, r.seconds - r.seconds_running - r.seconds_assembling,
           r.memo_hits, r.mixes_reversed, r.mixes_again, r.nops_saved, r.mixes_skipped);
    printf("%-28s %7s %5s %4s %4s  %-14s %s\n", "form", "cycles", "ports", "GCC", "SOG",
           "status", "family");
    for (size_t i = 0; i < r.n_forms; i++) {
        const tks_ports_form *f = &r.forms[i];
        const struct pub *p[NMODELS];
        char n[NMODELS][8];
        for (int m = 0; m < NMODELS; m++) {
            p[m] = cpu == CPU_ZEN5 ? published(f, m) : NULL;
            snprintf(n[m], sizeof n[m], "%s", "-");
            if (p[m])
                snprintf(n[m], sizeof n[m], "%d", popcount(p[m]->set[m]));
        }
        printf("%-28.28s %7.3f %5d %4s %4s  %-14s %s\n", f->name, f->cycles.value, f->ports,
               n[0], n[1], status_name(f->status), p[1] ? p[1]->family : p[0] ? p[0]->family : "");
        if (f->n_candidates > 1)
            printf("%-28s %7s %5s %9s  %d sets fit alike\n", "", "", "", "", f->n_candidates);
        if (f->misfits)
            printf("%-28s %7s %5s %9s  contradicts %d mix(es)\n", "", "", "", "", f->misfits);
    }
    if (cpu != CPU_ZEN5) {
        printf("\nNo published port table for %s here: the sets above are unchecked.\n", cpu_name);
        tks_ports_result_free(&r);
        return 0;
    }
    for (int m = 0; m < NMODELS; m++)
        check_model(&r, m);
    print_load("after");
    tks_ports_result_free(&r);
    return 0;
}

int main(int argc, char **argv)
{
    int status = bench_start(argc, argv, "usage: bench_ports\ntickscope asm --ports on ALU, "
                             "shift, multiply, FP and shuffle forms, against the published port "
                             "usage of this CPU.\n");
    return status >= 0 ? status : bench_main();
}
