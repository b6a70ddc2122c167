/* SPDX-License-Identifier: MIT */
/* ctxsw.c: context switches (lmbench's lat_ctx, perf bench sched pipe): two processes, or two
 * threads, hand a token back and forth over a pair of pipes or over a futex, pinned to one CPU
 * (each hand-over is a switch) or to two (each is a wake-up on the other CPU). The window holds
 * one round trip; the pipe rows have the pipe's own write and read subtracted, and say so. */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sys/sys_internal.h"

/* One ping-pong: who the partner is, where each side runs, and how the parent learns that the
 * partner died (a pipe at end of file, a futex wait that times out with the child gone). */
static struct {
    int futex;                /* 0: pipes */
    int thread;               /* 0: a child process */
    int cpu_self, cpu_peer;   /* -1: not pinned */
    int to_peer[2], from_peer[2];
    int *word;                /* the futex word: 1 = the peer's turn, 0 = ours, 2 = stop;
                                 word[1]: the partner could not pin itself; word[2]: the CPU
                                 an unpinned pipe partner last answered from */
    pid_t pid;
    pthread_t tid;
    int dead;                 /* the partner died inside the run */
    int status;               /* the child's wait status */
    unsigned long same, cross; /* unpinned: round trips that ended with both on one CPU, or not */
} pp;

static long futex(int *w, int op, int val, const struct timespec *t)
{
    return syscall(SYS_futex, w, op, val, t, NULL, 0);
}

static void peer_loop(void)
{
    char c;
    if (pp.cpu_peer >= 0 && tks__sys_pin(pp.cpu_peer) != 0)
        __atomic_store_n(&pp.word[1], 1, __ATOMIC_RELAXED); /* shared: the parent reads it */
    if (!pp.futex) {
        /* unpinned, where the scheduler put it is recorded (glibc reads it from rseq: no
         * system call) */
        while (read(pp.to_peer[0], &c, 1) == 1) {
            if (pp.cpu_peer < 0)
                __atomic_store_n(&pp.word[2], sched_getcpu(), __ATOMIC_RELAXED);
            if (write(pp.from_peer[1], &c, 1) != 1)
                break;
        }
        return;
    }
    for (;;) {
        int v;
        while ((v = __atomic_load_n(pp.word, __ATOMIC_ACQUIRE)) == 0)
            futex(pp.word, FUTEX_WAIT, 0, NULL);
        if (v == 2)
            return;
        __atomic_store_n(pp.word, 0, __ATOMIC_RELEASE);
        futex(pp.word, FUTEX_WAKE, 1, NULL);
    }
}

static void *peer_thread(void *arg)
{
    peer_loop();
    return arg;
}

/* The partner is gone when its pipe reads end of file; for a futex, when a wait of a second
 * finds the child reaped. Only ever checked after something went wrong, so never in a normal
 * window. */
static int partner_gone(void)
{
    if (pp.thread || pp.pid <= 0)
        return 0;
    if (waitpid(pp.pid, &pp.status, WNOHANG) == pp.pid) {
        pp.pid = -1;
        return 1;
    }
    return 0;
}

static void round_trip(void)
{
    static const struct timespec second = {1, 0};
    char c = 'x';
    if (pp.dead)
        return;
    if (!pp.futex) {
        if (write(pp.to_peer[1], &c, 1) != 1 || read(pp.from_peer[0], &c, 1) != 1)
            pp.dead = 1;
        return;
    }
    __atomic_store_n(pp.word, 1, __ATOMIC_RELEASE);
    futex(pp.word, FUTEX_WAKE, 1, NULL);
    while (__atomic_load_n(pp.word, __ATOMIC_ACQUIRE) == 1)
        if (futex(pp.word, FUTEX_WAIT, 1, &second) != 0 && errno == ETIMEDOUT && partner_gone()) {
            pp.dead = 1;
            return;
        }
}

/* After each window of an unpinned round trip, outside it: were the two on one CPU? */
static void placed(void *ctx)
{
    (void)ctx;
    if (sched_getcpu() == __atomic_load_n(&pp.word[2], __ATOMIC_RELAXED))
        pp.same++;
    else
        pp.cross++;
}

static void bm_round_trip(tks_state *st)
{
    TKS_MEASURE_EACH(st, 0, pp.cpu_self < 0 && !pp.futex ? placed : 0, 0, { round_trip(); });
}

