/* test_report_plot.c: figures for gnuplot: the files each writes and their names, the data files'
 * rows and columns (exact values, NaN where not finite), what the scripts refer to, directories
 * created or refused without temporaries left behind, and rendering with gnuplot when it is here. */
#include <dirent.h>
#include <ftw.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "report/report.h"
#include "tickscope.h"

#define EINVAL_U64 ((uint64_t)(int64_t)TKS_EINVAL)
#define EIO_U64 ((uint64_t)(int64_t)TKS_EIO)
#define EUNAVAIL_U64 ((uint64_t)(int64_t)TKS_EUNAVAIL)

#define MAX_ROWS 512
#define MAX_COLS 8

static char root[PATH_MAX];

/* ---- helpers */

static void path_of(char *out, const char *dir, const char *name)
{
    int n = snprintf(out, PATH_MAX, "%s/%s", dir, name);
    if (n < 0 || n >= PATH_MAX) {
        fprintf(stderr, "path too long: %s/%s\n", dir, name);
        exit(1);
    }
}

/* A fresh directory under the test's root. */
static void fresh_dir(char *out, const char *name)
{
    path_of(out, root, name);
    mkdir(out, 0777);
}

/* The whole file, NUL-terminated (free() it), or NULL. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;

    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf)
        buf[n] = '\0';
    fclose(f);
    return buf;
}

static int exists(const char *dir, const char *name)
{
    char p[PATH_MAX];
    struct stat st;
    path_of(p, dir, name);
    return stat(p, &st) == 0;
}

static int contains(const char *dir, const char *name, const char *needle)
{
    char p[PATH_MAX];
    char *s;
    int found;
    path_of(p, dir, name);
    s = slurp(p);
    found = s && strstr(s, needle) != NULL;
    if (!found)
        fprintf(stderr, "  %s does not contain \"%s\"\n", p, needle);
    free(s);
    return found;
}

/* Entries of dir other than . and .. (-1 if unreadable); *temps counts the atomic writer's
 * temporaries (".NAME.tmp.XXXXXX"). */
static int count_entries(const char *dir, int *temps)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;

    *temps = 0;
    if (!d)
        return -1;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        n++;
        *temps += e->d_name[0] == '.' && strstr(e->d_name, ".tmp.") != NULL;
    }
    closedir(d);
    return n;
}

/* A data file: the first line must be a '#' header naming the columns; the rest parsed as
 * numbers ("NaN" included). Returns the number of rows, -1 on a malformed file; *ncols is the
 * column count of every row (-1 if they differ). */
static int read_dat(const char *dir, const char *name, double rows[][MAX_COLS], int *ncols,
                    char *header, size_t header_size)
{
    char p[PATH_MAX], *text, *line, *save = NULL;
    int nrows = 0;

    path_of(p, dir, name);
    *ncols = 0;
    if (!(text = slurp(p)))
        return -1;
    line = strtok_r(text, "\n", &save);
    if (!line || line[0] != '#') {
        free(text);
        return -1;
    }
    snprintf(header, header_size, "%s", line);
    while ((line = strtok_r(NULL, "\n", &save)) != NULL && nrows < MAX_ROWS) {
        char *tok, *tsave = NULL, *end;
        int c = 0;
        for (tok = strtok_r(line, " \t", &tsave); tok; tok = strtok_r(NULL, " \t", &tsave)) {
            double v = strtod(tok, &end);
            if (*end || c >= MAX_COLS) {
                free(text);
                return -1;
            }
            rows[nrows][c++] = v;
        }
        if (nrows == 0)
            *ncols = c;
        else if (c != *ncols)
            *ncols = -1;
        nrows++;
    }
    free(text);
    return nrows;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    chmod(path, 0700);
    return remove(path);
}

