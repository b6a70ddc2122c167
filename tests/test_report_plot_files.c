/* SPDX-License-Identifier: MIT */
/* test_report_plot_files.c: where figures for gnuplot go: directories created or refused without
 * temporaries left behind, bad arguments, and rendering with gnuplot when it is here. */
#include <grp.h>
#include <sys/wait.h>

#include "plot_util.h"

static void test_directories(void)
{
    char dir[PATH_MAX], file[PATH_MAX], sub[PATH_MAX];
    static const uint64_t x[3] = {5, 6, 7};
    tks_summary ens[1];
    double w = 0, e = 1;
    int temps;
    FILE *f;

    memset(ens, 0, sizeof ens);
    /* Missing parents are created. */
    path_of(dir, root, "made/a/b/c");
    CHECK_EQ_U64(tks__plot_ensembles(dir, "e", "t", ens, 1, NULL), 0);
    CHECK(exists(dir, "e.dat") && exists(dir, "e.gp"));

    /* A path through a regular file cannot be a directory: TKS_EIO, nothing created. */
    fresh_dir(dir, "blocked");
    path_of(file, dir, "file");
    f = fopen(file, "w");
    CHECK(f != NULL);
    if (f)
        fclose(f);
    path_of(sub, file, "sub");
    CHECK_EQ_U64(tks__plot_histogram(file, "h", "t", x, 3, 1, 6, 6), EIO_U64);
    CHECK_EQ_U64(tks__plot_resolution(sub, "r", "t", &w, &e, NULL, NULL, 1, NULL), EIO_U64);
    CHECK_EQ_U64(count_entries(dir, &temps), 1);
    CHECK_EQ_U64(temps, 0);

    /* The script cannot take its name (a directory is there): the data file goes too, and no
     * temporary stays. */
    fresh_dir(dir, "clash");
    path_of(sub, dir, "h.gp");
    mkdir(sub, 0777);
    CHECK_EQ_U64(tks__plot_histogram(dir, "h", "t", x, 3, 1, 6, 6), EIO_U64);
    CHECK(!exists(dir, "h.dat"));
    CHECK_EQ_U64(count_entries(dir, &temps), 1);
    CHECK_EQ_U64(temps, 0);
}

/* As user nobody (65534), in a child: the figure into dir; 0 when it was refused with TKS_EIO, 1
 * when not, 2 when the child could not become nobody. */
static int histogram_as_nobody(const char *dir)
{
    static const uint64_t x[3] = {5, 6, 7};
    pid_t pid;
    int st;
    fflush(NULL);
    pid = fork();
    if (pid == 0) {
        if (setgroups(0, NULL) != 0 || setresgid(65534, 65534, 65534) != 0 ||
            setresuid(65534, 65534, 65534) != 0)
            _exit(2);
        _exit(tks__plot_histogram(dir, "h", "t", x, 3, 1, 6, 6) == TKS_EIO ? 0 : 1);
    }
    if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
        return 1;
    return WEXITSTATUS(st);
}

/* A directory without write permission: TKS_EIO, nothing left in it. Root writes anywhere, so
 * as root the figure is written by a child that became nobody (through the scratch directory,
 * which it may then search). */
static void test_readonly(void)
{
    static const uint64_t x[3] = {5, 6, 7};
    char dir[PATH_MAX];
    int temps, rc;

    fresh_dir(dir, "readonly");
    chmod(dir, 0555);
    if (geteuid() != 0) {
        CHECK_EQ_U64(tks__plot_histogram(dir, "h", "t", x, 3, 1, 6, 6), EIO_U64);
    } else {
        chmod(root, 0711);
        rc = histogram_as_nobody(dir);
        if (rc == 2 && !(getenv("TKS_CI") && strcmp(getenv("TKS_CI"), "1") == 0))
            CHECK_SKIP("the read-only directory: as root, and the child could not become nobody");
        else
            CHECK_EQ_U64(rc, 0);
        chmod(root, 0700);
    }
    CHECK_EQ_U64(count_entries(dir, &temps), 0);
    CHECK_EQ_U64(temps, 0);
    chmod(dir, 0755);
}

