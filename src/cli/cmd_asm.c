/* SPDX-License-Identifier: MIT */
/* cmd_asm.c: `tickscope asm`: parses the options, reads the snippet (argument, --file or --table),
 * runs tks_asm_run for each and hands the results to the report. */
#include "cli/cmd_asm.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/asm_cpu_table.h"
#include "asm/asm_record.h"
#include "cli/asm_analysis.h"
#include "cli/asm_input.h"
#include "cli/cli.h"
#include "cli/cmd_kernel.h"
#include "cli/record_cli.h"
#include "report/asm/asm_report.h"

static const char asm_help[] =
    "usage: tickscope asm [options] 'CODE'\n"
    "       tickscope asm [options] --file FILE\n"
    "       tickscope asm [options] --table FILE\n"
    "       tickscope asm [options] --table [--only TEXT] [--force]\n"
    "       tickscope asm [options] --diff A.csv B.csv\n"
    "       tickscope asm [options] --ports [--table FILE | --table [--only TEXT] | 'CODE']\n"
    "\n"
    "Measures the latency or throughput of an instruction sequence, in TSC ticks and core cycles\n"
    "per copy. CODE is assembly (instructions separated by ';' or newlines), assembled with the\n"
    "system's `as` (binutils). In it, {r} stands for a general register, {x} for an xmm and {y}\n"
    "for a ymm register: in latency mode the --chain register (default rax, xmm0), so copies form\n"
    "one chain; in throughput mode a different register in each copy (rax..r13 and rbp; xmm0..15;\n"
    "not those CODE names itself), so copies are independent. R14 holds the address of a zeroed\n"
    "scratch area (1 MiB); R15 is the loop counter and must be left alone, as must RSP. The\n"
    "snippet runs in a child process: a fault is reported with its signal, a window that never\n"
    "returns is killed.\n"
    "\n"
    "options:\n"
    "  --mode M         latency (default) or throughput\n"
    "  --chain REG      latency: the register {r}, {x} or {y} stands for (rax..r13, xmm0..xmm15)\n"
    "  --att            the code is AT&T syntax (default Intel, without % prefixes)\n"
    "  --hex            CODE is the machine code as hex bytes (\"48 01 c0\")\n"
    "  --init CODE      assembly run before each window, outside it (registers, memory)\n"
    "  --file FILE      read CODE from FILE ('-': standard input)\n"
    "  --table FILE     measure every row of FILE: 'name | mode | code' and optionally '| init';\n"
    "                   mode may carry ',chain=REG' and ',chase=SIZE'; '#' starts a comment\n"
    "  --table          without a FILE: the instruction table of this CPU, every form of the\n"
    "                   built-in catalogue its CPUID offers (throughput and the latency of each\n"
    "                   operand pair), cached per CPU model: a run measures only what the\n"
    "                   cache lacks, an interrupted one continues; --budget is then per\n"
    "                   measurement at most (default 0.1, stopping once the interval is narrow);\n"
    "                   the console table on stdout gets each row as it is measured; with\n"
    "                   --kernel, in ring 0 (a cache of its own; the whole budget each)\n"
    "  --only TEXT      with --table: only the forms whose name holds TEXT ('vfmadd', 'r64, m64')\n"
    "  --force          with --table: measure every form again (the cache is rewritten)\n"
    "  --diff A B       two tables (CSV of --table) side by side: the measurements that differ\n"
    "                   beyond their 95% intervals, and those in one table only\n"
    "  --align N        the loop's first copy starts on an N-byte boundary (default 64)\n"
    "  --scratch SIZE   size of the scratch area R14 points to (default 1M; K, M, G suffixes)\n"
    "  --chase SIZE     fill SIZE bytes of the scratch area with a random cycle of cache-line\n"
    "                   pointers (R14 at its head): 'mov r14, [r14]' is then a pointer chase\n"
    "                   (from 2M, on huge pages where the kernel offers them)\n"
    "  --budget SEC     time spent taking windows per snippet (default 0.3)\n"
    "  --timeout SEC    a window running longer is killed and reported (default 2)\n"
    "  --kernel         run the snippet in ring 0 through the kernel module (tickscope.ko,\n"
    "                   /dev/tickscope) with preemption and interrupts off, so that privileged\n"
    "                   instructions (mov rax, cr0; rdmsr) can be measured; init then runs in\n"
    "                   every window, before the loop. A fault or a window that does not\n"
    "                   return is caught by the module and reported (what it cannot undo:\n"
    "                   kmod/README.md); --pin CPU names the module's CPU\n"
    "  --own MODE       with --kernel: irq (the default) or preempt (interrupts left on)\n"
    "  --kernel-device PATH  the module's device (default /dev/tickscope)\n"
    /* ports/explain (asm_analysis.c) */
    "  --ports          the execution ports each form shares, from timing alone: the forms of\n"
    "                   --table FILE (or CODE; none: the blocking forms alone) run beside\n"
    "                   blocking forms; port classes per form (each run of a snippet at most\n"
    "                   --budget, 0.1 s, less once within 0.5%). With\n"
    "                   --table and no FILE: the catalogue's register forms this CPU has (--only\n"
    "                   TEXT: those whose name holds it), less those the cached table (of\n"
    "                   --table) shows are not single-uop; the size of the run and its time\n"
    "                   are printed before it starts\n"
    "  --blockers FILE  with --ports: the blocking forms, a table like --table's (each writes\n"
    "                   one register from others it does not write: 'shlx {r}, r14, r14')\n"
    "  --explain        what limits CODE: a dependency chain, execution ports, memory (with\n"
    "                   --chase) or the front end, from perturbation experiments\n";

