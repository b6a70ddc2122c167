/* SPDX-License-Identifier: MIT */
/* kmod_abuse.c: drives /dev/tickscope the way a careless or hostile caller would, inside the
 * throw-away VM of run_qemu.sh: every field out of range, bad pointers, wrong order of calls,
 * two opens, two threads, then valid runs of every method, workload, ownership mode and CPU
 * (kmod_limits.c drives the limits: the bound, max_run_ms, privilege, the freezer, CPU hotplug
 * and killed callers). Prints "ABUSE PASS <what>" / "ABUSE FAIL: <what>" and "ABUSE DONE ok|failed". */
#include "abuse_util.h"

static void bad_runs(int fd, unsigned m)
{
    struct tks_kmod_run r;
    unsigned i;

    r = base_run(m); r.abi = 0;
    expect_errno(run_errno(fd, r), EPROTO, "RUN abi 0");
    r = base_run(m); r.abi = TKS_KMOD_ABI + 1;
    expect_errno(run_errno(fd, r), EPROTO, "RUN abi +1");
    r = base_run(m); r.flags = 1;
    expect_errno(run_errno(fd, r), EINVAL, "RUN flags 1");
    r = base_run(m); r.fault_vector = 1;
    expect_errno(run_errno(fd, r), EINVAL, "RUN fault_vector (out only)");
    r = base_run(m); r.fault_where = 1;
    expect_errno(run_errno(fd, r), EINVAL, "RUN fault_where (out only)");
    r = base_run(m); r.fault_offset = 1;
    expect_errno(run_errno(fd, r), EINVAL, "RUN fault_offset (out only)");
    r = base_run(m); r.snippet = (uintptr_t)&r;
    expect_errno(run_errno(fd, r), EINVAL, "RUN snippet pointer with workload empty");
    for (i = 0; i < sizeof(r.reserved) / sizeof(r.reserved[0]); i++) {
        r = base_run(m); r.reserved[i] = 1u << i;
        expect_errno(run_errno(fd, r), EINVAL, "RUN reserved[i]");
    }
    if ((info.methods >> TKS_METHOD_CR0) & 1) {
        r = base_run(TKS_METHOD_CR0); r.own = TKS_KOWN_PREEMPT_OFF;
        expect_errno(run_errno(fd, r), EINVAL, "RUN cr0 with interrupts on");
    }
    r = base_run(m); r.method = TKS_METHOD_COUNT;
    expect_errno(run_errno(fd, r), EINVAL, "RUN method COUNT");
    r = base_run(m); r.method = 0xffffffffu;
    expect_errno(run_errno(fd, r), EINVAL, "RUN method ~0");
    r = base_run(m); r.method = TKS_METHOD_ISB;
    expect_errno(run_errno(fd, r), EOPNOTSUPP, "RUN method isb (arm64)");
    r = base_run(m); r.workload = TKS_KWORK_COUNT;
    expect_errno(run_errno(fd, r), EINVAL, "RUN workload COUNT");
    r = base_run(m); r.own = TKS_KOWN_COUNT;
    expect_errno(run_errno(fd, r), EINVAL, "RUN own COUNT");
    r = base_run(m); r.own = 0x80000000u;
    expect_errno(run_errno(fd, r), EINVAL, "RUN own huge");
    r = base_run(m); r.ensembles = 0;
    expect_errno(run_errno(fd, r), EINVAL, "RUN ensembles 0");
    r = base_run(m); r.samples = 0;
    expect_errno(run_errno(fd, r), EINVAL, "RUN samples 0");
    r = base_run(m); r.samples = 1;
    expect_errno(run_errno(fd, r), EINVAL, "RUN samples 1");
    r = base_run(m); r.ensembles = 2; r.samples = info.total_max / 2 + 1;
    expect_errno(run_errno(fd, r), EINVAL, "RUN ensembles x samples > total_max");
    r = base_run(m); r.ensembles = 1; r.samples = info.total_max + 1;
    expect_errno(run_errno(fd, r), EINVAL, "RUN samples > total_max");
    r = base_run(m); r.ensembles = 0x10000; r.samples = 0x10000; /* 2^32: 0 in 32 bits */
    expect_errno(run_errno(fd, r), EINVAL, "RUN ensembles x samples = 2^32");
    r = base_run(m); r.ensembles = 0xffffffffu; r.samples = 0xffffffffu;
    expect_errno(run_errno(fd, r), EINVAL, "RUN ensembles x samples ~ 2^64");
    r = base_run(m); r.work_start = 1;
    expect_errno(run_errno(fd, r), EINVAL, "RUN empty with work_start 1");
    r = base_run(m); r.work_step = 1;
    expect_errno(run_errno(fd, r), EINVAL, "RUN empty with work_step 1");
    r = base_run(m); r.workload = TKS_KWORK_ADDS; r.work_start = info.work_max[TKS_KWORK_ADDS] + 1;
    expect_errno(run_errno(fd, r), EINVAL, "RUN adds start > max");
    r = base_run(m); r.workload = TKS_KWORK_ADDS; r.ensembles = 4; r.work_step = 70;
    expect_errno(run_errno(fd, r), EINVAL, "RUN adds last ensemble > max");
    r = base_run(m); r.workload = TKS_KWORK_ADDS; r.work_step = 0xffffffffu;
    expect_errno(run_errno(fd, r), EINVAL, "RUN adds step wraps 32 bits");
    r = base_run(m); r.workload = TKS_KWORK_ADDS; r.ensembles = 3; r.work_start = 0x80000000u;
    r.work_step = 0x80000000u;
    expect_errno(run_errno(fd, r), EINVAL, "RUN adds start + 2 step wraps to 2^32");
    r = base_run(m); r.workload = TKS_KWORK_LOOP; r.work_start = info.work_max[TKS_KWORK_LOOP] + 1;
    expect_errno(run_errno(fd, r), EINVAL, "RUN loop start > max");
    r = base_run(m); r.workload = TKS_KWORK_PROBE; r.work_start = TKS_KPROBE_COUNT;
    expect_errno(run_errno(fd, r), EINVAL, "RUN probe unknown");
    r = base_run(m); r.workload = TKS_KWORK_PROBE; r.work_step = 1;
    expect_errno(run_errno(fd, r), EINVAL, "RUN probe with a step");
    r = base_run(m); r.cpu = (int32_t)info.nr_cpu_ids;
    expect_errno(run_errno(fd, r), EINVAL, "RUN cpu nr_cpu_ids");
    r = base_run(m); r.cpu = -2;
    expect_errno(run_errno(fd, r), EINVAL, "RUN cpu -2");
    r = base_run(m); r.cpu = INT_MAX;
    expect_errno(run_errno(fd, r), EINVAL, "RUN cpu INT_MAX");
    r = base_run(m); r.cpu = INT_MIN;
    expect_errno(run_errno(fd, r), EINVAL, "RUN cpu INT_MIN");
    expect_errno(ioc(fd, TKS_IOC_RUN, NULL), EFAULT, "RUN NULL");
    expect_errno(ioc(fd, TKS_IOC_RUN, (void *)KERNEL_PTR), EFAULT, "RUN kernel pointer");
}

