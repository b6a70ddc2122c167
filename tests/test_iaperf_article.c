/* SPDX-License-Identifier: MIT */
/* test_iaperf_article.c: code written against M. Stoner's IAPerf article, unchanged, on
 * tickscope/iaperf.h: Figure 1's pattern, PERFINITMHZ at file scope, PERFSTART and PERFSTOP in
 * different functions, a recursion (every frame timed), several sections in one function (kept
 * apart), PERFINITMHZ(500) beside the measured rate (the region report keeps the measured one),
 * and the article's own rdtsc(). Built as C and C++ with the build's compilers (tests/cc_util.h),
 * run, and its figures checked from its output and the JSON report. */
#include "cc_util.h"

static const char article[] =
    "#include \"IAperf.h\"\n"
    "#include <stdlib.h>\n"
    "\n"
    "PERFINITMHZ(0) /* file scope: the measured rate */\n"
    "\n"
    "static volatile double sink;\n"
    "\n"
    "static void start_here(void)\n"
    "{\n"
    "    PERFSTART\n"
    "}\n"
    "\n"
    "static void stop_there(void)\n"
    "{\n"
    "    PERFSTOP\n"
    "}\n"
    "\n"
    "static unsigned long long frame_clocks[5];\n"
    "\n"
    "static int recurse(int depth)\n"
    "{\n"
    "    PERFINITMHZ(0)\n"
    "    int r = 0, i;\n"
    "    PERFSTART\n"
    "    for (i = 0; i < 300; i++) sink = sink * 1.000001 + 1;\n"
    "    if (depth > 0) r = recurse(depth - 1);\n"
    "    PERFSTOP\n"
    "    frame_clocks[depth] = clocks;\n"
    "    (void)clockspeed;\n"
    "    return r + 1;\n"
    "}\n"
    "\n"
    "static void Foo(void)\n"
    "{\n"
    "    int i;\n"
    "    double x = 0;\n"
    "\n"
    "    PERFINITMHZ(500) // initialize performance measurement macros for a 500 Mhz machine\n"
    "\n"
    "    for (i = 0; i < 100; i++) x += i * 0.5;\n"
    "\n"
    "    PERFSTART // record time-stamp counter prior to entering performance-critical code\n"
    "    for (i = 0; i < 1000; i++) x = x * 1.000001 + 1;\n"
    "    PERFSTOP // record time-stamp counter after leaving performance-critical code\n"
    "\n"
    "    PERFREPORT // report the length of time spent in the performance-critical code\n"
    "\n"
    "    PERFSTART\n"
    "    for (i = 0; i < 20000; i++) x = x * 1.000001 + 1;\n"
    "    PERFSTOP\n"
    "    sink = x;\n"
    "}\n"
    "\n"
    "unsigned long long rdtsc();\n"
    "\n"
    "int main(void)\n"
    "{\n"
    "    unsigned long long t0 = rdtsc(), t1;\n"
    "    int i, frames;\n"
    "    for (i = 0; i < 3; i++) Foo();\n"
    "    start_here();\n"
    "    sink = 2;\n"
    "    stop_there();\n"
    "    PERFREPORT\n"
    "    frames = recurse(4);\n"
    "    t1 = rdtsc();\n"
    "    for (i = 0; i < 5; i++)\n"
    "        if (frame_clocks[i] == 0) return 10 + i; /* every frame timed */\n"
    "    if (frame_clocks[4] <= frame_clocks[0]) return 20; /* the outer frame holds the inner */\n"
    "    return frames == 5 && t1 > t0 ? 0 : 30;\n"
    "}\n";

/* Foo's two sections apart, three passes each, the longer one longer; the cross-function pair one
 * pass; the recursion five (every frame); the report's TSC rate measured, not PERFINITMHZ's 500;
 * no figure negative. */
static const char check_py[] =
    "import json, sys\n"
    "d = json.load(open('r.json'))\n"
    "r = {}\n"
    "for x in d['regions']: r.setdefault(x['name'].split(':')[0], []).append(x)\n"
    "foo = sorted(r['Foo'], key=lambda x: x['raw_mean_ticks'])\n"
    "ok = (len(foo) == 2 and all(x['passes'] == 3 for x in foo)\n"
    "      and foo[0]['raw_mean_ticks'] < foo[1]['raw_mean_ticks']\n"
    "      and [x['passes'] for x in r['stop_there']] == [1]\n"
    "      and [x['passes'] for x in r['recurse']] == [5]\n"
    "      and d['tsc_hz_given'] is False)\n"
    "ok = ok and all(x['min_ticks'] >= 0 and x['mean_ticks'] >= 0 for x in d['regions'])\n"
    "sys.exit(0 if ok else 1)\n";

static void build_and_run(const char *cc, const char *std, int cxx)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "rm -f out.txt r.json && %s -std=%s%s -O2 -Wall -Wextra -Werror -x %s -I'%s' article.c "
             "-x none -o article '%s' -lm -lpthread && "
             "TICKSCOPE_REGION_OUT=r.json TICKSCOPE_REGION_FORMAT=json %s ./article >out.txt",
             cc, std, cc_san, cxx ? "c++" : "c", cc_inc, cc_lib, cc_run);
    CHECK(cc_sh(cmd) == 0);
    /* Four PERFREPORT lines: three from Foo at 500 MHz, one at file scope (measured rate). */
    CHECK(cc_sh("test $(grep -c '^time elapsed = [0-9.]* sec' out.txt) = 4") == 0);
    CHECK(cc_sh("python3 check.py") == 0);
}

int main(void)
{
    cc_setup();
    if (!cc_have("python3")) {
        printf("SKIP: python3 is needed to read the report (apt-get install python3)\n");
        return 77;
    }
    CHECK(cc_write("article.c", article) == 0);
    CHECK(cc_write("IAperf.h", "#include <tickscope/iaperf.h>\n") == 0);
    CHECK(cc_write("check.py", check_py) == 0);
    build_and_run(cc_c, "c11", 0);
    CHECK(cc_cxx[0] != 0);
    if (cc_cxx[0])
        build_and_run(cc_cxx, "c++17", 1);
    if (cc_finish() != 0)
        return 1;
    CHECK_DONE();
}
