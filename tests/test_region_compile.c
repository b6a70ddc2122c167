/* test_region_compile.c: the region headers as users compile them. tickscope/region.h builds as
 * C99, C11 and C++ with every compiler installed; with TKS_REGIONS_DISABLE a program using every
 * macro and function links without the library (so it references none of it); and code written
 * against the IAPerf article, macros without semicolons, builds unchanged on tickscope/iaperf.h,
 * as C and C++, and runs. Needs TKS_SOURCE_DIR and TKS_TICKSCOPE (CTest sets both). */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

static char dir[] = "/tmp/tks_region_cc_XXXXXX";
static char inc[1024], lib[1024];
static const char *san = ""; /* the sanitizers, when the library was built with them */

static int have(const char *tool)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", tool);
    return system(cmd) == 0;
}

static int write_file(const char *name, const char *text)
{
    char path[1200];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

/* Run a shell command in dir, its output in dir/log; returns its exit status. */
static int sh(const char *fmt, const char *a, const char *b)
{
    char cmd[4096], c2[4200];
    snprintf(cmd, sizeof cmd, fmt, a, b);
    snprintf(c2, sizeof c2, "cd '%s' && (%s) >>log 2>&1", dir, cmd);
    int rc = system(c2);
    if (rc != 0)
        fprintf(stderr, "command failed (%d): %s\n", rc, cmd);
    return rc;
}

static const char user_code[] =
    "#include <tickscope/region.h>\n"
    "int work(int n);\n"
    "int work(int n)\n"
    "{\n"
    "    int s = 0;\n"
    "    tks_region_stats st;\n"
    "    tks_region_set_reservoir(\"loop\", 100);\n"
    "    tks_region_set_output(\"none\", TKS_REGION_TEXT);\n"
    "    tks_region_set_tsc_hz(1e9);\n"
    "    tks_region_report_on_signal(0);\n"
    "    for (int i = 0; i < n; i++) {\n"
    "        TKS_REGION_BEGIN(\"loop\");\n"
    "        s += i;\n"
    "        TKS_REGION_END(\"loop\");\n"
    "    }\n"
    "    if (tks_region_stats_get(\"loop\", &st) == 0 && tks_region_overhead() >= 0)\n"
    "        s += (int)st.passes;\n"
    "    tks_region_reset();\n"
    "    return s + tks_region_report(0, -1);\n"
    "}\n"
    "int main(void) { return work(10) == 10 * 9 / 2 + 10 ? 0 : 1; }\n";

/* Figure 1 of the article, filled in; PERFINITMHZ(0) asks for the measured rate. */
static const char article_code[] =
    "#include \"IAperf.h\"\n"
    "\n"
    "double Foo(int mhz)\n"
    "{\n"
    "    int i;\n"
    "    double x = 0;\n"
    "\n"
    "    PERFINITMHZ(mhz) // initialize performance measurement macros\n"
    "\n"
    "    for (i = 0; i < 100; i++) x += i * 0.5;\n"
    "\n"
    "    PERFSTART // record time-stamp counter prior to entering performance-critical code\n"
    "\n"
    "    for (i = 0; i < 1000; i++) x = x * 1.000001 + 1;\n"
    "\n"
    "    PERFSTOP // record time-stamp counter after leaving performance-critical code\n"
    "\n"
    "    PERFREPORT // report the length of time spent in the performance-critical code\n"
    "\n"
    "    if (clocks == 0) x = -1;\n"
    "    return x;\n"
    "}\n"
    "\n"
    "int main(void)\n"
    "{\n"
    "    double a = Foo(500), b = Foo(0);\n"
    "    return a < 0 || b < 0;\n"
    "}\n";

static void test_header(const char *cc, const char *std, int cxx)
{
    char flags[300];
    snprintf(flags, sizeof flags, "-std=%s -O2 -Wall -Wextra -Werror%s", std,
             cxx ? "" : " -Wstrict-prototypes");
    char cmd[1500];
    /* Compiled in: builds, links against the library, runs. */
    snprintf(cmd, sizeof cmd, "%s %s%s -x %s -I'%%s' user.c -x none -o user_on '%%s' -lm -lpthread && "
                              "./user_on", cc, flags, san, cxx ? "c++" : "c");
    CHECK(sh(cmd, inc, lib) == 0);
    /* Compiled out: links without the library, so nothing of it is referenced. */
    snprintf(cmd, sizeof cmd, "%s %s -DTKS_REGIONS_DISABLE -x %s -I'%%s' user.c -x none -o user_off%%s && "
                              "! nm -u user_off | grep -i tks_",
             cc, flags, cxx ? "c++" : "c");
    CHECK(sh(cmd, inc, "") == 0);
    /* The article's code, unchanged. */
    snprintf(cmd, sizeof cmd, "%s -std=%s%s -O2 -Wall -Wextra -Werror -x %s -I'%%s' article.c "
                              "-x none -o article '%%s' -lm -lpthread && "
                              "TICKSCOPE_REGION_OUT=report.txt ./article >article.out && "
                              "test $(grep -c '^time elapsed = [0-9.]* sec$' article.out) = 2 && "
                              "grep -q '^Foo  *2 ' report.txt",
             cc, std, san, cxx ? "c++" : "c");
    CHECK(sh(cmd, inc, lib) == 0);
    snprintf(cmd, sizeof cmd, "%s -std=%s -O2 -Wall -Wextra -Werror -DTKS_REGIONS_DISABLE -x %s "
                              "-I'%%s' article.c -x none -o article_off%%s",
             cc, std, cxx ? "c++" : "c");
    CHECK(sh(cmd, inc, "") == 0);
}

int main(void)
{
    const char *src = getenv("TKS_SOURCE_DIR"), *bin = getenv("TKS_TICKSCOPE");
    const char *slash;
    char cmd[1300];

    if (!src || !bin || !(slash = strrchr(bin, '/'))) {
        printf("skipped: TKS_SOURCE_DIR and TKS_TICKSCOPE are not set (run through ctest)\n");
        return 0;
    }
    if (!have("cc") || !have("nm")) {
        printf("skipped: no cc or nm on PATH\n");
        return 0;
    }
    snprintf(inc, sizeof inc, "%s/include", src);
    snprintf(lib, sizeof lib, "%.*s/libtickscope.a", (int)(slash - bin), bin);
    if (!mkdtemp(dir))
        return 1;
    snprintf(cmd, sizeof cmd, "nm '%s' 2>/dev/null | grep -q __asan_report", lib);
    if (system(cmd) == 0)
        san = " -fsanitize=address,undefined";
    CHECK(write_file("user.c", user_code) == 0);
    CHECK(write_file("article.c", article_code) == 0);
    CHECK(write_file("IAperf.h", "#include <tickscope/iaperf.h>\n") == 0);

    test_header("cc", "c99", 0);
    test_header("cc", "c11", 0);
    if (have("c++"))
        test_header("c++", "c++11", 1);
    else
        printf("no c++: the C++ build is not checked\n");
    if (have("clang"))
        test_header("clang", "c11", 0);
    if (have("clang++"))
        test_header("clang++", "c++17", 1);

    if (check_failed == 0) {
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0)
            return 1;
    } else {
        fprintf(stderr, "files kept in %s (see log)\n", dir);
    }
    CHECK_DONE();
}