struct asm_cli {
    tks_asm_options o;
    struct cli_common common;
    const char *code, *file, *table;
    struct cli_kernel kernel;
    /* --table without a file, --diff (asm_cpu_table.c) */
    int cpu_table, force, budget_given;
    const char *only, *diff[2];
    int ports, explain; /* asm_analysis.c */
    const char *blockers;
    struct cli_record record; /* --record FILE: one snippet's windows */
};

/* Whether argv[i] is --table without a FILE (the CPU's table): the last word, or an option next. */
static int table_without_file(int argc, char **argv, int i)
{
    return strcmp(argv[i], "--table") == 0 &&
           (i + 1 == argc || (argv[i + 1][0] == '-' && argv[i + 1][1]));
}

static int value_option(struct asm_cli *x, const char *opt, const char *v)
{
    if (strcmp(opt, "--mode") == 0) {
        if (strcmp(v, "latency") == 0)
            x->o.mode = TKS_ASM_LATENCY;
        else if (strcmp(v, "throughput") == 0)
            x->o.mode = TKS_ASM_THROUGHPUT;
        else
            return cli_usage_error("asm", "--mode: '%s' is not latency or throughput", v);
    } else if (strcmp(opt, "--chain") == 0) {
        x->o.chain = v;
    } else if (strcmp(opt, "--init") == 0) {
        x->o.init = v;
    } else if (strcmp(opt, "--file") == 0) {
        x->file = v;
    } else if (strcmp(opt, "--table") == 0) {
        x->table = v;
    } else if (strcmp(opt, "--only") == 0) {
        x->only = v;
    } else if (strcmp(opt, "--blockers") == 0) {
        x->blockers = v;
    } else if (strcmp(opt, "--align") == 0) {
        if (cli_parse_u32("asm", "--align", v, 1, 4096, &x->o.align))
            return CLI_EXIT_USAGE;
        if (x->o.align & (x->o.align - 1))
            return cli_usage_error("asm", "--align: %s is not a power of two", v);
    } else if (strcmp(opt, "--scratch") == 0 || strcmp(opt, "--chase") == 0) {
        uint64_t n = cli_asm_size(v);
        if (!n || n > ((uint64_t)1 << 34))
            return cli_usage_error("asm", "%s: '%s' is not a size up to 16G (e.g. 32K, 4M)", opt, v);
        *(opt[2] == 's' ? &x->o.scratch_bytes : &x->o.chase_bytes) = n;
    } else if (strcmp(opt, "--budget") == 0) {
        x->budget_given = 1;
        return cli_parse_seconds("asm", "--budget", v, &x->o.budget);
    } else if (strcmp(opt, "--timeout") == 0) {
        return cli_parse_seconds("asm", "--timeout", v, &x->o.timeout);
    }
    return 0;
}

