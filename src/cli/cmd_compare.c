/* SPDX-License-Identifier: MIT */
/* cmd_compare.c: `tickscope compare OLD.json NEW.json`: did the change make it faster? Reads two
 * result files (or a saved baseline), hands them to the library's comparison and prints its
 * table; --fail-on-regression turns it into a CI gate. */
#include "cli/cmd_compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/compare.h"
#include "platform/baseline.h"
#include "report/compare/compare_report.h"

#define MAX_FILE ((size_t)256 << 20)
/* issue 46: --fail-on-regression could not test a benchmark (too few runs) and found none
 * regressed: neither a pass (0) nor a failure (1), nor bad input (2) */
#define EXIT_NOT_TESTED 3

static const char compare_help[] =
    "usage: tickscope compare [options] OLD.json NEW.json\n"
    "       tickscope compare --baseline NAME [options] NEW.json\n"
    "       tickscope compare --save-baseline NAME FILE.json\n"
    "\n"
    "Compares two benchmark result files benchmark by benchmark: the JSON of tks_main programs\n"
    "in JSON, or of Google Benchmark in its JSON format. Per benchmark: the\n"
    "change (new / old - 1) in core cycles where both files have them, else ticks, else ns;\n"
    "its 95% interval; the test (Mann-Whitney U when its exact p can reach 5% with the\n"
    "figures, from repetitions or fresh processes: 4 and 4, 3 and 5, ...; a bootstrap where\n"
    "each side has 4 figures or between-run intervals; else none: too few runs);\n"
    "and a verdict: slower, faster, same (the interval within the threshold) or inconclusive.\n"
    "Every figure is checked first: a missing, non-numeric or non-finite one, a Google\n"
    "Benchmark time at or below zero, an unknown time_unit is an error (exit 2).\n"
    "Warns when the files come from different machines, TSC rates, methods or versions.\n"
    "\n"
    "options:\n"
    "  --baseline NAME            compare NEW.json against a saved baseline: NAME under the\n"
    "                             cache directory's baselines/, or a path (with '/' or .json)\n"
    "  --save-baseline NAME       save NEW.json (or FILE.json alone) as baseline NAME\n"
    "  --fail-on-regression PCT   exit 1 when a benchmark is slower by more than PCT percent\n"
    "                             with 95% confidence (the interval above +PCT); rows printed;\n"
    "                             a change of PCT itself fails it at most half the time.\n";
/* (then the gate's untested rows, with the assumed spread, and --format's line, from the
 * writer table) */
static const char compare_help_rest[] =
    "  --json, --markdown         the same as --format json, --format markdown (for a\n"
    "                             pull-request comment)\n"
    "  --out FILE                 write the report to FILE (atomically) instead of stdout\n"
    "  --html FILE                also write A against B as one self-contained HTML page\n"
    "  --quiet                    no notes on stderr\n"
    "  --help                     this text\n"
    "Exit status: 0; 1 when --fail-on-regression found a regression; 2 for bad options or\n"
    "input (a file missing, not JSON, not a result file, a figure that cannot be, no\n"
    "benchmark in common); 3 when --fail-on-regression found no regression but could not\n"
    "test every benchmark (too few runs: never a pass).\n";

/* --fail-on-regression's rows with too few runs (issue 46), with the spread it assumes. */
static void gate_help(void)
{
    printf("%-29sA benchmark with too few runs for a test (fewer than 4 a\n"
           "%-29sside) never passes: with its runs' own intervals widened by\n"
           "%-29san assumed spread between processes (%.2f%% a process), a\n"
           "%-29schange still beyond +PCT fails (exit 1); any other is NOT\n"
           "%-29sTESTED (exit 3), named with the runs each side needs\n"
           "%-29s(4: a tks_main program's processes, Google Benchmark's\n"
           "%-29srepetitions)\n"
           "  --threshold PCT            'same' when the interval lies within +-PCT (default 1)\n",
           "", "", "", 100 * TKS__CMP_ASSUMED_CV, "", "", "", "");
}

struct compare_cli {
    const char *files[2];
    int n_files;
    const char *baseline, *save, *out, *html;
    double threshold, gate;
    enum tks_format format;
    int quiet;
};

