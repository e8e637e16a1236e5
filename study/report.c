#include <errno.h>
#include <math.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>
#include "agent.h"
#include "geometry.h"
#include "notation.h"
#include "report.h"
#include "stats.h"
#include "store_report.h"

extern char **environ;

/* ---- loading ------------------------------------------------------------ */

/* What the row callbacks fill; err gets the first failure. */
typedef struct LoadCtx {
    Report *rep;
    int cap;
    char *err;
} LoadCtx;

static int oom(char *err)
{
    snprintf(err, REPORT_ERR_LEN, "out of memory");
    return -1;
}

static int result_of(const char *text)
{
    for (int r = RESULT_WHITE; r <= RESULT_DRAW; r++)
        if (!strcmp(text, result_name(r))) return r;
    return RESULT_NONE;
}

static int reason_of(const char *text)
{
    for (int r = REASON_NONE; r < REPORT_REASON_NB - 1; r++)
        if (!strcmp(text, reason_name(r))) return r;
    return REPORT_REASON_NB - 1;
}

static ReportPair *pair_get(LoadCtx *c, int variant, const char *white, const char *black)
{
    Report *rep = c->rep;
    for (int i = 0; i < rep->npairs; i++) {
        ReportPair *p = &rep->pairs[i];
        if (p->variant == variant && !strcmp(p->white, white) && !strcmp(p->black, black)) return p;
    }
    if (rep->npairs == c->cap) {
        int cap = c->cap ? 2 * c->cap : 16;
        ReportPair *grown = realloc(rep->pairs, (size_t)cap * sizeof *grown);
        if (!grown) return NULL;
        rep->pairs = grown;
        c->cap = cap;
    }
    ReportPair *p = &rep->pairs[rep->npairs];
    *p = (ReportPair){.variant = variant};
    p->white = strdup(white);
    p->black = strdup(black);
    p->lengths = calloc(REPORT_MAX_LENGTH + 1, sizeof *p->lengths);
    rep->npairs++; /* counted now, so that report_free frees a half-made pair */
    if (!p->white || !p->black || !p->lengths) return NULL;
    return p;
}

static int on_outcome(void *ctx, const StoreOutcomeRow *row)
{
    LoadCtx *c = ctx;
    int variant;
    uint64_t n = row->games > 0 ? (uint64_t)row->games : 0;
    if (!variant_parse(row->variant, &variant)) {
        c->rep->skipped += n;
        return 0;
    }
    ReportPair *p = pair_get(c, variant, row->white, row->black);
    if (!p) return oom(c->err);
    int result = result_of(row->result);
    int64_t len = row->actions < 0 ? 0 : row->actions > REPORT_MAX_LENGTH ? REPORT_MAX_LENGTH : row->actions;
    p->games += n;
    p->results[result] += n;
    p->reasons[reason_of(row->reason)] += n;
    p->lengths[len] += n;
    c->rep->games += n;
    return 0;
}

static int on_first(void *ctx, const StoreFirstRow *row)
{
    LoadCtx *c = ctx;
    int variant;
    Point pt;
    if (!variant_parse(row->variant, &variant) || !point_parse(row->action, strlen(row->action), &pt)) return 0;
    c->rep->first[variant][pt][result_of(row->result)] += row->games > 0 ? (uint64_t)row->games : 0;
    return 0;
}

static int on_run(void *ctx, const StoreRunRow *row)
{
    LoadCtx *c = ctx;
    Report *rep = c->rep;
    ReportRun *grown = realloc(rep->run_rows, (size_t)(rep->nrun_rows + 1) * sizeof *grown);
    if (!grown) return oom(c->err);
    rep->run_rows = grown;
    ReportRun *r = &rep->run_rows[rep->nrun_rows++];
    *r = (ReportRun){
        .name = strdup(row->name),
        .command = strdup(row->command),
        .variant = strdup(row->variant),
        .white = strdup(row->white),
        .black = strdup(row->black),
        .seed = row->seed,
        .games = row->games,
        .stored = row->stored,
        .finished = row->finished_at != NULL,
    };
    if (!r->name || !r->command || !r->variant || !r->white || !r->black) return oom(c->err);
    return 0;
}