/* The pipe's own cost: a one-byte write and its read in the same thread, no switch. */
static void bm_pipe_self(tks_state *st)
{
    char c = 'x';
    TKS_MEASURE(st, {
        if (write(pp.to_peer[1], &c, 1) == 1)
            tks_do_not_optimize(read(pp.to_peer[0], &c, 1));
    });
}

static void close_pair(int *fd)
{
    if (fd[0] >= 0)
        close(fd[0]);
    if (fd[1] >= 0)
        close(fd[1]);
    fd[0] = fd[1] = -1;
}

static int start(void)
{
    pp.dead = 0;
    pp.word[1] = 0;
    pp.word[2] = -1;
    pp.same = pp.cross = 0;
    pp.pid = -1;
    pp.to_peer[0] = pp.to_peer[1] = pp.from_peer[0] = pp.from_peer[1] = -1;
    if (pipe(pp.to_peer) || pipe(pp.from_peer))
        return errno;
    *pp.word = 0;
    if (pp.thread) {
        int e = pthread_create(&pp.tid, NULL, peer_thread, NULL);
        return e;
    }
    pp.pid = fork();
    if (pp.pid < 0)
        return errno;
    if (pp.pid == 0) {
        close(pp.to_peer[1]);
        close(pp.from_peer[0]);
        peer_loop();
        _exit(0);
    }
    /* Our copies of the child's ends closed, so its death reads as end of file. */
    close(pp.to_peer[0]);
    close(pp.from_peer[1]);
    pp.to_peer[0] = pp.from_peer[1] = -1;
    return 0;
}

static void stop(void)
{
    if (pp.futex) {
        __atomic_store_n(pp.word, 2, __ATOMIC_RELEASE);
        futex(pp.word, FUTEX_WAKE, 1, NULL);
    }
    close_pair(pp.to_peer); /* the pipe peer reads end of file and returns */
    if (pp.thread) {
        pthread_join(pp.tid, NULL);
    } else if (pp.pid > 0) {
        while (waitpid(pp.pid, &pp.status, 0) < 0 && errno == EINTR) {
        }
    }
    close_pair(pp.from_peer);
}

static void ping_pong(struct tks__sys_run *run, const char *id, const char *what, int futex_,
                      int thread, int cpus_wanted, const int *cpus, int ncpus)
{
    tks_sys_op *op;
    int e;
    if (!tks__sys_wanted(run, id))
        return;
    if (cpus_wanted > ncpus) {
        if ((op = tks__sys_row(run, id, what)) != NULL) {
            op->unavailable = 1;
            snprintf(op->error, sizeof op->error, "needs %d CPUs; this process may use %d",
                     cpus_wanted, ncpus);
        }
        tks__sys_progress(run);
        return;
    }
    pp.futex = futex_;
    pp.thread = thread;
    pp.cpu_self = cpus_wanted ? cpus[0] : -1;
    pp.cpu_peer = cpus_wanted == 2 ? cpus[1] : cpus_wanted ? cpus[0] : -1;
    if (pp.cpu_self >= 0 && (e = tks__sys_pin(pp.cpu_self)) != 0) {
        tks__diag(&run->r->diags, TKS_DIAG_SYS_PIN_REFUSED, TKS__DN(pp.cpu_self), TKS__DN(e),
                  TKS__DS(id));
        pp.cpu_self = pp.cpu_peer = -1;
    }
    if ((e = start()) != 0) {
        if ((op = tks__sys_row(run, id, what)) != NULL)
            snprintf(op->error, sizeof op->error, "cannot start the partner: %s", strerror(e));
        stop();
        tks__sys_progress(run);
        return;
    }
    op = tks__sys_measure(run, id, what, bm_round_trip, TKS_MODE_LATENCY, futex_ ? 2 : 1);
    stop();
    if (!op)
        return;
    if (pp.dead) {
        if (!pp.thread && WIFSIGNALED(pp.status))
            tks__sys_fail(op, "the partner process died inside the run: killed by signal %d (%s)",
                          WTERMSIG(pp.status), strsignal(WTERMSIG(pp.status)));
        else
            tks__sys_fail(op, "the partner %s went away inside the run",
                          pp.thread ? "thread" : "process");
    }
    if (pp.word[1])
        tks__diag(&run->r->diags, TKS_DIAG_SYS_PARTNER_UNPINNED, TKS__DS(id));
    if (cpus_wanted == 0 && !futex_ && pp.same + pp.cross) {
        op->same_cpu_share = (double)pp.same / (double)(pp.same + pp.cross);
        tks__sys_note(op, TKS_DIAG_SYS_ROW_PIPE_PLACED, TKS__DN(100 * op->same_cpu_share));
    } else {
        tks__sys_note0(op, futex_             ? TKS_DIAG_SYS_ROW_FUTEX
                           : cpus_wanted == 2 ? TKS_DIAG_SYS_ROW_PIPE_TWO_CPUS
                                              : TKS_DIAG_SYS_ROW_PIPE_ONE_CPU);
    }
}

