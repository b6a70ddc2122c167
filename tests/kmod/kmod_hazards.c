/* SPDX-License-Identifier: MIT */
/* kmod_hazards.c: snippets that would take a machine down, run through /dev/tickscope inside the
 * throw-away VM of run_qemu.sh, each of which the module must turn into a one-request error:
 *   kmod_hazards refused         the module loaded without allow_snippets=1: snippets EPERM (and
 *                                the parameter read-only), every other workload runs
 *   kmod_hazards taint           one snippet: the taint bit S appears (prints the pid the console
 *                                line must name: "HAZARD PID <pid>")
 *   kmod_hazards faults          #UD, #PF (address 0, a read-only kernel page), #DE, #GP, #BP:
 *                                ENOEXEC with the vector and the byte; the next run works
 *   kmod_hazards hangs           jmp $, cli; jmp $, mov rsp, 0; jmp $ and a snippet that spins only
 *                                after the probe, in both ownership modes: refused or ended
 *                                within the bound while a task on the other CPU keeps running,
 *                                and the next snippet waits out the cool-down first
 *   kmod_hazards flags           stac, popf of AC|NT|DF|IF|TF: RFLAGS restored, the run succeeds
 *   kmod_hazards flushes         a run's layouts send no TLB-flush IPI to the other CPU
 *   kmod_hazards lockdown        after lockdown was raised: snippets and cr0 EPERM, the rest runs
 * Prints "ABUSE PASS/FAIL" lines and "HAZARDS DONE ok|failed". */
#include "snippet_util.h"

#include <sched.h>

/* ------------------------------------------------------------------ faults */
struct fault_case {
    const char *what;
    unsigned char code[24];
    uint32_t len;
    uint32_t vector, offset;
    uint32_t or_vector; /* what the emulator raises instead, where it differs (0: none) */
};

static void faults(int fd)
{
    static const struct fault_case cases[] = {
        {"ud2", {0x0f, 0x0b}, 2, 6, 0, 0},
        {"mov rax, [0] (a load from address 0)", {0x48, 0x8b, 0x04, 0x25, 0, 0, 0, 0}, 8, 14, 0, 0},
        {"xor ecx, ecx; div rcx (divide by zero)", {0x31, 0xc9, 0x48, 0xf7, 0xf1}, 5, 0, 2, 0},
        {"lea rax, [rip - 7]; mov byte [rax], 0x90 (a write to the module's read-only text)",
         {0x48, 0x8d, 0x05, 0xf9, 0xff, 0xff, 0xff, 0xc6, 0x00, 0x90}, 10, 14, 7, 0},
        /* #GP on hardware; QEMU 7.2's TCG raises #PF for a non-canonical address */
        {"movabs rax, 1 << 47; mov rax, [rax] (a non-canonical address)",
         {0x48, 0xb8, 0, 0, 0, 0, 0, 0x80, 0, 0, 0x48, 0x8b, 0x00}, 13, 13, 10, 14},
        {"nop; int3", {0x90, 0xcc}, 2, 3, 1, 0},
        {"jmp +64 (into the INT3 filler)", {0xeb, 0x40}, 2, 3, 0, 0},
    };
    static const unsigned char init_ud2[] = {0x90, 0x0f, 0x0b};
    struct tks_kmod_snippet sn;
    struct tks_kmod_run r;
    size_t i;
    unsigned own;
    int e;

    for (own = 0; own < TKS_KOWN_COUNT; own++)
        for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
            const struct fault_case *c = &cases[i];
            int filler = c->code[0] == 0xeb; /* lands past the loop: the harness's side */
            r = snippet(&sn, c->code, c->len, NULL, 0, own);
            e = ioc(fd, TKS_IOC_RUN, &r);
            check(e == ENOEXEC &&
                      (r.fault_vector == c->vector || (c->or_vector && r.fault_vector == c->or_vector)) &&
                      r.fault_where == (filler ? TKS_KFAULT_HARNESS : TKS_KFAULT_CODE) &&
                      (filler || r.fault_offset == c->offset),
                  "fault %s (%s): %s, vector %u at byte %u of %s (want vector %u, byte %u)",
                  c->what, own_name(own), e ? strerror(e) : "success", r.fault_vector,
                  r.fault_offset,
                  r.fault_where == TKS_KFAULT_CODE      ? "the code"
                  : r.fault_where == TKS_KFAULT_HARNESS ? "the harness"
                                                        : "?",
                  c->vector, c->offset);
        }
    r = snippet(&sn, "\x90", 1, init_ud2, sizeof(init_ud2), TKS_KOWN_IRQ_OFF);
    e = ioc(fd, TKS_IOC_RUN, &r);
    check(e == ENOEXEC && r.fault_vector == 6 && r.fault_where == TKS_KFAULT_INIT &&
              r.fault_offset == 1,
          "fault ud2 in the init code: %s, vector %u, where %u, byte %u", e ? strerror(e) : "success",
          r.fault_vector, r.fault_where, r.fault_offset);
    still_works(fd, "the faults");
}

