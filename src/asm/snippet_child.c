/* SPDX-License-Identifier: MIT */
/* snippet_child.c: the windows of `tickscope asm`, taken in a child process so that a snippet that
 * faults, clobbers what it should not or never returns costs the child, not the tool: the
 * parent reports the signal and where it struck, or kills a window that outlives the limit. */
#include "asm/asm_internal.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__linux__) && defined(__x86_64__)
#include <sched.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "sample/add_check.h"
#include "stats/unroll_fit.h"

#define ROUNDS_MAX 8192
#define ROUNDS_MIN 32 /* four per block at least */
/* A window of at least a thousand timer steps (one step is then at most 0.1% of it) and long
 * against the harness (about 100 ticks), yet short against the scheduler's tick (millions of
 * ticks), so that few windows hold an interrupt. */
#define TARGET_MIN_TICKS 30000.0
#define TARGET_QUANTA 1000.0

struct shared {
    volatile uint64_t progress; /* windows done: the parent's sign of life */
    volatile int sig;
    volatile uint64_t addr, rip;
    uint64_t loops, ref_loops, rounds;
    int check_ok; /* the add check's windows below were taken */
    uint64_t check[TKS_CHECK_WINDOWS * TKS_ADD_CHECK_ROUNDS];
    uint64_t data[]; /* snippet then reference, ROUNDS_MAX x TKS_ASM_UNROLLS each */
};

static struct shared *g_shared; /* for the signal handler only, in the child */

static void on_fault(int sig, siginfo_t *si, void *ctx)
{
    ucontext_t *uc = ctx;
    g_shared->addr = (uint64_t)(uintptr_t)si->si_addr;
    g_shared->rip = (uint64_t)uc->uc_mcontext.gregs[REG_RIP];
    g_shared->sig = sig;
    _exit(100);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t best_of(uint64_t (*fn)(void *, uint64_t), void *scratch, uint64_t loops)
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 5; i++) {
        uint64_t t = fn(scratch, loops);
        if (t < best)
            best = t;
        g_shared->progress++;
    }
    return best;
}

/* Loops per window: a pilot at 1 and 9 iterations of the longest unroll, differenced. */
static uint64_t choose_loops(uint64_t (*fn)(void *, uint64_t), void *scratch, uint64_t quantum)
{
    double target = TARGET_QUANTA * (double)quantum;
    uint64_t t1 = best_of(fn, scratch, 1), t9 = best_of(fn, scratch, 9);
    double iter = t9 > t1 && t1 != UINT64_MAX && t9 != UINT64_MAX ? (double)(t9 - t1) / 8
                                                                  : (double)t9 / 9;
    double l;
    if (target < TARGET_MIN_TICKS)
        target = TARGET_MIN_TICKS;
    l = target / (iter > 1 ? iter : 1);
    return l < 1 ? 1 : l > 1e8 ? 100000000 : (uint64_t)l;
}

/* The adaptive stop: whether the windows of rounds [0, n) already give the snippet's cost in
 * core cycles (over the reference's) an interval as narrow as the plan asks. */
static int narrow_enough(const tks__asm_plan *p, const uint64_t *snip, const uint64_t *ref,
                         size_t n, uint64_t loops, uint64_t ref_loops)
{
    tks__unroll_fit a, b;
    double v, lo, hi;
    const size_t blocks = 8;
    if (tks__unroll_estimate(snip, n, p->unroll, TKS_ASM_UNROLLS, loops, p->quantum, blocks,
                             &a) != 0 ||
        tks__unroll_estimate(ref, n, p->unroll, TKS_ASM_UNROLLS, ref_loops,
                             p->quantum, blocks, &b) != 0 ||
        tks__unroll_ratio(&a, &b, &v, &lo, &hi) != 0)
        return 0;
    return (hi - lo) / 2 <= p->adaptive.abs_width ||
           (v > 0 && (hi - lo) / 2 <= p->adaptive.rel_width * v);
}