/* Simulations per move of an agent playing itself: what the strength axis
 * shows. Random play counts as one simulation (it sits at the axis's left
 * end, labelled "random"); a spec this yinsh cannot parse has none. */
static double strength_of(const char *white, const char *black)
{
    if (strcmp(white, black)) return 0;
    AgentSpec spec;
    char err[AGENT_ERR_LEN];
    if (!agent_spec_parse_text(white, &spec, err)) return 0;
    return spec.kind == AGENT_RANDOM ? 1 : (double)spec.sims;
}

static int pair_order(const void *a, const void *b)
{
    const ReportPair *p = a, *q = b;
    if (p->variant != q->variant) return p->variant - q->variant;
    /* same-agent pairs by strength first, then the rest */
    bool ps = p->strength > 0, qs = q->strength > 0;
    if (ps != qs) return ps ? -1 : 1;
    if (p->strength != q->strength) return p->strength < q->strength ? -1 : 1;
    int w = strcmp(p->white, q->white);
    return w ? w : strcmp(p->black, q->black);
}

int report_load(Report *rep, const char *db, const char *const *runs, int nruns, char *err)
{
    *rep = (Report){0};
    StoreReader *reader = NULL;
    char serr[STORE_ERR_LEN];
    LoadCtx ctx = {.rep = rep, .err = err};
    StoreSelection sel = {.runs = runs, .nruns = nruns};
    int rc = 0;

    if (!(rep->db = strdup(db)) || (nruns && !(rep->runs = calloc((size_t)nruns, sizeof *rep->runs))))
        return oom(err);
    for (int i = 0; i < nruns; i++, rep->nruns++)
        if (!(rep->runs[i] = strdup(runs[i]))) return oom(err);

    if ((rc = store_reader_open(&reader, db, 5000, serr)) || (rc = store_reader_check(reader, &sel, serr)) ||
        (rc = store_reader_runs(reader, &sel, on_run, &ctx, serr)) ||
        (rc = store_reader_outcomes(reader, &sel, on_outcome, &ctx, serr)) ||
        (rc = store_reader_first_actions(reader, &sel, on_first, &ctx, serr))) {
        /* rc -1: a callback ran out of memory and wrote err itself */
        if (rc != -1) snprintf(err, REPORT_ERR_LEN, "%s", serr);
        store_reader_close(reader);
        return rc;
    }
    store_reader_close(reader);
    for (int i = 0; i < rep->npairs; i++)
        rep->pairs[i].strength = strength_of(rep->pairs[i].white, rep->pairs[i].black);
    if (rep->npairs) qsort(rep->pairs, (size_t)rep->npairs, sizeof *rep->pairs, pair_order);
    return 0;
}

void report_free(Report *rep)
{
    for (int i = 0; i < rep->npairs; i++) {
        free(rep->pairs[i].white);
        free(rep->pairs[i].black);
        free(rep->pairs[i].lengths);
    }
    for (int i = 0; i < rep->nrun_rows; i++) {
        ReportRun *r = &rep->run_rows[i];
        free(r->name);
        free(r->command);
        free(r->variant);
        free(r->white);
        free(r->black);
    }
    for (int i = 0; i < rep->nruns; i++) free(rep->runs[i]);
    free(rep->runs);
    free(rep->run_rows);
    free(rep->pairs);
    free(rep->db);
    *rep = (Report){0};
}

/* ---- figures -------------------------------------------------------------- */