static void test_invalid(void)
{
    char dir[PATH_MAX];
    static const uint64_t x[1] = {1};
    tks_summary ens[1];
    double w = 0;

    memset(ens, 0, sizeof ens);
    fresh_dir(dir, "invalid");
    CHECK_EQ_U64(tks__plot_histogram(NULL, "h", "t", x, 1, 1, 1, 1), EINVAL_U64);
    CHECK_EQ_U64(tks__plot_histogram("", "h", "t", x, 1, 1, 1, 1), EINVAL_U64);
    CHECK_EQ_U64(tks__plot_histogram(dir, "", "t", x, 1, 1, 1, 1), EINVAL_U64);
    CHECK_EQ_U64(tks__plot_histogram(dir, NULL, "t", x, 1, 1, 1, 1), EINVAL_U64);
    CHECK_EQ_U64(tks__plot_histogram(dir, "h", "t", x, 0, 1, 1, 1), EINVAL_U64);
    CHECK_EQ_U64(tks__plot_histogram(dir, "h", "t", NULL, 1, 1, 1, 1), EINVAL_U64);
    CHECK_EQ_U64(tks__plot_ensembles(dir, "e", "t", ens, 0, NULL), EINVAL_U64);
    CHECK_EQ_U64(tks__plot_ensembles(dir, "e", "t", NULL, 1, NULL), EINVAL_U64);
    CHECK_EQ_U64(tks__plot_resolution(dir, "r", "t", &w, NULL, NULL, NULL, 1, NULL), EINVAL_U64);
    CHECK_EQ_U64(tks__plot_resolution(dir, "r", "t", &w, &w, NULL, NULL, 0, NULL), EINVAL_U64);
    CHECK_EQ_U64(tks__plot_render(NULL, NULL, 0), EINVAL_U64);
}

/* ---- rendering */

static int gnuplot_on_path(void)
{
    const char *path = getenv("PATH");
    char buf[PATH_MAX], *copy, *tok, *save = NULL;
    int found = 0;
    if (!path)
        return 0;
    copy = strdup(path);
    for (tok = copy ? strtok_r(copy, ":", &save) : NULL; tok && !found;
         tok = strtok_r(NULL, ":", &save)) {
        snprintf(buf, sizeof buf, "%s/gnuplot", tok);
        found = access(buf, X_OK) == 0;
    }
    free(copy);
    return found;
}

static void test_render_unavailable(void)
{
    char dir[PATH_MAX], empty[PATH_MAX], msg[512];
    const char *old = getenv("PATH");
    char *saved = old ? strdup(old) : NULL;
    static const uint64_t x[3] = {5, 6, 7};

    fresh_dir(dir, "nognuplot");
    fresh_dir(empty, "emptybin");
    CHECK_EQ_U64(tks__plot_histogram(dir, "h", "t", x, 3, 1, 6, 6), 0);
    setenv("PATH", empty, 1);
    CHECK_EQ_U64(tks__plot_render(dir, msg, sizeof msg), EUNAVAIL_U64);
    CHECK(strstr(msg, "gnuplot is not installed") != NULL);
    CHECK(strstr(msg, "apt-get install gnuplot-nox") != NULL);
    CHECK(strstr(msg, dir) != NULL && strstr(msg, "gnuplot *.gp") != NULL);
    CHECK(!exists(dir, "h.svg"));
    if (saved)
        setenv("PATH", saved, 1);
    else
        unsetenv("PATH");
    free(saved);
}

/* An SVG file: starts with an XML declaration or the svg element. */
static int is_svg(const char *dir, const char *name)
{
    char p[PATH_MAX];
    char *s;
    int ok;
    path_of(p, dir, name);
    s = slurp(p);
    ok = s && (strncmp(s, "<?xml", 5) == 0 || strncmp(s, "<svg", 4) == 0) && strstr(s, "</svg>");
    if (!ok)
        fprintf(stderr, "  %s is not an SVG\n", p);
    free(s);
    return ok;
}

