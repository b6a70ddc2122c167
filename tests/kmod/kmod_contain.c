/* SPDX-License-Identifier: MIT */
/* kmod_contain.c: the hazards of issue 43, each run alone through /dev/tickscope inside the
 * throw-away VM of run_qemu.sh, which unloads the module after each:
 *   kmod_contain CASE             one hazard (push, pop, call, jump-out, user-load, int3, ud2,
 *                                 cli-spin): its one answer, then no NMI in the next second and
 *                                 a harmless snippet runs
 *   kmod_contain lockdown-midrun  lockdown raised while a snippet's run goes on: the run ends
 *                                 with EPERM at its next section, long before its end
 * Prints "ABUSE PASS/FAIL" lines and "CONTAIN DONE <case> ok|failed". */
#include "snippet_util.h"

/* The NMIs every CPU has taken (/proc/interrupts, "NMI:"), -1 when it cannot be read. */
static long long nmi_count(void)
{
    char line[1024];
    long long sum = -1;
    FILE *f = fopen("/proc/interrupts", "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f)) {
        char *p = line + strspn(line, " ");
        if (strncmp(p, "NMI:", 4))
            continue;
        sum = 0;
        for (p += 4;;) {
            char *end;
            long long v = strtoll(p, &end, 10);
            if (end == p)
                break;
            sum += v;
            p = end;
        }
    }
    fclose(f);
    return sum;
}

/* After a hazard: the watchdog is gone (no NMI in a second; the NMI watchdog, if any, sends one
 * every 10 s at most), and a harmless snippet runs. */
static void aftermath(int fd, const char *what)
{
    long long n0, n1;
    usleep(300000);
    n0 = nmi_count();
    usleep(1000000);
    n1 = nmi_count();
    check(n0 >= 0 && n1 >= 0 && n1 - n0 <= 1, "%s: %lld NMIs in the second after it (want 0 or 1)",
          what, n1 - n0);
    still_works(fd, what);
}

struct contain_case {
    const char *name, *what;
    unsigned char code[16];
    uint32_t len, copies, loops;
    int want;                    /* the errno */
    uint32_t vector, where;      /* with ENOEXEC */
};

/* One hazard of the list, and what the module must answer. Each is run alone between a
 * load and an unload of the module (run_qemu.sh). */
static void contain(int fd, const char *name)
{
    static const struct contain_case cases[] = {
        /* 16 pushes a copy, 1,024 copies: 128 KiB an iteration, the deepest the module's stack
         * is made for; the loop starts every iteration from the same RSP */
        {"push", "push rax x 16384 an iteration, 2 iterations",
         {0x50, 0x50, 0x50, 0x50, 0x50, 0x50, 0x50, 0x50, 0x50, 0x50, 0x50, 0x50, 0x50, 0x50,
          0x50, 0x50}, 16, 1024, 2, 0, 0, 0},
        {"pop", "pop rax x 16384 an iteration, 2 iterations",
         {0x58, 0x58, 0x58, 0x58, 0x58, 0x58, 0x58, 0x58, 0x58, 0x58, 0x58, 0x58, 0x58, 0x58,
          0x58, 0x58}, 16, 1024, 2, 0, 0, 0},
        {"call", "call +0 (a push of 8 bytes a copy) x 1024", {0xe8, 0, 0, 0, 0}, 5, 1024, 8, 0,
         0, 0},
        {"jump-out", "xor eax, eax; jmp rax (to address 0)", {0x31, 0xc0, 0xff, 0xe0}, 4, 4, 4,
         ENOEXEC, 14, TKS_KFAULT_OUTSIDE},
        {"user-load", "mov rax, [0x10000] (a user address: SMAP)",
         {0x48, 0x8b, 0x04, 0x25, 0x00, 0x00, 0x01, 0x00}, 8, 4, 4, ENOEXEC, 14, TKS_KFAULT_CODE},
        {"int3", "int3", {0xcc}, 1, 4, 4, ENOEXEC, 3, TKS_KFAULT_CODE},
        {"ud2", "ud2", {0x0f, 0x0b}, 2, 4, 4, ENOEXEC, 6, TKS_KFAULT_CODE},
        {"cli-spin", "cli; jmp $", {0xfa, 0xeb, 0xfe}, 3, 4, 4, EINVAL, 0, 0},
    };
    struct tks_kmod_snippet sn;
    struct tks_kmod_run r;
    const struct contain_case *c = NULL;
    char what[160];
    size_t i;
    int e;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        if (!strcmp(cases[i].name, name))
            c = &cases[i];
    if (!c) {
        check(0, "contain: no case '%s'", name);
        return;
    }
    r = snippet(&sn, c->code, c->len, NULL, 0, TKS_KOWN_IRQ_OFF);
    r.work_start = c->copies;
    r.samples = 4;
    sn.loops = c->loops;
    e = ioc(fd, TKS_IOC_RUN, &r);
    check(e == c->want && (e != ENOEXEC || (r.fault_vector == c->vector && r.fault_where == c->where)),
          "contain %s: %s (want %s), vector %u, where %u (want %u, %u)", c->what,
          e ? strerror(e) : "success", c->want ? strerror(c->want) : "success", r.fault_vector,
          r.fault_where, c->vector, c->where);
    snprintf(what, sizeof what, "after %s", c->what);
    aftermath(fd, what);
}

