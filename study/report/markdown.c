/* The report in Markdown: a summary per variant, the results table of each
 * variant, blitz against standard for the pairs that played both, the
 * pictures with what they show, and the runs with the commands that
 * reproduce them. */
#include <math.h>
#include <stdbool.h>
#include <string.h>
#include "engine/geometry.h"
#include "engine/notation.h"
#include "report/internal.h"
#include "stats/stats.h"
#include "base/number.h"

static const char *const VARIANT_TITLE[REPORT_VARIANT_NB] = {"Standard", "Blitz"};

static void fmt_p(double p, char *out, size_t len)
{
    if (p < 0.001) snprintf(out, len, "< 0.001");
    else snprintf(out, len, "%.3f", p);
}

static void fmt_elo(double e, char *out, size_t len)
{
    if (isinf(e)) snprintf(out, len, "%s∞", e > 0 ? "+" : "−");
    else snprintf(out, len, "%+.0f", e);
}

static void write_summary(const Report *rep, FILE *f)
{
    fprintf(f, "## Summary\n\n");
    for (int v = 0; v < REPORT_VARIANT_NB; v++) {
        if (!report_has_variant(rep, v)) continue;
        const ReportPair *best = report_strongest(rep, v);
        if (!best) /* no agent played itself: the pair with the most games */
            for (int i = 0; i < rep->npairs; i++)
                if (rep->pairs[i].variant == v && (!best || rep->pairs[i].games > best->games)) best = &rep->pairs[i];
        ReportScore s = report_score(best);
        char label[1100], p[32], elo[32], elo_lo[32], elo_hi[32];
        report_pair_label(best, label, sizeof label);
        fmt_p(s.p, p, sizeof p);
        fmt_elo(s.elo, elo, sizeof elo);
        fmt_elo(s.elo_lo, elo_lo, sizeof elo_lo);
        fmt_elo(s.elo_hi, elo_hi, sizeof elo_hi);
        fprintf(f, "- **%s.** %s `%s`%s, %llu games: White scored **%.1f%%** (95%% CI %.1f–%.1f%%), "
                   "%s Elo (%s to %s). ",
                VARIANT_TITLE[v], best->strength > 0 ? "Strongest agent here," : "Most-played pair,", label,
                strcmp(best->white, best->black) ? "" : " on both sides", (unsigned long long)best->games,
                100 * s.score, 100 * s.lo, 100 * s.hi, elo, elo_lo, elo_hi);
        /* "p < 0.001" or "p = 0.012" */
        const char *rel = p[0] == '<' ? "" : "= ";
        bool same = !strcmp(best->white, best->black);
        if (s.p < 0.05 && same)
            fprintf(f, "p %s%s: %s's edge is too large to be chance.", rel, p, s.score > 0.5 ? "White" : "Black");
        else if (s.p < 0.05)
            /* different agents: the first move and the agents' strength together */
            fprintf(f, "p %s%s: the edge of %s (moving first and second mixed with the agents' strength) is too "
                       "large to be chance.", rel, p, s.score > 0.5 ? "White's agent" : "Black's agent");
        else
            fprintf(f, "p %s%s: no advantage for either side can be told from chance; the data allow White "
                       "anything from %.1f%% to %.1f%%.", rel, p, 100 * s.lo, 100 * s.hi);
        /* White's score across the strengths, weakest first */
        int nstr = 0;
        for (int i = 0; i < rep->npairs; i++) nstr += rep->pairs[i].variant == v && rep->pairs[i].strength > 0;
        if (nstr > 1) {
            fprintf(f, " White's score by strength:");
            bool first = true;
            for (int i = 0; i < rep->npairs; i++) {
                const ReportPair *q = &rep->pairs[i];
                if (q->variant != v || q->strength <= 0) continue;
                char ql[1100];
                report_pair_label(q, ql, sizeof ql);
                fprintf(f, "%s %.1f%% (%s)", first ? "" : " →", 100 * report_score(q).score, ql);
                first = false;
            }
            fprintf(f, ".");
        }
        fprintf(f, "\n");
    }
    fprintf(f, "\n");
}

