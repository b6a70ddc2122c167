/* output.c: where and how the region report goes (the environment, then the API), writing it
 * on demand, at exit and on a signal. The report is a feature the user asked for, so this file
 * prints: the report itself, and once, a report file that could not be written. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "region/internal.h"
#include "report/region_report.h"
#include "report/report.h"

#define OUT_MAX 512

/* Guarded by tks__region_lock, except what only the reporting path touches (report_lock). */
static char out_env[OUT_MAX], out_api[OUT_MAX];
static int format_env = -1, format_api = -1;
static double tsc_hz_api;
static int signal_env = -1;

static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t report_failures;
static tks_platform *platform; /* probed at the first report: it takes up to a few 100 ms */
static int platform_tried;

static int sig_pipe[2] = {-1, -1};
static int sig_current;
static pthread_t sig_thread;
static int sig_thread_started;

static int parse_format(const char *s)
{
    if (strcmp(s, "text") == 0 || strcmp(s, "txt") == 0)
        return TKS_REGION_TEXT;
    if (strcmp(s, "json") == 0)
        return TKS_REGION_JSON;
    if (strcmp(s, "csv") == 0)
        return TKS_REGION_CSV;
    return -1;
}

static int parse_signal(const char *s)
{
    char *end;
    long v;
    if (strncmp(s, "SIG", 3) == 0)
        s += 3;
    if (strcmp(s, "USR1") == 0)
        return SIGUSR1;
    if (strcmp(s, "USR2") == 0)
        return SIGUSR2;
    errno = 0;
    v = strtol(s, &end, 10);
    if (errno || end == s || *end || v <= 0 || v >= 65 || v == SIGKILL || v == SIGSTOP)
        return -1;
    return (int)v;
}

/* ---------------------------------------------------------------- signals */

static void on_signal(int sig)
{
    int saved = errno;
    char c = 1;
    ssize_t r;
    (void)sig;
    /* Only write(2) here: it is async-signal-safe; the reporting thread does the rest. A full
     * pipe means reports are already pending, so a failed write loses nothing. */
    r = write(sig_pipe[1], &c, 1);
    (void)r;
    errno = saved;
}

static void *reporter(void *arg)
{
    char c;
    (void)arg;
    for (;;) {
        ssize_t r = read(sig_pipe[0], &c, 1);
        if (r == 1)
            tks_region_report(NULL, -1);
        else if (r < 0 && errno == EINTR)
            continue;
        else
            break;
    }
    return NULL;
}

/* Lock held. */
static int install_signal(int sig)
{
    struct sigaction sa;
    if (sig_current && sig_current != sig) {
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = SIG_DFL;
        sigaction(sig_current, &sa, NULL);
        sig_current = 0;
    }
    if (sig == 0)
        return 0;
    if (!sig_thread_started) {
        sigset_t all, old;
        if (pipe(sig_pipe) != 0)
            return TKS_EIO;
        fcntl(sig_pipe[0], F_SETFD, FD_CLOEXEC);
        fcntl(sig_pipe[1], F_SETFD, FD_CLOEXEC);
        fcntl(sig_pipe[1], F_SETFL, O_NONBLOCK);
        /* The reporting thread takes no signals: the program's handlers run in its own threads. */
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &old);
        sig_thread_started = pthread_create(&sig_thread, NULL, reporter, NULL) == 0;
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        if (!sig_thread_started)
            return TKS_EIO;
        pthread_detach(sig_thread);
    }
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    if (sigaction(sig, &sa, NULL) != 0)
        return TKS_EIO;
    sig_current = sig;
    return 0;
}

int tks_region_report_on_signal(int sig)
{
    int rc;
    if (sig < 0 || sig >= 65 || sig == SIGKILL || sig == SIGSTOP)
        return TKS_EINVAL;
    tks__region_init();
    pthread_mutex_lock(&tks__region_lock);
    rc = signal_env >= 0 ? 0 : install_signal(sig); /* the environment wins */
    pthread_mutex_unlock(&tks__region_lock);
    return rc;
}

/* ---------------------------------------------------------------- configuration */

static void at_exit(void)
{
    int none;
    size_t n;
    pthread_mutex_lock(&tks__region_lock);
    none = strcmp(out_env[0] ? out_env : out_api[0] ? out_api : "stderr", "none") == 0;
    n = tks__region_reg.n;
    pthread_mutex_unlock(&tks__region_lock);
    if (!none && n)
        tks_region_report(NULL, -1);
}

