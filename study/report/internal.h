/* What the parts of the balance report share and nothing outside them
 * calls: report_load.c fills a Report, report_figures.c reads figures and
 * labels off it, report_markdown.c writes the prose and tables,
 * report_data.c the data files behind the pictures, report_plot.c runs
 * gnuplot on them. The public side is report.h. */
#ifndef YINSH_REPORT_INTERNAL_H
#define YINSH_REPORT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include "report/report.h"

/* The index in rep->pairs of the games of variant between white and black
 * (specs as stored); -1 when there are none. Loading uses it while the
 * pairs still grow, the comparison of variants once they are sorted. */
int report_pair_index(const Report *rep, int variant, const char *white, const char *black);

/* Whether any pair of the report played variant. */
bool report_has_variant(const Report *rep, int variant);

/* A pair's name for a reader: the agent, or "white vs black", each spec
 * without the parts that only repeat the defaults ("mcts:sims=600"). */
void report_pair_label(const ReportPair *p, char *out, size_t len);

/* Writes the data files into dir: lengths-VARIANT.dat and
 * first-ring-VARIANT.dat for each variant with games, and strength.dat.
 * variants and strength_variants (len bytes each) get the names of the
 * variants with games and of those with a same-agent pair, space-separated:
 * the lists the gnuplot scripts loop over. 0, or -1 with a message in err
 * (ERR_LEN bytes). */
int report_write_data(const Report *rep, const char *dir, char *variants, char *strength_variants, size_t len,
                      char *err);

#endif