/* A percentage: "5", "5%", "0.5"; 0 to 1000. */
static int parse_pct(const char *opt, const char *v, double *out)
{
    char *end;
    double x = strtod(v, &end);
    if (end != v && *end == '%')
        end++;
    if (end == v || *end || !(x >= 0 && x <= 1000))
        return cli_usage_error("compare", "%s needs a percentage from 0 to 1000, not '%s'", opt, v);
    *out = x / 100;
    return 0;
}

static int parse(int argc, char **argv, struct compare_cli *c, int *help)
{
    const char *v;
    int missing;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            *help = 1;
            return 0;
        } else if (!strcmp(a, "--json")) {
            c->format = TKS_FORMAT_JSON;
        } else if (!strcmp(a, "--markdown")) {
            c->format = TKS_FORMAT_MARKDOWN;
        } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
            c->quiet = 1;
        } else if ((v = cli_option_value(argc, argv, &i, "--baseline", &missing)) || missing) {
            if (missing || !*v)
                return cli_usage_error("compare", "--baseline needs a name or a path");
            c->baseline = v;
        } else if ((v = cli_option_value(argc, argv, &i, "--save-baseline", &missing)) || missing) {
            if (missing || !*v)
                return cli_usage_error("compare", "--save-baseline needs a name or a path");
            c->save = v;
        } else if ((v = cli_option_value(argc, argv, &i, "--fail-on-regression", &missing)) ||
                   missing) {
            if (missing)
                return cli_usage_error("compare", "--fail-on-regression needs a percentage");
            if (parse_pct("--fail-on-regression", v, &c->gate))
                return CLI_EXIT_USAGE;
        } else if ((v = cli_option_value(argc, argv, &i, "--threshold", &missing)) || missing) {
            if (missing)
                return cli_usage_error("compare", "--threshold needs a percentage");
            if (parse_pct("--threshold", v, &c->threshold))
                return CLI_EXIT_USAGE;
        } else if ((v = cli_option_value(argc, argv, &i, "--format", &missing)) || missing) {
            char msg[256];
            int f = missing ? -1 : tks__writers_parse(&tks__compare_writers, v);
            if (f < 0)
                return cli_usage_error("compare", "%s",
                                       tks__writers_unknown(&tks__compare_writers, "--format",
                                                            missing ? "" : v, msg, sizeof msg));
            c->format = (enum tks_format)f;
        } else if ((v = cli_option_value(argc, argv, &i, "--out", &missing)) || missing) {
            if (missing || !*v)
                return cli_usage_error("compare", "--out needs a file name ('-' for stdout)");
            c->out = v;
        } else if ((v = cli_option_value(argc, argv, &i, "--html", &missing)) || missing) {
            if (missing || !*v)
                return cli_usage_error("compare", "--html needs a file name");
            c->html = v;
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("compare", "unknown option '%s'", a);
        } else if (c->n_files == 2) {
            return cli_usage_error("compare", "too many files: '%s' (compare takes two)", a);
        } else {
            c->files[c->n_files++] = a;
        }
    }
    return 0;
}

