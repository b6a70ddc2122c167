/* plot.c: figures for gnuplot (a data file and a script per figure, each written atomically) and
 * rendering them to SVG by running gnuplot, when it is installed, without a shell. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/report.h"
#include "stats/bins.h"
#include "tickscope.h"

/* Bars in a histogram: enough to show a quantised distribution quantum by quantum, few enough to
 * stay readable 900 pixels wide. */
#define PLOT_MAX_BINS 200
/* Above this many ensembles points would merge into a smear; lines alone read better. */
#define PLOT_MAX_POINTS 200

/* ---------------------------------------------------------------- files */

/* mkdir -p: each missing component in turn, so a run can name a fresh directory tree. */
static int make_dirs(const char *dir)
{
    char *p = strdup(dir), *s;
    struct stat st;
    int err = 0;

    if (!p)
        return TKS_ENOMEM;
    for (s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST)
            err = errno;
        *s = '/';
        if (err)
            break;
    }
    if (!err && mkdir(p, 0777) != 0 && errno != EEXIST)
        err = errno;
    free(p);
    /* EEXIST also covers a file of that name: only a directory will do. */
    if (!err && stat(dir, &st) != 0)
        err = errno;
    if (!err && !S_ISDIR(st.st_mode))
        err = ENOTDIR;
    errno = err;
    return err ? TKS_EIO : 0;
}

/* A file name from name: characters outside [A-Za-z0-9._-] become '_', and so does a leading
 * '.', which would hide the files and could be mistaken for the atomic writer's temporaries. */
static char *safe_name(const char *name)
{
    char *s = strdup(name), *c;
    if (!s)
        return NULL;
    for (c = s; *c; c++) {
        int ok = (*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ||
                 *c == '.' || *c == '_' || *c == '-';
        if (!ok || (c == s && *c == '.'))
            *c = '_';
    }
    return s;
}

static char *join(const char *dir, const char *name, const char *ext)
{
    size_t n = strlen(dir) + 1 + strlen(name) + strlen(ext) + 1;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s%s", dir, name, ext);
    return p;
}

int tks_plot_dir_ready(const char *dir, char *why, size_t size)
{
    tks_atomic_file af;
    char *probe;
    int rc, err;

    if (!dir || !*dir) {
        snprintf(why, size, "no directory given");
        return TKS_EINVAL;
    }
    if ((rc = make_dirs(dir)) != 0) {
        snprintf(why, size, "cannot create the plot directory '%s': %s", dir,
                 rc == TKS_ENOMEM ? tks_strerror(rc) : strerror(errno));
        return rc;
    }
    /* A temporary created and removed at once: what each figure's files will need. */
    if (!(probe = join(dir, "tickscope-probe", ""))) {
        snprintf(why, size, "%s", tks_strerror(TKS_ENOMEM));
        return TKS_ENOMEM;
    }
    errno = 0;
    rc = tks_atomic_open(&af, probe);
    err = errno;
    free(probe);
    if (rc) {
        snprintf(why, size, "cannot write plots to '%s': %s", dir,
                 err ? strerror(err) : tks_strerror(rc));
        return TKS_EIO;
    }
    tks_atomic_abort(&af);
    return 0;
}

/* One figure being written: NAME.dat and NAME.gp, both under temporary names until the end. */
struct figure {
    char *name;             /* sanitised */
    char *dat_path, *gp_path;
    tks_atomic_file dat, gp;
};

static void figure_free(struct figure *fig)
{
    free(fig->name);
    free(fig->dat_path);
    free(fig->gp_path);
    fig->name = fig->dat_path = fig->gp_path = NULL;
}

/* Undo everything; errno is kept so the caller can say why it failed. */
static void figure_abort(struct figure *fig)
{
    int err = errno;
    tks_atomic_abort(&fig->dat);
    tks_atomic_abort(&fig->gp);
    figure_free(fig);
    errno = err;
}

static int figure_open(struct figure *fig, const char *dir, const char *name)
{
    int rc;
    memset(fig, 0, sizeof *fig);
    if (!dir || !*dir || !name || !*name)
        return TKS_EINVAL;
    if ((rc = make_dirs(dir)) != 0)
        return rc;
    fig->name = safe_name(name);
    fig->dat_path = fig->name ? join(dir, fig->name, ".dat") : NULL;
    fig->gp_path = fig->name ? join(dir, fig->name, ".gp") : NULL;
    if (!fig->dat_path || !fig->gp_path) {
        figure_free(fig);
        return TKS_ENOMEM;
    }
    if ((rc = tks_atomic_open(&fig->dat, fig->dat_path)) != 0 ||
        (rc = tks_atomic_open(&fig->gp, fig->gp_path)) != 0) {
        figure_abort(fig);
        return rc;
    }
    return 0;
}

/* Both files or neither: a data file whose script failed is removed again, so a directory never
 * holds half a figure. */
static int figure_commit(struct figure *fig)
{
    int rc = tks_atomic_commit(&fig->dat), err;
    if (rc) {
        figure_abort(fig);
        return rc;
    }
    rc = tks_atomic_commit(&fig->gp);
    if (rc) {
        err = errno;
        unlink(fig->dat_path);
        errno = err;
    }
    figure_free(fig);
    return rc;
}

/* ---------------------------------------------------------------- writing numbers and text */

/* Exact to the last bit, and "NaN" for what is not finite: gnuplot skips such points. */
static void put_double(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.17g", v);
    else
        fputs("NaN", f);
}

/* The inside of a gnuplot double-quoted string: backslashes and quotes escaped, control
 * characters (a title must stay on its line) turned into spaces. */
static void put_gp_chars(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\\' || c == '"')
            fputc('\\', f);
        fputc(c < 0x20 || c == 0x7f ? ' ' : c, f);
    }
}