/* The snippet workload: a NOP, an ADD and the init that sets RCX for RDMSR. */
static const unsigned char snip_nop[] = {0x90}, snip_add[] = {0x48, 0x01, 0xc0};

static struct tks_kmod_run snippet_run(unsigned m, struct tks_kmod_snippet *sn)
{
    struct tks_kmod_run r = base_run(m);
    memset(sn, 0, sizeof(*sn));
    sn->code = (uintptr_t)snip_add;
    sn->code_len = sizeof(snip_add);
    sn->loops = 10;
    sn->scratch_bytes = 4096;
    r.workload = TKS_KWORK_SNIPPET;
    r.snippet = (uintptr_t)sn;
    r.ensembles = 4;
    r.work_start = 16;
    r.work_step = 16;
    r.samples = 20;
    return r;
}

/* Every field of struct tks_kmod_snippet out of range: EINVAL or EFAULT, and nothing runs. */
static void bad_snippets(int fd, unsigned m)
{
    static unsigned char big[TKS_KMOD_SNIPPET_CODE_MAX + 1];
    struct tks_kmod_snippet sn;
    struct tks_kmod_run r;
    unsigned i;

    r = snippet_run(m, &sn); r.snippet = 0;
    expect_errno(run_errno(fd, r), EINVAL, "SNIPPET without its structure");
    r = snippet_run(m, &sn); r.snippet = 1;
    expect_errno(run_errno(fd, r), EFAULT, "SNIPPET structure at address 1");
    r = snippet_run(m, &sn); r.snippet = KERNEL_PTR;
    expect_errno(run_errno(fd, r), EFAULT, "SNIPPET structure in the kernel");
    r = snippet_run(m, &sn); sn.code = 0;
    expect_errno(run_errno(fd, r), EINVAL, "SNIPPET code NULL");
    r = snippet_run(m, &sn); sn.code = KERNEL_PTR;
    expect_errno(run_errno(fd, r), EFAULT, "SNIPPET code in the kernel");
    r = snippet_run(m, &sn); sn.code = 1;
    expect_errno(run_errno(fd, r), EFAULT, "SNIPPET code at address 1");
    r = snippet_run(m, &sn); sn.code_len = 0;
    expect_errno(run_errno(fd, r), EINVAL, "SNIPPET code_len 0");
    r = snippet_run(m, &sn); sn.code = (uintptr_t)big; sn.code_len = sizeof(big);
    expect_errno(run_errno(fd, r), EINVAL, "SNIPPET code_len past CODE_MAX");
    r = snippet_run(m, &sn); sn.code_len = 0xffffffffu;
    expect_errno(run_errno(fd, r), EINVAL, "SNIPPET code_len ~0");
    r = snippet_run(m, &sn); sn.code = (uintptr_t)big; sn.code_len = 64; r.work_start = 257;
    r.work_step = 0; r.ensembles = 1;
    expect_errno(run_errno(fd, r), EINVAL, "SNIPPET 257 copies of 64 bytes past BODY_MAX");
    r = snippet_run(m, &sn); r.work_start = TKS_KMOD_SNIPPET_COPIES_MAX + 1; r.ensembles = 1;
    expect_errno(run_errno(fd, r), EINVAL, "SNIPPET copies past COPIES_MAX");
    r = snippet_run(m, &sn); sn.init_len = 4;
    expect_errno(run_errno(fd, r), EINVAL, "SNIPPET init NULL with init_len 4");
    r = snippet_run(m, &sn); sn.init = (uintptr_t)snip_nop;
    expect_errno(run_errno(fd, r), EINVAL, "SNIPPET init with init_len 0");
    r = snippet_run(m, &sn); sn.init = (uintptr_t)big; sn.init_len = TKS_KMOD_SNIPPET_INIT_MAX + 1;
    expect_errno(run_errno(fd, r), EINVAL, "SNIPPET init_len past INIT_MAX");
    r = snippet_run(m, &sn); sn.init = KERNEL_PTR; sn.init_len = 1;
    expect_errno(run_errno(fd, r), EFAULT, "SNIPPET init in the kernel");
    r = snippet_run(m, &sn); sn.loops = 0;
    expect_errno(run_errno(fd, r), EINVAL, "SNIPPET loops 0");
    r = snippet_run(m, &sn); sn.loops = TKS_KMOD_SNIPPET_LOOPS_MAX + 1;
    expect_errno(run_errno(fd, r), EINVAL, "SNIPPET loops past LOOPS_MAX");
    r = snippet_run(m, &sn); sn.scratch_bytes = 0;
    expect_errno(run_errno(fd, r), EINVAL, "SNIPPET scratch 0");
    r = snippet_run(m, &sn); sn.scratch_bytes = TKS_KMOD_SCRATCH_MAX + 1;
    expect_errno(run_errno(fd, r), EINVAL, "SNIPPET scratch past SCRATCH_MAX");
    r = snippet_run(m, &sn); sn.align = 48;
    expect_errno(run_errno(fd, r), EINVAL, "SNIPPET align 48 (not a power of two)");
    r = snippet_run(m, &sn); sn.align = 8192;
    expect_errno(run_errno(fd, r), EINVAL, "SNIPPET align 8192");
    r = snippet_run(m, &sn); sn.flags = 1;
    expect_errno(run_errno(fd, r), EINVAL, "SNIPPET flags 1");
    for (i = 0; i < 2; i++) {
        r = snippet_run(m, &sn); sn.reserved[i] = 1;
        expect_errno(run_errno(fd, r), EINVAL, "SNIPPET reserved[i]");
    }
}

