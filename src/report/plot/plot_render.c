/* SPDX-License-Identifier: MIT */
/* plot_render.c: rendering the plot directory's gnuplot scripts to SVG, when gnuplot is installed,
 * by running it without a shell, one script at a time, and saying what failed. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/common/report.h"
#include "tickscope.h"

/* gnuplot's absolute path from PATH, as execvp would find it (an empty entry is the current
 * directory). Absolute, because it runs after a chdir into the plot directory. */
static int find_gnuplot(char *out, size_t size)
{
    const char *path = getenv("PATH"), *p, *end;
    char cand[PATH_MAX];
    struct stat st;

    if (!path)
        path = "/usr/local/bin:/usr/bin:/bin";
    for (p = path;; p = end + 1) {
        int len;
        end = strchr(p, ':');
        len = end ? (int)(end - p) : (int)strlen(p);
        if (len == 0)
            snprintf(cand, sizeof cand, "./gnuplot");
        else
            snprintf(cand, sizeof cand, "%.*s/gnuplot", len, p);
        if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0 &&
            realpath(cand, out) && strlen(out) < size)
            return 1;
        if (!end)
            return 0;
    }
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The visible *.gp files of dir, sorted so figures render in a stable order. */
static int list_scripts(const char *dir, char ***names_out, size_t *count_out)
{
    DIR *d = opendir(dir);
    struct dirent *ent;
    char **names = NULL, **grown;
    size_t count = 0, cap = 0, len;
    int rc = 0;

    *names_out = NULL;
    *count_out = 0;
    if (!d)
        return TKS_EIO;
    while ((ent = readdir(d)) != NULL) {
        len = strlen(ent->d_name);
        if (ent->d_name[0] == '.' || len < 4 || strcmp(ent->d_name + len - 3, ".gp") != 0)
            continue;
        if (count == cap) {
            cap = cap ? 2 * cap : 16;
            if (!(grown = realloc(names, cap * sizeof *names))) {
                rc = TKS_ENOMEM;
                break;
            }
            names = grown;
        }
        if (!(names[count] = strdup(ent->d_name))) {
            rc = TKS_ENOMEM;
            break;
        }
        count++;
    }
    closedir(d);
    if (rc) {
        while (count)
            free(names[--count]);
        free(names);
        return rc;
    }
    if (count)
        qsort(names, count, sizeof *names, compare_names);
    *names_out = names;
    *count_out = count;
    return 0;
}

/* Run `gnuplot ./SCRIPT` in dir with stdin and stdout on /dev/null; on failure, why holds the last
 * line gnuplot wrote on stderr (its error message). No shell: a file name is never a command. */
static int run_gnuplot(const char *gnuplot, const char *dir, const char *script, char *why,
                       size_t why_size)
{
    char arg[PATH_MAX + 2], tail[1024];
    char *argv[3];
    size_t kept = 0;
    int fds[2], status = 0, devnull;
    pid_t pid;
    ssize_t got;

    why[0] = '\0';
    snprintf(arg, sizeof arg, "./%s", script); /* a name starting with '-' is not an option */
    argv[0] = "gnuplot";
    argv[1] = arg;
    argv[2] = NULL;
    if (pipe2(fds, O_CLOEXEC) != 0) {
        snprintf(why, why_size, "pipe: %s", strerror(errno));
        return TKS_EIO;
    }
    pid = fork();
    if (pid < 0) {
        snprintf(why, why_size, "fork: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return TKS_EIO;
    }
    if (pid == 0) {
        /* Only async-signal-safe calls between fork and exec. */
        devnull = open("/dev/null", O_RDWR);
        if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(devnull, 1) < 0 || dup2(fds[1], 2) < 0 ||
            chdir(dir) != 0)
            _exit(126);
        execv(gnuplot, argv);
        _exit(127);
    }
    close(fds[1]);
    /* Keep the end of stderr: gnuplot's error comes last, after the echo of the faulty line. */
    for (;;) {
        got = read(fds[0], tail + kept, sizeof tail - 1 - kept);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        kept += (size_t)got;
        if (kept == sizeof tail - 1) {
            memmove(tail, tail + sizeof tail / 2, kept - sizeof tail / 2);
            kept -= sizeof tail / 2;
        }
    }
    close(fds[0]);
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            snprintf(why, why_size, "waitpid: %s", strerror(errno));
            return TKS_EIO;
        }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    tail[kept] = '\0';
    while (kept && (tail[kept - 1] == '\n' || tail[kept - 1] == '\r' || tail[kept - 1] == ' '))
        tail[--kept] = '\0';
    {
        char *line = strrchr(tail, '\n');
        line = line ? line + 1 : tail;
        if (*line) {
            /* Truncated on purpose: one line of gnuplot's is enough to say what went wrong. */
            size_t n = strlen(line) < why_size - 1 ? strlen(line) : why_size - 1;
            memcpy(why, line, n);
            why[n] = '\0';
        }
        else if (WIFEXITED(status))
            snprintf(why, why_size, "gnuplot exited with status %d%s", WEXITSTATUS(status),
                     WEXITSTATUS(status) == 126 ? " (could not enter the directory)" : "");
        else
            snprintf(why, why_size, "gnuplot was killed by signal %d",
                     WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    }
    return TKS_EIO;
}

int tks__plot_render(const char *dir, char *message, size_t size)
{
    char gnuplot[PATH_MAX], why[512], dummy[1];
    char **names;
    size_t count, i, done = 0, failed = 0;
    const char *first_failed = NULL;
    int rc, err;

    if (!message || size == 0) {
        message = dummy;
        size = sizeof dummy;
    }
    message[0] = '\0';
    if (!dir || !*dir) {
        snprintf(message, size, "no plot directory given");
        return TKS_EINVAL;
    }
    if (!find_gnuplot(gnuplot, sizeof gnuplot)) {
        snprintf(message, size,
                 "gnuplot is not installed (apt-get install gnuplot-nox); render later with: "
                 "cd %s && gnuplot *.gp", dir);
        return TKS_EUNAVAIL;
    }
    rc = list_scripts(dir, &names, &count);
    if (rc) {
        err = errno;
        snprintf(message, size, "cannot read the plot directory %s: %s", dir,
                 rc == TKS_EIO ? strerror(err) : tks_strerror(rc));
        return rc;
    }
    if (count == 0) {
        snprintf(message, size, "no plot scripts (*.gp) in %s: nothing to render", dir);
        free(names);
        return 0;
    }
    why[0] = '\0';
    for (i = 0; i < count; i++) {
        char this_why[512];
        if (run_gnuplot(gnuplot, dir, names[i], this_why, sizeof this_why) == 0) {
            done++;
        } else if (failed++ == 0) {
            first_failed = names[i];
            snprintf(why, sizeof why, "%s", this_why);
        }
    }
    if (failed == 0)
        snprintf(message, size, "rendered %zu plot%s to %s/*.svg", done, done == 1 ? "" : "s", dir);
    else
        snprintf(message, size,
                 "gnuplot failed on %s/%s (%s)%s; rendered %zu of %zu plots; "
                 "to try again: cd %s && gnuplot *.gp",
                 dir, first_failed, why, failed > 1 ? " and others" : "", done, count, dir);
    for (i = 0; i < count; i++)
        free(names[i]);
    free(names);
    return failed ? TKS_EIO : 0;
}
