/* output.c: where a report goes: stdout or a file that appears whole, and the raw-sample CSV. */
#include "cli/cli.h"

#include <errno.h>
#include <string.h>

int cli_method_of_arch(int m)
{
#if defined(TKS_ARCH_X86)
    return (tks_method_info((enum tks_method)m)->flags & TKS_MF_X86) != 0;
#else
    return (tks_method_info((enum tks_method)m)->flags & TKS_MF_ARM64) != 0;
#endif
}

int cli_method_listed(int m)
{
    return cli_method_of_arch(m) && !(tks_method_info((enum tks_method)m)->flags & TKS_MF_RING0);
}

/* Open --raw and --out before measuring, so a bad path fails in a moment, not after a run. */
int cli_open_outputs(const char *cmd, const struct cli_common *c, tks_atomic_file *out,
                     tks_atomic_file *raw)
{
    int rc, err;
    memset(out, 0, sizeof *out);
    memset(raw, 0, sizeof *raw);
    errno = 0;
    if ((rc = tks_atomic_open(out, c->out ? c->out : "-")) != 0) {
        err = errno;
        return cli_failure("%s: cannot write '%s': %s", cmd, c->out ? c->out : "-",
                           err ? strerror(err) : tks_strerror(rc));
    }
    errno = 0;
    if (c->raw && (rc = tks_atomic_open(raw, c->raw)) != 0) {
        err = errno;
        tks_atomic_abort(out);
        return cli_failure("%s: cannot write raw samples to '%s': %s", cmd, c->raw,
                           err ? strerror(err) : tks_strerror(rc));
    }
    return 0;
}

int cli_close_outputs(tks_atomic_file *out, tks_atomic_file *raw, const struct cli_common *c)
{
    int rc_raw = raw->f ? tks_atomic_commit(raw) : 0, rc_out;
    if (rc_raw) {
        /* A report without the samples it describes would be half a result. */
        tks_atomic_abort(out);
        return cli_failure("cannot write raw samples to '%s': %s", c->raw, tks_strerror(rc_raw));
    }
    rc_out = tks_atomic_commit(out);
    if (rc_out)
        return cli_failure("cannot write '%s': %s", c->out ? c->out : "stdout", tks_strerror(rc_out));
    return CLI_EXIT_OK;
}