/* ------------------------------------------------------------------ hangs */
static volatile uint64_t beats;
static volatile int beating;

static void *heartbeat(void *arg)
{
    cpu_set_t set;
    (void)arg;
    CPU_ZERO(&set);
    CPU_SET(0, &set);
    sched_setaffinity(0, sizeof(set), &set);
    while (beating) {
        beats++;
        usleep(1000);
    }
    return NULL;
}

/* The next snippet after one whose call the watchdog had to stop waits out the module's
 * cool-down (nine times the time the call was let run: at least 9 x 100 ms in a VM), so a loop of
 * hanging snippets keeps the CPU's interrupts off a tenth of the time at most. A harmless snippet
 * takes that wait, timed, before the next hang is timed alone. */
static void cooled_down(int fd, const char *after)
{
    static const unsigned char nop[] = {0x90};
    struct tks_kmod_snippet sn;
    struct tks_kmod_run r = snippet(&sn, nop, 1, NULL, 0, TKS_KOWN_IRQ_OFF);
    double t0 = seconds(), waited;
    int e = ioc(fd, TKS_IOC_RUN, &r);

    waited = seconds() - t0;
    check(e == 0 && waited >= 0.8, "cool-down after %s: the next snippet ran after %.3f s (want "
          "at least 0.8 s: nine times the 100 ms a call may run in a VM): %s", after, waited,
          e ? strerror(e) : "success");
}

/* One snippet that would hang its CPU: refused by the probe (EINVAL, sample_ticks past the bound)
 * or ended in a section (ETIME), within a second, while CPU 0's task keeps beating (a 1 ms sleep
 * a beat: under TCG 10 to 20 ms; two beats need the CPU to run through the 100 ms the call is
 * left to spin). */
static void hang(int fd, const char *what, const void *code, uint32_t len, const void *init,
                 uint32_t init_len, unsigned own, int want)
{
    uint64_t bound = info.tsc_khz * info.section_us / 1000, b0;
    struct tks_kmod_snippet sn;
    struct tks_kmod_run r = snippet(&sn, code, len, init, init_len, own);
    double t0, secs;
    int e;

    b0 = beats;
    t0 = seconds();
    e = ioc(fd, TKS_IOC_RUN, &r);
    secs = seconds() - t0;
    check(e == want && (want != EINVAL || r.sample_ticks > bound) && secs < 1.0 &&
              beats - b0 >= 2,
          "hang %s (%s): %s after %.3f s (want %s), sample_ticks %llu (bound %llu), the other "
          "CPU's task beat %llu times meanwhile",
          what, own_name(own), e ? strerror(e) : "success", secs, strerror(want),
          (unsigned long long)r.sample_ticks, (unsigned long long)bound,
          (unsigned long long)(beats - b0));
    cooled_down(fd, what);
}

static void hangs(int fd)
{
    static const unsigned char spin[] = {0xeb, 0xfe};
    static const unsigned char cli_spin[] = {0xfa, 0xeb, 0xfe};
    static const unsigned char rsp_spin[] = {0x48, 0xc7, 0xc4, 0, 0, 0, 0, 0xeb, 0xfe};
    /* init: inc qword [r14]; cmp qword [r14], 8; jbe +2; jmp $ -- returns for the probe's
     * three calls and spins from the ninth on, inside a section. */
    static const unsigned char later[] = {0x49, 0xff, 0x06, 0x49, 0x83, 0x3e, 0x08,
                                          0x76, 0x02, 0xeb, 0xfe};
    static const unsigned char nop[] = {0x90};
    pthread_t t;
    unsigned own;

    if (info.nr_cpu_ids < 2) {
        check(0, "hangs: the VM has one CPU, the checks need two");
        return;
    }
    beating = 1;
    pthread_create(&t, NULL, heartbeat, NULL);
    usleep(20000);
    for (own = 0; own < TKS_KOWN_COUNT; own++) {
        hang(fd, "jmp $", spin, sizeof(spin), NULL, 0, own, EINVAL);
        hang(fd, "cli; jmp $", cli_spin, sizeof(cli_spin), NULL, 0, own, EINVAL);
        hang(fd, "mov rsp, 0; jmp $", rsp_spin, sizeof(rsp_spin), NULL, 0, own, EINVAL);
        hang(fd, "an init that spins after the probe's calls", nop, 1, later, sizeof(later), own,
             ETIME);
    }
    beating = 0;
    pthread_join(t, NULL);
    still_works(fd, "the hangs");
}