void tks__region_out_init(void)
{
    const char *v;
    pthread_mutex_lock(&tks__region_lock);
    if ((v = getenv("TICKSCOPE_REGION_OUT")) && *v)
        snprintf(out_env, sizeof out_env, "%s", v);
    if ((v = getenv("TICKSCOPE_REGION_FORMAT")) && *v) {
        format_env = parse_format(v);
        if (format_env < 0)
            tks__region_note("TICKSCOPE_REGION_FORMAT=%.40s is not text, json or csv: ignored", v);
    }
    if ((v = getenv("TICKSCOPE_REGION_RESERVOIR")) && *v) {
        char *end;
        unsigned long long n;
        errno = 0;
        n = strtoull(v, &end, 10);
        if (errno || end == v || *end || n > 100000000ull)
            tks__region_note("TICKSCOPE_REGION_RESERVOIR=%.40s is not a count up to 100000000: "
                            "ignored", v);
        else
            tks__region_reg.default_reservoir = (size_t)n;
    }
    if ((v = getenv("TICKSCOPE_REGION_METHOD")) && *v) {
        int m = tks_method_from_name(v);
        if (m >= 0 && tks_method_available((enum tks_method)m, tks_cpu_features_get()))
            tks__region_method = m;
        else
            tks__region_note("TICKSCOPE_REGION_METHOD=%.40s is not a method this CPU runs in user "
                            "space: ignored", v);
    }
    if (tks__region_method < 0 || tks__region_method >= (int)TKS_METHOD_COUNT)
#if defined(TKS_ARCH_X86)
        tks__region_method = TKS_METHOD_RDTSC;
#else
        tks__region_method = TKS_METHOD_CNTVCT;
#endif
    if ((v = getenv("TICKSCOPE_REGION_SIGNAL")) && *v) {
        int sig = parse_signal(v);
        if (sig < 0)
            tks__region_note("TICKSCOPE_REGION_SIGNAL=%.40s is not USR1, USR2 or a signal "
                            "number: ignored", v);
        else if (install_signal(sig) != 0)
            tks__region_note("TICKSCOPE_REGION_SIGNAL=%.40s: the handler could not be set up", v);
        else
            signal_env = sig;
    }
    pthread_mutex_unlock(&tks__region_lock);
    atexit(at_exit);
}

int tks_region_set_output(const char *out, int format)
{
    if ((out && (!*out || strlen(out) >= OUT_MAX)) || format < -1 || format > TKS_REGION_CSV)
        return TKS_EINVAL;
    tks__region_init();
    pthread_mutex_lock(&tks__region_lock);
    if (out)
        snprintf(out_api, sizeof out_api, "%s", out);
    if (format >= 0)
        format_api = format;
    pthread_mutex_unlock(&tks__region_lock);
    return 0;
}

int tks_region_set_tsc_hz(double hz)
{
    tks__region_init();
    pthread_mutex_lock(&tks__region_lock);
    tsc_hz_api = hz > 0 ? hz : 0;
    pthread_mutex_unlock(&tks__region_lock);
    return 0;
}

/* ---------------------------------------------------------------- the report */

static const char *method_name(int m)
{
    const struct tks_method_info *mi = tks_method_info((enum tks_method)m);
    return mi ? mi->name : "?";
}

static void probe_platform(void)
{
    tks_platform_options o;
    if (platform_tried)
        return;
    platform_tried = 1;
    platform = malloc(sizeof *platform);
    if (!platform)
        return;
    tks_platform_options_init(&o);
    if (tks_platform_probe(&o, platform) != 0) {
        free(platform);
        platform = NULL;
    }
}

double tks__region_measured_hz(void)
{
    double hz;
    pthread_mutex_lock(&report_lock);
    probe_platform();
    hz = platform ? platform->tsc_hz : 0;
    pthread_mutex_unlock(&report_lock);
    return hz;
}

static int write_to(FILE *f, int format, const tks_region_report_data *d)
{
    switch (format) {
    case TKS_REGION_JSON: return tks_region_write_json(f, d);
    case TKS_REGION_CSV: return tks_region_write_csv(f, d);
    default: return tks_region_write_text(f, d);
    }
}

