/* SPDX-License-Identifier: MIT */
/* cmd_sys.c: `tickscope sys [SUITE...]`: parses the options, runs each suite (tks_sys_run), perf bench
 * beside it when asked, and hands the results to the reports. */
#include "cli/cmd_sys.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/now.h"
#include "report/sys/sys_report.h"

static const char sys_help[] =
    "usage: tickscope sys [SUITE...] [options]\n"
    "\n"
    "What this machine's operations cost, in ticks, core cycles and ns, each with its ~95%\n"
    "interval: the course notes' measurement project. Suites (default: all three):\n"
    "  cpu   measurement and loop overhead, calls with 0-7 integer arguments, an indirect\n"
    "        call, a predicted and a mispredicted branch\n"
    "  os    getpid (raw) vs vDSO clock_gettime, getppid alone and back to back, sched_yield,\n"
    "        page faults (anonymous, page cache, disk), fork, posix_spawn, pthread_create,\n"
    "        context switches over a pipe and a futex, processes and threads, on one CPU and\n"
    "        on two\n"
    "  mem   pointer-chase latency from 4 KiB to 4x the last-level cache (and over huge\n"
    "        pages), the knees beside /sys's cache sizes, read/write/copy bandwidth, a TLB miss\n"
    "\n"
    "options:\n"
    "  --quick          about a sixth of the sampling time, the largest working set 128 MiB at\n"
    "                   most, and the whole run held to 20 s: a row with no time left is cut\n"
    "                   short or left out, and the report says which\n"
    "  --time SECS      seconds of sampling per operation (default 0.35; --quick 0.06; fork,\n"
    "                   spawn and the memory-bandwidth rows take four times as long; another\n"
    "                   row with an interval over +-4% is measured again for four times as long)\n"
    "  --only LIST      comma-separated operation ids (see --list); their suites are run\n"
    "  --list           print every suite's operation ids and exit\n"
    "  --max-set SIZE   mem: the largest working set, e.g. 64M (default 4x the last-level cache;\n"
    "                   --quick: no more than 128M)\n"
    "  --no-huge        mem: no chase over transparent huge pages\n"
    "  --markdown       the same as --format markdown\n"
    "  --plot DIR       write memory_latency and call_staircase (.dat, .gp) to DIR (created if\n"
    "                   missing), rendered to .svg when gnuplot is installed\n"
    "  --versus-perf    also run perf bench syscall basic, sched pipe (pinned to one CPU, and\n"
    "                   unpinned) and mem memcpy and print their figures beside ours, saying\n"
    "                   which are like for like, with the measured reason for a gap over 10%\n";
/* (then --format and --json, from the writer table) */
static const char sys_help_rest[] =
    "  --out FILE       write the report to FILE (atomically) instead of stdout\n"
    "  --quiet          no progress and no notes on stderr\n"
    "  --tsc-hz HZ      use this TSC rate for nanoseconds (e.g. 2.3GHz) instead of the measured one\n"
    "  --recalibrate    measure the TSC rate, quantum and core clock again (ignore this boot's cache)\n"
    "  --root DIR       read /proc and /sys under DIR (for tests)\n"
    "  --help           this text\n";

#define MAX_ONLY 64
/* --quick holds the whole command to QUICK_WALL seconds: the suites share what is left of it
 * once the machine is known, less QUICK_RESERVE for what a budget cannot stop (the row running
 * when a suite's share runs out finishes: a bandwidth row over 128 MiB makes at least 64 passes,
 * 1.3 s on a 2-vCPU Zen 4 KVM guest; mapping the mem suite's buffers; writing the report). */
#define QUICK_WALL 20.0
#define QUICK_RESERVE 3.0

