/* SPDX-License-Identifier: MIT */
/* test_report_plot.c: figures for gnuplot: the files each writes and their names, the data files'
 * rows and columns (exact values, NaN where not finite) and what the scripts refer to. */
#include "plot_util.h"


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

int main(void)
{
    if (scratch_make())
        return 1;
    test_histogram_quantised();
    test_histogram_wide();
    test_histogram_quantum_alignment();
    test_histogram_one_value();
    test_ensembles();
    test_resolution();
    test_names_and_titles();
    scratch_remove();
    CHECK_DONE();
}