ReportScore report_score(const ReportPair *pair)
{
    ReportScore s = {
        .wins = pair->results[RESULT_WHITE],
        .draws = pair->results[RESULT_DRAW],
        .losses = pair->results[RESULT_BLACK],
    };
    s.n = s.wins + s.draws + s.losses;
    Interval score = stats_score(s.wins, s.draws, s.losses);
    Interval elo = stats_elo_trinomial(s.wins, s.draws, s.losses);
    s.score = score.mid;
    s.lo = score.lo;
    s.hi = score.hi;
    s.var = s.n ? ((double)s.wins + 0.25 * (double)s.draws) / (double)s.n - s.score * s.score : 0;
    if (s.var < 0) s.var = 0;
    s.p = stats_p_equal(s.wins, s.draws, s.losses);
    s.elo = elo.mid;
    s.elo_lo = elo.lo;
    s.elo_hi = elo.hi;
    return s;
}

double report_mean_length(const ReportPair *pair)
{
    double sum = 0;
    for (int a = 0; a <= REPORT_MAX_LENGTH; a++) sum += (double)a * (double)pair->lengths[a];
    return pair->games ? sum / (double)pair->games : 0;
}

/* The k-th smallest length (0-based). */
static int nth_length(const ReportPair *pair, uint64_t k)
{
    uint64_t seen = 0;
    for (int a = 0; a <= REPORT_MAX_LENGTH; a++) {
        seen += pair->lengths[a];
        if (seen > k) return a;
    }
    return REPORT_MAX_LENGTH;
}

double report_median_length(const ReportPair *pair)
{
    if (!pair->games) return 0;
    uint64_t n = pair->games;
    return 0.5 * (nth_length(pair, (n - 1) / 2) + nth_length(pair, n / 2));
}

const ReportPair *report_strongest(const Report *rep, int variant)
{
    const ReportPair *best = NULL;
    for (int i = 0; i < rep->npairs; i++) {
        const ReportPair *p = &rep->pairs[i];
        if (p->variant != variant || p->strength <= 0) continue;
        if (!best || p->strength > best->strength || (p->strength == best->strength && p->games > best->games))
            best = p;
    }
    return best;
}

/* ---- Markdown ------------------------------------------------------------- */

static const char *const VARIANT_TITLE[REPORT_VARIANT_NB] = {"Standard", "Blitz"};

static bool has_variant(const Report *rep, int variant)
{
    for (int i = 0; i < rep->npairs; i++)
        if (rep->pairs[i].variant == variant) return true;
    return false;
}

/* An agent spec without the parts that only repeat the defaults: what a
 * reader needs in a picture's key or a sentence ("mcts:sims=600"). */
static void short_agent(const char *spec, char *out, size_t len)
{
    static const char *const DEFAULTS[] = {",c=1,", ",rollout=random,"};
    char buf[1024];
    snprintf(buf, sizeof buf, "%s,", spec);
    for (size_t i = 0; i < sizeof DEFAULTS / sizeof DEFAULTS[0]; i++) {
        char *at = strstr(buf, DEFAULTS[i]);
        if (at) memmove(at, at + strlen(DEFAULTS[i]) - 1, strlen(at + strlen(DEFAULTS[i]) - 1) + 1);
    }
    buf[strlen(buf) - 1] = '\0';
    snprintf(out, len, "%s", buf);
}