static int parse(int argc, char **argv, struct asm_cli *x, int *help)
{
    static const char *const valued[] = {"--mode", "--chain", "--init", "--file", "--table",
                                         "--align", "--scratch", "--chase",
                                         "--budget", "--timeout", "--only", "--blockers"};
    int i, missing, rc;
    const char *v;
    for (i = 0; i < argc; i++) {
        int done = 0;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            *help = 1;
            return 0;
        }
        if (strcmp(argv[i], "--att") == 0) {
            x->o.syntax = TKS_ASM_ATT;
            continue;
        }
        if (strcmp(argv[i], "--hex") == 0) {
            x->o.syntax = TKS_ASM_HEX;
            continue;
        }
        if (strcmp(argv[i], "--force") == 0) {
            x->force = 1;
            continue;
        }
        if (table_without_file(argc, argv, i)) {
            x->cpu_table = 1;
            continue;
        }
        if (strcmp(argv[i], "--diff") == 0) {
            if (i + 2 >= argc)
                return cli_usage_error("asm", "--diff needs two tables: --diff A.csv B.csv");
            x->diff[0] = argv[++i];
            x->diff[1] = argv[++i];
            continue;
        }
        if (strcmp(argv[i], "--ports") == 0 || strcmp(argv[i], "--explain") == 0) {
            *(argv[i][2] == 'p' ? &x->ports : &x->explain) = 1;
            continue;
        }
        for (size_t k = 0; k < sizeof valued / sizeof valued[0] && !done; k++)
            if ((v = cli_option_value(argc, argv, &i, valued[k], &missing)) || missing) {
                if (missing)
                    return cli_usage_error("asm", "%s needs a value", valued[k]);
                if ((rc = value_option(x, valued[k], v)) != 0)
                    return rc;
                done = 1;
            }
        if (done)
            continue;
        if ((rc = cli_kernel_option("asm", argc, argv, &i, &x->kernel)) != 0 ||
            (rc = cli_record_option("asm", argc, argv, &i, &x->record)) != 0) {
            if (rc < 0)
                return -rc;
            continue;
        }
        if (strcmp(argv[i], "--raw") == 0 || strcmp(argv[i], "--fifo") == 0)
            return cli_usage_error("asm", "%s does not apply to asm", argv[i]);
        if ((rc = cli_common_option("asm", argc, argv, &i, &x->common)) != 0) {
            if (rc < 0)
                return -rc;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error("asm", "unknown option '%s'", argv[i]);
        } else if (x->code) {
            return cli_usage_error("asm", "one snippet at a time (quote it: 'add rax, 1; ...'), "
                                   "or several with --table");
        } else {
            x->code = argv[i];
        }
    }
    if (x->ports + x->explain > 1 || ((x->ports || x->explain) && x->kernel.requested))
        return cli_usage_error("asm", "--ports and --explain go alone, in user space");
    if (x->ports && x->o.syntax == TKS_ASM_HEX)
        return cli_usage_error("asm", "--ports reads assembly with placeholders, not --hex");
    if ((x->explain && x->cpu_table) || ((x->ports || x->explain) && x->diff[0]))
        return cli_usage_error("asm", "%s takes a snippet or a --table FILE of forms, not %s",
                               x->ports ? "--ports" : "--explain",
                               x->diff[0] ? "--diff" : "this CPU's table");
    if (x->ports && x->cpu_table && (x->force || x->o.syntax == TKS_ASM_ATT))
        return cli_usage_error("asm", "--ports --table reads the catalogue (Intel syntax) and the "
                               "cached table as they are: %s does not apply",
                               x->force ? "--force" : "--att");
    if (x->blockers && !x->ports)
        return cli_usage_error("asm", "--blockers goes with --ports");
    if (x->explain && x->table)
        return cli_usage_error("asm", "--explain takes one snippet, not a --table");
    if (!!x->code + !!x->file + !!x->table + x->cpu_table + !!x->diff[0] != 1 &&
        !(x->ports && !x->code && !x->file && !x->cpu_table && !x->diff[0]))
        return cli_usage_error("asm", "give one snippet: as an argument, with --file or with "
                               "--table, or --diff A B");
    if ((x->force || x->only) && !x->cpu_table)
        return cli_usage_error("asm", "%s goes with --table (this CPU's table)",
                               x->force ? "--force" : "--only");
    if (x->diff[0] && x->kernel.requested)
        return cli_usage_error("asm", "--kernel does not go with --diff: it reads two tables' "
                               "files (measure one with --table --kernel)");
    if (x->table && x->o.syntax == TKS_ASM_HEX)
        return cli_usage_error("asm", "--hex does not apply to --table");
    if ((rc = cli_kernel_finish("asm", &x->kernel, &x->common, NULL)) != 0 ||
        (rc = cli_record_refuse_kernel("asm", &x->record, x->kernel.requested)) != 0)
        return rc;
    if (x->record.path && (x->table || x->cpu_table || x->diff[0] || x->ports || x->explain))
        return cli_usage_error("asm", "--record takes one snippet, not --table, --diff, --ports "
                               "or --explain");
    if (x->kernel.requested && x->o.chase_bytes)
        return cli_usage_error("asm", "--chase does not go with --kernel (the module's scratch "
                               "area is zeroed and its own)");
    x->o.where = x->kernel.where;
    x->o.kernel_device = x->kernel.device;
    return 0;
}