/* ------------------------------------------------------------------ flags */
static void flags(int fd)
{
    static const unsigned char stac[] = {0x0f, 0x01, 0xcb};
    /* push 0x44700 (AC | NT | DF | IF | TF); popfq */
    static const unsigned char popf[] = {0x68, 0x00, 0x47, 0x04, 0x00, 0x9d};
    struct tks_kmod_snippet sn;
    struct tks_kmod_run r;
    char what[120];
    unsigned own;

    for (own = 0; own < TKS_KOWN_COUNT; own++) {
        r = snippet(&sn, stac, sizeof(stac), NULL, 0, own);
        snprintf(what, sizeof(what), "flags: stac, restored after every call (%s)", own_name(own));
        good_run(fd, r, what, NULL);
        /* One popf a call: each sets TF, and each single step is a #DB the module's die
         * notifier stops (sixteen a call took 1 ms under TCG on the PREEMPT_RT kernel). */
        r = snippet(&sn, popf, sizeof(popf), NULL, 0, own);
        r.work_start = 1;
        sn.loops = 1;
        snprintf(what, sizeof(what), "flags: popf of AC|NT|DF|IF|TF, restored after every call (%s)",
                 own_name(own));
        good_run(fd, r, what, NULL);
    }
}

/* ------------------------------------------------------------------ flushes */
/* The function-call IPIs every CPU has taken (/proc/interrupts, "CAL:": a kernel TLB flush of
 * every CPU is one, as the start of the module's watchdog on the other CPU), -1 when unreadable. */
static long long function_calls(void)
{
    char line[1024];
    long long sum = -1;
    FILE *f = fopen("/proc/interrupts", "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f)) {
        char *p = line + strspn(line, " "), *end;
        if (strncmp(p, "CAL:", 4))
            continue;
        sum = 0;
        for (p += 4;; p = end) {
            long long v = strtoll(p, &end, 10);
            if (end == p)
                break;
            sum += v;
        }
    }
    fclose(f);
    return sum;
}

/* 20 runs of a nop snippet with ensembles ensembles of 16, 32, ... copies: 0 when all ran, and
 * the function-call IPIs every CPU took meanwhile in *calls. */
static int runs_calls(int fd, uint32_t ensembles, long long *calls)
{
    static const unsigned char nop[] = {0x90};
    struct tks_kmod_snippet sn;
    struct tks_kmod_run r;
    long long t0 = function_calls();
    int i, bad = 0;

    for (i = 0; i < 20; i++) {
        r = snippet(&sn, nop, 1, NULL, 0, TKS_KOWN_IRQ_OFF);
        r.ensembles = ensembles;
        r.work_start = 16;
        r.work_step = 16;
        bad += ioc(fd, TKS_IOC_RUN, &r) != 0;
    }
    *calls = t0 >= 0 && function_calls() >= 0 ? function_calls() - t0 : -1;
    return bad;
}

/* Each layout of a snippet's function (one per ensemble's n, and the INT3s put back at the end)
 * flushes its writable mapping from the snippet's CPU alone. A run of four ensembles lays out six
 * functions (the probe's, three more n, the last n again, the INT3s), a run of one two; when
 * every layout flushed every CPU (vm_unmap_aliases) that was an IPI each, 80 more over 20 runs
 * (the boot saw 208 function calls for 20 runs of four then, 68 with the local flush: the
 * watchdog's start, the kernel thread's wake-up, ...). The longer runs take more of those too:
 * 0 to 25 more in three boots with the local flush, hence fewer than 50. */
static void flushes(int fd)
{
    long long one = 0, four = 0;
    int bad = runs_calls(fd, 1, &one);

    bad += runs_calls(fd, 4, &four);
    check(!bad && one >= 0 && four >= 0 && four - one < 50,
          "flushes: 20 snippet runs of 4 layouts took %lld function-call IPIs, 20 of 1 layout "
          "%lld (%d failed; want fewer than 50 more: no flush of the other CPU per layout)",
          four, one, bad);
}