/* What every script starts with. `reset` because `cd DIR && gnuplot *.gp` runs all the scripts
 * in one session, where one figure's arrows and labels would otherwise land on the next. */
static void gp_begin(FILE *f, const char *name, const char *what)
{
    fprintf(f, "# %s.gp: %s, written by tickscope. Render with: gnuplot %s.gp (in this "
               "directory)\n", name, what, name);
    fputs("reset\n", f);
    fputs("set terminal svg size 900,500 dynamic enhanced font 'sans,11'\n", f);
    fprintf(f, "set output '%s.svg'\n", name);
    fputs("set grid\n", f);
}

/* `cmd "title"` (with an optional second line), never read as enhanced text: '_' and '^' in a
 * method or file name stay as they are. */
static void gp_title(FILE *f, const char *cmd, const char *title, const char *second_line)
{
    fprintf(f, "%s \"", cmd);
    put_gp_chars(f, title);
    if (second_line && *second_line) {
        fputs("\\n", f);
        put_gp_chars(f, second_line);
    }
    fputs("\" noenhanced\n", f);
}

/* ---------------------------------------------------------------- histogram */

static uint64_t sat_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

/* The bins: the same bulk of the samples as the terminal histogram's (stats/bins.h), so one
 * preemption of a million ticks does not squash the rest into one bar, and a sparse tail of a
 * few hundred ticks does not shrink the bulk to a sliver; but more of them, and on the lattice of
 * the minimum (mn + kq): the multiples of q when the readings are, and otherwise still one value
 * per quantum slot, so each bar is centred on the values it holds. */
struct bins {
    uint64_t q, lo, width, last; /* bins cover [lo, last], each width wide */
    size_t nbins;
    uint64_t *counts;
    uint64_t below, above, below_min, above_max;
};

static int bins_build(const uint64_t *x, size_t n, uint64_t q, struct bins *b)
{
    uint64_t mn, first, last;
    tks_bins layout;
    size_t i;
    int rc;

    memset(b, 0, sizeof *b);
    b->q = q = q ? q : 1;
    if ((rc = tks_bins_bulk(x, n, q, &first, &last, &mn)) != 0)
        return rc;
    tks_bins_layout(first, last, mn, q, PLOT_MAX_BINS, &layout);
    b->lo = layout.lo;
    b->width = layout.width;
    b->nbins = layout.nbins;
    b->last = sat_add(b->lo + (uint64_t)(b->nbins - 1) * b->width, b->width - 1);
    b->counts = calloc(b->nbins, sizeof *b->counts);
    if (!b->counts)
        return TKS_ENOMEM;
    b->below_min = UINT64_MAX;
    for (i = 0; i < n; i++) {
        if (x[i] < b->lo) {
            b->below++;
            b->below_min = x[i] < b->below_min ? x[i] : b->below_min;
        } else if (x[i] > b->last) {
            b->above++;
            b->above_max = x[i] > b->above_max ? x[i] : b->above_max;
        } else {
            b->counts[(x[i] - b->lo) / b->width]++;
        }
    }
    return 0;
}