static void write_reasons(const ReportPair *p, FILE *f)
{
    bool any = false;
    for (int r = 0; r < REPORT_REASON_NB; r++) {
        if (!p->reasons[r]) continue;
        fprintf(f, "%s%s %llu", any ? ", " : "", r < REPORT_REASON_NB - 1 ? reason_name(r) : "other",
                (unsigned long long)p->reasons[r]);
        any = true;
    }
    if (!any) fprintf(f, "–");
}

static void write_tables(const Report *rep, FILE *f)
{
    fprintf(f, "## Results by variant and agents\n\n"
               "White's score counts a win 1 and a draw ½: 50%% is a fair game. The interval is the 95%% Wilson "
               "score interval; p is the two-sided p-value of \"no first-player advantage\" (score 50%%); the "
               "advantage in Elo is the score on the logistic Elo scale (+35 Elo ≈ 55%%), with its own 95%% "
               "interval from the games' variance: draws count, so with many draws it is narrower than the "
               "score's Wilson interval read in Elo (as the strength picture's right axis reads it). "
               "Lengths count actions (placements, moves and removals of both players).\n\n");
    for (int v = 0; v < REPORT_VARIANT_NB; v++) {
        if (!report_has_variant(rep, v)) continue;
        fprintf(f, "### %s\n\n", VARIANT_TITLE[v]);
        fprintf(f, "| White | Black | games | White wins | Black wins | draws | White's score (95%% CI) | p | "
                   "Elo (95%% CI) | mean length | median length | end reasons |\n"
                   "|---|---|--:|--:|--:|--:|---|--:|---|--:|--:|---|\n");
        for (int i = 0; i < rep->npairs; i++) {
            const ReportPair *p = &rep->pairs[i];
            if (p->variant != v) continue;
            ReportScore s = report_score(p);
            char pv[32], elo[32], lo[32], hi[32];
            fmt_p(s.p, pv, sizeof pv);
            fmt_elo(s.elo, elo, sizeof elo);
            fmt_elo(s.elo_lo, lo, sizeof lo);
            fmt_elo(s.elo_hi, hi, sizeof hi);
            fprintf(f, "| `%s` | `%s` | %llu | %llu | %llu | %llu | %.1f%% (%.1f–%.1f) | %s | %s (%s to %s) | %.1f | %.1f | ",
                    p->white, p->black, (unsigned long long)p->games, (unsigned long long)s.wins,
                    (unsigned long long)s.losses, (unsigned long long)s.draws, 100 * s.score, 100 * s.lo,
                    100 * s.hi, pv, elo, lo, hi, report_mean_length(p), report_median_length(p));
            write_reasons(p, f);
            fprintf(f, " |\n");
        }
        fprintf(f, "\n");
    }
}

static void write_comparison(const Report *rep, FILE *f)
{
    fprintf(f, "## Blitz against standard\n\n");
    int rows = 0, clear = 0;
    for (int i = 0; i < rep->npairs; i++) {
        const ReportPair *st = &rep->pairs[i];
        int at = st->variant == VARIANT_STANDARD ? report_pair_index(rep, VARIANT_BLITZ, st->white, st->black) : -1;
        if (at < 0) continue;
        const ReportPair *bl = &rep->pairs[at];
        if (!rows++)
            fprintf(f, "For each pair of agents that played both variants: the difference in White's score, "
                       "blitz minus standard, in percentage points, with its 95%% interval (normal approximation "
                       "with each variant's own per-game variance) and the p-value of \"no difference\".\n\n"
                       "| agents | standard: White's score | blitz: White's score | blitz − standard (95%% CI) | p |\n"
                       "|---|--:|--:|---|--:|\n");
        ReportScore s = report_score(st), b = report_score(bl);
        double p;
        Interval d = stats_diff(b.score, b.var, (double)b.n, s.score, s.var, (double)s.n, &p);
        char label[1100], pv[32];
        report_pair_label(st, label, sizeof label);
        fmt_p(p, pv, sizeof pv);
        fprintf(f, "| `%s` | %.1f%% (%llu games) | %.1f%% (%llu games) | %+.1f (%+.1f to %+.1f) | %s |\n", label,
                100 * s.score, (unsigned long long)s.n, 100 * b.score, (unsigned long long)b.n, 100 * d.mid,
                100 * d.lo, 100 * d.hi, pv);
        clear += p < 0.05;
    }
    if (!rows)
        fprintf(f, "No pair of agents played both variants in this selection: nothing to compare.\n\n");
    else
        fprintf(f, "\n%d of %d pair%s show a difference too large to be chance (p < 0.05).\n\n", clear, rows,
                number_plural((uint64_t)rows));
}