/* ------------------------------------------------------------------ refusals */
static unsigned long tainted(void)
{
    unsigned long t = 0;
    FILE *f = fopen("/proc/sys/kernel/tainted", "r");
    if (f) {
        if (fscanf(f, "%lu", &t) != 1)
            t = 0;
        fclose(f);
    }
    return t;
}

#define TAINT_S (1ul << 2) /* TAINT_CPU_OUT_OF_SPEC */

static void taint(int fd)
{
    static const unsigned char nop[] = {0x90};
    struct tks_kmod_snippet sn;
    struct tks_kmod_run r = snippet(&sn, nop, 1, NULL, 0, TKS_KOWN_IRQ_OFF);
    unsigned long before = tainted();
    check(!(before & TAINT_S), "taint: no S before the first snippet (tainted %lu)", before);
    printf("HAZARD PID %d\n", (int)getpid());
    good_run(fd, r, "taint: one snippet", NULL);
    check(tainted() & TAINT_S, "taint: S after it (tainted %lu)", tainted());
}

/* Snippets refused with EPERM and INFO saying why; cr0 too when want_cr0; a loop and an add
 * chain still run. */
static void refused(int fd, uint32_t why, int cr0_too)
{
    static const unsigned char nop[] = {0x90};
    struct tks_kmod_snippet sn;
    struct tks_kmod_run r;
    unsigned own;

    check(info.snippet_refused == why, "INFO: snippet_refused %u (want %u)", info.snippet_refused,
          why);
    for (own = 0; own < TKS_KOWN_COUNT; own++) {
        r = snippet(&sn, nop, 1, NULL, 0, own);
        expect_errno(run_errno(fd, r), EPERM, own ? "snippet refused (preempt-off)"
                                                  : "snippet refused (irq-off)");
    }
    if (cr0_too) {
        check(!(info.methods & (1u << TKS_METHOD_CR0)) && info.cr0_refused == 3,
              "INFO: cr0 not offered, cr0_refused %u (want 3)", info.cr0_refused);
        r = base_run(TKS_METHOD_CR0);
        expect_errno(run_errno(fd, r), EPERM, "RUN with method cr0 refused");
    }
    r = base_run(method);
    r.workload = TKS_KWORK_LOOP;
    r.work_start = 100;
    good_run(fd, r, "a loop still runs", NULL);
    r = base_run(method);
    r.workload = TKS_KWORK_ADDS;
    r.work_start = 10;
    good_run(fd, r, "an add chain still runs", NULL);
}

static void param_read_only(void)
{
    FILE *f = fopen("/sys/module/tickscope/parameters/allow_snippets", "r");
    char c = '?';
    int wrote;
    check(f && fread(&c, 1, 1, f) == 1 && c == 'N', "allow_snippets reads N (%c)", c);
    if (f)
        fclose(f);
    wrote = set_param("allow_snippets", 1) == 0;
    check(!wrote, "allow_snippets cannot be set after load (%s)", wrote ? "written" : "refused");
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    int fd, e;

    setvbuf(stdout, NULL, _IOLBF, 0);
    fd = open_dev_or_done("HAZARDS DONE");
    if (fd < 0)
        return 1;
    e = ioc(fd, TKS_IOC_INFO, &info);
    check(e == 0 && info.abi == TKS_KMOD_ABI, "INFO: abi %u", info.abi);
    if (e || !info.tsc_khz) {
        check(0, "no INFO or no TSC rate: the bound cannot be judged");
        printf("HAZARDS DONE failed\n");
        return 1;
    }
    method = info_method();
    if (!strcmp(what, "refused")) {
        refused(fd, TKS_KREFUSE_PARAM, 0);
        param_read_only();
    } else if (!strcmp(what, "taint")) {
        taint(fd);
    } else if (!strcmp(what, "faults")) {
        faults(fd);
    } else if (!strcmp(what, "hangs")) {
        hangs(fd);
    } else if (!strcmp(what, "flags")) {
        flags(fd);
    } else if (!strcmp(what, "flushes")) {
        flushes(fd);
    } else if (!strcmp(what, "lockdown")) {
        refused(fd, TKS_KREFUSE_LOCKDOWN, 1);
    } else {
        check(0, "usage: kmod_hazards refused|taint|faults|hangs|flags|flushes|lockdown (got '%s')", what);
    }
    close(fd);
    printf("HAZARDS RESULT %s %d passed, %d failed\n", what, passes, failures);
    printf("HAZARDS DONE %s %s\n", what, failures ? "failed" : "ok");
    return failures ? 1 : 0;
}