static void pair_label(const ReportPair *p, char *out, size_t len)
{
    char w[512], b[512];
    short_agent(p->white, w, sizeof w);
    short_agent(p->black, b, sizeof b);
    if (!strcmp(p->white, p->black)) snprintf(out, len, "%s", w);
    else snprintf(out, len, "%s vs %s", w, b);
}

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
        if (!has_variant(rep, v)) continue;
        const ReportPair *best = report_strongest(rep, v);
        if (!best) /* no agent played itself: the pair with the most games */
            for (int i = 0; i < rep->npairs; i++)
                if (rep->pairs[i].variant == v && (!best || rep->pairs[i].games > best->games)) best = &rep->pairs[i];
        ReportScore s = report_score(best);
        char label[1100], p[32], elo[32], elo_lo[32], elo_hi[32];
        pair_label(best, label, sizeof label);
        fmt_p(s.p, p, sizeof p);
        fmt_elo(s.elo, elo, sizeof elo);
        fmt_elo(s.elo_lo, elo_lo, sizeof elo_lo);
        fmt_elo(s.elo_hi, elo_hi, sizeof elo_hi);
        fprintf(f, "- **%s.** %s `%s`%s, %llu games: White scored **%.1f%%** (95%% CI %.1f–%.1f%%), "
                   "%s Elo (%s to %s). ",
                VARIANT_TITLE[v], best->strength > 0 ? "Strongest agent here," : "Most-played pair,", label,
                strcmp(best->white, best->black) ? "" : " on both sides", (unsigned long long)best->games,
                100 * s.score, 100 * s.lo, 100 * s.hi, elo, elo_lo, elo_hi);
        if (s.p < 0.05)
            fprintf(f, "p = %s: %s's edge is too large to be chance.", p, s.score > 0.5 ? "White" : "Black");
        else
            fprintf(f, "p = %s: no advantage for either side can be told from chance; the data allow White "
                       "anything from %.1f%% to %.1f%%.", p, 100 * s.lo, 100 * s.hi);
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
                pair_label(q, ql, sizeof ql);
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
               "advantage in Elo is the score on the logistic Elo scale (+35 Elo ≈ 55%%), with its 95%% interval. "
               "Lengths count actions (placements, moves and removals of both players).\n\n");
    for (int v = 0; v < REPORT_VARIANT_NB; v++) {
        if (!has_variant(rep, v)) continue;
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

static const ReportPair *find_pair(const Report *rep, int variant, const char *white, const char *black)
{
    for (int i = 0; i < rep->npairs; i++) {
        const ReportPair *p = &rep->pairs[i];
        if (p->variant == variant && !strcmp(p->white, white) && !strcmp(p->black, black)) return p;
    }
    return NULL;
}

static void write_comparison(const Report *rep, FILE *f)
{
    fprintf(f, "## Blitz against standard\n\n");
    int rows = 0, clear = 0;
    for (int i = 0; i < rep->npairs; i++) {
        const ReportPair *st = &rep->pairs[i];
        const ReportPair *bl = st->variant == VARIANT_STANDARD ? find_pair(rep, VARIANT_BLITZ, st->white, st->black)
                                                               : NULL;
        if (!bl) continue;
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
        pair_label(st, label, sizeof label);
        fmt_p(p, pv, sizeof pv);
        fprintf(f, "| `%s` | %.1f%% (%llu games) | %.1f%% (%llu games) | %+.1f (%+.1f to %+.1f) | %s |\n", label,
                100 * s.score, (unsigned long long)s.n, 100 * b.score, (unsigned long long)b.n, 100 * d.mid,
                100 * d.lo, 100 * d.hi, pv);
        clear += p < 0.05;
    }
    if (!rows)
        fprintf(f, "No pair of agents played both variants in this selection: nothing to compare.\n\n");
    else
        fprintf(f, "\n%d of %d pairs show a difference too large to be chance (p < 0.05).\n\n", clear, rows);
}

static void write_pictures(const ReportPictures *pics, FILE *f)
{
    fprintf(f, "## Pictures\n\n");
    if (pics && pics->strength)
        fprintf(f, "![White's score against strength](strength.png)\n\n"
                   "White's score against the agents' strength (simulations per move, logarithmic; random play "
                   "is drawn at 1 and labelled *random*), one line per variant, with 95%% intervals. Only pairs "
                   "in which both sides are the same agent are drawn; blitz is shifted slightly right so that "
                   "the bars do not overlap.\n\n");
    if (pics && pics->lengths)
        fprintf(f, "![Game lengths](lengths.png)\n\n"
                   "How long games last (actions, in bins of 5), as a share of the games of each pair of "
                   "agents, one panel per variant.\n\n");
    if (pics && pics->first_ring)
        fprintf(f, "![White's score by White's first ring](first-ring.png)\n\n"
                   "The board, one panel per variant: each point is coloured by White's score in the games "
                   "whose first action (White's first ring) was placed there, all pairs of agents in this "
                   "report together; the number is the games. Points with fewer than %d games are grey.\n\n",
                REPORT_MIN_POINT_GAMES);
    if (!pics) fprintf(f, "Pictures not drawn (--no-plots).\n\n");
    else if (pics->note[0]) fprintf(f, "%s\n\n", pics->note);
}

static void write_runs(const Report *rep, FILE *f)
{
    fprintf(f, "## Runs\n\n"
               "Every game of a run depends only on the run's seed and the game's index, so each command below "
               "gives the same games again, on any number of threads.\n\n"
               "| run | variant | White | Black | games stored | seed | command |\n|---|---|---|---|--:|--:|---|\n");
    for (int i = 0; i < rep->nrun_rows; i++) {
        const ReportRun *r = &rep->run_rows[i];
        fprintf(f, "| %s | %s | `%s` | `%s` | %lld of %lld%s | %llu | `%s` |\n", r->name, r->variant, r->white,
                r->black, (long long)r->stored, (long long)r->games, r->finished ? "" : " (unfinished)",
                (unsigned long long)r->seed, r->command);
    }
    fprintf(f, "\n");
}

void report_write_markdown(const Report *rep, const char *cmdline, const ReportPictures *pics, FILE *f)
{
    fprintf(f, "# YINSH balance report\n\n");
    fprintf(f, "Made by `%s` from the database `%s`: ", cmdline, rep->db);
    if (rep->nruns) {
        fprintf(f, "%s ", rep->nruns > 1 ? "runs" : "run");
        for (int i = 0; i < rep->nruns; i++) fprintf(f, "%s`%s`", i ? ", " : "", rep->runs[i]);
    } else {
        fprintf(f, "all runs");
    }
    fprintf(f, ", %llu games.", (unsigned long long)rep->games);
    if (rep->skipped) fprintf(f, " %llu games of unknown variants left out.", (unsigned long long)rep->skipped);
    fprintf(f, "\n\n");
    write_summary(rep, f);
    write_tables(rep, f);
    write_comparison(rep, f);
    write_pictures(pics, f);
    write_runs(rep, f);
}

/* ---- data files and pictures --------------------------------------------- */

static FILE *open_data(const char *dir, const char *name, char *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) snprintf(err, REPORT_ERR_LEN, "cannot write '%.400s': %.80s", path, strerror(errno));
    return f;
}