/* A vertical line at v labelled "what v", the label on its left when left_side (away from the
 * other line, so neither crosses it). A value off the axis (the mean of samples with a far
 * preemption among them) is not allowed to stretch it: it gets an arrow-like label at that
 * edge instead of a line. Nothing for a value that is not finite. */
static void gp_marker(FILE *f, int id, const char *what, double v, int left_side, const char *rgb,
                      const char *dash, double height, double x0, double x1)
{
    if (!isfinite(v))
        return;
    if (v < x0 || v > x1) {
        fprintf(f, "set label %d '%s%s %.7g (off the axis)%s' at graph %s, graph %.2f %s front "
                   "textcolor rgb '%s'\n", id, v < x0 ? "<- " : "", what, v, v > x1 ? " ->" : "",
                v < x0 ? "0.01" : "0.99", height, v < x0 ? "left" : "right", rgb);
        return;
    }
    fprintf(f, "set arrow %d from %.9g, graph 0 to %.9g, graph 1 nohead front lw 2%s lc rgb '%s'\n",
            id, v, v, dash, rgb);
    fprintf(f, "set label %d '%s %.7g' at %.9g, graph %.2f %s front textcolor rgb '%s'\n", id, what,
            v, v, height, left_side ? "right offset -0.6,0" : "left offset 0.6,0", rgb);
}

int tks_plot_histogram(const char *dir, const char *name, const char *title, const uint64_t *ticks,
                       size_t n, uint64_t quantum, double median, double mean)
{
    struct figure fig;
    struct bins b;
    char note[256] = "";
    double half_q, x0, x1, centre;
    FILE *f;
    size_t i;
    int rc;

    if (!ticks || n == 0)
        return TKS_EINVAL;
    if ((rc = figure_open(&fig, dir, name)) != 0)
        return rc;
    if ((rc = bins_build(ticks, n, quantum, &b)) != 0) {
        figure_abort(&fig);
        return rc;
    }

    /* A value v owns the slot [v - q/2, v + q/2): a bin of m quanta starting at s is drawn from
     * s - q/2 to s + w - q/2, so a quantised distribution shows each value in the middle of its
     * bar and the median line through the middle of the bar that holds it. */
    f = fig.dat.f;
    half_q = (double)b.q / 2;
    fputs("# from_ticks to_ticks centre_ticks count\n", f);
    for (i = 0; i < b.nbins; i++) {
        uint64_t from = b.lo + (uint64_t)i * b.width;
        centre = (double)from + (double)(b.width - b.q) / 2;
        fprintf(f, "%llu %llu ", (unsigned long long)from,
                (unsigned long long)sat_add(from, b.width - 1));
        put_double(f, centre);
        fprintf(f, " %llu\n", (unsigned long long)b.counts[i]);
    }

    f = fig.gp.f;
    gp_begin(f, fig.name, "a histogram of samples");
    if (b.below && b.above)
        snprintf(note, sizeof note, "not shown: %llu sample(s) below %llu ticks (lowest %llu) and "
                 "%llu above %llu (highest %llu)", (unsigned long long)b.below,
                 (unsigned long long)b.lo, (unsigned long long)b.below_min,
                 (unsigned long long)b.above, (unsigned long long)b.last,
                 (unsigned long long)b.above_max);
    else if (b.below)
        snprintf(note, sizeof note, "not shown: %llu sample(s) below %llu ticks (lowest %llu)",
                 (unsigned long long)b.below, (unsigned long long)b.lo,
                 (unsigned long long)b.below_min);
    else if (b.above)
        snprintf(note, sizeof note, "not shown: %llu sample(s) above %llu ticks (highest %llu)",
                 (unsigned long long)b.above, (unsigned long long)b.last,
                 (unsigned long long)b.above_max);
    gp_title(f, "set title", title, note);
    if (b.width == b.q)
        fprintf(f, "set xlabel 'ticks (one bar per quantum of %llu tick%s)'\n",
                (unsigned long long)b.q, b.q == 1 ? "" : "s");
    else
        fprintf(f, "set xlabel 'ticks (bars %llu ticks = %llu quanta wide)'\n",
                (unsigned long long)b.width, (unsigned long long)(b.width / b.q));
    fputs("set ylabel 'samples'\n", f);
    fputs("set key top right\n", f);
    fputs("set style fill solid 0.6 border -1\n", f);
    fprintf(f, "set boxwidth %llu absolute\n", (unsigned long long)b.width);
    x0 = (double)b.lo - half_q - (double)b.width;
    x1 = (double)b.lo + (double)b.nbins * (double)b.width - half_q + (double)b.width;
    gp_marker(f, 1, "median", median, mean > median, "#d62728", "", 0.95, x0, x1);
    gp_marker(f, 2, "mean", mean, mean < median, "#2ca02c", " dt 2", 0.87, x0, x1);
    fprintf(f, "set xrange [%.9g:%.9g]\n", x0, x1);
    fputs("set yrange [0:*]\n", f);
    /* Room above the tallest bar for the key and the two labels. */
    fputs("set offsets 0, 0, graph 0.2, 0\n", f);
    if (b.below || b.above)
        fprintf(f, "plot '%s.dat' using 3:4 with boxes lc rgb '#4878d0' title '%llu of %zu "
                   "samples'\n", fig.name, (unsigned long long)(n - b.below - b.above), n);
    else
        fprintf(f, "plot '%s.dat' using 3:4 with boxes lc rgb '#4878d0' title '%zu samples'\n",
                fig.name, n);
    fputs("unset output\n", f);

    free(b.counts);
    return figure_commit(&fig);
}