/* The common options but --fifo and --raw, which do not apply: the windows run in a child
 * process of their own and there are no raw samples to write. */
static void print_common_help(void)
{
    const char *p = cli_common_help;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p + 1) : strlen(p);
        if (strncmp(p, "  --fifo", 8) != 0 && strncmp(p, "  --raw", 7) != 0)
            fwrite(p, 1, n, stdout);
        p += n;
    }
}

static int run_table(struct asm_cli *x, const char *text, const tks_platform *p,
                     tks__atomic_file *out)
{
    tks_asm_row *rows = NULL;
    tks_asm_result *res;
    tks__asm_request *req;
    int *rcs, failed = 0, rc, page_rc = CLI_EXIT_OK;
    size_t n = 0;
    char err[256];
    int progress = !x->common.quiet && isatty(2);
    if ((rc = tks_asm_table_parse(text, &rows, &n, err, sizeof err)) != 0) {
        tks__atomic_abort(out);
        return rc == TKS_EINVAL ? cli_usage_error("asm", "--table %s: %s", x->table, err)
                                : cli_failure("asm: %s", tks_strerror(rc));
    }
    res = calloc(n, sizeof *res);
    req = calloc(n, sizeof *req);
    rcs = calloc(n, sizeof *rcs);
    if (!res || !req || !rcs) {
        free(rows), free(res), free(req), free(rcs);
        tks__atomic_abort(out);
        return cli_failure("asm: %s", tks_strerror(TKS_ENOMEM));
    }
    for (size_t i = 0; i < n; i++) {
        tks_asm_options o = x->o;
        /* A row's own init, chain and chase win; the command line's are the defaults. */
        o.code = rows[i].code;
        o.init = rows[i].init[0] ? rows[i].init : x->o.init;
        o.mode = rows[i].mode;
        o.chain = rows[i].chain[0] ? rows[i].chain : x->o.chain;
        o.chase_bytes = rows[i].chase_bytes ? rows[i].chase_bytes : x->o.chase_bytes;
        if (progress)
            fprintf(stderr, "\r[%zu/%zu] %-40.40s", i + 1, n, rows[i].name);
        rcs[i] = tks_asm_run(&o, &res[i]);
        failed |= rcs[i] != 0;
        req[i] = (tks__asm_request){rows[i].name, rows[i].code, o.init, o.chain, o.syntax, o.mode,
                                    o.chase_bytes, o.align, o.where};
    }
    if (progress)
        fprintf(stderr, "\r%60s\r", "");
    rc = tks__writers_write(&tks__asm_table_writers, x->common.format, out->f,
                            &(tks__asm_doc){req, res, rcs, n, p});
    if (rc == 0 && x->common.html) /* --html FILE: the page too (issue 27) */
        page_rc = cli_write_page("asm", &tks__asm_table_writers, x->common.html,
                                 &(tks__asm_doc){req, res, rcs, n, p});
    for (size_t i = 0; i < n; i++)
        tks_asm_result_free(&res[i]);
    free(rows), free(res), free(req), free(rcs);
    if (rc || (rc = tks__atomic_commit(out)) != 0)
        return cli_write_failure("asm", x->common.out, out, rc);
    if (failed)
        return cli_failure("asm: some rows could not be measured (their error is in the table)");
    return page_rc;
}

/* The defaults, before the options. The CPU's table and --diff have writers of their own: which
 * one is known from argv before --format is parsed. */
static void asm_cli_init(struct asm_cli *x, int argc, char **argv)
{
    const tks__writers *w = &tks__asm_writers;
    int ports = 0; /* --ports --table: ports.c's formats, checked when it runs */
    for (int i = 0; i < argc; i++)
        ports |= strcmp(argv[i], "--ports") == 0;
    memset(x, 0, sizeof *x);
    tks_asm_options_init(&x->o);
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "--diff") == 0)
            w = &tks__asm_diff_writers;
        else if (table_without_file(argc, argv, i) && !ports)
            w = &tks__asm_cpu_table_writers;
    /* one snippet and a --table FILE have the same formats: the command's --format is parsed once */
    cli_common_init(&x->common, w);
    cli_kernel_init(&x->kernel);
}

/* For the options' fuzz harness: parse as cmd_asm does, measure nothing. 0, 1 (help) or 2. */
int cli_asm_parse_only(int argc, char **argv)
{
    struct asm_cli x;
    int help = 0, rc;
    asm_cli_init(&x, argc, argv);
    rc = parse(argc, argv, &x, &help);
    return rc ? rc : help;
}

