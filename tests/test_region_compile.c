/* SPDX-License-Identifier: MIT */
/* test_region_compile.c: the region headers as users compile them. tickscope/region.h builds as
 * C99, C11 and C++ with every compiler installed; with TKS_REGIONS_DISABLE a program using every
 * macro and function links without the library (so it references none of it); and code written
 * against the IAPerf article, macros without semicolons, builds unchanged on tickscope/iaperf.h,
 * as C and C++, and runs. The build's own compilers (the cross ones, the programs run under QEMU,
 * in a cross build; tests/cc_util.h), then the host's clang when the build is native. */
#include "cc_util.h"

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

/* cc: a compiler command with its flags; std; cxx: compile as C++. */
static void test_header(const char *cc, const char *std, int cxx)
{
    const char *lang = cxx ? "c++" : "c";
    char flags[300], cmd[4096];
    snprintf(flags, sizeof flags, "-std=%s -O2 -Wall -Wextra -Werror%s", std,
             cxx ? "" : " -Wstrict-prototypes");
    /* Compiled in: builds, links against the library, runs. */
    snprintf(cmd, sizeof cmd, "%s %s%s -x %s -I'%s' user.c -x none -o user_on '%s' -lm -lpthread && "
                              "%s ./user_on", cc, flags, cc_san, lang, cc_inc, cc_lib, cc_run);
    CHECK(cc_sh(cmd) == 0);
    /* Compiled out: links without the library, so nothing of it is referenced. */
    snprintf(cmd, sizeof cmd, "%s %s -DTKS_REGIONS_DISABLE -x %s -I'%s' user.c -x none -o user_off && "
                              "! '%s' -u user_off | grep -i tks_", cc, flags, lang, cc_inc, cc_nm);
    CHECK(cc_sh(cmd) == 0);
    /* The article's code, unchanged. */
    snprintf(cmd, sizeof cmd, "%s -std=%s%s -O2 -Wall -Wextra -Werror -x %s -I'%s' article.c "
                              "-x none -o article '%s' -lm -lpthread && "
                              "TICKSCOPE_REGION_OUT=report.txt %s ./article >article.out && "
                              "test $(grep -c '^time elapsed = [0-9.]* sec$' article.out) = 2 && "
                              "grep -q '^Foo:[0-9]*  *2 ' report.txt",
             cc, std, cc_san, lang, cc_inc, cc_lib, cc_run);
    CHECK(cc_sh(cmd) == 0);
    snprintf(cmd, sizeof cmd, "%s -std=%s -O2 -Wall -Wextra -Werror -DTKS_REGIONS_DISABLE -x %s "
                              "-I'%s' article.c -x none -o article_off", cc, std, lang, cc_inc);
    CHECK(cc_sh(cmd) == 0);
}

int main(void)
{
    cc_setup();
    if (!cc_have(cc_nm)) {
        printf("SKIP: %s is not installed (apt-get install binutils)\n", cc_nm);
        return 77;
    }
    CHECK(cc_write("user.c", user_code) == 0);
    CHECK(cc_write("article.c", article_code) == 0);
    CHECK(cc_write("IAperf.h", "#include <tickscope/iaperf.h>\n") == 0);

    test_header(cc_c, "c99", 0);
    test_header(cc_c, "c11", 0);
    /* C++ is a row of the matrix, not optional: CI installs g++ and the cross g++. */
    CHECK(cc_cxx[0] != 0);
    if (cc_cxx[0])
        test_header(cc_cxx, "c++11", 1);
    else
        fprintf(stderr, "no C++ compiler for this build (install g++, or g++-aarch64-linux-gnu "
                        "for the arm64 build)\n");
    /* The other compiler family, on the machine that runs the tests. */
    if (!cc_cross && cc_have("clang") && cc_have("clang++")) {
        test_header("clang", "c11", 0);
        test_header("clang++", "c++17", 1);
    } else if (!cc_cross) {
        CHECK_SKIP("clang's rows (clang is not installed: apt-get install clang)");
    }
    if (cc_finish() != 0)
        return 1;
    CHECK_DONE();
}