/* The points of the board with fewer than REPORT_MIN_POINT_GAMES games
 * of a variant in the first-ring map (*empty: those with none). */
static int thin_points(const Report *rep, int v, int *empty)
{
    int thin = 0;
    *empty = 0;
    for (int col = 0; col <= 10; col++)
        for (int row = 1; row <= 11; row++) {
            if (!point_valid(col, row)) continue;
            const uint64_t *c = rep->first[v][point_make(col, row)];
            uint64_t n = c[RESULT_WHITE] + c[RESULT_BLACK] + c[RESULT_DRAW];
            thin += n < REPORT_MIN_POINT_GAMES;
            *empty += n == 0;
        }
    return thin;
}

static void write_pictures(const Report *rep, const ReportPictures *pics, FILE *f)
{
    fprintf(f, "## Pictures\n\n");
    if (pics && pics->strength)
        fprintf(f, "![White's score against strength](strength.png)\n\n"
                   "White's score against the agents' strength (MCTS simulations per move, logarithmic), one line "
                   "per variant through the MCTS levels, with 95%% intervals and the games (n) at each point. "
                   "Random play has no simulations, so it is no point of that scale: it is drawn apart at the left, "
                   "a square joined to no level. The right axis is the same scale read as White's advantage in Elo "
                   "(logistic), so a bar read there is the score's own interval in Elo; the Elo intervals of the "
                   "tables come from the games' variance instead (draws narrow them) and may be a little "
                   "narrower. Only pairs in which both sides are the same agent are drawn; blitz is shifted "
                   "slightly right so that the bars do not overlap.\n\n");
    if (pics && pics->lengths)
        fprintf(f, "![Game lengths](lengths.png)\n\n"
                   "How long games last, in actions: a column per variant (its games in the title), a panel per "
                   "pair of agents (its games in the key), a needle for each length that occurs with its share of "
                   "the pair's games. Lengths are not binned: they fall on a lattice of their own (random "
                   "standard games come in steps of 7 actions), which bins would blur into false peaks and "
                   "dips.\n\n");
    if (pics && pics->first_ring) {
        fprintf(f, "![White's score by White's first ring](first-ring.png)\n\n"
                   "The board, one panel per variant: each point is coloured by White's score in the games "
                   "whose first action (White's first ring) was placed there, all pairs of agents in this "
                   "report together; the number is the games. Points with fewer than %d games are grey: too few "
                   "to read a score.",
                REPORT_MIN_POINT_GAMES);
        for (int v = 0; v < REPORT_VARIANT_NB; v++) {
            if (!report_has_variant(rep, v)) continue;
            int empty, thin = thin_points(rep, v, &empty);
            if (thin)
                fprintf(f, " **%s: too few games at %d of the %d points** (fewer than %d games each; %d with "
                           "none).", VARIANT_TITLE[v], thin, POINT_NB, REPORT_MIN_POINT_GAMES, empty);
            else
                fprintf(f, " %s: every point has at least %d games.", VARIANT_TITLE[v], REPORT_MIN_POINT_GAMES);
        }
        fprintf(f, "\n\n");
    }
    if (!pics) fprintf(f, "Pictures not drawn (--no-plots).\n\n");
    else if (pics->note[0]) fprintf(f, "%s\n\n", pics->note);
}