/* Write to dest; a file that cannot be written sends the report to stderr, said once. */
static int deliver(const char *dest, int format, tks_region_report_data *d)
{
    tks_atomic_file af;
    int rc;
    if (strcmp(dest, "stderr") == 0)
        return write_to(stderr, format, d) == 0 && fflush(stderr) == 0 ? 0 : TKS_EIO;
    if (strcmp(dest, "stdout") == 0)
        dest = "-";
    rc = tks_atomic_open(&af, dest);
    if (rc == 0) {
        rc = write_to(af.f, format, d);
        if (rc == 0)
            rc = tks_atomic_commit(&af);
        else
            tks_atomic_abort(&af);
    }
    if (rc == 0)
        return 0;
    if (report_failures++ == 0)
        fprintf(stderr, "tickscope: the region report could not be written to %s (%s); it goes "
                        "to stderr instead (said once)\n", dest, tks_strerror(rc));
    d->report_failures = report_failures;
    write_to(stderr, format, d);
    fflush(stderr);
    return TKS_EIO;
}

int tks_region_report(const char *out, int format)
{
    char dest[OUT_MAX];
    tks_region_row *rows = NULL;
    tks_region_cost costs[TKS_METHOD_COUNT + 1];
    const char *notes[TKS__REGION_NOTES];
    char first_dropped[TKS_REGION_NAME_MAX];
    tks_region_report_data d;
    size_t n;
    int rc = 0;

    if (format < -1 || format > TKS_REGION_CSV)
        return TKS_EINVAL;
    tks__region_init();
    pthread_mutex_lock(&report_lock);
    probe_platform();
    memset(&d, 0, sizeof d);

    pthread_mutex_lock(&tks__region_lock);
    snprintf(dest, sizeof dest, "%s", out ? out : out_env[0] ? out_env : out_api[0] ? out_api : "stderr");
    if (format < 0)
        format = format_env >= 0 ? format_env : format_api >= 0 ? format_api : TKS_REGION_TEXT;
    n = tks__region_reg.n;
    rows = calloc(n ? n : 1, sizeof *rows);
    if (!rows) {
        pthread_mutex_unlock(&tks__region_lock);
        pthread_mutex_unlock(&report_lock);
        return TKS_ENOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t *kept;
        int m = tks__region_reg.method[i];
        tks__region_collect(i, &rows[i].st, &kept, &rows[i].n_kept);
        rows[i].kept = kept;
        rows[i].method = method_name(tks__region_effective_method(m));
        rows[i].method_compiled_in = m >= 0;
    }
    for (int m = -1; m < (int)TKS_METHOD_COUNT; m++) {
        const tks__region_overhead_est *e = tks__region_overhead_of(m);
        if (!e)
            continue;
        costs[d.n_costs].method = method_name(tks__region_effective_method(m));
        costs[d.n_costs].compiled_in = m >= 0;
        costs[d.n_costs].ticks = e->ticks;
        costs[d.n_costs].median = e->median;
        costs[d.n_costs].min = e->min;
        costs[d.n_costs].pairs = e->pairs;
        d.n_costs++;
    }
    for (size_t i = 0; i < tks__region_reg.n_notes; i++)
        notes[i] = tks__region_reg.notes[i];
    d.n_notes = tks__region_reg.n_notes;
    d.dropped_sites = tks__region_reg.dropped_sites;
    snprintf(first_dropped, sizeof first_dropped, "%s", tks__region_reg.first_dropped);
    d.first_dropped = first_dropped;
    d.alloc_failures = tks__region_reg.alloc_failures;
    d.tsc_hz_override = tsc_hz_api > 0;
    d.tsc_hz = tsc_hz_api > 0 ? tsc_hz_api : platform ? platform->tsc_hz : 0;
    pthread_mutex_unlock(&tks__region_lock);

    d.rows = rows;
    d.n_rows = n;
    d.costs = costs;
    d.notes = notes;
    d.platform = platform;
    d.cycles_per_tick = platform ? tks_core_cycles_per_tick(platform) : 0;
    d.report_failures = report_failures;
    d.histograms = 1;
    if (strcmp(dest, "none") != 0)
        rc = deliver(dest, format, &d);

    for (size_t i = 0; i < n; i++)
        free((void *)rows[i].kept);
    free(rows);
    pthread_mutex_unlock(&report_lock);
    return rc;
}
