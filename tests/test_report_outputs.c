/* SPDX-License-Identifier: MIT */
/* test_report_outputs.c: output files pointed at things other than a plain name: symbolic links
 * are followed, FIFOs and sockets written directly (never replaced), and the temporaries of files
 * being written removed when SIGINT or SIGTERM ends the process. Device nodes: test_report_devices. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "file_util.h"
#include "report/common/report.h"
#include "tickscope.h"

#define EIO_U64 ((uint64_t)(int64_t)TKS_EIO)

static char dir[] = "/tmp/tks_outputs_XXXXXX";

static char *at(const char *name)
{
    static char paths[4][PATH_MAX];
    static int next;
    char *p = paths[next++ % 4];
    snprintf(p, PATH_MAX, "%s/%s", dir, name);
    return p;
}

static int write_to(const char *path, const char *text)
{
    tks__atomic_file af;
    int rc = tks__atomic_open(&af, path);
    if (rc)
        return rc;
    fputs(text, af.f);
    return tks__atomic_commit(&af);
}

static int is_link(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

/* A link is written through, to where it points, and stays a link; relative links resolve
 * against the link's own directory, chains are followed, a dangling link creates its target. */
static void test_symlinks(void)
{
    char buf[64];
    tks__atomic_file af;

    CHECK(mkdir(at("real"), 0755) == 0);
    CHECK(symlink(at("real/abs.txt"), at("abs.link")) == 0);
    CHECK_EQ_U64(write_to(at("abs.link"), "through an absolute link\n"), 0);
    CHECK(is_link(at("abs.link")));
    CHECK_STR(slurp(at("real/abs.txt"), buf, sizeof buf), "through an absolute link\n");

    CHECK(symlink("real/rel.txt", at("rel2.link")) == 0);
    CHECK(symlink("rel2.link", at("rel1.link")) == 0);
    CHECK_EQ_U64(write_to(at("rel1.link"), "old\n"), 0); /* dangling: creates real/rel.txt */
    CHECK_EQ_U64(write_to(at("rel1.link"), "through a chain\n"), 0);
    CHECK(is_link(at("rel1.link")) && is_link(at("rel2.link")));
    CHECK_STR(slurp(at("real/rel.txt"), buf, sizeof buf), "through a chain\n");
    CHECK_EQ_U64(count_entries(at("real")), 2); /* abs.txt, rel.txt: no temporaries */

    CHECK(symlink("real", at("dir.link")) == 0);
    CHECK_EQ_U64(tks__atomic_open(&af, at("dir.link")), EIO_U64);
    CHECK_EQ_U64(af.err, EISDIR);
    CHECK(symlink("loop.b", at("loop.a")) == 0 && symlink("loop.a", at("loop.b")) == 0);
    CHECK_EQ_U64(tks__atomic_open(&af, at("loop.a")), EIO_U64);
    CHECK_EQ_U64(af.err, ELOOP);
    CHECK_EQ_U64(count_entries(dir), 7); /* real, abs.link, rel1/2.link, dir.link, loop.a/b */
}

/* The reader of a FIFO gets the report; the FIFO stays a FIFO. */
static void test_fifo(void)
{
    char buf[64];
    struct stat st;
    pid_t pid;
    int status;
    const char *fifo = at("fifo"), *copy = at("fifo.copy");

    CHECK(mkfifo(fifo, 0644) == 0);
    pid = fork();
    if (pid == 0) { /* the reader: copies what it reads to a file */
        FILE *in = fopen(fifo, "r"), *out = fopen(copy, "w");
        size_t n;
        if (!in || !out)
            _exit(1);
        n = fread(buf, 1, sizeof buf, in);
        fwrite(buf, 1, n, out);
        _exit(fclose(out) != 0);
    }
    CHECK(pid > 0);
    CHECK_EQ_U64(write_to(fifo, "through a fifo\n"), 0);
    CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK_STR(slurp(copy, buf, sizeof buf), "through a fifo\n");
    CHECK(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode));
    unlink(fifo);
    unlink(copy);
}