static void child_main(const tks__asm_plan *p, struct shared *s)
{
    struct sigaction sa;
    stack_t ss;
    static char altstack[65536];
    const tks__asm_harness *h = p->h;
    uint64_t *snip = s->data, *ref = s->data + ROUNDS_MAX * TKS_ASM_UNROLLS;
    double start;
    size_t r;
    void *cursor = p->scratch;

    ss.ss_sp = altstack;
    ss.ss_size = sizeof altstack;
    ss.ss_flags = 0;
    sigaltstack(&ss, NULL);
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    {
        /* What an instruction can raise; a signal from outside (^C) keeps its default. */
        static const int faults[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT, SIGSYS};
        for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++)
            sigaction(faults[i], &sa, NULL);
    }
    if (p->pin_cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(p->pin_cpu, &set);
        sched_setaffinity(0, sizeof set, &set);
    }
    /* the add check (sample/add_check.h), once a child, before its windows */
    s->check_ok = tks__add_check_sample(tks_method_default(tks_cpu_features_get()),
                                        TKS_ADD_CHECK_ROUNDS, s->check) == 0;
    s->loops = choose_loops(h->fn[TKS_ASM_UNROLLS - 1], p->scratch, p->quantum);
    s->ref_loops = choose_loops(h->fn[2 * TKS_ASM_UNROLLS - 1], p->scratch, p->quantum);
    start = now();
    for (r = 0; r < ROUNDS_MAX; r++) {
        for (int i = 0; i < TKS_ASM_UNROLLS; i++) {
            /* The order of the unrolls turns every round, so no unroll always follows the
             * same one. */
            int j = (int)((i + r) % TKS_ASM_UNROLLS);
            snip[r * TKS_ASM_UNROLLS + j] = h->fn[j](cursor, s->loops);
            if (p->chase)
                cursor = *h->r14_out;
            ref[r * TKS_ASM_UNROLLS + j] = h->fn[TKS_ASM_UNROLLS + j](p->scratch, s->ref_loops);
            s->progress++;
        }
        if (r + 1 >= ROUNDS_MIN && now() - start >= p->budget)
            break;
        if (p->adaptive.min_budget > 0 && r + 1 >= ROUNDS_MIN && (r + 1) % 8 == 0 &&
            now() - start >= p->adaptive.min_budget &&
            narrow_enough(p, snip, ref, r + 1, s->loops, s->ref_loops))
            break;
    }
    s->rounds = r < ROUNDS_MAX ? r + 1 : ROUNDS_MAX;
}

static const char *signame(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGTRAP: return "SIGTRAP";
    case SIGABRT: return "SIGABRT";
    case SIGSYS: return "SIGSYS";
    default: return "a signal";
    }
}

/* Where the faulting instruction was: init, the unrolled loop, or the harness. */
static void where(const tks__asm_plan *p, uint64_t rip, char *buf, size_t size)
{
    const tks__asm_harness *h = p->h;
    uint64_t base = (uint64_t)(uintptr_t)h->mem;
    if (rip < base || rip >= base + h->code_size) {
        snprintf(buf, size, "outside the snippet (at 0x%llx: it jumped away)",
                 (unsigned long long)rip);
        return;
    }
    for (int j = 0; j < 2 * TKS_ASM_UNROLLS; j++) {
        uint64_t fn = (uint64_t)(uintptr_t)h->fn[j];
        if (rip >= base + h->loop_start[j] && rip < base + h->loop_end[j]) {
            /* Which copy: the variants' lengths in the order the loop repeats them. */
            size_t b = (size_t)(rip - base - h->loop_start[j]), at = 0;
            for (size_t i = 0; p->off && j < TKS_ASM_UNROLLS && i < p->unroll[j]; i++) {
                size_t len = p->off[i % p->nvar + 1] - p->off[i % p->nvar];
                if (b < at + len) {
                    snprintf(buf, size, "in the snippet (copy %zu of the loop, byte %zu of it)",
                             i + 1, b - at);
                    return;
                }
                at += len;
            }
            snprintf(buf, size, "in the %s loop (byte %zu)", j < TKS_ASM_UNROLLS ? "snippet's"
                                                                             : "reference's", b);
            return;
        }
        if (rip >= fn && rip < base + h->loop_start[j]) {
            snprintf(buf, size, "in the init code or the harness before the loop");
            return;
        }
    }
    snprintf(buf, size, "in the harness after the loop");
}