/* Valid snippets: an add chain whose samples grow with the copies, the empty loop, an init,
 * and the ring-0-only instructions QEMU's TCG emulates (a CR0 read, RDMSR of TSC_AUX). */
static void good_snippets(int fd, unsigned m)
{
    static const unsigned char cr0[] = {0x0f, 0x20, 0xc0};          /* mov rax, cr0 */
    static const unsigned char rdmsr[] = {0x0f, 0x32};              /* rdmsr */
    static const unsigned char ecx[] = {0xb9, 0x03, 0x01, 0x00, 0xc0}; /* mov ecx, 0xc0000103 */
    static const unsigned char load[] = {0x49, 0x8b, 0x06};         /* mov rax, [r14] */
    struct tks_kmod_snippet sn;
    struct tks_kmod_run r;
    unsigned o;
    char what[96];

    for (o = 0; o < TKS_KOWN_COUNT; o++) {
        r = snippet_run(m, &sn);
        r.own = o;
        snprintf(what, sizeof(what), "snippet add x 16..64 (%s)", o ? "preempt-off" : "irq-off");
        good_run(fd, r, what, NULL);
    }
    r = snippet_run(m, &sn); r.work_start = 0; r.work_step = 0; r.ensembles = 1;
    good_run(fd, r, "snippet with no copies (the loop alone)", NULL);
    r = snippet_run(m, &sn); sn.code = (uintptr_t)cr0; sn.code_len = sizeof(cr0);
    good_run(fd, r, "snippet mov rax, cr0", NULL);
    r = snippet_run(m, &sn); sn.code = (uintptr_t)rdmsr; sn.code_len = sizeof(rdmsr);
    sn.init = (uintptr_t)ecx; sn.init_len = sizeof(ecx);
    good_run(fd, r, "snippet rdmsr TSC_AUX", NULL);
    r = snippet_run(m, &sn); sn.code = (uintptr_t)load; sn.code_len = sizeof(load);
    sn.align = 4096; sn.scratch_bytes = TKS_KMOD_SCRATCH_MAX;
    good_run(fd, r, "snippet load from the scratch area, aligned to 4096", NULL);
    r = snippet_run(m, &sn); sn.code = (uintptr_t)snip_nop; sn.code_len = 1;
    r.work_start = TKS_KMOD_SNIPPET_COPIES_MAX; r.work_step = 0; r.ensembles = 1;
    good_run(fd, r, "snippet nop x COPIES_MAX", NULL);
}