/* ---------------------------------------------------------------- ensembles */

/* The y range of one panel, computed here rather than left to gnuplot, which warns about and
 * then stretches a range of one value (an ergodic minimum) by a fraction of a tick. Headroom at
 * the top keeps the key off the data. A variance that one interrupt drives a thousand times above
 * the rest gets a logarithmic axis, or every other ensemble would sit flat on zero. */
static void y_range(FILE *f, const double *a, const double *b, size_t stride, size_t n,
                    int allow_log)
{
    double lo = INFINITY, hi = -INFINITY, pos = INFINITY, span, below, above;
    size_t i, k;
    for (i = 0; i < n; i++)
        for (k = 0; k < 2; k++) {
            const double *col = k ? b : a;
            double y;
            if (!col)
                continue;
            y = *(const double *)((const char *)col + i * stride);
            if (!isfinite(y))
                continue;
            lo = y < lo ? y : lo;
            hi = y > hi ? y : hi;
            pos = y > 0 && y < pos ? y : pos;
        }
    if (lo > hi) {
        fputs("set yrange [*:*]\n", f);
        return;
    }
    if (allow_log && lo >= 0 && isfinite(pos) && hi > 1000 * pos) {
        /* Zeros cannot be drawn on it: gnuplot skips them, and the .dat file still has them. */
        fputs("set logscale y\nset format y '%g'\n", f);
        fprintf(f, "set yrange [%.9g:%.9g]\n", pos / 2, hi * 30);
        return;
    }
    span = hi - lo;
    below = span / 10 > 1 ? span / 10 : 1;
    above = span * 0.4 > 2 ? span * 0.4 : 2;
    /* Never below zero for what cannot be negative. */
    fprintf(f, "set yrange [%.9g:%.9g]\n", lo >= 0 && lo - below < 0 ? 0 : lo - below, hi + above);
}