/* A listening Unix socket gets a connection and the report over it. */
static void test_socket(void)
{
    struct sockaddr_un sa;
    struct stat st;
    char buf[64];
    ssize_t n;
    int ls = socket(AF_UNIX, SOCK_STREAM, 0), c;
    const char *path = at("sock");

    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
    CHECK(ls >= 0 && bind(ls, (struct sockaddr *)&sa, sizeof sa) == 0 && listen(ls, 1) == 0);
    CHECK_EQ_U64(write_to(path, "through a socket\n"), 0); /* small: fits the socket's buffer */
    c = accept(ls, NULL, NULL);
    CHECK(c >= 0);
    n = c >= 0 ? read(c, buf, sizeof buf - 1) : -1;
    buf[n > 0 ? n : 0] = '\0';
    CHECK_STR(buf, "through a socket\n");
    CHECK(lstat(path, &st) == 0 && S_ISSOCK(st.st_mode));
    if (c >= 0)
        close(c);
    close(ls);
    unlink(path);
}

static int on_term_seen;
static void on_term(int sig)
{
    (void)sig;
    on_term_seen = 1;
}

/* In a child: a file half written when sig arrives. How: 0 = default action (the child dies by
 * the signal), 1 = the program's own handler (still called, after the cleanup), 2 = ignored
 * (the child lives and commits). Returns the child's wait status. */
static int interrupted_child(int sig, int how, const char *name)
{
    pid_t pid = fork();
    int status = -1;
    if (pid == 0) {
        tks__atomic_file af;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = how == 1 ? on_term : how == 2 ? SIG_IGN : SIG_DFL;
        sigaction(sig, &sa, NULL);
        if (tks__atomic_open(&af, at(name)) != 0)
            _exit(10);
        fputs("half", af.f);
        fflush(af.f);
        raise(sig);
        if (how == 1) { /* the temporary is gone and the handler ran */
            struct sigaction now;
            sigaction(sig, NULL, &now);
            tks__atomic_abort(&af);
            _exit(on_term_seen && now.sa_handler == on_term ? 0 : 11);
        }
        _exit(tks__atomic_commit(&af) == 0 ? 0 : 12);
    }
    if (pid > 0)
        waitpid(pid, &status, 0);
    return status;
}

static void test_signals(void)
{
    int st, sigs[] = {SIGINT, SIGTERM};
    for (int i = 0; i < 2; i++) {
        st = interrupted_child(sigs[i], 0, "killed.txt");
        CHECK(WIFSIGNALED(st) && WTERMSIG(st) == sigs[i]);
        CHECK_EQ_U64(count_entries(dir), 0);
    }
    st = interrupted_child(SIGTERM, 1, "handled.txt");
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    CHECK_EQ_U64(count_entries(dir), 0);
    st = interrupted_child(SIGINT, 2, "ignored.txt"); /* as under nohup: nothing is removed */
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    CHECK(access(at("ignored.txt"), F_OK) == 0);
    unlink(at("ignored.txt"));
}

/* Once nothing is being written, the program's own disposition is back. */
static void test_handler_restored(void)
{
    struct sigaction sa, now;
    tks__atomic_file a, b;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_term;
    sigaction(SIGTERM, &sa, NULL);
    CHECK_EQ_U64(tks__atomic_open(&a, at("a.txt")), 0);
    CHECK_EQ_U64(tks__atomic_open(&b, at("b.txt")), 0);
    sigaction(SIGTERM, NULL, &now);
    CHECK(now.sa_handler != on_term); /* ours, while temporaries exist */
    tks__atomic_abort(&a);
    sigaction(SIGTERM, NULL, &now);
    CHECK(now.sa_handler != on_term); /* b is still being written */
    CHECK_EQ_U64(tks__atomic_commit(&b), 0);
    sigaction(SIGTERM, NULL, &now);
    CHECK(now.sa_handler == on_term);
    sa.sa_handler = SIG_DFL;
    sigaction(SIGTERM, &sa, NULL);
    unlink(at("b.txt"));
}

int main(void)
{
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_fifo();
    test_socket();
    test_signals();
    test_handler_restored();
    CHECK_EQ_U64(count_entries(dir), 0);
    test_symlinks();
    {
        static const char *left[] = {"real/abs.txt", "real/rel.txt", "real", "abs.link", "rel1.link",
                                     "rel2.link", "dir.link", "loop.a", "loop.b"};
        for (size_t i = 0; i < sizeof left / sizeof left[0]; i++)
            remove(at(left[i]));
    }
    CHECK(rmdir(dir) == 0);
    CHECK_DONE();
}