/* The command once the platform has a home: cmd_asm frees it on every path. */
static int asm_with(int argc, char **argv, tks_platform *platform)
{
    struct asm_cli x;
    tks__atomic_file out, raw;
    tks_asm_result *r;
    tks__asm_request q;
    char *text = NULL;
    int help = 0, rc;

    asm_cli_init(&x, argc, argv);
    if ((rc = parse(argc, argv, &x, &help)) != 0)
        return rc;
    if (help) {
        fputs(asm_help, stdout);
        fputs(cli_record_help, stdout);
        cli_format_help(stdout, x.common.writers);
        print_common_help();
        return CLI_EXIT_OK;
    }
    if ((x.file || x.table) && !(text = cli_asm_slurp(x.file ? x.file : x.table)))
        return cli_failure("asm: cannot read '%s': %s", x.file ? x.file : x.table,
                           strerror(errno));
    if ((rc = cli_open_outputs("asm", &x.common, &out, &raw)) != 0) {
        free(text);
        return rc;
    }
    if (x.diff[0])
        return cli_asm_diff(&x.common, x.diff[0], x.diff[1], &out);
    if ((rc = cli_platform("asm", &x.common, platform)) != 0) {
        free(text);
        tks__atomic_abort(&out);
        return rc;
    }
    x.o.pin_cpu = x.common.pin_cpu;
    x.o.quantum = platform->quantum.quantum;
    if (x.cpu_table && x.ports) /* asm_analysis.c */
        return cli_asm_ports_catalog(&x.o, x.only, x.blockers, &x.common, platform, &out);
    if (x.cpu_table) {
        tks__asm_table_options to;
        memset(&to, 0, sizeof to);
        to.batch.budget = x.budget_given ? x.o.budget : 0.1;
        to.batch.timeout = x.o.timeout;
        to.batch.pin_cpu = x.o.pin_cpu;
        to.batch.quantum = x.o.quantum;
        to.batch.scratch_bytes = x.o.scratch_bytes;
        to.batch.where = x.o.where;
        to.batch.kernel_device = x.o.kernel_device;
        to.force = x.force;
        to.only = x.only;
        return cli_asm_cpu_table(&x.common, &to, platform, &out);
    }
    if (x.ports || x.explain) { /* asm_analysis.c */
        x.o.code = x.code ? x.code : text;
        rc = x.ports ? cli_asm_ports(&x.o, x.table ? text : NULL, x.table, x.o.code,
                                     x.blockers, &x.common, platform, &out)
                     : cli_asm_explain(&x.o, &x.common, platform, &out);
        free(text);
        return rc;
    }
    if (x.table) {
        rc = run_table(&x, text, platform, &out);
        free(text);
        return rc;
    }
    x.o.code = x.code ? x.code : text;
    if (!(r = malloc(sizeof *r))) {
        free(text);
        tks__atomic_abort(&out);
        return cli_failure("asm: %s", tks_strerror(TKS_ENOMEM));
    }
    if ((rc = cli_record_open("asm", &x.record, platform)) != 0) {
        tks__atomic_abort(&out);
        free(r);
        free(text);
        return rc;
    }
    if ((rc = tks__asm_run_recorded(&x.o, cli_record_sink(&x.record), r)) != 0) {
        tks__atomic_abort(&out);
        if (x.record.failed) {
            rc = cli_record_close("asm", &x.record, 1);
        } else {
            cli_record_close("asm", &x.record, 0);
            rc = rc == TKS_EINVAL ? cli_usage_error("asm", "%s", r->error)
                                  : cli_failure("asm: %s", r->error);
        }
        tks_asm_result_free(r);
        free(r);
        free(text);
        return rc;
    }
    q = (tks__asm_request){NULL, x.o.code, x.o.init, x.o.chain, x.o.syntax, x.o.mode,
                           x.o.chase_bytes, x.o.align, x.o.where};
    rc = cli_write(&x.common, out.f, &(tks__asm_doc){&q, r, (const int[]){0}, 1, platform});
    tks_asm_result_free(r);
    free(r);
    free(text);
    if (rc) {
        cli_record_close("asm", &x.record, 0);
        return cli_write_failure("asm", x.common.out, &out, rc);
    }
    if ((rc = cli_record_close("asm", &x.record, 1)) != 0) {
        tks__atomic_abort(&out);
        return rc;
    }
    return cli_close_outputs(&out, &raw, &x.common);
}

int cmd_asm(int argc, char **argv)
{
    return cli_with_platform(asm_with, argc, argv);
}