int tks__sys_ctxsw(struct tks__sys_run *run)
{
    static const struct {
        const char *id, *what;
        int futex, thread, cpus;
    } rows[] = {
        {"pipe_rt_proc", "pipe round trip, processes, unpinned", 0, 0, 0},
        {"pipe_rt_proc_1cpu", "pipe round trip, processes, one CPU", 0, 0, 1},
        {"pipe_rt_proc_2cpu", "pipe round trip, processes, two CPUs", 0, 0, 2},
        {"pipe_rt_thread_1cpu", "pipe round trip, threads, one CPU", 0, 1, 1},
        {"pipe_rt_thread_2cpu", "pipe round trip, threads, two CPUs", 0, 1, 2},
    }, futexes[] = {
        {"futex_proc_1cpu", "futex hand-over, processes, one CPU", 1, 0, 1},
        {"futex_proc_2cpu", "futex hand-over, processes, two CPUs", 1, 0, 2},
        {"futex_thread_1cpu", "futex hand-over, threads, one CPU", 1, 1, 1},
        {"futex_thread_2cpu", "futex hand-over, threads, two CPUs", 1, 1, 2},
    };
    static const char *const derived[][3] = {
        {"ctxsw_proc_1cpu", "context switch, processes, one CPU", "pipe_rt_proc_1cpu"},
        {"ctxsw_proc_2cpu", "cross-CPU wake-up, processes", "pipe_rt_proc_2cpu"},
        {"ctxsw_thread_1cpu", "context switch, threads, one CPU", "pipe_rt_thread_1cpu"},
        {"ctxsw_thread_2cpu", "cross-CPU wake-up, threads", "pipe_rt_thread_2cpu"},
    };
    int cpus[2], ncpus = tks__sys_cpus(cpus, 2);
    struct sigaction ign, old;
    int *word = mmap(NULL, 3 * sizeof *word, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    tks_sys_op *op;
    if (word == MAP_FAILED) {
        tks__diag(&run->r->diags, TKS_DIAG_SYS_NO_SHARED_PAGE, TKS__DN(errno));
        return 0;
    }
    pp.word = word;
    /* A partner that dies leaves a pipe with no reader: the write must fail with EPIPE (and the
     * row say so), not kill the whole run with SIGPIPE. The caller's disposition is restored. */
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGPIPE, &ign, &old);
    /* The pipe's own cost, in one thread: the pair exists but no partner reads it. */
    if (tks__sys_wanted(run, "pipe_self")) {
        if (pipe(pp.to_peer) == 0) {
            op = tks__sys_measure(run, "pipe_self", "pipe write + read, 1 byte, no switch",
                                  bm_pipe_self, TKS_MODE_LATENCY, 1);
            if (op)
                tks__sys_note0(op, TKS_DIAG_SYS_ROW_PIPE_SELF);
            close_pair(pp.to_peer);
        }
    }
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        ping_pong(run, rows[i].id, rows[i].what, 0, rows[i].thread, rows[i].cpus, cpus, ncpus);
    for (size_t i = 0; i < sizeof derived / sizeof derived[0]; i++)
        tks__sys_derive(run, derived[i][0], derived[i][1], derived[i][2], "pipe_self", 2, 0.5,
                        TKS_DIAG_SYS_ROW_CTXSW);
    for (size_t i = 0; i < sizeof futexes / sizeof futexes[0]; i++)
        ping_pong(run, futexes[i].id, futexes[i].what, 1, futexes[i].thread, futexes[i].cpus,
                  cpus, ncpus);
    sigaction(SIGPIPE, &old, NULL);
    munmap(word, 3 * sizeof *word);
    return 0;
}
