/* SPDX-License-Identifier: MIT */
/* os.c: the os suite's system calls, page faults and process and thread creation (the context
 * switches are in ctxsw.c). Each body sets up outside its windows; what the window holds is said
 * in the row's note (a sys.row.* diagnostic). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sys/sys_internal.h"

extern char **environ;

const char *const tks__sys_os_ids[] = {
    "getpid", "clock_gettime", "syscall_entry", "getppid", "getppid_stream", "sched_yield",
    "fault_minor", "fault_file", "fault_major", "fork", "posix_spawn", "thread", "pipe_self", "pipe_rt_proc",
    "pipe_rt_proc_1cpu", "pipe_rt_proc_2cpu", "pipe_rt_thread_1cpu", "pipe_rt_thread_2cpu",
    "ctxsw_proc_1cpu", "ctxsw_proc_2cpu", "ctxsw_thread_1cpu", "ctxsw_thread_2cpu",
    "futex_proc_1cpu", "futex_proc_2cpu", "futex_thread_1cpu", "futex_thread_2cpu", NULL};

/* What the bodies below share with tks__sys_os (one suite runs at a time). */
static struct {
    char *page;               /* the page faulted in again and again */
    size_t page_size;
    int fd;                   /* the file behind fault_file and fault_major */
    int failures;             /* fork, spawn or thread creation that failed inside a window */
    int child_signal;         /* a child killed by a signal */
} os;

static void bm_getpid(tks_state *st) { TKS_MEASURE(st, { tks_do_not_optimize(syscall(SYS_getpid)); }); }

/* getppid as perf bench syscall basic calls it (the C library's wrapper; nothing is cached) */
static void bm_getppid(tks_state *st) { TKS_MEASURE(st, { tks_do_not_optimize(getppid()); }); }

static void bm_clock_gettime(tks_state *st)
{
    struct timespec ts;
    TKS_MEASURE(st, {
        clock_gettime(CLOCK_MONOTONIC, &ts);
        tks_do_not_optimize(ts.tv_nsec);
    });
}

static void bm_sched_yield(tks_state *st) { TKS_MEASURE(st, { sched_yield(); }); }

/* Before each window the page is unmapped again (MADV_DONTNEED), outside it; the window's store
 * then takes the fault: a fresh zeroed page (anonymous) or the page cache's page (file). */
static void drop_page(void *ctx)
{
    (void)ctx;
    madvise(os.page, os.page_size, MADV_DONTNEED);
}
/* Also out of the page cache, so the next touch reads the disk: a major fault. */
static void evict_page(void *ctx)
{
    (void)ctx;
    madvise(os.page, os.page_size, MADV_DONTNEED);
    posix_fadvise(os.fd, 0, (off_t)os.page_size, POSIX_FADV_DONTNEED);
}

static void bm_fault_minor(tks_state *st)
{
    volatile char *p = os.page;
    TKS_MEASURE_EACH(st, drop_page, 0, 0, { *p = 1; });
}

static void bm_fault_file(tks_state *st)
{
    volatile char *p = os.page;
    TKS_MEASURE_EACH(st, drop_page, 0, 0, { tks_do_not_optimize(*p); });
}

static void bm_fault_major(tks_state *st)
{
    volatile char *p = os.page;
    TKS_MEASURE_EACH(st, evict_page, 0, 0, { tks_do_not_optimize(*p); });
}

static void reap(pid_t pid)
{
    int status;
    if (pid <= 0) {
        os.failures++;
        return;
    }
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFSIGNALED(status))
        os.child_signal = WTERMSIG(status);
}

static void bm_fork(tks_state *st)
{
    TKS_MEASURE(st, {
        pid_t pid = fork();
        if (pid == 0)
            _exit(0);
        reap(pid);
    });
}

static const char *spawn_path = "/bin/true";
static void bm_posix_spawn(tks_state *st)
{
    char *argv[] = {(char *)"true", NULL};
    if (access(spawn_path, X_OK) != 0) {
        tks_state_skip(st, "no /bin/true to spawn");
        return;
    }
    TKS_MEASURE(st, {
        pid_t pid = -1;
        if (posix_spawn(&pid, spawn_path, NULL, NULL, argv, environ) != 0)
            pid = -1;
        reap(pid);
    });
}

static void *thread_main(void *arg) { return arg; }
static void bm_thread(tks_state *st)
{
    TKS_MEASURE(st, {
        pthread_t t;
        if (pthread_create(&t, NULL, thread_main, NULL) == 0)
            pthread_join(t, NULL);
        else
            os.failures++;
    });
}

/* A one-page file with its page in the page cache, where evicting it means the disk: /var/tmp
 * (or $TMPDIR) is on disk on most systems, where /tmp may be tmpfs. */
static int open_file(void)
{
    const char *dir = getenv("TMPDIR");
    char path[512];
    int fd;
    snprintf(path, sizeof path, "/var/tmp/tickscope-sys-XXXXXX");
    fd = mkstemp(path);
    if (fd < 0) {
        snprintf(path, sizeof path, "%s/tickscope-sys-XXXXXX", dir && *dir ? dir : "/tmp");
        fd = mkstemp(path);
    }
    if (fd < 0)
        return -1;
    unlink(path);
    char *buf = calloc(1, os.page_size);
    if (!buf || write(fd, buf, os.page_size) != (ssize_t)os.page_size || fsync(fd) != 0) {
        free(buf);
        close(fd);
        return -1;
    }
    free(buf);
    return fd;
}

static long majflt(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_majflt : -1;
}