static int close_data(FILE *f, const char *dir, const char *name, char *err)
{
    if (fclose(f) != 0) {
        snprintf(err, REPORT_ERR_LEN, "cannot write '%s/%s': %s", dir, name, strerror(errno));
        return -1;
    }
    return 0;
}

/* strength.dat: one block per variant with same-agent pairs (the variants
 * listed in `variants`), rows "sims score lo hi games". */
static int write_strength(const Report *rep, const char *dir, char *variants, size_t vlen, char *err)
{
    variants[0] = '\0';
    FILE *f = open_data(dir, "strength.dat", err);
    if (!f) return -1;
    fprintf(f, "# White's score against strength (yinsh report): one block per variant\n"
               "# simulations per move (random: 1), score, 95%% interval low, high, games\n");
    int blocks = 0;
    for (int v = 0; v < REPORT_VARIANT_NB; v++) {
        if (!report_strongest(rep, v)) continue;
        if (blocks++) fprintf(f, "\n\n");
        fprintf(f, "# %s\n", variant_name(v));
        size_t at = strlen(variants);
        snprintf(variants + at, vlen - at, "%s%s", at ? " " : "", variant_name(v));
        for (int i = 0; i < rep->npairs; i++) {
            const ReportPair *p = &rep->pairs[i];
            if (p->variant != v || p->strength <= 0) continue;
            ReportScore s = report_score(p);
            fprintf(f, "%g %.5f %.5f %.5f %llu\n", p->strength, s.score, s.lo, s.hi, (unsigned long long)s.n);
        }
    }
    return close_data(f, dir, "strength.dat", err);
}