/* Two threads hammer the one open file; the mutex must serialise them. */
struct thread_arg {
    int fd;
    unsigned method;
    int errors;
};

static void *hammer(void *p)
{
    struct thread_arg *a = p;
    uint64_t buf[64];
    int i;

    for (i = 0; i < 20; i++) {
        struct tks_kmod_run r = base_run(a->method);
        struct tks_kmod_read rd;
        int e;
        r.samples = 32;
        e = ioc(a->fd, TKS_IOC_RUN, &r);
        memset(&rd, 0, sizeof(rd));
        rd.buf = (uintptr_t)buf;
        rd.count = 64;
        /* The other thread may have freed or replaced the run in between: ENODATA or a count
         * of 64 are both fine; anything else is not. */
        if (e == 0) {
            e = ioc(a->fd, TKS_IOC_READ, &rd);
            if (e && e != ENODATA)
                a->errors++;
            if (!e && rd.count != 64)
                a->errors++;
        } else {
            a->errors++;
        }
        if (i % 5 == 4)
            ioc(a->fd, TKS_IOC_FREE, NULL);
    }
    return NULL;
}

int main(void)
{
    struct tks_kmod_read rd;
    struct tks_kmod_run r;
    uint64_t small[16];
    unsigned m, p, o, method = 0;
    int fd, fd2, e, c;
    char what[160];

    setvbuf(stdout, NULL, _IOLBF, 0);
    fd = open_dev_or_done("ABUSE DONE");
    if (fd < 0)
        return 1;
    check(1, "open");
    /* The device is root's (mode 0600): nobody else may open it, even while it is free. */
    {
        pid_t pid = fork();
        int status = 0;
        if (pid == 0) {
            if (setgid(65534) || setuid(65534))
                _exit(2);
            _exit(open_dev() < 0 && errno == EACCES ? 0 : 1);
        }
        waitpid(pid, &status, 0);
        check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "open as uid 65534 refused with EACCES (status 0x%x)", status);
    }
    fd2 = open_dev();
    check(fd2 < 0 && errno == EBUSY, "second open: %s", fd2 < 0 ? strerror(errno) : "succeeded");
    if (fd2 >= 0)
        close(fd2);

    /* INFO */
    memset(&info, 0xff, sizeof(info));
    e = ioc(fd, TKS_IOC_INFO, &info);
    check(e == 0 && info.abi == TKS_KMOD_ABI && info.methods != 0 &&
              info.total_max == TKS_KMOD_TOTAL_MAX && info.section_us == TKS_KMOD_SECTION_US &&
              info.work_max[TKS_KWORK_EMPTY] == 0 &&
              info.work_max[TKS_KWORK_ADDS] == TKS_KMOD_ADDS_MAX &&
              info.work_max[TKS_KWORK_LOOP] == TKS_KMOD_LOOP_MAX &&
              info.work_max[TKS_KWORK_PROBE] == TKS_KPROBE_COUNT - 1 && info.nr_cpu_ids >= 1 &&
              info.work_max[TKS_KWORK_SNIPPET] == TKS_KMOD_SNIPPET_COPIES_MAX &&
              info.reserved0 == 0 && info.reserved[0] == 0 && info.reserved[1] == 0 &&
              info.max_run_ms == TKS_KMOD_RUN_MS_DEFAULT && info.cr0_refused == 0 &&
              info.snippet_refused == TKS_KREFUSE_NONE,
          "INFO: abi %u methods 0x%x total_max %u ensembles_max %u samples_max %u "
          "section_us %u nr_cpu_ids %u tsc_khz %llu",
          info.abi, info.methods, info.total_max, info.ensembles_max, info.samples_max,
          info.section_us, info.nr_cpu_ids, (unsigned long long)info.tsc_khz);
    if (e) {
        printf("ABUSE DONE failed\n");
        return 1;
    }
    for (m = 0; m < TKS_METHOD_COUNT; m++)
        printf("ABUSE INFO method %-9s %s\n", method_name(m),
               (info.methods >> m) & 1 ? "available" : "-");
    check((info.methods >> TKS_METHOD_CR0) & 1, "INFO: cr0 available (ring 0)");
    check(!((info.methods >> TKS_METHOD_ISB) & 1), "INFO: no arm64 methods on x86");
    method = info_method();
    expect_errno(ioc(fd, TKS_IOC_INFO, NULL), EFAULT, "INFO NULL");
    expect_errno(ioc(fd, TKS_IOC_INFO, (void *)KERNEL_PTR), EFAULT, "INFO kernel pointer");

    /* Commands that do not exist, or have another size. */
    expect_errno(ioc(fd, _IO(TKS_IOC_MAGIC, 99), NULL), ENOTTY, "unknown ioctl nr");
    expect_errno(ioc(fd, _IOR(TKS_IOC_MAGIC, 1, uint64_t), small), ENOTTY, "INFO with another size");
    expect_errno(ioc(fd, _IOWR(TKS_IOC_MAGIC, 2, struct tks_kmod_read), small), ENOTTY,
                 "RUN with another size");
    expect_errno(ioc(fd, 0x5401 /* TCGETS */, small), ENOTTY, "TCGETS");

    /* READ before any run */
    memset(&rd, 0, sizeof(rd));
    rd.buf = (uintptr_t)small;
    rd.count = 4;
    expect_errno(ioc(fd, TKS_IOC_READ, &rd), ENODATA, "READ before any run");

    bad_runs(fd, method);
    bad_snippets(fd, method);
    good_snippets(fd, method);

    /* Every available method (cr0 included), one small run each with adds. */
    for (m = 0; m < TKS_METHOD_COUNT; m++) {
        if (!((info.methods >> m) & 1))
            continue;
        r = base_run(m);
        r.workload = TKS_KWORK_ADDS;
        r.ensembles = 5;
        r.samples = 50;
        r.work_step = 50;
        snprintf(what, sizeof(what), "method %s adds 0..200", method_name(m));
        good_run(fd, r, what, NULL);
    }

    /* Every workload with one method, in both ownership modes. */
    for (o = 0; o < TKS_KOWN_COUNT; o++) {
        const char *own = o == TKS_KOWN_IRQ_OFF ? "irq-off" : "preempt-off";
        r = base_run(method);
        r.own = o;
        snprintf(what, sizeof(what), "%s empty", own);
        good_run(fd, r, what, NULL);
        r = base_run(method);
        r.own = o;
        r.workload = TKS_KWORK_ADDS;
        r.ensembles = 201;
        r.samples = 4;
        r.work_step = 1;
        snprintf(what, sizeof(what), "%s adds 0..200 every n", own);
        good_run(fd, r, what, NULL);
        r = base_run(method);
        r.own = o;
        r.workload = TKS_KWORK_LOOP;
        r.ensembles = 4;
        r.samples = 20;
        r.work_step = 1000;
        snprintf(what, sizeof(what), "%s loop 0..3000", own);
        good_run(fd, r, what, NULL);
        for (p = 0; p < TKS_KPROBE_COUNT; p++) {
            r = base_run(method);
            r.own = o;
            r.workload = TKS_KWORK_PROBE;
            r.work_start = p;
            r.samples = 40;
            snprintf(what, sizeof(what), "%s probe %u", own, p);
            good_run(fd, r, what, NULL);
        }
    }

    /* Every CPU, by number. */
    for (c = 0; c < (int)info.nr_cpu_ids && c < 4; c++) {
        r = base_run(method);
        r.cpu = c;
        r.samples = 100;
        snprintf(what, sizeof(what), "cpu %d", c);
        good_run(fd, r, what, NULL);
    }

    /* A rejected RUN keeps the last run; FREE drops it, twice is harmless. */
    r = base_run(method);
    good_run(fd, r, "before FREE", NULL);
    r.abi = 0;
    expect_errno(run_errno(fd, r), EPROTO, "RUN rejected");
    memset(&rd, 0, sizeof(rd));
    rd.buf = (uintptr_t)small;
    rd.count = 4;
    check(ioc(fd, TKS_IOC_READ, &rd) == 0 && rd.count == 4, "READ after a rejected RUN");
    rd.reserved = 1;
    expect_errno(ioc(fd, TKS_IOC_READ, &rd), EINVAL, "READ reserved 1");
    rd.reserved = 0;
    rd.buf = 0;
    expect_errno(ioc(fd, TKS_IOC_READ, &rd), EFAULT, "READ into NULL");
    rd.buf = KERNEL_PTR;
    expect_errno(ioc(fd, TKS_IOC_READ, &rd), EFAULT, "READ into the kernel");
    rd.buf = (uintptr_t)small;
    rd.count = 0;
    check(ioc(fd, TKS_IOC_READ, &rd) == 0 && rd.count == 0, "READ of 0 samples");
    rd.first = UINT64_MAX;
    rd.count = 4;
    expect_errno(ioc(fd, TKS_IOC_READ, &rd), EINVAL, "READ first ~0");
    expect_errno(ioc(fd, TKS_IOC_READ, NULL), EFAULT, "READ NULL");
    expect_errno(ioc(fd, TKS_IOC_READ, (void *)KERNEL_PTR), EFAULT, "READ kernel pointer");
    expect_errno(ioc(fd, TKS_IOC_FREE, NULL), 0, "FREE");
    rd.first = 0;
    expect_errno(ioc(fd, TKS_IOC_READ, &rd), ENODATA, "READ after FREE");
    expect_errno(ioc(fd, TKS_IOC_FREE, NULL), 0, "FREE again");

    /* Two threads on one file. */
    {
        struct thread_arg a = { fd, method, 0 }, b = { fd, method, 0 };
        pthread_t ta, tb;
        pthread_create(&ta, NULL, hammer, &a);
        pthread_create(&tb, NULL, hammer, &b);
        pthread_join(ta, NULL);
        pthread_join(tb, NULL);
        check(a.errors == 0 && b.errors == 0, "two threads, 40 runs on one file: %d errors",
              a.errors + b.errors);
    }

    /* A run left in the buffer is freed by close. */
    r = base_run(method);
    good_run(fd, r, "left for close", NULL);
    close(fd);

    printf("ABUSE RESULT %d passed, %d failed\n", passes, failures);
    printf("ABUSE DONE %s\n", failures ? "failed" : "ok");
    return failures ? 1 : 0;
}
