/* Where the report's gnuplot scripts are (plots_dir.h). */
#include <libgen.h>
#include <stdio.h>
#include <unistd.h>
#include "study/report/plots_dir.h"

bool report_plots_in(const char *dir)
{
    char path[4096 + 16];
    snprintf(path, sizeof path, "%s/strength.gp", dir);
    return access(path, R_OK) == 0;
}

const char *report_plots_find(const char *source_dir, char *buf, size_t len)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        snprintf(buf, len, "%s/../scripts/plots", dirname(exe));
        if (report_plots_in(buf)) return buf;
    }
    snprintf(buf, len, "%s/scripts/plots", source_dir);
    if (report_plots_in(buf)) return buf;
    snprintf(buf, len, "scripts/plots");
    return report_plots_in(buf) ? buf : NULL;
}
