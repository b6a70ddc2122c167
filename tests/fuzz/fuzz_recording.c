/* SPDX-License-Identifier: MIT */
/* fuzz_recording.c: a recording read back and analysed (tks__replay_bytes, what `tickscope
 * replay` runs): the container, the machine's section, the program's and every run's, then the
 * analysis of whatever windows the input holds. Checked: no crash, leak or undefined behaviour;
 * a documented return with a reason; a read recording's results as many as its instances times
 * its repetitions, each named. */
#include "fuzz.h"
#include "runner/replay.h"
#include "tickscope.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tks__replay rp;
    char err[512] = "";
    int rc = tks__replay_bytes(data, size, &rp, err, sizeof err);
    if (rc != 0 && (rc != TKS_EINVAL || !err[0]))
        abort();
    if (rc == 0) {
        if (!rp.n_results || !rp.o.repetitions || rp.n_results % rp.o.repetitions)
            abort();
        for (size_t i = 0; i < rp.n_results; i++)
            if (!memchr(rp.results[i].name, 0, sizeof rp.results[i].name))
                abort();
        tks__replay_free(&rp);
    }
    return 0;
}
