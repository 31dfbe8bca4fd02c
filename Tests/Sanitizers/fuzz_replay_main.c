// The `main` of a C fuzz target built without libFuzzer (scripts/test-sanitizers c-kernels): every
// file in the folders and files named on the command line run once through the target's
// LLVMFuzzerTestOneInput, in name order, under ASan and UBSan. A crash or a sanitizer report ends
// the process with the file's name printed first; otherwise one line: how many inputs ran, and
// the slowest. With `--min N`, fewer than N inputs from the folders is a failure, so a replay
// cannot pass by running nothing.
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static double slowest = 0;
static const char *slowest_name = "";
static char slowest_copy[4096];

/// Runs one file; returns 1 when it was read and run.
static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "replay: cannot open %s\n", path); exit(2); }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    // An exact-size copy, so a read one byte past the input is an ASan report.
    uint8_t *data = malloc(n > 0 ? (size_t)n : 1);
    if (n > 0 && fread(data, 1, (size_t)n, f) != (size_t)n) { fprintf(stderr, "replay: cannot read %s\n", path); exit(2); }
    fclose(f);
    fprintf(stderr, "replay: %s\n", path);  // names the input a report that follows is about
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    LLVMFuzzerTestOneInput(data, (size_t)n);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
    if (s > slowest) {
        slowest = s;
        snprintf(slowest_copy, sizeof slowest_copy, "%s", path);
        slowest_name = slowest_copy;
    }
    free(data);
    return 1;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/// Runs every regular file in `dir`, sorted; returns how many.
static int run_folder(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return 0;  // a target without crashes has no Crashes/TARGET
    char **names = NULL;
    size_t count = 0, room = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        if (count == room) { room = room ? 2 * room : 64; names = realloc(names, room * sizeof *names); }
        names[count++] = strdup(e->d_name);
    }
    closedir(d);
    if (count) qsort(names, count, sizeof *names, by_name);
    int ran = 0;
    for (size_t i = 0; i < count; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        struct stat st;
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) ran += run_file(path);
        free(names[i]);
    }
    free(names);
    return ran;
}

int main(int argc, char **argv) {
    long min = 0;
    int ran = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--min") == 0 && i + 1 < argc) { min = strtol(argv[++i], NULL, 10); continue; }
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) ran += run_folder(argv[i]);
        else if (stat(argv[i], &st) == 0) ran += run_file(argv[i]);
        else if (strstr(argv[i], "Crashes") == NULL) { fprintf(stderr, "replay: no such input %s\n", argv[i]); return 2; }
    }
    printf("%d inputs replayed clean, slowest %.3f s (%s)\n", ran, slowest, slowest_name);
    if (ran < min) { printf("FAILED: %d inputs, fewer than the %ld required\n", ran, min); return 1; }
    return 0;
}
