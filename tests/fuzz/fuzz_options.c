/* SPDX-License-Identifier: MIT */
/* fuzz_options.c: the command-line parsers: tks_main's (tks_options_parse) and the tickscope
 * command's validate, resolution, info, asm, sys and compare, each through a function that
 * parses argv and measures nothing. The first byte picks the parser; the rest, cut at NULs and newlines, is
 * argv. Whatever the input, a parser returns a documented status: 0, 1 (help) or 2. */
#include "cli/cmd_asm.h"
#include "cli/cmd_compare.h"
#include "cli/cmd_info.h"
#include "cli/cmd_resolution.h"
#include "cli/cmd_sys.h"
#include "cli/cmd_validate.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *argv[FUZZ_ARGS_MAX + 1];
    int argc, rc;
    if (size < 1)
        return 0;
    argc = fuzz_argv(data + 1, size - 1, argv);
    switch (data[0] % 7) {
    case 0: {
        tks_options o;
        char err[200];
        tks_options_init(&o);
        rc = tks_options_parse(&o, argc, argv, err, sizeof err);
        if (rc < 0 || rc > 2 || (rc == 2 && (!err[0] || strchr(err, '\n'))))
            abort(); /* a usage error is one line saying what is wrong */
        if (rc == 0 && (o.min_time <= 0 || o.repetitions < 1 || !(o.tsc_hz >= 0)))
            abort();
        break;
    }
    case 1:
        rc = cli_validate_parse_only(argc - 1, argv + 1);
        break;
    case 2:
        rc = cli_resolution_parse_only(argc - 1, argv + 1);
        break;
    case 3:
        rc = cli_info_parse_only(argc - 1, argv + 1);
        break;
    case 4:
        rc = cli_asm_parse_only(argc - 1, argv + 1);
        break;
    case 5:
        rc = cli_sys_parse_only(argc - 1, argv + 1);
        break;
    default:
        rc = cli_compare_parse_only(argc - 1, argv + 1);
        break;
    }
    if (rc != 0 && rc != 1 && rc != 2)
        abort();
    fuzz_argv_free(argc, argv);
    return 0;
}
