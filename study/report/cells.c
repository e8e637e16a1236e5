/* Figures and stored text as Markdown: the cells of every table and the
 * code spans of every sentence that shows text from the database, and the
 * rows of the first-ring tables that two sections write. The
 * bottom of the report's Markdown: markdown.c, markdown_ladder.c and
 * match_report.c call these, they call none of them. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "engine/base/number.h"
#include "engine/base/text.h"
#include "engine/notation.h"
#include "selfplay/stats/stats.h"
#include "study/report/report_internal.h"

/* "p < 0.001" or "p = 0.012" */
void report_fmt_p(double p, char *out, size_t len)
{
    if (p < 0.001) snprintf(out, len, "< 0.001");
    else snprintf(out, len, "%.3f", p);
}

/* "–" for a test in no family (too few games), else its adjusted p */
void report_fmt_holm(double p_holm, int family, char *out, size_t len)
{
    if (!family) snprintf(out, len, "–");
    else report_fmt_p(p_holm, out, len);
}

void report_fmt_elo(double e, char *out, size_t len)
{
    if (isinf(e)) snprintf(out, len, "%s∞", e > 0 ? "+" : "−");
    else snprintf(out, len, "%+.0f", e + 0.0);
}

/* A figure that may be missing (NaN: no game has it) as a cell. */
void report_fmt_opt(double x, const char *fmt, char *out, size_t len)
{
    if (isnan(x)) snprintf(out, len, "–");
    else snprintf(out, len, fmt, x);
}

/* Text from the database in Markdown: as code (a run name, a command, a
 * path) in a table cell or in prose. A '|' would end the cell, a newline
 * the row, a backtick the code span: the pipe is escaped (GFM allows it
 * inside code), control characters are shown as '?', bytes that are not
 * UTF-8 as U+FFFD, and the code span's fence is one backtick longer than
 * the longest run of them inside. Inside a code span nothing else is
 * markup: no emphasis, no link, no HTML. */
void report_md_code(FILE *f, const char *text)
{
    int run = 0, longest = 0;
    for (const char *p = text; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        if (run > longest) longest = run;
    }
    char fence[16];
    int n = longest + 1 < 15 ? longest + 1 : 15;
    memset(fence, '`', (size_t)n);
    fence[n] = '\0';
    bool pad = text[0] == '`' || (*text && text[strlen(text) - 1] == '`');
    fprintf(f, "%s%s", fence, pad ? " " : "");
    for (const unsigned char *p = (const unsigned char *)text; *p;) {
        int len = text_utf8_length(p);
        if (!len) {
            fputs("\xef\xbf\xbd", f);
            p++;
            continue;
        }
        if (*p == '|') fputs("\\|", f);
        else if (text_control(*p)) fputc('?', f);
        else fwrite(p, 1, (size_t)len, f);
        p += len;
    }
    fprintf(f, "%s%s", pad ? " " : "", fence);
}

/* The rows of a table of White's first ring by class (the classes of
 * report_classes): class, points, distance from f6, games, White's score
 * with its interval, a class of too few games marked. */
void report_md_class_rows(FILE *f, const ReportClass *c)
{
    for (int k = 0; k < REPORT_CLASS_NB; k++) {
        uint64_t w = c[k].results[RESULT_WHITE], d = c[k].results[RESULT_DRAW], l = c[k].results[RESULT_BLACK];
        char name[8];
        point_format(c[k].first, name);
        fprintf(f, "| %s | %d | %d | %llu | ", name, c[k].points, c[k].distance, (unsigned long long)(w + d + l));
        if (w + d + l == 0) {
            fprintf(f, "– |\n");
            continue;
        }
        Interval s = stats_score(w, d, l);
        fprintf(f, "%.1f%% (%.1f–%.1f)%s |\n", 100 * s.mid, 100 * s.lo, 100 * s.hi,
                w + d + l < REPORT_MIN_POINT_GAMES ? ", too few games" : "");
    }
}

void report_md_pair_cell(FILE *f, const ReportPair *p)
{
    char label[1100];
    report_pair_label(p, label, sizeof label);
    fprintf(f, "| ");
    report_md_code(f, label);
}

/* A difference's verdict; one not claimed (told from chance, or a
 * question after Holm) is no evidence of none, so it says what the
 * interval excludes and the power the test had to see
 * REPORT_POWER_POINTS. */
void report_md_diff_verdict(FILE *f, const ReportDiff *d)
{
    fputs(REPORT_VERDICT_WORD[d->verdict], f);
    if ((d->verdict == REPORT_CHANCE || d->verdict == REPORT_QUESTION) && !isnan(d->power))
        fprintf(f, "; excluded: below %+.1f and above %+.1f; power to see ±%d points %.0f%%", 100 * d->d.lo + 0.0,
                100 * d->d.hi + 0.0, REPORT_POWER_POINTS, 100 * d->power);
}

void report_md_scores_diff(FILE *f, const ReportPair *x, const ReportPair *y, const ReportDiff *d)
{
    ReportScore sx = report_score(x), sy = report_score(y);
    char pv[32], ph[32];
    report_fmt_p(d->p, pv, sizeof pv);
    report_fmt_holm(d->p_holm, d->family, ph, sizeof ph);
    fprintf(f, " | %.1f%% (%llu game%s) | %.1f%% (%llu game%s) | %+.1f (%+.1f to %+.1f) | %s%s | %s | ",
            100 * sx.score, (unsigned long long)sx.n, number_plural(sx.n), 100 * sy.score, (unsigned long long)sy.n,
            number_plural(sy.n), 100 * d->d.mid + 0.0, 100 * d->d.lo + 0.0, 100 * d->d.hi + 0.0, d->exact ? "" : "≈ ",
            pv, ph);
    report_md_diff_verdict(f, d);
    fprintf(f, " |\n");
}

ReportDiff report_md_diff_cells(FILE *f, const ReportPair *standard, const ReportPair *blitz)
{
    ReportDiff d = report_diff(standard, blitz);
    if (standard->diff_family) d = report_diff_corrected(d, standard->diff_p_holm, standard->diff_family);
    report_md_scores_diff(f, standard, blitz, &d);
    return d;
}

const char *report_variant_title(int variant)
{
    static const char *const TITLE[REPORT_VARIANT_NB] = {
        "Standard",           "Blitz",           "Standard+swap",           "Blitz+swap",
        "Standard+draw-odds", "Blitz+draw-odds", "Standard+swap+draw-odds", "Blitz+swap+draw-odds",
    };
    return TITLE[variant];
}