/* Text from the database in Markdown: as code (a run name, a command, a
 * path) in a table cell or in prose. A '|' would end the cell, a newline
 * the row, a backtick the code span: the pipe is escaped (GFM allows it
 * inside code), control characters are shown as '?', and the code span's
 * fence is one backtick longer than the longest run of them inside. */
static void md_code(FILE *f, const char *text)
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
    for (const char *p = text; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '|') fputs("\\|", f);
        else if (c < 0x20 || c == 0x7f) fputc('?', f);
        else fputc(c, f);
    }
    fprintf(f, "%s%s", pad ? " " : "", fence);
}

static void write_runs(const Report *rep, FILE *f)
{
    fprintf(f, "## Runs\n\n"
               "Each run as it was made (the command as typed, in the folder it was typed in); \"How to "
               "reproduce\" below gives commands that play the same games again.\n\n"
               "| run | variant | White | Black | games stored | seed | command |\n|---|---|---|---|--:|--:|---|\n");
    for (int i = 0; i < rep->nrun_rows; i++) {
        const ReportRun *r = &rep->run_rows[i];
        fprintf(f, "| ");
        md_code(f, r->name);
        fprintf(f, " | %s | ", r->variant);
        md_code(f, r->white);
        fprintf(f, " | ");
        md_code(f, r->black);
        fprintf(f, " | %lld of %lld%s | %llu | ", (long long)r->stored, (long long)r->games,
                r->finished ? "" : " (unfinished)", (unsigned long long)r->seed);
        md_code(f, r->command);
        fprintf(f, " |\n");
    }
    fprintf(f, "\n");
    /* what made each run: the same figures need the same engine */
    fprintf(f, "### Provenance\n\n| run | yinsh | commit | compiler and flags | machine |\n|---|---|---|---|---|\n");
    for (int i = 0; i < rep->nrun_rows; i++) {
        const ReportRun *r = &rep->run_rows[i];
        fprintf(f, "| ");
        md_code(f, r->name);
        fprintf(f, " | %s | ", r->version);
        md_code(f, r->git_commit[0] ? r->git_commit : "not stored");
        fprintf(f, " | ");
        md_code(f, r->compiler[0] ? r->compiler : "not stored");
        fprintf(f, " | ");
        md_code(f, r->machine[0] ? r->machine : "not stored");
        fprintf(f, " |\n");
    }
    fprintf(f, "\n");
}

/* Commands that play each run's games again, from the repository root,
 * into no database: the hash they print is the run's play hash, the same
 * exactly when every action and visit count is. Every game depends only
 * on the run's seed and its index, so this holds on any number of
 * threads. A run whose kind the database does not record (a schema
 * before version 5, read without upgrading) is left out. */