static void faults(struct tks__sys_run *run)
{
    tks_sys_op *op;
    long before;
    os.page = mmap(NULL, os.page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (os.page == MAP_FAILED) {
        os.page = NULL;
        tks__diag(&run->r->diags, TKS_DIAG_SYS_NO_FAULT_PAGE, TKS__DN(errno));
    } else if (tks__sys_wanted(run, "fault_minor") &&
               (op = tks__sys_measure(run, "fault_minor", "minor page fault (first touch, anonymous)",
                                      bm_fault_minor, TKS_MODE_LATENCY, 1)) != NULL) {
        tks__sys_note0(op, TKS_DIAG_SYS_ROW_FAULT_MINOR);
    }
    if (os.page)
        munmap(os.page, os.page_size);
    os.fd = open_file();
    os.page = os.fd < 0 ? MAP_FAILED : mmap(NULL, os.page_size, PROT_READ, MAP_SHARED, os.fd, 0);
    if (os.page == MAP_FAILED) {
        os.page = NULL;
        tks__diag0(&run->r->diags, TKS_DIAG_SYS_NO_FAULT_FILE);
        if (os.fd >= 0)
            close(os.fd);
        return;
    }
    if (tks__sys_wanted(run, "fault_file") &&
        (op = tks__sys_measure(run, "fault_file", "page fault on a file page in the page cache",
                               bm_fault_file, TKS_MODE_LATENCY, 1)) != NULL)
        tks__sys_note0(op, TKS_DIAG_SYS_ROW_FAULT_FILE);
    before = majflt();
    if (tks__sys_wanted(run, "fault_major") &&
        (op = tks__sys_measure(run, "fault_major", "major page fault (the page read from disk)",
                               bm_fault_major, TKS_MODE_LATENCY, 1)) != NULL) {
        long got = majflt() - before;
        tks__sys_note(op, TKS_DIAG_SYS_ROW_FAULT_MAJOR, TKS__DN(got));
        if (op->ok && got < (long)op->windows / 2)
            tks__diag(&op->diags, TKS_DIAG_SYS_FAULTS_MINOR, TKS__DN(got), TKS__DN(op->windows));
    }
    munmap(os.page, os.page_size);
    close(os.fd);
}

static void creation_row(struct tks__sys_run *run, const char *id, const char *what,
                         tks_bench_fn fn, enum tks_diag_code note)
{
    tks_sys_op *op;
    if (!tks__sys_wanted(run, id))
        return;
    os.failures = 0;
    os.child_signal = 0;
    /* a fork or a spawn costs a millisecond or so: more time, or too few windows for a 5% interval */
    run->time_factor = 4;
    op = tks__sys_measure(run, id, what, fn, TKS_MODE_LATENCY, 1);
    run->time_factor = 0;
    if (!op)
        return;
    tks__sys_note0(op, note);
    if (op->ok && os.failures)
        tks__sys_fail(op, "%d creations failed inside the windows (%s)", os.failures,
                      "resource limits?");
    else if (op->ok && os.child_signal)
        tks__sys_fail(op, "a child was killed by signal %d (%s)", os.child_signal,
                      strsignal(os.child_signal));
}

int tks__sys_os(struct tks__sys_run *run)
{
    tks_sys_op *op;
    long ps = sysconf(_SC_PAGESIZE);
    os.page_size = ps > 0 ? (size_t)ps : 4096;
    if (tks__sys_wanted(run, "getpid") &&
        (op = tks__sys_measure(run, "getpid", "getpid system call (raw, syscall(2))", bm_getpid,
                               TKS_MODE_LATENCY, 1)) != NULL)
        tks__sys_note0(op, TKS_DIAG_SYS_ROW_GETPID);
    if (tks__sys_wanted(run, "clock_gettime") &&
        (op = tks__sys_measure(run, "clock_gettime", "clock_gettime(CLOCK_MONOTONIC) (vDSO)",
                               bm_clock_gettime, TKS_MODE_LATENCY, 1)) != NULL)
        tks__sys_note0(op, TKS_DIAG_SYS_ROW_CLOCK_GETTIME);
    tks__sys_derive(run, "syscall_entry", "kernel entry and exit", "getpid", "clock_gettime", 1, 1,
                    TKS_DIAG_SYS_ROW_SYSCALL_ENTRY);
    /* perf bench syscall basic times a loop of getppid calls: one call alone in a fenced window
     * (latency) and calls back to back (throughput: k a window, the slope over k) can differ,
     * so both are measured, and perf is put beside the second */
    if (tks__sys_wanted(run, "getppid") &&
        (op = tks__sys_measure(run, "getppid", "getppid, one call per fenced window",
                               bm_getppid, TKS_MODE_LATENCY, 1)) != NULL)
        tks__sys_note0(op, TKS_DIAG_SYS_ROW_GETPPID);
    if (tks__sys_wanted(run, "getppid_stream") &&
        (op = tks__sys_measure(run, "getppid_stream", "getppid, calls back to back",
                               bm_getppid, TKS_MODE_THROUGHPUT, 1)) != NULL)
        tks__sys_note0(op, TKS_DIAG_SYS_ROW_GETPPID_STREAM);
    if (tks__sys_wanted(run, "sched_yield") &&
        (op = tks__sys_measure(run, "sched_yield", "sched_yield", bm_sched_yield,
                               TKS_MODE_LATENCY, 1)) != NULL)
        tks__sys_note0(op, TKS_DIAG_SYS_ROW_SCHED_YIELD);
    faults(run);
    creation_row(run, "fork", "fork + exit + wait", bm_fork, TKS_DIAG_SYS_ROW_FORK);
    creation_row(run, "posix_spawn", "posix_spawn /bin/true + wait", bm_posix_spawn,
                 TKS_DIAG_SYS_ROW_SPAWN);
    creation_row(run, "thread", "pthread_create + join", bm_thread, TKS_DIAG_SYS_ROW_THREAD);
    return tks__sys_ctxsw(run);
}
