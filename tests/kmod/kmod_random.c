/* SPDX-License-Identifier: MIT */
/* kmod_random.c SEED SECONDS: a bounded random sequence of requests to /dev/tickscope from
 * several threads at once, inside the throw-away VM of run_qemu.sh: random fields, sizes and
 * pointers, opens and closes racing the other threads' requests. The kernel's console is then
 * scanned for oopses, warnings, lockups and stalls (run_qemu.sh); this program checks that every
 * answer is one the protocol (tickscope/kmod.h) documents, and prints its seed so that a failure
 * can be replayed. Prints "RANDOM ..." lines and "RANDOM DONE ok|failed". */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "tickscope/clock.h"
#include "tickscope/kmod.h"

#define THREADS 4
#define SLOTS 2
#define KERNEL_PTR ((uintptr_t)0xffff888000000000ull)

static int slot_fd[SLOTS] = {-1, -1};
static pthread_mutex_t slot_lock = PTHREAD_MUTEX_INITIALIZER;
static void *unmapped, *readonly, *noaccess;
static double deadline;
static unsigned ncpu = 1;

struct worker {
    uint64_t rng;
    unsigned long ops, ok, errnos[256], unexpected;
    unsigned long snippets_ok, snippets_caught; /* snippet runs that ran, that faulted */
    uint64_t buf[256];
};

static uint64_t next(struct worker *w)
{
    uint64_t x = w->rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return w->rng = x;
}

static unsigned below(struct worker *w, unsigned n) { return (unsigned)(next(w) % n); }

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* A pointer for the kernel to read or write: mostly good, sometimes not. */
static void *pointer(struct worker *w, void *good)
{
    switch (below(w, 8)) {
    case 0: return NULL;
    case 1: return (void *)KERNEL_PTR;
    case 2: return unmapped;
    case 3: return readonly;
    case 4: return (char *)good + 1; /* unaligned */
    default: return good;
    }
}

/* Code for the snippet workload: NOPs (a pointer into them at any offset), snippets that fault
 * (in the area, out of it, at a user address) or hang or push or change RFLAGS (each of which the module must turn into an error, never an oops or a
 * lockup: a random byte run could write anywhere in the kernel, these cannot), and sometimes a
 * pointer the kernel cannot read: a PROT_NONE page kept mapped (an unmapped one may be reused by
 * a thread's stack, zeros: code that writes). */
static unsigned char nops[2 * TKS_KMOD_SNIPPET_CODE_MAX + 2];
static const struct {
    unsigned char code[12];
    uint32_t len;
} hazards[] = {
    {{0x0f, 0x0b}, 2},                               /* ud2 */
    {{0xcc}, 1},                                     /* int3 */
    {{0x48, 0x8b, 0x04, 0x25, 0, 0, 0, 0}, 8},       /* mov rax, [0] */
    {{0x31, 0xc9, 0x48, 0xf7, 0xf1}, 5},             /* xor ecx, ecx; div rcx */
    {{0x0f, 0x01, 0xcb}, 3},                         /* stac */
    {{0x68, 0x00, 0x47, 0x04, 0x00, 0x9d}, 6},       /* push AC|NT|DF|IF|TF; popfq */
    {{0xfa, 0xeb, 0xfe}, 3},                         /* cli; jmp $ */
    {{0x50}, 1},                                     /* push rax (the module's stack) */
    {{0x31, 0xc0, 0xff, 0xe0}, 4},                   /* xor eax, eax; jmp rax (out of the area) */
    {{0x48, 0x8b, 0x04, 0x25, 0, 0, 1, 0}, 8},       /* mov rax, [0x10000] (a user address) */
};

static uint64_t code_pointer(struct worker *w, uint32_t *len)
{
    unsigned h;
    switch (below(w, 10)) {
    case 0: return 0;
    case 1: return KERNEL_PTR;
    case 2: return (uintptr_t)noaccess;
    case 3:
        h = below(w, sizeof hazards / sizeof hazards[0]);
        *len = hazards[h].len;
        return (uintptr_t)hazards[h].code;
    default: return (uintptr_t)nops + below(w, TKS_KMOD_SNIPPET_CODE_MAX);
    }
}

/* A 32-bit field: usually in range, sometimes at an edge, sometimes anything. */
static uint32_t field(struct worker *w, uint32_t lo, uint32_t hi)
{
    switch (below(w, 10)) {
    case 0: return (uint32_t)next(w);
    case 1: return hi + 1;
    case 2: return 0xffffffffu;
    default: return lo + (uint32_t)(next(w) % (hi - lo + 1));
    }
}