/* "64M", "512K", "1G", "65536": bytes; -1 when not a size. */
static int parse_size(const char *v, uint64_t *out)
{
    char *end;
    unsigned long long b = strtoull(v, &end, 10);
    if (end == v || *v == '-')
        return -1;
    switch (*end) {
    case 'K': case 'k': b <<= 10; end++; break;
    case 'M': case 'm': b <<= 20; end++; break;
    case 'G': case 'g': b <<= 30; end++; break;
    default: break;
    }
    if (*end == 'i')
        end++;
    if (*end == 'B')
        end++;
    if (*end)
        return -1;
    *out = b;
    return 0;
}

struct sys_cli {
    tks_sys_options o;
    struct cli_common common;
    int suites[TKS_SYS_SUITE_COUNT];
    int any_suite, list, versus_perf;
    const char *plot_dir;
    char only_buf[1024];
    const char *only[MAX_ONLY + 1];
};

/* Which suite holds id (-1: none). */
static int suite_of(const char *id)
{
    for (int s = 0; s < TKS_SYS_SUITE_COUNT; s++) {
        const char *const *ids;
        size_t n = tks_sys_operations((enum tks_sys_suite)s, &ids);
        for (size_t i = 0; i < n; i++)
            if (!strcmp(ids[i], id))
                return s;
    }
    return -1;
}

static int parse_only(struct sys_cli *x, const char *v)
{
    size_t n = 0;
    char *save = NULL, *tok;
    if (strlen(v) >= sizeof x->only_buf)
        return cli_usage_error("sys", "--only: the list is too long");
    snprintf(x->only_buf, sizeof x->only_buf, "%s", v);
    for (tok = strtok_r(x->only_buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int s = suite_of(tok);
        if (s < 0)
            return cli_usage_error("sys", "unknown operation '%s' (see tickscope sys --list)", tok);
        if (n == MAX_ONLY)
            return cli_usage_error("sys", "--only: at most %d operations", MAX_ONLY);
        x->only[n++] = tok;
    }
    if (!n)
        return cli_usage_error("sys", "--only needs operation ids");
    x->only[n] = NULL;
    x->o.only = x->only;
    return 0;
}

static int parse(int argc, char **argv, struct sys_cli *x, int *help)
{
    int i, missing, r;
    const char *v;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            *help = 1;
            return 0;
        }
        if (a[0] != '-') {
            int s = tks_sys_suite_from_name(a);
            if (s < 0)
                return cli_usage_error("sys", "unknown suite '%s' (cpu, os or mem)", a);
            x->suites[s] = x->any_suite = 1;
        } else if (!strcmp(a, "--quick")) {
            x->o.quick = 1;
        } else if (!strcmp(a, "--list")) {
            x->list = 1;
        } else if (!strcmp(a, "--no-huge")) {
            x->o.huge_pages = 0;
        } else if (!strcmp(a, "--markdown")) { /* kept: the same as --format markdown */
            x->common.format = TKS_FORMAT_MARKDOWN;
        } else if (!strcmp(a, "--versus-perf")) {
            x->versus_perf = 1;
        } else if ((v = cli_option_value(argc, argv, &i, "--time", &missing)) || missing) {
            if (missing || cli_parse_seconds("sys", "--time", v, &x->o.min_time))
                return missing ? cli_usage_error("sys", "--time needs seconds") : CLI_EXIT_USAGE;
            if (!(x->o.min_time > 0))
                return cli_usage_error("sys", "--time must be more than 0");
        } else if ((v = cli_option_value(argc, argv, &i, "--only", &missing)) || missing) {
            if (missing || (r = parse_only(x, v)) != 0)
                return missing ? cli_usage_error("sys", "--only needs operation ids") : r;
        } else if ((v = cli_option_value(argc, argv, &i, "--max-set", &missing)) || missing) {
            uint64_t b;
            if (missing || parse_size(v, &b) != 0 || b < 8192)
                return cli_usage_error("sys", "--max-set needs a size of at least 8K (e.g. 64M)");
            x->o.mem_max_bytes = (size_t)b;
        } else if ((v = cli_option_value(argc, argv, &i, "--plot", &missing)) || missing) {
            if (missing || !*v)
                return cli_usage_error("sys", "--plot needs a directory");
            x->plot_dir = v;
        } else if (!strcmp(a, "--pin") || !strncmp(a, "--pin=", 6) || !strcmp(a, "--fifo") ||
                   !strcmp(a, "--raw") || !strncmp(a, "--raw=", 6)) {
            return cli_usage_error("sys", "%s does not apply: the suites place their own "
                                   "processes (one CPU, then two)", a);
        } else if ((r = cli_common_option("sys", argc, argv, &i, &x->common)) != 0) {
            if (r < 0)
                return -r;
        } else {
            return cli_usage_error("sys", "unknown option '%s'", a);
        }
    }
    if (x->o.only && !x->any_suite) {
        for (const char *const *w = x->o.only; *w; w++)
            x->suites[suite_of(*w)] = x->any_suite = 1;
    } else if (x->o.only) {
        for (const char *const *w = x->o.only; *w; w++)
            if (!x->suites[suite_of(*w)])
                return cli_usage_error("sys", "operation '%s' is in the %s suite, which is not "
                                       "selected", *w, tks_sys_suite_name(suite_of(*w)));
    }
    if (!x->any_suite)
        for (int s = 0; s < TKS_SYS_SUITE_COUNT; s++)
            x->suites[s] = 1;
    return 0;
}