/* The whole file into memory. Prints its own error; returns an exit status. */
static int slurp(const char *path, char **buf, size_t *len)
{
    FILE *f = fopen(path, "rb");
    size_t cap = 1 << 16, n = 0;
    char *b = NULL;
    if (!f)
        return cli_usage_error("compare", "cannot read %s: %s", path, strerror(errno));
    for (;;) {
        char *nb;
        size_t got;
        if (n == cap || !b) {
            if (b)
                cap *= 2;
            if (cap > MAX_FILE || !(nb = realloc(b, cap))) {
                free(b);
                fclose(f);
                return cli_usage_error("compare", "%s: larger than %zu MB or out of memory", path,
                                       MAX_FILE >> 20);
            }
            b = nb;
        }
        got = fread(b + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        free(b);
        fclose(f);
        return cli_usage_error("compare", "cannot read %s: %s", path, strerror(errno));
    }
    fclose(f);
    *buf = b;
    *len = n;
    return 0;
}

struct loaded {
    char *text;
    size_t len;
    tks__cmp_file f;
};

static int load(const char *label, const char *path, struct loaded *l)
{
    char err[300];
    int rc = slurp(path, &l->text, &l->len);
    if (rc)
        return rc;
    if ((rc = tks__cmp_file_read(l->text, l->len, &l->f, err, sizeof err)) != 0) {
        free(l->text);
        l->text = NULL;
        if (rc == TKS_ENOMEM)
            return cli_failure("%s", tks_strerror(rc));
        return cli_usage_error("compare", "%s file %s: %s", label, path, err);
    }
    return 0;
}

static int baseline_path(const char *name, char *path, size_t size)
{
    int rc = tks__baseline_path(name, path, size);
    if (rc == TKS_EINVAL)
        return cli_usage_error("compare", "baseline name '%s': use letters, digits, '.', '_' and "
                               "'-', or a path with a '/' or ending in .json", name);
    if (rc)
        return cli_usage_error("compare", "baseline '%s': no cache directory to keep it in (set "
                               "TICKSCOPE_CACHE_DIR or give a path)", name);
    return 0;
}

static int save_baseline(const struct compare_cli *c, const struct loaded *l)
{
    char path[1024];
    tks__atomic_file af;
    int rc = baseline_path(c->save, path, sizeof path);
    if (rc)
        return rc;
    memset(&af, 0, sizeof af);
    if (tks__baseline_make_dir(path) != 0) {
        af.err = errno;
        return cli_write_failure("compare", path, &af, TKS_EIO);
    }
    if ((rc = tks__atomic_open(&af, path)) != 0)
        return cli_write_failure("compare", path, &af, rc);
    if (fwrite(l->text, 1, l->len, af.f) != l->len)
        return cli_write_failure("compare", path, &af, TKS_EIO);
    if ((rc = tks__atomic_commit(&af)) != 0)
        return cli_write_failure("compare", path, &af, rc);
    if (!c->quiet)
        cli_note("saved baseline '%s' as %s", c->save, path);
    return 0;
}

static int report(const struct compare_cli *c, const tks__cmp_result *r, const char *old_name,
                  const char *new_name)
{
    tks__atomic_file af;
    int rc;
    if ((rc = tks__atomic_open(&af, c->out ? c->out : "-")) != 0)
        return cli_write_failure("compare", c->out, &af, rc);
    rc = tks__writers_write(&tks__compare_writers, c->format, af.f,
                            &(tks__compare_doc){r, old_name, new_name});
    if (rc || (rc = tks__atomic_commit(&af)) != 0)
        return cli_write_failure("compare", c->out, &af, rc);
    if (c->html)
        return cli_write_page("compare", &tks__compare_writers, c->html,
                              &(tks__compare_doc){r, old_name, new_name});
    return 0;
}

/* The gate's findings on stderr, one line a benchmark, and its exit status: 1 on a regression,
 * else 3 when a benchmark could not be tested (issue 46), else 0. */
static int gate_lines(const tks__cmp_result *r)
{
    for (size_t i = 0; i < r->n; i++) {
        const tks__cmp_row *w = &r->rows[i];
        char needs[300];
        if (w->regression && !w->too_few)
            fprintf(stderr, "tickscope: regression: %s is %+.2f%% slower in %s (95%% interval "
                    "%+.2f%% to %+.2f%%), beyond +%.2f%%\n", w->name, 100 * w->change,
                    tks__unit_name(w->unit), 100 * w->lo, 100 * w->hi, 100 * r->gate);
        else if (w->regression)
            fprintf(stderr, "tickscope: regression: %s is %+.2f%% slower in %s (too few runs for "
                    "a test; with the assumed spread of %.2f%% a process, %+.2f%% to %+.2f%%), "
                    "beyond +%.2f%%\n", w->name, 100 * w->change, tks__unit_name(w->unit),
                    100 * TKS__CMP_ASSUMED_CV, 100 * w->assumed_lo, 100 * w->assumed_hi,
                    100 * r->gate);
        if (!w->not_tested)
            continue;
        tks__cmp_needs_text(r, w, needs, sizeof needs);
        if (isfinite(w->assumed_lo))
            fprintf(stderr, "tickscope: not tested: %s: too few runs for a test; %+.2f%% in %s, "
                    "with the assumed spread %+.2f%% to %+.2f%%, does not lie beyond +%.2f%%; "
                    "%s\n", w->name, 100 * w->change, tks__unit_name(w->unit),
                    100 * w->assumed_lo, 100 * w->assumed_hi, 100 * r->gate, needs);
        else
            fprintf(stderr, "tickscope: not tested: %s: too few runs for a test, and no ratio "
                    "to gate (a mean at or below zero); %s\n", w->name, needs);
    }
    return r->regressions ? CLI_EXIT_FAIL : r->not_tested ? EXIT_NOT_TESTED : CLI_EXIT_OK;
}

static int run(struct compare_cli *c, struct loaded *old, struct loaded *new_)
{
    char old_path[1024], err[600];
    const char *old_name = c->files[0], *new_name = c->files[c->n_files - 1];
    tks__cmp_result r;
    int rc;
    if (c->baseline) {
        if ((rc = baseline_path(c->baseline, old_path, sizeof old_path)) != 0)
            return rc;
        if (access(old_path, F_OK) != 0 && errno == ENOENT)
            return cli_usage_error("compare", "no baseline '%s' (%s): save one first with "
                                   "--save-baseline %s FILE.json", c->baseline, old_path,
                                   c->baseline);
        old_name = old_path;
    }
    if ((rc = load("old", old_name, old)) != 0 || (rc = load("new", new_name, new_)) != 0)
        return rc;
    if (old->len == new_->len && !memcmp(old->text, new_->text, old->len) && !c->quiet)
        cli_note("the two files are identical: every change is zero");
    rc = tks__cmp_files(&old->f, &new_->f, c->threshold, c->gate, &r, err, sizeof err);
    if (rc == TKS_EINVAL)
        return cli_usage_error("compare", "%s", err);
    if (rc)
        return cli_failure("%s", tks_strerror(rc));
    if ((rc = report(c, &r, old_name, new_name)) == 0 && c->save)
        rc = save_baseline(c, new_);
    if (rc == 0)
        rc = gate_lines(&r);
    tks__cmp_result_free(&r);
    return rc;
}

/* For the options' fuzz harness: parse as cmd_compare does, read nothing. 0, 1 (help) or 2. */
int cli_compare_parse_only(int argc, char **argv)
{
    struct compare_cli c;
    int help = 0, rc;
    memset(&c, 0, sizeof c);
    c.threshold = 0.01;
    c.gate = -1;
    c.format = TKS_FORMAT_CONSOLE;
    rc = parse(argc, argv, &c, &help);
    return rc ? rc : help;
}

int cmd_compare(int argc, char **argv)
{
    struct compare_cli c;
    struct loaded old, new_;
    int help = 0, rc;
    memset(&c, 0, sizeof c);
    memset(&old, 0, sizeof old);
    memset(&new_, 0, sizeof new_);
    c.threshold = 0.01;
    c.gate = -1;
    c.format = TKS_FORMAT_CONSOLE;
    if ((rc = parse(argc, argv, &c, &help)) != 0)
        return rc;
    if (help) {
        char list[128];
        fputs(compare_help, stdout);
        gate_help();
        printf("  --format FORMAT            %s (the first is the default)\n",
               tks__writers_list(&tks__compare_writers, list, sizeof list));
        fputs(compare_help_rest, stdout);
        return CLI_EXIT_OK;
    }
    if (c.save && !c.baseline && c.n_files == 1) {
        /* only saving: the file must be a result file all the same */
        if ((rc = load("the", c.files[0], &new_)) == 0)
            rc = save_baseline(&c, &new_);
    } else if (c.n_files != (c.baseline ? 1 : 2)) {
        rc = cli_usage_error("compare", c.baseline ? "--baseline takes one file to compare with it"
                                                   : "compare needs two files, OLD.json NEW.json");
    } else {
        rc = run(&c, &old, &new_);
    }
    tks__cmp_file_free(&old.f);
    tks__cmp_file_free(&new_.f);
    free(old.text);
    free(new_.text);
    return rc;
}