enum { LENGTH_BIN = 5 };

/* lengths-VARIANT.dat: one block per pair, headed by its label, rows
 * "bin centre, percent of the pair's games". */
static int write_lengths(const Report *rep, const char *dir, int v, char *err)
{
    char name[64];
    snprintf(name, sizeof name, "lengths-%s.dat", variant_name(v));
    FILE *f = open_data(dir, name, err);
    if (!f) return -1;
    int blocks = 0;
    for (int i = 0; i < rep->npairs; i++) {
        const ReportPair *p = &rep->pairs[i];
        if (p->variant != v || !p->games) continue;
        int lo = REPORT_MAX_LENGTH, hi = 0;
        for (int a = 0; a <= REPORT_MAX_LENGTH; a++)
            if (p->lengths[a]) {
                if (a < lo) lo = a;
                hi = a;
            }
        char label[1100];
        pair_label(p, label, sizeof label);
        fprintf(f, "%s\"%s\"\n", blocks++ ? "\n\n" : "", label);
        for (int b = lo / LENGTH_BIN - 1; b <= hi / LENGTH_BIN + 1; b++) {
            uint64_t n = 0;
            for (int a = b * LENGTH_BIN; a < (b + 1) * LENGTH_BIN; a++)
                if (a >= 0 && a <= REPORT_MAX_LENGTH) n += p->lengths[a];
            if (b < 0) continue;
            fprintf(f, "%g %.4f\n", b * LENGTH_BIN + (LENGTH_BIN - 1) / 2.0, 100.0 * (double)n / (double)p->games);
        }
    }
    return close_data(f, dir, name, err);
}

/* first-ring-VARIANT.dat: the 85 points in the board's layout (columns
 * a..k left to right, each column half a row below its left neighbour, as
 * `yinsh show` draws it), rows "x y score games name"; score NaN without
 * games. */
static int write_first_ring(const Report *rep, const char *dir, int v, char *err)
{
    char name[64];
    snprintf(name, sizeof name, "first-ring-%s.dat", variant_name(v));
    FILE *f = open_data(dir, name, err);
    if (!f) return -1;
    fprintf(f, "# White's score by White's first ring, %s (yinsh report)\n# x y score games point\n",
            variant_name(v));
    for (int col = 0; col <= 10; col++)
        for (int row = 1; row <= 11; row++) {
            if (!point_valid(col, row)) continue;
            Point pt = point_make(col, row);
            const uint64_t *c = rep->first[v][pt];
            uint64_t n = c[RESULT_WHITE] + c[RESULT_BLACK] + c[RESULT_DRAW];
            char pname[8];
            point_format(pt, pname);
            double x = col * 0.8660254037844386, y = row - col / 2.0;
            if (n) fprintf(f, "%.4f %.4f %.5f %llu %s\n", x, y,
                           ((double)c[RESULT_WHITE] + 0.5 * (double)c[RESULT_DRAW]) / (double)n,
                           (unsigned long long)n, pname);
            else fprintf(f, "%.4f %.4f NaN 0 %s\n", x, y, pname);
        }
    return close_data(f, dir, name, err);
}

/* Runs `gnuplot -e VARS SCRIPT` with its output appended to log; true when
 * it exited 0. *missing is set when gnuplot cannot be started at all. */