static void list_ids(void)
{
    for (int s = 0; s < TKS_SYS_SUITE_COUNT; s++) {
        const char *const *ids;
        size_t n = tks_sys_operations((enum tks_sys_suite)s, &ids);
        printf("%s:", tks_sys_suite_name((enum tks_sys_suite)s));
        for (size_t i = 0; i < n; i++)
            printf(" %s", ids[i]);
        putchar('\n');
    }
}

/* For the options' fuzz harness: parse as cmd_sys does, measure nothing. 0, 1 (help) or 2. */
int cli_sys_parse_only(int argc, char **argv)
{
    struct sys_cli x;
    int help = 0, rc;
    memset(&x, 0, sizeof x);
    tks_sys_options_init(&x.o);
    cli_common_init(&x.common, &tks__sys_writers);
    rc = parse(argc, argv, &x, &help);
    return rc ? rc : help;
}

/* The command once the platform has a home: cmd_sys frees it on every path. */
static int sys_with(int argc, char **argv, tks_platform *platform)
{
    struct sys_cli x;
    struct cli_progress prog;
    tks_sys_result *res[TKS_SYS_SUITE_COUNT];
    tks_sys_perf_row rows[TKS_SYS_PERF_MAX];
    tks__atomic_file out, raw;
    size_t n = 0, n_rows = 0;
    int help = 0, rc, failed = 0, streamed, suites_left = 0;
    tks__sys_stream stream;
    double t0 = tks__now_s();

    memset(&x, 0, sizeof x);
    tks_sys_options_init(&x.o);
    cli_common_init(&x.common, &tks__sys_writers);
    if ((rc = parse(argc, argv, &x, &help)) != 0)
        return rc;
    if (help) {
        fputs(sys_help, stdout);
        cli_format_help(stdout, x.common.writers);
        fputs(sys_help_rest, stdout);
        return CLI_EXIT_OK;
    }
    if (x.list) {
        list_ids();
        return CLI_EXIT_OK;
    }
    if ((rc = cli_open_outputs("sys", &x.common, &out, &raw)) != 0)
        return rc;
    if ((x.plot_dir && (rc = cli_plot_dir_check("sys", x.plot_dir)) != 0) ||
        (rc = cli_platform("sys", &x.common, platform)) != 0) {
        tks__atomic_abort(&out);
        return rc;
    }
    x.o.root = x.common.root;
    cli_progress_init(&prog, "sys", x.common.quiet);
    x.o.stage = cli_progress_stage;
    x.o.progress = cli_progress_cb;
    x.o.progress_ctx = &prog;
    /* On standard output in the console format, each row as it is measured (issue 27) */
    streamed = (!x.common.out || !strcmp(x.common.out, "-")) && tks__sys_streams(x.common.format) &&
               tks__sys_stream_begin(&stream, out.f, platform) == 0;
    if (streamed) {
        x.o.row = tks__sys_stream_row;
        x.o.row_ctx = &stream;
    }
    for (int s = 0; s < TKS_SYS_SUITE_COUNT; s++)
        suites_left += x.suites[s];
    for (int s = 0; s < TKS_SYS_SUITE_COUNT; s++) {
        if (!x.suites[s])
            continue;
        if (x.o.quick) { /* an equal share of what is left; what a suite leaves goes on */
            double left = t0 + QUICK_WALL - QUICK_RESERVE - tks__now_s();
            x.o.budget = left > 0 ? left / suites_left : 1e-3;
        }
        suites_left--;
        if (streamed)
            tks__sys_stream_suite(&stream, (enum tks_sys_suite)s);
        rc = tks_sys_run((enum tks_sys_suite)s, &x.o, platform, &res[n]);
        if (streamed)
            tks__sys_stream_suite_end(&stream, rc == 0 ? res[n] : NULL);
        if (rc == TKS_ERANGE && res[n]) {
            const tks_diags *ds = &res[n]->diags;
            char *why = ds->n ? tks_diag_message(&ds->items[ds->n - 1]) : NULL;
            cli_failure("sys %s: %s", tks_sys_suite_name((enum tks_sys_suite)s),
                        why ? why : tks_strerror(rc));
            free(why);
            failed = 1;
            tks_sys_result_free(res[n]);
            continue;
        }
        if (rc != 0 || !res[n]) {
            cli_failure("sys %s: %s", tks_sys_suite_name((enum tks_sys_suite)s), tks_strerror(rc));
            tks_sys_result_free(res[n]);
            failed = 1;
            continue;
        }
        /* A row that failed (a partner that died, a creation refused) fails the command once
         * the rest is reported; a row this machine cannot offer (one CPU) is only a note. */
        for (size_t i = 0; i < res[n]->n_ops; i++) {
            const tks_sys_op *op = &res[n]->ops[i];
            if (op->ok)
                continue;
            failed |= !op->unavailable;
            if (!x.common.quiet)
                cli_note("%s: %s: %s", op->id, op->unavailable ? "not on this machine"
                                                               : "not measured", op->error);
        }
        n++;
    }
    if (x.versus_perf) {
        if (!x.common.quiet)
            cli_note("running perf bench beside the suites");
        n_rows = tks_sys_versus_perf(res, n, &x.o, platform, rows, TKS_SYS_PERF_MAX);
    }
    if ((rc = cli_write(&x.common, out.f,
                        &(tks__sys_doc){res, n, x.versus_perf ? rows : NULL, n_rows, platform,
                                        streamed})) != 0) {
        for (size_t i = 0; i < n; i++)
            tks_sys_result_free(res[i]);
        tks_sys_perf_rows_free(rows, n_rows);
        return cli_write_failure("sys", x.common.out, &out, rc);
    }
    if (x.plot_dir && (rc = tks__report_sys_plots(x.plot_dir, res, n)) != 0) {
        failed = 1;
        cli_failure("sys: cannot write plots to '%s': %s", x.plot_dir, tks_strerror(rc));
    }
    for (size_t i = 0; i < n; i++)
        tks_sys_result_free(res[i]);
    tks_sys_perf_rows_free(rows, n_rows);
    rc = cli_close_outputs(&out, &raw, &x.common);
    if (rc == CLI_EXIT_OK && x.plot_dir && !failed)
        cli_plot_render(x.plot_dir, x.common.quiet);
    return rc != CLI_EXIT_OK ? rc : failed ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

int cmd_sys(int argc, char **argv)
{
    return cli_with_platform(sys_with, argc, argv);
}
