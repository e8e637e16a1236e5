/* What the parts of the balance report share and nothing outside them
 * calls: load.c fills a Report, figures.c reads figures and labels off
 * it, markdown.c writes the prose and tables, data.c the data files
 * behind the pictures, plot.c runs gnuplot on them, match.c the match
 * report. The public side is report.h. */
#ifndef YINSH_REPORT_INTERNAL_H
#define YINSH_REPORT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include "report/report.h"

/* Whether any pair is an agent against itself. */
bool report_has_level(const Report *rep);

/* Text from the database in Markdown, as a code span: the one escaping
 * of every table cell and sentence that shows such text (markdown.c). */
void report_md_code(FILE *f, const char *text);

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