int tks_plot_ensembles(const char *dir, const char *name, const char *title,
                       const tks_summary *ens, size_t count, const uint32_t *work)
{
    struct figure fig;
    double *mins;
    const char *x, *style;
    FILE *f;
    size_t e;
    int rc;

    if (!ens || count == 0)
        return TKS_EINVAL;
    if (!(mins = malloc(count * sizeof *mins)))
        return TKS_ENOMEM;
    if ((rc = figure_open(&fig, dir, name)) != 0) {
        free(mins);
        return rc;
    }
    f = fig.dat.f;
    fputs("# ensemble work min_ticks variance_ticks2 inlier_variance_ticks2 median_ticks "
          "mean_ticks\n", f);
    for (e = 0; e < count; e++) {
        fprintf(f, "%zu ", e);
        put_double(f, work ? (double)work[e] : NAN);
        fprintf(f, " %llu ", (unsigned long long)ens[e].min);
        put_double(f, ens[e].variance);
        fputc(' ', f);
        put_double(f, ens[e].inlier_variance);
        fputc(' ', f);
        put_double(f, ens[e].median);
        fputc(' ', f);
        put_double(f, ens[e].mean);
        fputc('\n', f);
        mins[e] = (double)ens[e].min;
    }

    /* The white paper's Figures 1-10 as two panels sharing the x axis: the minimum (the overhead
     * to subtract; flat when the method is ergodic) above, the variance below. */
    f = fig.gp.f;
    x = work ? "2" : "1";
    style = count <= PLOT_MAX_POINTS ? "linespoints pt 7 ps 0.5" : "lines";
    gp_begin(f, fig.name, "per-ensemble minimum and variance");
    gp_title(f, "set multiplot layout 2,1 title", title, NULL);
    fputs("set key top right\n", f);
    fputs("set lmargin 12\n", f); /* the two panels' plot areas line up whatever their labels */
    fputs("set format x ''\n", f);
    fputs("set ylabel 'minimum (ticks)'\n", f);
    y_range(f, mins, NULL, sizeof *mins, count, 0);
    fprintf(f, "plot '%s.dat' using %s:3 with %s lc rgb '#1f77b4' title 'minimum of each "
               "ensemble'\n", fig.name, x, style);
    fputs("set format x '%g'\n", f);
    fprintf(f, "set xlabel '%s'\n",
            work ? "work: dependent adds in the window" : "ensemble");
    fputs("set ylabel 'variance (ticks^2)'\n", f);
    y_range(f, &ens[0].variance, &ens[0].inlier_variance, sizeof *ens, count, 1);
    fprintf(f, "plot '%s.dat' using %s:4 with %s lc rgb '#d62728' title 'variance', \\\n"
               "     '' using %s:5 with lines dt 2 lc rgb '#555555' title 'variance of the inliers "
               "(within the far fences)'\n", fig.name, x, style, x);
    fputs("unset multiplot\n", f);
    fputs("unset output\n", f);
    free(mins);
    return figure_commit(&fig);
}

/* ---------------------------------------------------------------- resolution */

int tks_plot_resolution(const char *dir, const char *name, const char *title, const double *work,
                        const double *est, const double *lo, const double *hi, size_t n,
                        const tks_fit *fit)
{
    struct figure fig;
    FILE *f;
    size_t i;
    int rc;

    if (!work || !est || n == 0)
        return TKS_EINVAL;
    if ((rc = figure_open(&fig, dir, name)) != 0)
        return rc;
    f = fig.dat.f;
    fputs("# work estimate_ticks lo_ticks hi_ticks\n", f);
    for (i = 0; i < n; i++) {
        put_double(f, work[i]);
        fputc(' ', f);
        put_double(f, est[i]);
        fputc(' ', f);
        /* No interval given: a bar of no height, so the point is still drawn. */
        put_double(f, lo ? lo[i] : est[i]);
        fputc(' ', f);
        put_double(f, hi ? hi[i] : est[i]);
        fputc('\n', f);
    }

    f = fig.gp.f;
    gp_begin(f, fig.name, "a resolution staircase");
    gp_title(f, "set title", title, NULL);
    fputs("set xlabel 'work: dependent adds in the window'\n", f);
    fputs("set ylabel 'ticks'\n", f);
    fputs("set key top left Left reverse\n", f);
    /* Exactly the data's range plus a margin, not stretched to the next round tick. */
    fputs("set autoscale fix\n", f);
    fputs("set offsets graph 0.02, graph 0.02, graph 0.15, graph 0.05\n", f);
    fprintf(f, "plot '%s.dat' using 1:2:3:4 with yerrorbars pt 7 ps 0.5 lc rgb '#1f77b4' "
               "title 'estimate with its interval'", fig.name);
    if (fit && isfinite(fit->slope) && isfinite(fit->intercept))
        fprintf(f, ", \\\n     %.17g + %.17g * x with lines lw 2 lc rgb '#d62728' "
                   "title 'fit: slope %.4g +- %.2g ticks per add, intercept %.4g +- %.2g ticks "
                   "(r^2 %.5f)'",
                fit->intercept, fit->slope, fit->slope, 1.96 * fit->slope_se, fit->intercept,
                1.96 * fit->intercept_se, fit->r2);
    fputs("\n", f);
    fputs("unset output\n", f);
    return figure_commit(&fig);
}

/* ---------------------------------------------------------------- rendering */

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

int tks_plot_render(const char *dir, char *message, size_t size)
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