/* Lockdown raised while a snippet's run is going on (a second thread writes it): the module
 * looks at every section, so the run ends with EPERM long before its own end (it would run into
 * max_run_ms and end with ETIME after 5 s). Last: lockdown cannot be lowered again. */
static void *raise_lockdown(void *arg)
{
    FILE *f;
    (void)arg;
    usleep(300000);
    f = fopen("/sys/kernel/security/lockdown", "w");
    if (f) {
        fputs("integrity", f);
        fclose(f);
    }
    return NULL;
}

static void lockdown_midrun(int fd)
{
    static const unsigned char nop[] = {0x90};
    struct tks_kmod_snippet sn;
    struct tks_kmod_run r = snippet(&sn, nop, 1, NULL, 0, TKS_KOWN_IRQ_OFF);
    pthread_t t;
    double t0, secs;
    int e;

    r.ensembles = 1024; /* 4M samples of 16,384 nops: far past max_run_ms (5 s) under TCG */
    r.samples = 4096;
    r.work_start = 64;
    sn.loops = 256;
    pthread_create(&t, NULL, raise_lockdown, NULL);
    t0 = seconds();
    e = ioc(fd, TKS_IOC_RUN, &r);
    secs = seconds() - t0;
    pthread_join(t, NULL);
    if (ioc(fd, TKS_IOC_INFO, &info))
        info.snippet_refused = UINT32_MAX;
    check(e == EPERM && secs < 2.0 && info.snippet_refused == TKS_KREFUSE_LOCKDOWN,
          "lockdown raised 0.3 s into a snippet's run: %s after %.3f s (want EPERM within 2 s), "
          "INFO's snippet_refused %u (want 1)",
          e ? strerror(e) : "success", secs, info.snippet_refused);
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    char done[96];
    int fd, e;

    setvbuf(stdout, NULL, _IOLBF, 0);
    snprintf(done, sizeof(done), "CONTAIN DONE %s", what);
    fd = open_dev_or_done(done);
    if (fd < 0)
        return 1;
    e = ioc(fd, TKS_IOC_INFO, &info);
    check(e == 0 && info.abi == TKS_KMOD_ABI && info.snippet_refused == TKS_KREFUSE_NONE,
          "INFO: abi %u, snippet_refused %u", info.abi, info.snippet_refused);
    method = info_method();
    if (!strcmp(what, "lockdown-midrun"))
        lockdown_midrun(fd);
    else
        contain(fd, what);
    close(fd);
    printf("CONTAIN RESULT %s %d passed, %d failed\n", what, passes, failures);
    printf("CONTAIN DONE %s %s\n", what, failures ? "failed" : "ok");
    return failures ? 1 : 0;
}
