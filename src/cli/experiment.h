/* experiment.h: the white paper's empty-window experiment for every method, the dependent-add
 * chain that shows which methods let the measured code escape the window, and the choice of a
 * method. Shared by `validate`, `resolution` (to choose its method) and the tour. */
#ifndef TKS_CLI_EXPERIMENT_H
#define TKS_CLI_EXPERIMENT_H

#include "cli/cli.h"
#include "cli/kernel.h"

#define CHAIN_ADDS 200u
#define CHAIN_ROUNDS 5

struct method_result {
    int selected, available, eligible;
    const char *ineligible_why;  /* why it can never be recommended, or NULL */
    int rc;                      /* 0, or the error that stopped this method */
    uint32_t ensembles, samples;
    int budget_limited;
    uint64_t discarded;          /* migrated + negative */
    uint64_t discarded_migrated, discarded_negative;
    tks_across across;
    tks_ergodicity erg;
    double median;               /* median of the ensemble medians */
    double pa_mean;              /* mean of the ensemble phase-averaged means */
    double seconds;
    /* The chain: CHAIN_ADDS dependent adds minus the empty window, median over rounds. */
    int chain_done;
    double chain_net_min, chain_net_mean;
};

struct experiment {
    /* input */
    int selected[TKS_METHOD_COUNT];
    uint32_t ensembles, samples;
    double budget_s;             /* per method; 0 = none */
    int chain;                   /* run the dependent-add chain */
    struct cli_common common;
    struct cli_kernel kernel;    /* --kernel: the samples come from the module (cli_kernel_ready first) */
    FILE *raw;                   /* CSV sink for every sample, or NULL */
    const char *plot_dir;        /* --plot: each method's figures for gnuplot go here, or NULL */
    tks_platform platform;       /* what the machine is (cli_platform) */
    /* output */
    uint64_t quantum, unfenced_step;
    enum tks_method quantum_method;
    struct method_result m[TKS_METHOD_COUNT];
    int recommended;             /* -1: none eligible */
    int reference;               /* method the chain differences are taken against, -1 none */
    char why[512];
    double seconds;
    int plot_rc, plot_errno;     /* why a figure could not be written (experiment_run: TKS_EIO) */
    struct cli_kernel_stats kstats; /* how the module owned the CPU (kernel runs) */
};

/* Summaries of every ensemble of a run (*ens allocated, free() it) and the figures across them. */
int cli_summarise_run(const tks_sample_run *run, uint64_t quantum, tks_summary **ens, tks_across *a);
/* Median of a few values; sorts v in place. */
double cli_median(double *v, size_t n);

/* --plot DIR, before measuring: create DIR (and missing parents) and check that a file can be
 * written there, so a bad directory fails in a moment rather than after the run. Prints its own
 * one-line error; returns an exit status. */
int cli_plot_dir_check(const char *cmd, const char *dir);
/* After the figures are written: render them when gnuplot is installed and say what happened in a
 * note (nothing under --quiet). Never a failure: the data and scripts are already there. */
void cli_plot_render(const char *dir, int quiet);

void experiment_init(struct experiment *x);
/* Runs everything; 0, or the error (tks_strerror) that stopped it (a method failing alone is
 * recorded in its result, not returned). */
int experiment_run(struct experiment *x);

#endif
