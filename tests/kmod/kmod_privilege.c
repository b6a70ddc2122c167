/* SPDX-License-Identifier: MIT */
/* kmod_privilege.c: who may use /dev/tickscope, inside the throw-away VM of run_qemu.sh: write
 * access at open, CAP_SYS_RAWIO at open and at every run (a descriptor kept after dropping it is
 * no use), CAP_SYS_MODULE for snippets and only for them, and kernel.modules_disabled read as
 * init sees it. Prints "ABUSE PASS/FAIL" lines and "PRIVILEGE DONE ok|failed". */
#include "abuse_util.h"

#include <sched.h>
#include <sys/mount.h>

/* Drop capability cap from this process's effective and permitted sets (root keeps its uid). */
static int drop_cap(int cap)
{
    struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
    struct __user_cap_data_struct d[2];

    if (syscall(SYS_capget, &h, d) != 0)
        return -1;
    d[cap / 32].effective &= ~(1u << (cap % 32));
    d[cap / 32].permitted &= ~(1u << (cap % 32));
    return (int)syscall(SYS_capset, &h, d);
}

static int drop_rawio(void)
{
    return drop_cap(CAP_SYS_RAWIO);
}

/* Privilege: CAP_SYS_RAWIO at open and at every run, and write access at open. fd is open. */
static void privilege(int fd, unsigned method)
{
    int status = 0, rofd;
    pid_t pid;

    rofd = open(TKS_KMOD_DEVICE, O_RDONLY | O_CLOEXEC);
    check(rofd < 0 && errno == EACCES, "open read-only refused with EACCES: %s",
          rofd < 0 ? strerror(errno) : "opened");
    if (rofd >= 0)
        close(rofd);
    pid = fork();
    if (pid == 0) {
        if (drop_rawio() != 0)
            _exit(2);
        _exit(open_dev() < 0 && errno == EPERM ? 0 : 1);
    }
    waitpid(pid, &status, 0);
    check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "open by root without CAP_SYS_RAWIO refused with EPERM (status 0x%x)", status);
    /* A descriptor opened with the privilege (ours, inherited) is no use to a process that
     * has dropped it. */
    pid = fork();
    if (pid == 0) {
        struct tks_kmod_run r = base_run(method);
        struct tks_kmod_info i;
        if (drop_rawio() != 0)
            _exit(2);
        if (ioctl(fd, TKS_IOC_INFO, &i) != 0) /* INFO only reads the limits */
            _exit(3);
        _exit(ioctl(fd, TKS_IOC_RUN, &r) != 0 && errno == EPERM ? 0 : 1);
    }
    waitpid(pid, &status, 0);
    check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "RUN after dropping CAP_SYS_RAWIO refused with EPERM (status 0x%x)", status);
    /* Snippets, and only snippets, also want CAP_SYS_MODULE: without it a snippet is EPERM
     * and INFO says why (6), while a loop still runs. The same child with the capability
     * runs the snippet (exit 0 then 0), so the refusal is the capability's. */
    for (int keep = 0; keep < 2; keep++) {
        pid = fork();
        if (pid == 0) {
            static const unsigned char nop[] = {0x90};
            struct tks_kmod_snippet sn;
            struct tks_kmod_run r = base_run(method), loop = base_run(method);
            struct tks_kmod_info i;
            memset(&sn, 0, sizeof(sn));
            sn.code = (uintptr_t)nop;
            sn.code_len = 1;
            sn.loops = 1;
            sn.scratch_bytes = 64;
            r.workload = TKS_KWORK_SNIPPET;
            r.snippet = (uintptr_t)&sn;
            r.work_start = 1;
            loop.workload = TKS_KWORK_LOOP;
            loop.work_start = 10;
            if (!keep && drop_cap(CAP_SYS_MODULE) != 0)
                _exit(2);
            if (ioctl(fd, TKS_IOC_INFO, &i) != 0 ||
                i.snippet_refused != (keep ? TKS_KREFUSE_NONE : TKS_KREFUSE_CAP))
                _exit(3);
            if (ioctl(fd, TKS_IOC_RUN, &loop) != 0)
                _exit(4);
            if (keep)
                _exit(ioctl(fd, TKS_IOC_RUN, &r) == 0 ? 0 : 5);
            _exit(ioctl(fd, TKS_IOC_RUN, &r) != 0 && errno == EPERM ? 0 : 1);
        }
        waitpid(pid, &status, 0);
        check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
              keep ? "with CAP_SYS_MODULE: INFO's snippet_refused 0, a loop and a snippet run "
                     "(status 0x%x)"
                   : "without CAP_SYS_MODULE: INFO's snippet_refused 6, a loop runs, a snippet "
                     "is refused with EPERM (status 0x%x)",
              status);
    }
}

/* kernel.modules_disabled is read as init's root sees it: a file of "1" bind-mounted over it in
 * a mount namespace of the caller's own changes nothing (INFO still says 0 and a snippet runs),
 * where a module that read the caller's view would refuse (5), and a "0" over a set one would
 * get past it. (Setting the real one cannot be undone, and the boot still unloads the module.) */
static void modules_disabled_view(int fd, unsigned method)
{
    int status = 0;
    pid_t pid = fork();
    if (pid == 0) {
        static const unsigned char nop[] = {0x90};
        const char *fake = "/tmp/fake_modules_disabled", *real = "/proc/sys/kernel/modules_disabled";
        struct tks_kmod_snippet sn;
        struct tks_kmod_run r = base_run(method);
        struct tks_kmod_info i;
        char c = 0;
        FILE *f;
        memset(&sn, 0, sizeof(sn));
        sn.code = (uintptr_t)nop;
        sn.code_len = 1;
        sn.loops = 1;
        sn.scratch_bytes = 64;
        r.workload = TKS_KWORK_SNIPPET;
        r.snippet = (uintptr_t)&sn;
        r.work_start = 1;
        if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
            _exit(2);
        if (!(f = fopen(fake, "w")) || fputs("1\n", f) < 0 || fclose(f) != 0 ||
            mount(fake, real, NULL, MS_BIND, NULL) != 0)
            _exit(3);
        if (!(f = fopen(real, "r")) || fread(&c, 1, 1, f) != 1 || c != '1')
            _exit(4); /* the fake is what this namespace sees */
        fclose(f);
        if (ioctl(fd, TKS_IOC_INFO, &i) != 0 || i.snippet_refused != TKS_KREFUSE_NONE)
            _exit(5);
        _exit(ioctl(fd, TKS_IOC_RUN, &r) == 0 ? 0 : 6);
    }
    waitpid(pid, &status, 0);
    check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "kernel.modules_disabled read as init sees it: a \"1\" mounted over it in the caller's "
          "own mount namespace leaves snippet_refused 0 and a snippet runs (status 0x%x)",
          status);
}

int main(void)
{
    unsigned method;
    int fd, e;

    setvbuf(stdout, NULL, _IOLBF, 0);
    fd = open_dev_or_done("PRIVILEGE DONE");
    if (fd < 0)
        return 1;
    e = ioc(fd, TKS_IOC_INFO, &info);
    check(e == 0 && info.abi == TKS_KMOD_ABI, "INFO: abi %u", info.abi);
    method = info_method();
    privilege(fd, method);
    modules_disabled_view(fd, method);
    close(fd);
    printf("PRIVILEGE RESULT %d passed, %d failed\n", passes, failures);
    printf("PRIVILEGE DONE %s\n", failures ? "failed" : "ok");
    return failures ? 1 : 0;
}