static bool run_gnuplot(const char *vars, const char *script, const char *log, bool *missing)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    posix_spawn_file_actions_addclose(&fa, 0);
    char *argv[] = {"gnuplot", "-e", (char *)vars, (char *)script, NULL};
    pid_t pid;
    int rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        *missing = true;
        return false;
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) return false;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 127) *missing = true;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* A gnuplot string literal: single quotes, a quote doubled. */
static void gp_quote(const char *s, char *out, size_t len)
{
    size_t at = 0;
    if (len < 3) return;
    out[at++] = '\'';
    for (; *s && at + 3 < len; s++) {
        if (*s == '\'') out[at++] = '\'';
        out[at++] = *s;
    }
    out[at++] = '\'';
    out[at] = '\0';
}

int report_draw(const Report *rep, const char *dir, const char *plots_dir, ReportPictures *pics, char *err)
{
    char variants[64] = "", strength_variants[64];
    *pics = (ReportPictures){0};
    for (int v = 0; v < REPORT_VARIANT_NB; v++) {
        if (!has_variant(rep, v)) continue;
        size_t at = strlen(variants);
        snprintf(variants + at, sizeof variants - at, "%s%s", at ? " " : "", variant_name(v));
        if (write_lengths(rep, dir, v, err) || write_first_ring(rep, dir, v, err)) return -1;
    }
    if (write_strength(rep, dir, strength_variants, sizeof strength_variants, err)) return -1;

    if (!plots_dir) {
        snprintf(pics->note, sizeof pics->note,
                 "Pictures skipped: the gnuplot scripts (scripts/plots/) were not found; give --plots DIR.");
        return 0;
    }
    char log[4096], qdir[4200], qplots[4200], vars[8600], script[4096];
    snprintf(log, sizeof log, "%s/gnuplot.log", dir);
    unlink(log);
    gp_quote(dir, qdir, sizeof qdir);
    gp_quote(plots_dir, qplots, sizeof qplots);
    struct {
        const char *script, *variants;
        bool *drawn;
    } const PICTURES[] = {
        {"strength.gp", strength_variants, &pics->strength},
        {"lengths.gp", variants, &pics->lengths},
        {"first-ring.gp", variants, &pics->first_ring},
    };
    bool missing = false;
    char failed[256] = "";
    for (size_t i = 0; i < sizeof PICTURES / sizeof PICTURES[0] && !missing; i++) {
        if (!PICTURES[i].variants[0]) continue; /* nothing to draw */
        snprintf(vars, sizeof vars, "dir=%s; plots=%s; variants='%s'; min_games=%d", qdir, qplots,
                 PICTURES[i].variants, REPORT_MIN_POINT_GAMES);
        snprintf(script, sizeof script, "%s/%s", plots_dir, PICTURES[i].script);
        *PICTURES[i].drawn = run_gnuplot(vars, script, log, &missing);
        if (!*PICTURES[i].drawn && !missing) {
            size_t at = strlen(failed);
            snprintf(failed + at, sizeof failed - at, "%s%s", at ? ", " : "", PICTURES[i].script);
        }
    }
    struct stat sb;
    if (stat(log, &sb) == 0 && sb.st_size == 0) unlink(log); /* gnuplot had nothing to say */
    if (missing) {
        pics->strength = pics->lengths = pics->first_ring = false;
        snprintf(pics->note, sizeof pics->note,
                 "Pictures skipped: gnuplot is not installed (Debian: `apt-get install gnuplot-nox`, or "
                 "`bash scripts/setup.sh`). The data behind them is in the *.dat files beside this report.");
    } else if (failed[0]) {
        snprintf(pics->note, sizeof pics->note, "Some pictures failed (%.100s): gnuplot's messages are in `%.300s`.", failed,
                 log);
    } else if (!strength_variants[0]) {
        snprintf(pics->note, sizeof pics->note,
                 "No agent played itself in this selection, so White's score against strength is not drawn.");
    }
    return 0;
}
