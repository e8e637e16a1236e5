#include <omp.h>
#include <stdio.h>
#include <string.h>
#include "provenance.h"

void provenance_machine(char *out, size_t len)
{
    char model[128] = "unknown CPU";
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[256];
        while (fgets(line, sizeof line, f))
            if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
                snprintf(model, sizeof model, "%s", strchr(line, ':') + 2);
                model[strcspn(model, "\n")] = '\0';
                break;
            }
        fclose(f);
    }
    snprintf(out, len, "%s, %d cores", model, omp_get_num_procs());
}
