#include <omp.h>
#include <stdio.h>
#include <string.h>
#include "selfplay/play/bench.h"
#include "selfplay/play/provenance.h"

void provenance_machine(char *out, size_t len)
{
    char model[128];
    bench_cpu_model(model, sizeof model);
    snprintf(out, len, "%s, %d cores", model, omp_get_num_procs());
}

bool provenance_committed(const char *commit)
{
    static const char DIRTY[] = "-dirty";
    size_t n = strlen(commit);
    if (!n || !strcmp(commit, "unknown")) return false;
    return !(n >= sizeof DIRTY - 1 && !strcmp(commit + n - (sizeof DIRTY - 1), DIRTY));
}