static void write_reproduce(const Report *rep, FILE *f)
{
    fprintf(f, "## How to reproduce\n\n"
               "From the repository root, after `cmake -S . -B build && cmake --build build`, each command plays "
               "a run's stored games again without storing them and prints their `hash`; the same hash means the "
               "same games, action for action and visit count for visit count.\n\n```sh\n");
    int n = 0;
    for (int i = 0; i < rep->nrun_rows; i++) {
        const ReportRun *r = &rep->run_rows[i];
        /* an imported game was played elsewhere: `yinsh import` of its file again */
        if (!strcmp(r->kind, "import")) {
            fprintf(f, "# %s: played elsewhere; `yinsh export --run %s --format boardspace` gives its record\n",
                    r->name, r->name);
            n++;
            continue;
        }
        if (!r->kind[0] || r->stored < r->games) continue;
        char w[SPEC_LEN + 8], b[SPEC_LEN + 8];
        snprintf(w, sizeof w, "'%s'", r->white);
        snprintf(b, sizeof b, "'%s'", r->black);
        /* a book run's opening column is book:HASH:PATH (store.h) */
        bool book = !strncmp(r->opening, "book:", 5) && strlen(r->opening) > 22;
        if (!strcmp(r->kind, "match"))
            fprintf(f, "build/yinsh match --a %s --b %s --games %lld --variant %s --seed %llu %s %s --no-db "
                       "--quiet   # %s: hash %016llx\n",
                    w, b, (long long)r->games, r->variant, (unsigned long long)r->seed, book ? "--book" : "--opening",
                    book ? r->opening + 22 : r->opening, r->name, (unsigned long long)r->hash);
        else
            fprintf(f, "build/yinsh selfplay --games %lld --variant %s --white %s --black %s --seed %llu --no-db "
                       "--quiet   # %s: hash %016llx\n",
                    (long long)r->games, r->variant, w, b, (unsigned long long)r->seed, r->name,
                    (unsigned long long)r->hash);
        n++;
    }
    fprintf(f, "```\n\n");
    if (n < rep->nrun_rows)
        fprintf(f, "%d of the %d run%s are left out: unfinished, or stored before the database recorded their kind "
                   "(schema version 5).\n\n", rep->nrun_rows - n, rep->nrun_rows,
                number_plural((uint64_t)rep->nrun_rows));
}

/* The selection in words, and the runs it took, at the top. */
static void write_selection(const Report *rep, FILE *f)
{
    fprintf(f, "Selection: %s",
            rep->kind ? (!strcmp(rep->kind, "match") ? "matches" : !strcmp(rep->kind, "import") ? "imported games"
                                                                                               : "self-play runs")
                      : "all runs");
    if (rep->agent) {
        fprintf(f, " with the agent ");
        md_code(f, rep->agent);
    }
    if (rep->variant) fprintf(f, ", %s only", rep->variant);
    fprintf(f, "; %llu game%s", (unsigned long long)rep->games, number_plural(rep->games));
    if (rep->repeats)
        fprintf(f, ", and %lld repeat%s left out (games stored again by a later run: each game counts once)",
                (long long)rep->repeats, number_plural((uint64_t)rep->repeats));
    fprintf(f, ".\n\nRuns used:");
    for (int i = 0; i < rep->nrun_rows; i++) {
        const ReportRun *r = &rep->run_rows[i];
        fprintf(f, "%s ", i ? "," : "");
        md_code(f, r->name);
        fprintf(f, " (%lld game%s, seed %llu)", (long long)(r->stored - r->repeats),
                number_plural((uint64_t)(r->stored - r->repeats)), (unsigned long long)r->seed);
    }
    fprintf(f, "%s\n\n", rep->nrun_rows ? "." : " none.");
}

void report_write_markdown(const Report *rep, const char *cmdline, const ReportPictures *pics, FILE *f)
{
    fprintf(f, "# YINSH balance report\n\n");
    fprintf(f, "Made by ");
    md_code(f, cmdline);
    fprintf(f, " from the database ");
    md_code(f, rep->db);
    fprintf(f, ": ");
    if (rep->nruns) {
        fprintf(f, "%s ", rep->nruns > 1 ? "runs" : "run");
        for (int i = 0; i < rep->nruns; i++) {
            fprintf(f, "%s", i ? ", " : "");
            md_code(f, rep->runs[i]);
        }
    } else {
        fprintf(f, "all runs");
    }
    fprintf(f, ", %llu games.", (unsigned long long)rep->games);
    if (rep->skipped) fprintf(f, " %llu games of unknown variants left out.", (unsigned long long)rep->skipped);
    if (rep->unfinished)
        fprintf(f, " %llu unfinished games (imported records that stop before the end) left out.",
                (unsigned long long)rep->unfinished);
    fprintf(f, "\n\n");
    write_selection(rep, f);
    write_summary(rep, f);
    write_tables(rep, f);
    write_comparison(rep, f);
    write_pictures(rep, pics, f);
    write_runs(rep, f);
    write_reproduce(rep, f);
}