int tks__asm_child_run(const tks__asm_plan *p, tks__asm_windows *w, char *err, size_t errsz)
{
    size_t bytes = sizeof(struct shared) + 2 * ROUNDS_MAX * TKS_ASM_UNROLLS * sizeof(uint64_t);
    struct shared *s = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    uint64_t seen = 0;
    double last = now();
    int st, rc = 0;
    pid_t pid;
    memset(w, 0, sizeof *w);
    if (s == MAP_FAILED)
        return TKS_ENOMEM;
    memset(s, 0, sizeof *s);
    fflush(NULL);
    pid = fork();
    if (pid < 0) {
        munmap(s, bytes);
        snprintf(err, errsz, "cannot start the child process: %s", strerror(errno));
        return TKS_ENOMEM;
    }
    if (pid == 0) {
        g_shared = s;
        child_main(p, s);
        _exit(0);
    }
    for (;;) {
        struct timespec ms = {0, 2000000};
        pid_t got = waitpid(pid, &st, WNOHANG);
        if (got == pid)
            break;
        if (got < 0 && errno != EINTR) {
            rc = TKS_EIO;
            break;
        }
        if (s->progress != seen) {
            seen = s->progress;
            last = now();
        } else if (now() - last > p->timeout) {
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            snprintf(err, errsz, "a window of the snippet ran longer than %.3g s and was killed "
                     "(it does not return, or raise --timeout)", p->timeout);
            munmap(s, bytes);
            return TKS_ETIME;
        }
        nanosleep(&ms, NULL);
    }
    if (!rc && s->sig) {
        char at[160];
        where(p, s->rip, at, sizeof at);
        snprintf(err, errsz, "the snippet raised %s (%s) %s, address 0x%llx", signame(s->sig),
                 strsignal(s->sig), at, (unsigned long long)s->addr);
        rc = TKS_EINTR;
    } else if (!rc && WIFSIGNALED(st)) {
        snprintf(err, errsz, "the child running the snippet died of %s (%s)",
                 signame(WTERMSIG(st)), strsignal(WTERMSIG(st)));
        rc = TKS_EINTR;
    } else if (!rc && (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || !s->rounds)) {
        snprintf(err, errsz, "the child running the snippet failed (status %d)", st);
        rc = TKS_EIO;
    }
    if (!rc) {
        size_t n = s->rounds * TKS_ASM_UNROLLS;
        w->loops = s->loops;
        w->ref_loops = s->ref_loops;
        w->rounds = s->rounds;
        if (s->check_ok)
            tks__add_check_fit(s->check, TKS_ADD_CHECK_ROUNDS, TKS_CHECK_LONG, TKS_CHECK_SHORT,
                               &w->check);
        w->snip = malloc(n * sizeof *w->snip);
        w->ref = malloc(n * sizeof *w->ref);
        if (!w->snip || !w->ref) {
            free(w->snip);
            free(w->ref);
            memset(w, 0, sizeof *w);
            rc = TKS_ENOMEM;
        } else {
            memcpy(w->snip, s->data, n * sizeof *w->snip);
            memcpy(w->ref, s->data + ROUNDS_MAX * TKS_ASM_UNROLLS, n * sizeof *w->ref);
        }
    }
    munmap(s, bytes);
    return rc;
}
#else
int tks__asm_child_run(const tks__asm_plan *p, tks__asm_windows *w, char *err, size_t errsz)
{
    (void)p;
    memset(w, 0, sizeof *w);
    snprintf(err, errsz, "tickscope asm runs on x86-64 Linux only");
    return TKS_EUNAVAIL;
}
#endif
