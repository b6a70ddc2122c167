/* SPDX-License-Identifier: MIT */
/* replay_main.c: a main for the fuzz harnesses without libFuzzer: runs LLVMFuzzerTestOneInput on
 * every file named, or every file in every directory named (tests/fuzz/corpus/NAME), so a plain
 * or sanitised ctest run replays the inputs that once crashed a parser. */
#include <dirent.h>
#include <sys/stat.h>

#include "fuzz.h"

static int replay(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf;
    long n;
    if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        perror(path);
        if (f)
            fclose(f);
        return 1;
    }
    buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        perror(path);
        fclose(f);
        free(buf);
        return 1;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(buf, (size_t)n);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    int files = 0, bad = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        DIR *d;
        struct dirent *e;
        if (stat(argv[i], &st) != 0) {
            perror(argv[i]);
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            bad += replay(argv[i]);
            files++;
            continue;
        }
        if (!(d = opendir(argv[i])))
            return 1;
        while ((e = readdir(d)) != NULL) {
            char path[4096];
            if (e->d_name[0] == '.')
                continue;
            snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
            bad += replay(path);
            files++;
        }
        closedir(d);
    }
    printf("replayed %d input(s)%s\n", files, bad ? ", some unreadable" : "");
    if (!files)
        printf("FAIL: nothing to replay: save a few inputs in the corpus directory\n");
    return bad || !files ? 1 : 0;
}