static int same_double(double a, double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

/* ---- histogram */

/* 80 x 44, 15 x 46, 4 x 48 and one preemption at 1000, quantum 2: the bins cover the bulk and the
 * 1000 is counted as not shown rather than stretching the axis. Q1 = Q3 = 44 (IQR taken as one
 * quantum), far fences 38 and 50, 99th percentile 48 + 0.01 * 952 = 57.52: the bulk is 44..48,
 * the samples inside, so the bins are 44-45, 46-47 and 48-49, as the terminal histogram's. */
static void fill_quantised(uint64_t *x)
{
    int i;
    for (i = 0; i < 100; i++)
        x[i] = i < 80 ? 44 : i < 95 ? 46 : i < 99 ? 48 : 1000;
}

static void test_histogram_quantised(void)
{
    char dir[PATH_MAX], header[256], a[PATH_MAX], b[PATH_MAX];
    uint64_t sorted[100], shuffled[100];
    double rows[MAX_ROWS][MAX_COLS];
    static const double want[3][4] = {{44, 45, 44, 80}, {46, 47, 46, 15}, {48, 49, 48, 4}};
    int ncols, nrows, r, c, temps;
    char *da, *db;
    tks__histogram th;

    fill_quantised(sorted);
    for (r = 0; r < 100; r++) /* 37 is prime to 100: a permutation, so not sorted */
        shuffled[r] = sorted[(r * 37) % 100];
    fresh_dir(dir, "hist");
    CHECK_EQ_U64(tks__plot_histogram(dir, "h", "quantised", shuffled, 100, 2, 44, 54.02), 0);
    CHECK_EQ_U64(tks__plot_histogram(dir, "h-sorted", "quantised", sorted, 100, 2, 44, 54.02), 0);
    CHECK(exists(dir, "h.dat") && exists(dir, "h.gp"));
    nrows = read_dat(dir, "h.dat", rows, &ncols, header, sizeof header);
    CHECK_EQ_U64(nrows, 3);
    CHECK_EQ_U64(ncols, 4);
    CHECK_STR(header, "# from_ticks to_ticks centre_ticks count");
    for (r = 0; r < nrows && r < 3; r++)
        for (c = 0; c < 4; c++)
            CHECK_NEAR(rows[r][c], want[r][c], 0);
    /* Sorted input takes a shortcut to the quantiles; it must bin the same. */
    path_of(a, dir, "h.dat");
    path_of(b, dir, "h-sorted.dat");
    da = slurp(a);
    db = slurp(b);
    CHECK(da && db && strcmp(da, db) == 0);
    free(da);
    free(db);

    CHECK(contains(dir, "h.gp", "set terminal svg size 900,500 dynamic enhanced font 'sans,11'\n"));
    CHECK(contains(dir, "h.gp", "set output 'h.svg'\n"));
    CHECK(contains(dir, "h.gp", "plot 'h.dat' using 3:4 with boxes"));
    CHECK(contains(dir, "h.gp", "set boxwidth 2 absolute\n"));
    CHECK(contains(dir, "h.gp", "set grid\n"));
    CHECK(contains(dir, "h.gp", "set xlabel 'ticks"));
    CHECK(contains(dir, "h.gp", "set ylabel 'samples'"));
    CHECK(contains(dir, "h.gp", "set arrow 1 from 44, graph 0 to 44, graph 1"));
    CHECK(contains(dir, "h.gp", "'median 44'"));
    /* The preemption pulls the mean past the last bin: marked at the edge, the axis not
     * stretched to it. */
    CHECK(contains(dir, "h.gp", "'mean 54.02 (off the axis) ->' at graph 0.99"));
    CHECK(contains(dir, "h.gp", "set xrange [41:51]\n"));
    CHECK(contains(dir, "h.gp", "1 sample(s) above 49 ticks (highest 1000)"));
    CHECK(contains(dir, "h.gp", "'99 of 100 samples'"));
    /* The terminal histogram of the same samples, allowed as many bins, bins them alike. */
    CHECK_EQ_U64(tks__histogram_build(sorted, 100, 2, 200, &th), 0);
    CHECK_EQ_U64(th.lo, 44);
    CHECK_EQ_U64(th.width, 2);
    CHECK_EQ_U64(th.nbins, 3);
    CHECK_EQ_U64(th.above, 1);
    tks__histogram_free(&th);
    CHECK_EQ_U64(count_entries(dir, &temps), 4);
    CHECK_EQ_U64(temps, 0);
}

/* 0..9999 in a scrambled order, quantum 1: nothing is far from the bulk, so everything is shown,
 * in at most 200 bins of a whole number of quanta. */
static void test_histogram_wide(void)
{
    char dir[PATH_MAX], header[256];
    static uint64_t x[10000];
    double rows[MAX_ROWS][MAX_COLS];
    int ncols, nrows, i, ok = 1;
    double total = 0;

    for (i = 0; i < 10000; i++)
        x[i] = (uint64_t)((i * 7919) % 10000);
    fresh_dir(dir, "wide");
    CHECK_EQ_U64(tks__plot_histogram(dir, "w", "wide", x, 10000, 1, 4999.5, 4999.5), 0);
    nrows = read_dat(dir, "w.dat", rows, &ncols, header, sizeof header);
    CHECK_EQ_U64(nrows, 200);
    CHECK_EQ_U64(ncols, 4);
    for (i = 0; i < nrows; i++) {
        ok &= rows[i][0] == 50.0 * i && rows[i][1] == 50.0 * i + 49 && rows[i][2] == 50.0 * i + 24.5 &&
              rows[i][3] == 50;
        total += rows[i][3];
    }
    CHECK(ok);
    CHECK_NEAR(total, 10000, 0);
    CHECK(contains(dir, "w.gp", "set boxwidth 50 absolute"));
    CHECK(contains(dir, "w.gp", "'10000 samples'"));
    {
        char p[PATH_MAX];
        char *s;
        path_of(p, dir, "w.gp");
        s = slurp(p);
        CHECK(s && !strstr(s, "not shown"));
        free(s);
    }
}

/* Quantum 26 as on the AMD guests: bins start on the samples' lattice (1000 + 26k here) and are
 * whole quanta wide. */
static void test_histogram_quantum_alignment(void)
{
    char dir[PATH_MAX], header[256];
    static uint64_t x[3000];
    double rows[MAX_ROWS][MAX_COLS];
    int ncols, nrows, i, ok = 1;
    double total = 0, width;

    for (i = 0; i < 3000; i++)
        x[i] = 1000 + 26 * (uint64_t)((i * 17) % 1000) + (uint64_t)(i % 3); /* not multiples */
    fresh_dir(dir, "q26");
    CHECK_EQ_U64(tks__plot_histogram(dir, "q", "q26", x, 3000, 26, NAN, NAN), 0);
    nrows = read_dat(dir, "q.dat", rows, &ncols, header, sizeof header);
    CHECK(nrows > 0 && nrows <= 200);
    width = nrows > 0 ? rows[0][1] - rows[0][0] + 1 : 0;
    CHECK(fmod(width, 26) == 0);
    for (i = 0; i < nrows; i++) {
        ok &= fmod(rows[i][0] - 1000, 26) == 0 && rows[i][1] - rows[i][0] + 1 == width;
        total += rows[i][3];
    }
    CHECK(ok);
    CHECK_NEAR(total, 3000, 0);
    /* No median or mean given: no lines drawn, and nothing that would not parse. */
    {
        char p[PATH_MAX];
        char *s;
        path_of(p, dir, "q.gp");
        s = slurp(p);
        CHECK(s && !strstr(s, "set arrow") && !strstr(s, "nan"));
        free(s);
    }
}

/* One value, off the multiples of the quantum: one bar, centred on it. */
static void test_histogram_one_value(void)
{
    char dir[PATH_MAX], header[256];
    uint64_t x[50];
    double rows[MAX_ROWS][MAX_COLS];
    int ncols, nrows, i;

    for (i = 0; i < 50; i++)
        x[i] = 44;
    fresh_dir(dir, "one");
    CHECK_EQ_U64(tks__plot_histogram(dir, "o", "one value", x, 50, 26, 44, 44), 0);
    nrows = read_dat(dir, "o.dat", rows, &ncols, header, sizeof header);
    CHECK_EQ_U64(nrows, 1);
    CHECK(nrows == 1 && rows[0][0] == 44 && rows[0][1] == 69 && rows[0][2] == 44 && rows[0][3] == 50);
    CHECK(contains(dir, "o.gp", "set boxwidth 26 absolute"));
    CHECK(contains(dir, "o.gp", "set arrow 1 from 44, graph 0 to 44, graph 1"));
    CHECK(contains(dir, "o.gp", "set arrow 2 from 44, graph 0 to 44, graph 1"));
    CHECK(contains(dir, "o.gp", "'mean 44'"));
}

/* ---- ensembles */

static void test_ensembles(void)
{
    char dir[PATH_MAX], header[256];
    tks_summary ens[4];
    static const uint32_t work[4] = {0, 1, 2, 3};
    double rows[MAX_ROWS][MAX_COLS];
    int ncols, nrows, e;

    memset(ens, 0, sizeof ens);
    for (e = 0; e < 4; e++) {
        ens[e].min = e == 1 ? 46 : 44;
        ens[e].variance = 1.5 + 0.25 * e;
        ens[e].inlier_variance = 0.1 * e;
        ens[e].median = 45 + e;
        ens[e].mean = 45.125 + e;
    }
    ens[3].variance = NAN;
    fresh_dir(dir, "ens");
    CHECK_EQ_U64(tks__plot_ensembles(dir, "e", "four ensembles", ens, 4, NULL), 0);
    CHECK_EQ_U64(tks__plot_ensembles(dir, "ew", "with work", ens, 4, work), 0);
    nrows = read_dat(dir, "e.dat", rows, &ncols, header, sizeof header);
    CHECK_EQ_U64(nrows, 4);
    CHECK_EQ_U64(ncols, 7);
    CHECK_STR(header, "# ensemble work min_ticks variance_ticks2 inlier_variance_ticks2 median_ticks "
                      "mean_ticks");
    for (e = 0; e < nrows && e < 4; e++) {
        CHECK_NEAR(rows[e][0], e, 0);
        CHECK(isnan(rows[e][1])); /* no work given */
        CHECK_NEAR(rows[e][2], ens[e].min, 0);
        CHECK(same_double(rows[e][3], ens[e].variance));
        CHECK(same_double(rows[e][4], ens[e].inlier_variance)); /* 0.1 * e exactly: %.17g */
        CHECK_NEAR(rows[e][5], ens[e].median, 0);
        CHECK_NEAR(rows[e][6], ens[e].mean, 0);
    }
    CHECK(contains(dir, "e.dat", "\n3 NaN 44 NaN "));
    CHECK(contains(dir, "e.gp", "set output 'e.svg'\n"));
    CHECK(contains(dir, "e.gp", "set multiplot layout 2,1 title \"four ensembles\""));
    CHECK(contains(dir, "e.gp", "plot 'e.dat' using 1:3 "));
    CHECK(contains(dir, "e.gp", "plot 'e.dat' using 1:4 "));
    CHECK(contains(dir, "e.gp", "set ylabel 'minimum (ticks)'"));
    CHECK(contains(dir, "e.gp", "set ylabel 'variance (ticks^2)'"));
    CHECK(contains(dir, "e.gp", "set xlabel 'ensemble'"));
    CHECK(contains(dir, "e.gp", "unset multiplot\n"));

    nrows = read_dat(dir, "ew.dat", rows, &ncols, header, sizeof header);
    CHECK_EQ_U64(nrows, 4);
    for (e = 0; e < nrows && e < 4; e++)
        CHECK_NEAR(rows[e][1], work[e], 0);
    CHECK(contains(dir, "ew.gp", "plot 'ew.dat' using 2:3 "));
    CHECK(contains(dir, "ew.gp", "set xlabel 'work: dependent adds in the window'"));
}

/* ---- resolution */

static void test_resolution(void)
{
    char dir[PATH_MAX], header[256], p[PATH_MAX];
    static const double work[3] = {0, 1, 2}, est[3] = {10, 10.5, NAN}, lo[3] = {9.75, 10.4, NAN},
                        hi[3] = {10.25, 10.6, NAN};
    double rows[MAX_ROWS][MAX_COLS];
    tks_fit fit;
    int ncols, nrows, i, c;
    char *s;

    memset(&fit, 0, sizeof fit);
    fit.n = 3;
    fit.slope = 0.625;
    fit.intercept = 9.9583333333333339;
    fit.r2 = 0.98;
    fit.slope_se = 0.01;
    fit.intercept_se = 0.05;
    fresh_dir(dir, "res");
    CHECK_EQ_U64(tks__plot_resolution(dir, "r", "staircase", work, est, lo, hi, 3, &fit), 0);
    CHECK_EQ_U64(tks__plot_resolution(dir, "r-nofit", "no fit", work, est, NULL, NULL, 3, NULL), 0);
    nrows = read_dat(dir, "r.dat", rows, &ncols, header, sizeof header);
    CHECK_EQ_U64(nrows, 3);
    CHECK_EQ_U64(ncols, 4);
    CHECK_STR(header, "# work estimate_ticks lo_ticks hi_ticks");
    for (i = 0; i < nrows && i < 3; i++) {
        CHECK_NEAR(rows[i][0], work[i], 0);
        CHECK(same_double(rows[i][1], est[i]));
        CHECK(same_double(rows[i][2], lo[i]));
        CHECK(same_double(rows[i][3], hi[i]));
    }
    CHECK(contains(dir, "r.dat", "\n2 NaN NaN NaN\n"));
    CHECK(contains(dir, "r.gp", "set output 'r.svg'\n"));
    CHECK(contains(dir, "r.gp", "plot 'r.dat' using 1:2:3:4 with yerrorbars"));
    CHECK(contains(dir, "r.gp", "slope 0.625"));
    CHECK(contains(dir, "r.gp", "intercept 9.958"));
    CHECK(contains(dir, "r.gp", "set ylabel 'ticks'"));
    CHECK(contains(dir, "r.gp", "set xlabel 'work: dependent adds in the window'"));

    /* Without an interval the bars have no height; without a fit there is no line. */
    nrows = read_dat(dir, "r-nofit.dat", rows, &ncols, header, sizeof header);
    CHECK_EQ_U64(nrows, 3);
    for (i = 0; i < nrows && i < 3; i++)
        for (c = 2; c < 4; c++)
            CHECK(same_double(rows[i][c], est[i]));
    path_of(p, dir, "r-nofit.gp");
    s = slurp(p);
    CHECK(s && !strstr(s, "fit:") && strstr(s, "plot 'r-nofit.dat'"));
    free(s);
}

/* ---- names, titles, directories */

static void test_names_and_titles(void)
{
    char dir[PATH_MAX];
    static const uint64_t x[3] = {5, 6, 7};
    int temps;

    fresh_dir(dir, "names");
    CHECK_EQ_U64(tks__plot_histogram(dir, "a/b c:d", "t", x, 3, 1, 6, 6), 0);
    CHECK(exists(dir, "a_b_c_d.dat") && exists(dir, "a_b_c_d.gp"));
    CHECK(contains(dir, "a_b_c_d.gp", "set output 'a_b_c_d.svg'"));
    CHECK(contains(dir, "a_b_c_d.gp", "plot 'a_b_c_d.dat'"));
    CHECK_EQ_U64(tks__plot_histogram(dir, "ok-1.2_X", "t", x, 3, 1, 6, 6), 0);
    CHECK(exists(dir, "ok-1.2_X.dat") && exists(dir, "ok-1.2_X.gp"));
    /* A leading dot would hide the files (and look like a temporary). */
    CHECK_EQ_U64(tks__plot_histogram(dir, ".hidden", "t", x, 3, 1, 6, 6), 0);
    CHECK(exists(dir, "_hidden.dat") && exists(dir, "_hidden.gp"));
    CHECK_EQ_U64(tks__plot_histogram(dir, "caf\xc3\xa9'x", "t", x, 3, 1, 6, 6), 0);
    CHECK(exists(dir, "caf___x.dat"));
    /* Titles: quotes and backslashes escaped, a newline flattened, never enhanced text. */
    CHECK_EQ_U64(tks__plot_histogram(dir, "title", "say \"hi\" \\ two\nlines_x^2", x, 3, 1, 6, 6), 0);
    CHECK(contains(dir, "title.gp", "set title \"say \\\"hi\\\" \\\\ two lines_x^2\" noenhanced\n"));
    CHECK_EQ_U64(count_entries(dir, &temps), 10);
    CHECK_EQ_U64(temps, 0);
}

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

    /* A directory without write permission; root writes anywhere, so only for other users. */
    if (geteuid() != 0) {
        fresh_dir(dir, "readonly");
        chmod(dir, 0555);
        CHECK_EQ_U64(tks__plot_histogram(dir, "h", "t", x, 3, 1, 6, 6), EIO_U64);
        CHECK_EQ_U64(count_entries(dir, &temps), 0);
        CHECK_EQ_U64(temps, 0);
        chmod(dir, 0755);
    } else {
        printf("skipped: read-only directory case (running as root, which may write anywhere)\n");
    }
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
        printf("skipped: rendering with gnuplot (gnuplot is not installed; apt-get install "
               "gnuplot-nox)\n");
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
    const char *tmp = getenv("TMPDIR");
    snprintf(root, sizeof root, "%s/tks_plot.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        return 1;
    }
    test_histogram_quantised();
    test_histogram_wide();
    test_histogram_quantum_alignment();
    test_histogram_one_value();
    test_ensembles();
    test_resolution();
    test_names_and_titles();
    test_directories();
    test_invalid();
    test_render_unavailable();
    test_render();
    nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    CHECK_DONE();
}
