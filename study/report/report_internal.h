/* What the parts of the balance report share and nothing outside them
 * calls: load.c fills a Report, pairs.c finds pairs in it, figures.c
 * reads figures and labels off it, ladder.c rates a ladder's levels,
 * cells.c writes figures and stored text as Markdown cells, markdown.c
 * and markdown_ladder.c the prose and tables, data.c the data files
 * behind the pictures, plot.c runs gnuplot on them, match_report.c the match
 * report. The public side is report.h. No two of these files call each
 * other (tests/check_layers.sh). */
#ifndef YINSH_REPORT_INTERNAL_H
#define YINSH_REPORT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include "study/report/report.h"

/* Figures as table cells (cells.c): a p-value ("< 0.001", "0.012"),
 * an Elo difference ("+35", "+∞", never "-0"), a figure that may be
 * missing (NaN: "–") in a printf format. */
void report_fmt_p(double p, char *out, size_t len);
void report_fmt_elo(double e, char *out, size_t len);
void report_fmt_opt(double x, const char *fmt, char *out, size_t len);
/* A Holm-adjusted p as a cell: "–" for a test in no family (family 0). */
void report_fmt_holm(double p_holm, int family, char *out, size_t len);
/* A difference's verdict in words, by ReportVerdict. */
extern const char *const REPORT_VERDICT_WORD[REPORT_VERDICT_NB];
/* The tests of blitz against standard corrected together (figures.c):
 * the diff_family of the pairs of an agent against itself (0: none). */
int report_diff_family(const Report *rep);
/* The tests of White's score corrected together: the score_family of
 * the pairs of an agent against itself (0: none). */
int report_score_family(const Report *rep);

/* The sections of the ladder (markdown_ladder.c): the levels' Elo and
 * the links; White's score and the other measures against Elo, with the
 * published figures, blitz against standard per level and the opening
 * map of the strongest level; and the same agent from two openings.
 * Each writes nothing where the selection has nothing for it. */
void report_md_ladder(const Report *rep, FILE *f);
void report_md_by_elo(const Report *rep, FILE *f);
void report_md_openings(const Report *rep, FILE *f);
/* The comparisons declared before the games (rep->compared). */
void report_md_compared(const Report *rep, FILE *f);

/* Whether any pair is an agent against itself. */
bool report_has_level(const Report *rep);

/* Text from the database in Markdown, as a code span: the one escaping
 * of every table cell and sentence that shows such text (cells.c). */
void report_md_code(FILE *f, const char *text);
/* A difference's verdict as a cell's text (cells.c). */
void report_md_diff_verdict(FILE *f, const ReportDiff *d);
/* Whether every build a run's commits name (run.git_commit, a list) was
 * of committed code (provenance_committed); false for none stored. */
bool report_commits_clean(const char *list);

/* A variant's title in the report's headings: "Standard", "Blitz+swap", ... (VARIANT_*). */
const char *report_variant_title(int variant);
/* Two agents' spec texts as two cells' code spans: each by its display
 * name (agent_spec_display: an external engine's `uyi:NAME`, without its
 * command line), or both whole when their display names would not tell
 * two different specs apart (markdown.c). */
void report_md_agents(FILE *f, const char *a, const char *sep, const char *b);
/* A pair's first cell, "| `label`" (report_pair_label), and the cells of
 * blitz against standard after it: each variant's White's score with its
 * games, the difference with its interval, p and the verdict, ending the
 * row; the difference is returned (cells.c). */
void report_md_pair_cell(FILE *f, const ReportPair *p);
ReportDiff report_md_diff_cells(FILE *f, const ReportPair *standard, const ReportPair *blitz);
/* The cells of two pairs' White's scores and a difference of them: each
 * score with its games, the difference with its interval, p, its Holm
 * p and the verdict, ending the row (cells.c). */
void report_md_scores_diff(FILE *f, const ReportPair *x, const ReportPair *y, const ReportDiff *d);
/* The rows of a first-ring table by class (cells.c). */
void report_md_class_rows(FILE *f, const ReportClass *c);

/* A pair's name for a reader: the agent, or "white vs black", each spec
 * without the parts that only repeat the defaults ("mcts:sims=600"), and
 * the opening when another pair has the same agents from another. */
void report_pair_label(const ReportPair *p, char *out, size_t len);
/* An agent's name so (a level of a ladder). */
void report_agent_label(const char *spec, char *out, size_t len);

/* The variants each picture's script loops over, space-separated: those
 * with games, those with a same-agent pair (strength.dat), those whose
 * ladder rates a level against its anchor (ladder.dat); and for each
 * variant with games the pair its first-ring map is drawn for with its
 * games ("ab:depth=5, 2400 games"), and where its ladder is rated the
 * anchor's name ("random"), for the pictures' titles and axes. */
typedef struct ReportDataLists {
    /* space-separated variant names: every one of the REPORT_VARIANT_NB
       fits (standard+swap+draw-odds and the rest, 119 bytes) */
    char variants[256], strength[256], ladder[256];
    char top[REPORT_VARIANT_NB][1200];
    char anchor[REPORT_VARIANT_NB][1100];
} ReportDataLists;

/* Writes the data files into dir: lengths-VARIANT.dat and
 * first-ring-VARIANT.dat for each variant with games; with a ladder
 * ladder.dat, ladder-levels.dat and published.dat, else strength.dat
 * (data.c, each file's layout above the function that writes it). 0, or
 * -1 with a message in err (ERR_LEN bytes). */
int report_write_data(const Report *rep, const char *dir, ReportDataLists *lists, char *err);

#endif
