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
