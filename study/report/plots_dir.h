/* Where the report's gnuplot scripts are (scripts/plots: strength.gp and
 * the others), for a report that draws its pictures. */
#ifndef YINSH_PLOTS_DIR_H
#define YINSH_PLOTS_DIR_H

#include <stdbool.h>
#include <stddef.h>

/* Whether dir holds the scripts (a readable strength.gp). */
bool report_plots_in(const char *dir);
/* The scripts: scripts/plots of the source tree the running binary was
 * built in (the binary lives in a build directory there), else of
 * source_dir (the tree that configured the build), else of the current
 * directory; into buf (len bytes). NULL when none has them. */
const char *report_plots_find(const char *source_dir, char *buf, size_t len);

#endif