/* What the protocol allows a request to answer (kmod.h), EBADF for a descriptor another thread
 * closed in between. */
static int allowed(int e)
{
    switch (e) {
    case 0: case EINVAL: case EFAULT: case ENOTTY: case EBUSY: case ENODATA: case EPROTO:
    case EOPNOTSUPP: case EINTR: case ETIME: case EAGAIN: case EIO: case ENOMEM: case EBADF:
    case ENOEXEC:
        return 1;
    default:
        return 0;
    }
}

static uint32_t field(struct worker *w, uint32_t lo, uint32_t hi);

/* A random struct tks_kmod_snippet for r: fields mostly in range; the structure itself is
 * ours, NULL, unreadable or the kernel's (never a shifted copy: its code pointer would be junk). */
static void random_snippet(struct worker *w, struct tks_kmod_run *r, struct tks_kmod_snippet *sn)
{
    static void *const where[] = {NULL, (void *)KERNEL_PTR};
    memset(sn, 0, sizeof *sn);
    sn->code_len = field(w, 1, 16);
    sn->code = code_pointer(w, &sn->code_len);
    if (below(w, 2)) {
        sn->init_len = field(w, 0, TKS_KMOD_SNIPPET_INIT_MAX);
        sn->init = code_pointer(w, &sn->init_len);
    }
    sn->loops = field(w, 1, 100);
    sn->scratch_bytes = field(w, 1, 65536);
    sn->align = below(w, 4) ? 1u << below(w, 13) : field(w, 0, 5000);
    sn->flags = below(w, 30) ? 0 : (uint32_t)next(w);
    if (!below(w, 30))
        sn->reserved[below(w, 2)] = next(w);
    if (!below(w, 3)) { /* a third in range, so that snippets run (and fault) often */
        sn->loops = 1 + below(w, 100);
        sn->scratch_bytes = 64;
        sn->align = 0;
        sn->flags = 0;
        sn->reserved[0] = sn->reserved[1] = 0;
        if (sn->code != (uintptr_t)noaccess && sn->code != KERNEL_PTR && sn->code)
            sn->init = 0, sn->init_len = 0;
    }
    switch (below(w, 10)) {
    case 0: r->snippet = (uintptr_t)where[below(w, 2)]; break;
    case 1: r->snippet = (uintptr_t)noaccess; break;
    default: r->snippet = (uintptr_t)sn; break;
    }
}

static int request(struct worker *w, int fd)
{
    struct tks_kmod_snippet sn;
    struct tks_kmod_info info;
    struct tks_kmod_run r;
    struct tks_kmod_read rd;
    int rc;

    switch (below(w, 10)) {
    case 0:
        rc = ioctl(fd, TKS_IOC_INFO, pointer(w, &info));
        break;
    case 1: case 2: case 3: case 4:
        memset(&r, 0, sizeof r);
        r.abi = below(w, 20) ? TKS_KMOD_ABI : (uint32_t)next(w);
        r.method = field(w, 0, TKS_METHOD_COUNT - 1);
        r.workload = field(w, 0, TKS_KWORK_COUNT - 1);
        r.own = field(w, 0, TKS_KOWN_COUNT - 1);
        r.ensembles = field(w, 1, 8);
        r.samples = field(w, 2, 64);
        r.work_start = r.workload == TKS_KWORK_LOOP ? field(w, 0, 20000) : field(w, 0, 8);
        r.work_step = below(w, 3) ? 0 : field(w, 0, 20);
        r.cpu = (int32_t)field(w, 0, ncpu + 1) - (below(w, 4) ? 0 : 2);
        r.flags = below(w, 30) ? 0 : (uint32_t)next(w);
        if (!below(w, 30))
            r.reserved[0] = next(w);
        if (r.workload == TKS_KWORK_SNIPPET || !below(w, 20))
            random_snippet(w, &r, &sn);
        rc = ioctl(fd, TKS_IOC_RUN, pointer(w, &r));
        if (r.workload == TKS_KWORK_SNIPPET) {
            w->snippets_ok += rc == 0;
            w->snippets_caught += rc != 0 && errno == ENOEXEC;
        }
        break;
    case 5: case 6: case 7:
        memset(&rd, 0, sizeof rd);
        rd.buf = (uint64_t)(uintptr_t)pointer(w, w->buf);
        rd.first = below(w, 8) ? below(w, 600) : next(w);
        rd.count = below(w, 8) ? below(w, 256) : (uint32_t)next(w);
        if (rd.buf == (uint64_t)(uintptr_t)w->buf && rd.count > 256)
            rd.count = 256; /* our own buffer: never past its end */
        if (rd.buf == (uint64_t)(uintptr_t)w->buf + 1)
            rd.count = rd.count > 255 ? 255 : rd.count;
        rd.reserved = below(w, 20) ? 0 : 1;
        rc = ioctl(fd, TKS_IOC_READ, pointer(w, &rd));
        break;
    case 8:
        rc = ioctl(fd, TKS_IOC_FREE, NULL);
        break;
    default: /* requests that are not the protocol's */
        rc = ioctl(fd, below(w, 2) ? _IOWR(TKS_IOC_MAGIC, below(w, 16), uint64_t)
                                   : (unsigned long)next(w), w->buf);
        break;
    }
    return rc == 0 ? 0 : errno;
}