static void test_render(void)
{
    char dir[PATH_MAX], p[PATH_MAX], msg[1024], want[PATH_MAX + 64];
    uint64_t h[100], same[50];
    tks_summary ens[6], one[1];
    static const uint32_t work[6] = {0, 1, 2, 3, 4, 5};
    static const double rw[4] = {0, 1, 2, 3}, re[4] = {10, 10.5, NAN, 11.5},
                        rlo[4] = {9.9, 10.4, NAN, 11.4}, rhi[4] = {10.1, 10.6, NAN, 11.6};
    tks_fit fit;
    FILE *f;
    int i;

    if (!gnuplot_on_path()) {
        CHECK_SKIP("rendering with gnuplot (gnuplot is not installed; apt-get install "
                   "gnuplot-nox)");
        return;
    }
    fresh_dir(dir, "render");
    fill_quantised(h);
    for (i = 0; i < 50; i++)
        same[i] = 44;
    memset(ens, 0, sizeof ens);
    for (i = 0; i < 6; i++) {
        ens[i].min = 44 + 2 * (uint64_t)(i / 2);
        /* One interrupt a million times the rest: a logarithmic axis, with zeros in it. */
        ens[i].variance = i == 3 ? 4.5e6 : i == 4 ? 0 : 1.5;
        ens[i].inlier_variance = i == 2 ? 0 : 1.25;
        ens[i].median = ens[i].mean = 45;
    }
    memset(one, 0, sizeof one); /* one ensemble, every figure zero */
    memset(&fit, 0, sizeof fit);
    fit.slope = 0.5;
    fit.intercept = 10;
    fit.r2 = 0.99;
    CHECK_EQ_U64(tks__plot_histogram(dir, "hist", "a \"quoted\" title_with^chars", h, 100, 2, 44,
                                    54.02), 0);
    CHECK_EQ_U64(tks__plot_histogram(dir, "hist-one-value", "one value", same, 50, 26, 44, 44), 0);
    CHECK_EQ_U64(tks__plot_ensembles(dir, "ens", "six", ens, 6, work), 0);
    CHECK_EQ_U64(tks__plot_ensembles(dir, "ens-one", "one", one, 1, NULL), 0);
    CHECK_EQ_U64(tks__plot_resolution(dir, "res", "staircase", rw, re, rlo, rhi, 4, &fit), 0);
    CHECK_EQ_U64(tks__plot_render(dir, msg, sizeof msg), 0);
    snprintf(want, sizeof want, "rendered 5 plots to %s/*.svg", dir);
    CHECK_STR(msg, want);
    CHECK(is_svg(dir, "hist.svg"));
    CHECK(is_svg(dir, "hist-one-value.svg"));
    CHECK(is_svg(dir, "ens.svg"));
    CHECK(is_svg(dir, "ens-one.svg"));
    CHECK(is_svg(dir, "res.svg"));

    /* A script gnuplot rejects: TKS_EIO, the script named, the others still rendered. */
    path_of(p, dir, "bad.gp");
    f = fopen(p, "w");
    CHECK(f != NULL);
    if (f) {
        fputs("set terminal svg\nset output 'bad.svg'\nplot no_such_function(x)\n", f);
        fclose(f);
    }
    path_of(p, dir, "hist.svg");
    remove(p);
    CHECK_EQ_U64(tks__plot_render(dir, msg, sizeof msg), EIO_U64);
    CHECK(strstr(msg, "bad.gp") != NULL);
    CHECK(strstr(msg, "rendered 5 of 6 plots") != NULL);
    CHECK(is_svg(dir, "hist.svg"));
    printf("render failure message: %s\n", msg);
}

int main(void)
{
    if (scratch_make())
        return 1;
    test_directories();
    test_readonly();
    test_invalid();
    test_render_unavailable();
    test_render();
    scratch_remove();
    CHECK_DONE();
}