static void *work(void *p)
{
    struct worker *w = p;

    while (now() < deadline) {
        unsigned k = below(w, SLOTS);
        int fd, e;

        pthread_mutex_lock(&slot_lock);
        fd = slot_fd[k];
        if (fd < 0 || !below(w, 50)) { /* sometimes close what is open, racing the others */
            if (fd >= 0)
                close(fd);
            slot_fd[k] = fd = open(TKS_KMOD_DEVICE, O_RDWR | O_CLOEXEC);
        }
        pthread_mutex_unlock(&slot_lock);
        if (fd < 0) {
            e = errno;
        } else {
            e = request(w, fd);
        }
        w->ops++;
        if (e == 0)
            w->ok++;
        w->errnos[e & 255]++;
        if (!allowed(e) && !(fd < 0 && e == EBUSY)) {
            w->unexpected++;
            printf("RANDOM FAIL: errno %d (%s)\n", e, strerror(e));
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    struct worker *w;
    pthread_t t[THREADS];
    unsigned long ops = 0, ok = 0, unexpected = 0, by[256] = {0}, snip_ok = 0, snip_caught = 0;
    uint64_t seed;
    double seconds;
    long n;
    int i, e;

    if (argc != 3) {
        fprintf(stderr, "usage: kmod_random SEED SECONDS\n");
        return 2;
    }
    seed = strtoull(argv[1], NULL, 0);
    seconds = atof(argv[2]);
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("RANDOM seed=%llu seconds=%.0f threads=%d\n", (unsigned long long)seed, seconds,
           THREADS);
    n = sysconf(_SC_NPROCESSORS_CONF);
    ncpu = n > 0 ? (unsigned)n : 1;
    unmapped = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    munmap(unmapped, 4096);
    readonly = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    memset(nops, 0x90, sizeof nops);
    noaccess = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    w = calloc(THREADS, sizeof *w);
    if (!w || readonly == MAP_FAILED || noaccess == MAP_FAILED)
        return 1;
    deadline = now() + seconds;
    for (i = 0; i < THREADS; i++) {
        w[i].rng = seed * 0x9e3779b97f4a7c15ull + (uint64_t)i * 0x632be59bd9b4e019ull + 1;
        pthread_create(&t[i], NULL, work, &w[i]);
    }
    for (i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        ops += w[i].ops;
        ok += w[i].ok;
        unexpected += w[i].unexpected;
        snip_ok += w[i].snippets_ok;
        snip_caught += w[i].snippets_caught;
        for (e = 0; e < 256; e++)
            by[e] += w[i].errnos[e];
    }
    for (i = 0; i < SLOTS; i++)
        if (slot_fd[i] >= 0)
            close(slot_fd[i]);
    printf("RANDOM ops=%lu ok=%lu", ops, ok);
    for (e = 1; e < 256; e++)
        if (by[e])
            printf(" %s=%lu", strerrorname_np(e) ? strerrorname_np(e) : "?", by[e]);
    /* The module is loaded with allow_snippets=1: snippets must have reached the CPU. */
    printf("\nRANDOM snippets ran=%lu caught=%lu\n", snip_ok, snip_caught);
    i = unexpected || ops == 0 || snip_ok + snip_caught == 0;
    printf("RANDOM DONE %s\n", i ? "failed" : "ok");
    return i;
}
