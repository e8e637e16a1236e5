/* yinsh report: the balance report of stored games, as Markdown and PNG
 * pictures in a directory, the Markdown also on stdout. */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/commands.h"
#include "engine/base/json.h"
#include "engine/notation.h"
#include "study/report/report.h"
#include "selfplay/play/run.h"

#define REPORT_DEFAULT_OUT "results/report"

const char USAGE_REPORT[] =
    "usage: yinsh report [--db PATH] [--runs NAME[,NAME...]] [--kind selfplay|match|import|all]\n"
    "                    [--agent SPEC] [--variant V] [--out DIR]\n"
    "                    [--plots DIR | --no-plots] [--quiet] [--json]\n"
    "  Reads the stored games and writes the balance report: for each variant\n"
    "  and pair of agents, the games, wins, draws, White's score with its 95%\n"
    "  Wilson interval, the p-value of no first-player advantage (exact), the\n"
    "  advantage in Elo, game lengths and end reasons; the measures beyond the\n"
    "  win rate (draw rate, balance, the lengths' distribution, when the winner\n"
    "  leads for good, lead changes, legal actions by phase); blitz against\n"
    "  standard for each pair of agents that played both; White's score by the\n"
    "  class of White's first ring under the board's symmetries; where the\n"
    "  selection holds agents that played themselves and match runs between\n"
    "  them (a study's [ladder]; --kind all), the ladder: the levels' Elo from\n"
    "  one joint fit of the matches, each match's score and Elo, the depth, and\n"
    "  White's score and the other measures against Elo beside published\n"
    "  figures; the same agent from two openings compared; and pictures\n"
    "  drawn with gnuplot: White's score against Elo (with a ladder) or against\n"
    "  strength, draws and lengths against Elo, game lengths, and White's\n"
    "  score by White's first ring. Every figure counts distinct games:\n"
    "  copies (the same actions to the same end, as a deterministic agent plays\n"
    "  them) are left out, and the report says how many. The report goes to\n"
    "  DIR/report.md (and stdout), the pictures and their data beside it.\n"
    "\n"
    "  --db PATH     the database (default " RUN_DEFAULT_DB " under the working\n"
    "                folder)\n"
    "  --runs NAMES  only these runs (comma-separated; may be repeated)\n"
    "  --kind K      selfplay (default), match (the match report: A against B,\n"
    "                Elo from the pairs, LOS, pentanomial), import (games\n"
    "                read by `yinsh import`; unfinished ones left out) or all\n"
    "  --agent SPEC  only runs this agent plays in (either side; any spelling)\n"
    "  --variant V   only standard or only blitz\n"
    "  Each game counts once: repeats (games stored again by a later run) are\n"
    "  left out, and the report says how many.\n"
    "  --out DIR     where report.md and the pictures go (default " REPORT_DEFAULT_OUT ";\n"
    "                created if missing)\n"
    "  --plots DIR   the gnuplot scripts (default: scripts/plots/ of the source\n"
    "                tree this binary was built from, else ./scripts/plots)\n"
    "  --no-plots    write the Markdown only\n"
    "  --quiet       do not print the report on stdout\n"
    "  --json        print its figures on stdout as one JSON document instead\n"
    "                of the Markdown (docs/json.md); the files are written the same\n"
    "  Without gnuplot the Markdown is still written and says so. An empty\n"
    "  database, an unknown run or a selection without games is an error (1).\n";

static bool has_scripts(const char *dir)
{
    char path[4096 + 16];
    snprintf(path, sizeof path, "%s/strength.gp", dir);
    return access(path, R_OK) == 0;
}

/* The gnuplot scripts: scripts/plots of the source tree this binary was
 * built in (the binary lives in a build directory there, or the tree that
 * configured the build), else of the current directory. NULL when none has
 * them. */
static const char *find_plots(char *buf, size_t len)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        snprintf(buf, len, "%s/../scripts/plots", dirname(exe));
        if (has_scripts(buf)) return buf;
    }
    snprintf(buf, len, "%s/scripts/plots", YINSH_SOURCE_DIR);
    if (has_scripts(buf)) return buf;
    snprintf(buf, len, "scripts/plots");
    return has_scripts(buf) ? buf : NULL;
}

/* Moves a finished report (md, md_len bytes) and whatever else the
 * staging folder holds into out. */
static int write_out(const char *cmd, const char *out, const char *stage, const char *md, size_t md_len, bool quiet)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/report.md", stage);
    FILE *f = fopen(path, "w");
    bool written = f && fwrite(md, 1, md_len, f) == md_len;
    if (f && fclose(f) != 0) written = false;
    if (!written) return cli_error(cmd, "cannot write '%s/report.md': %s", out, strerror(errno));
    if (cli_stage_commit(stage, out, NULL) != 0) return cli_error(cmd, "cannot move the report into '%s': %s", out, strerror(errno));
    if (!quiet) fwrite(md, 1, md_len, stdout);
    fprintf(stderr, "yinsh %s: wrote %s/report.md\n", cmd, out);
    return 0;
}

/* A verdict as a word (docs/json.md): for White's score "white" or
 * "black" (whose edge is too large to be chance), for a difference
 * "differ"; "chance", "undecided" (p and the interval disagree) or
 * "too_few_games". */
static const char *verdict_word(ReportVerdict v, const char *edge)
{
    switch (v) {
    case REPORT_TOO_FEW: return "too_few_games";
    case REPORT_CHANCE: return "chance";
    case REPORT_EDGE: return edge;
    case REPORT_SPLIT: return "undecided";
    }
    return NULL;
}

/* A level's Elo on its ladder: {"value", "ci95", "relative_to", "block"};
 * null for a level in no ladder match. */
static void json_level_elo(Json *j, const char *key, const ReportLadder *lad, int k)
{
    const ReportLevel *lv = &lad->level[k];
    if (lv->block < 0) {
        json_null(j, key);
        return;
    }
    Interval e = report_level_elo(lv);
    json_open(j, key, '{', true);
    json_num(j, "value", e.mid);
    if (lv->base == k) json_null(j, "ci95");
    else {
        json_open(j, "ci95", '[', true);
        json_num(j, NULL, e.lo);
        json_num(j, NULL, e.hi);
        json_close(j);
    }
    json_num(j, "se", lv->se);
    json_str(j, "relative_to", lad->level[lv->base].agent);
    json_int(j, "block", lv->block);
    json_close(j);
}

/* White's results of a pair: counts, score, p, Elo, lengths, end reasons,
 * the measures beyond the win rate, and the level's Elo on the ladder. */
static void json_pair(Json *j, const Report *rep, const ReportPair *p)
{
    ReportScore s = report_score(p);
    json_open(j, NULL, '{', false);
    json_str(j, "variant", variant_name(p->variant));
    json_str(j, "white", p->white);
    json_str(j, "black", p->black);
    json_str(j, "opening", p->opening);
    const ReportLadder *lad = &rep->ladder[p->variant];
    int level = strcmp(p->white, p->black) ? -1 : report_level_of(lad, p->white);
    if (level >= 0) json_level_elo(j, "ladder_elo", lad, level);
    else json_null(j, "ladder_elo");
    if (p->strength > 0) json_num(j, "strength_sims", p->strength);
    else json_null(j, "strength_sims");
    json_uint(j, "games", p->games);
    json_uint(j, "copies_left_out", p->copies);
    json_open(j, "results", '{', true);
    json_uint(j, "white", s.wins);
    json_uint(j, "black", s.losses);
    json_uint(j, "draw", s.draws);
    json_close(j);
    cli_json_interval(j, "white_score", (Interval){.lo = s.lo, .mid = s.score, .hi = s.hi});
    json_num(j, "p_value", s.p);
    cli_json_interval(j, "white_advantage_elo", (Interval){.lo = s.elo_lo, .mid = s.elo, .hi = s.elo_hi});
    json_str(j, "verdict", verdict_word(s.verdict, s.score > 0.5 ? "white" : "black"));
    json_num(j, "mean_length_actions", report_mean_length(p));
    json_num(j, "median_length_actions", report_median_length(p));
    json_open(j, "end_reasons", '{', true);
    for (int r = 0; r < REPORT_REASON_NB; r++) json_uint(j, r < REASON_NB ? reason_name(r) : "other", p->reasons[r]);
    json_close(j);
    cli_json_interval(j, "draw_rate", report_draw_rate(p));
    json_num(j, "balance", report_balance(p));
    json_open(j, "length_actions", '{', true);
    json_uint(j, "shortest", (uint64_t)report_length_quantile(p, 0));
    json_uint(j, "q1", (uint64_t)report_length_quantile(p, 0.25));
    json_num(j, "median", report_median_length(p));
    json_uint(j, "q3", (uint64_t)report_length_quantile(p, 0.75));
    json_uint(j, "longest", (uint64_t)report_length_quantile(p, 1));
    json_open(j, "games_by_length", '[', true);
    for (int a = 0; a <= REPORT_MAX_LENGTH; a++) {
        if (!p->lengths[a]) continue;
        json_open(j, NULL, '[', true);
        json_uint(j, NULL, (uint64_t)a);
        json_uint(j, NULL, p->lengths[a]);
        json_close(j);
    }
    json_close(j);
    json_close(j);
    json_open(j, "decided_at", '{', true);
    json_num(j, "mean", report_decided_at(p));
    json_uint(j, "games", p->decided);
    json_close(j);
    json_open(j, "lead_changes", '{', true);
    json_num(j, "mean", report_lead_changes(p));
    json_uint(j, "games", p->valued);
    json_close(j);
    static const char *const PHASES[REPORT_PHASE_NB] = {"placement", "move", "removal"};
    json_open(j, "legal_actions", '{', true);
    for (int k = 0; k < REPORT_PHASE_NB; k++) json_num(j, PHASES[k], report_branching(p, k));
    json_close(j);
    json_close(j);
}

/* White's score by the first ring's class: per variant with games (all
 * pairs), or of one pair. */
static void json_class_list(Json *j, const char *key, const Report *rep, int v, const ReportPair *pair)
{
    ReportClass c[REPORT_CLASS_NB];
    report_classes(rep, v, pair, c);
    json_array(j, key);
    for (int k = 0; k < REPORT_CLASS_NB; k++) {
        uint64_t w = c[k].results[RESULT_WHITE], d = c[k].results[RESULT_DRAW], l = c[k].results[RESULT_BLACK];
        char name[8];
        point_format(c[k].first, name);
        json_open(j, NULL, '{', true);
        json_str(j, "class", name);
        json_int(j, "points", c[k].points);
        json_int(j, "distance", c[k].distance);
        json_uint(j, "games", w + d + l);
        if (w + d + l) cli_json_interval(j, "white_score", stats_score(w, d, l));
        else json_null(j, "white_score");
        json_close(j);
    }
    json_close(j);
}

static void json_classes(Json *j, const Report *rep)
{
    json_object(j, "first_ring_classes");
    for (int v = 0; v < REPORT_VARIANT_NB; v++)
        if (report_has_variant(rep, v)) json_class_list(j, variant_name(v), rep, v, NULL);
    json_close(j);
}

/* A variant's ladder: the levels with their Elo, the links with their
 * own figures (or the bound a sweep allows), the depth. */
static void json_ladder(Json *j, const Report *rep, int v)
{
    const ReportLadder *lad = &rep->ladder[v];
    json_open(j, NULL, '{', false);
    json_str(j, "variant", variant_name(v));
    json_bool(j, "rated", !lad->why[0]);
    json_str(j, "why_unrated", lad->why[0] ? lad->why : NULL);
    json_str(j, "anchor", report_ladder_rated(lad) ? lad->level[lad->anchor].agent : NULL);
    json_bool(j, "anchor_random", lad->anchor_random);
    json_int(j, "blocks", lad->nblocks);
    json_array(j, "levels");
    for (int k = 0; k < lad->nlevels; k++) {
        const ReportPair *p = &rep->pairs[lad->level[k].pair];
        json_open(j, NULL, '{', true);
        json_str(j, "agent", lad->level[k].agent);
        json_str(j, "opening", p->opening);
        json_uint(j, "selfplay_games", p->games);
        json_level_elo(j, "elo", lad, k);
        json_close(j);
    }
    json_close(j);
    json_array(j, "links");
    for (int i = 0; i < lad->nlinks; i++) {
        const ReportLink *l = &lad->link[i];
        json_open(j, NULL, '{', false);
        json_str(j, "upper", lad->level[l->upper].agent);
        json_str(j, "lower", lad->level[l->lower].agent);
        json_str(j, "run", l->run);
        json_int(j, "runs", l->runs);
        json_uint(j, "pairs", l->tally.pairs);
        json_open(j, "upper_results", '{', true);
        json_uint(j, "wins", l->tally.wins);
        json_uint(j, "draws", l->tally.draws);
        json_uint(j, "losses", l->tally.losses);
        json_close(j);
        json_open(j, "pentanomial", '[', true);
        for (int k = 0; k < 5; k++) json_uint(j, NULL, l->tally.penta[k]);
        json_close(j);
        cli_json_interval(j, "upper_score", l->score);
        if (l->swept) {
            json_null(j, "elo");
            json_num(j, l->swept > 0 ? "elo_at_least" : "elo_at_most", l->swept > 0 ? l->bound : -l->bound);
        } else {
            cli_json_interval(j, "elo", l->elo);
        }
        json_int(j, "swept", l->swept);
        json_close(j);
    }
    json_close(j);
    int surely, depth = report_ladder_depth(lad, &surely);
    json_open(j, "depth", '{', true);
    json_int(j, "score_pct", REPORT_DEPTH_SCORE_PCT);
    json_int(j, "links", lad->nlinks);
    json_int(j, "at_least", depth);
    json_int(j, "interval_at_least", surely);
    json_close(j);
    json_int(j, "matches_left_out", lad->left_out);
    int top = report_ladder_top(lad);
    if (top >= 0) {
        json_open(j, "strongest", '{', false);
        json_str(j, "agent", lad->level[top].agent);
        json_str(j, "opening", rep->pairs[lad->level[top].pair].opening);
        json_class_list(j, "first_ring_classes", rep, v, &rep->pairs[lad->level[top].pair]);
        json_close(j);
    } else {
        json_null(j, "strongest");
    }
    json_close(j);
}

/* A difference of White's scores with its interval, p and verdict. */
static void json_diff(Json *j, const ReportDiff *d)
{
    cli_json_interval(j, "difference", d->d);
    json_num(j, "p_value", d->p);
    json_bool(j, "p_exact", d->exact);
    json_str(j, "verdict", verdict_word(d->verdict, "differ"));
}

/* The report's figures as JSON (docs/json.md): the runs used, each pair
 * of agents per variant, blitz against standard where a pair played
 * both, and the first ring's classes, as the Markdown has them. */
static void json_report(const Report *rep, const char *out, const ReportPictures *pics, int argc, char **argv)
{
    Json j;
    cli_json_begin(&j, "report", argc, argv);
    json_str(&j, "db", rep->db);
    json_str(&j, "out", out);
    json_uint(&j, "games", rep->games);
    json_uint(&j, "copies_left_out", rep->copies);
    json_uint(&j, "games_unknown_variant", rep->skipped);
    json_uint(&j, "games_unfinished", rep->unfinished);
    json_int(&j, "repeats_left_out", rep->repeats);
    json_str(&j, "kind", rep->kind);
    json_str(&j, "agent", rep->agent);
    json_str(&j, "variant", rep->variant);
    json_array(&j, "runs");
    for (int i = 0; i < rep->nrun_rows; i++) {
        const ReportRun *r = &rep->run_rows[i];
        json_open(&j, NULL, '{', false);
        json_str(&j, "name", r->name);
        json_str(&j, "command", r->command);
        json_str(&j, "variant", r->variant);
        json_str(&j, "white", r->white);
        json_str(&j, "black", r->black);
        json_u64_text(&j, "seed", r->seed);
        json_int(&j, "games_planned", r->games);
        json_int(&j, "games_stored", r->stored);
        json_int(&j, "games_distinct", r->distinct);
        json_int(&j, "repeats", r->repeats);
        json_str(&j, "kind", r->kind);
        json_str(&j, "opening", r->opening);
        json_str(&j, "controls", r->controls);
        json_str(&j, "git_commit", r->git_commit);
        json_str(&j, "compiler", r->compiler);
        json_str(&j, "machine", r->machine);
        json_hex(&j, "hash", r->hash);
        json_bool(&j, "finished", r->finished);
        json_close(&j);
    }
    json_close(&j);
    json_array(&j, "pairs");
    for (int i = 0; i < rep->npairs; i++) json_pair(&j, rep, &rep->pairs[i]);
    json_close(&j);
    json_array(&j, "blitz_vs_standard");
    for (int i = 0; i < rep->npairs; i++) {
        const ReportPair *st = &rep->pairs[i];
        int at = st->variant == VARIANT_STANDARD
                     ? report_pair_index(rep, VARIANT_BLITZ, st->white, st->black, st->opening)
                     : -1;
        if (at < 0) continue;
        const ReportPair *bl = &rep->pairs[at];
        ReportScore a = report_score(st), b = report_score(bl);
        ReportDiff d = report_diff(st, bl);
        json_open(&j, NULL, '{', false);
        json_str(&j, "white", st->white);
        json_str(&j, "black", st->black);
        json_str(&j, "opening", st->opening);
        json_num(&j, "standard_white_score", a.score);
        json_uint(&j, "standard_games", a.n);
        json_num(&j, "blitz_white_score", b.score);
        json_uint(&j, "blitz_games", b.n);
        json_diff(&j, &d);
        json_close(&j);
    }
    json_close(&j);
    json_classes(&j, rep);
    json_array(&j, "ladders");
    for (int v = 0; v < REPORT_VARIANT_NB; v++)
        if (rep->ladder[v].nlinks || rep->ladder[v].why[0]) json_ladder(&j, rep, v);
    json_close(&j);
    json_array(&j, "openings_compared");
    for (int i = 0; i < rep->npairs; i++)
        for (int k = i + 1; k < rep->npairs; k++) {
            const ReportPair *a, *b;
            if (!report_openings_compared(&rep->pairs[i], &rep->pairs[k], &a, &b)) continue;
            ReportDiff d = report_diff(b, a);
            json_open(&j, NULL, '{', false);
            json_str(&j, "variant", variant_name(a->variant));
            json_str(&j, "agent", a->white);
            json_str(&j, "first_opening", a->opening);
            json_num(&j, "first_white_score", report_score(a).score);
            json_uint(&j, "first_games", a->games);
            json_str(&j, "second_opening", b->opening);
            json_num(&j, "second_white_score", report_score(b).score);
            json_uint(&j, "second_games", b->games);
            json_diff(&j, &d);
            json_close(&j);
        }
    json_close(&j);
    json_array(&j, "published");
    for (int i = 0; i < REPORT_PUBLISHED_NB; i++) {
        const ReportPublished *p = &REPORT_PUBLISHED[i];
        json_open(&j, NULL, '{', true);
        json_str(&j, "who", p->who);
        json_str(&j, "source", p->source);
        json_num(&j, "white_score", p->white_score);
        json_uint(&j, "games", p->games);
        json_close(&j);
    }
    json_close(&j);
    if (pics) {
        json_open(&j, "pictures", '{', true);
        json_bool(&j, "strength", pics->strength);
        json_bool(&j, "lengths", pics->lengths);
        json_bool(&j, "first_ring", pics->first_ring);
        json_bool(&j, "score_elo", pics->score_elo);
        json_bool(&j, "draws_length_elo", pics->draws_length_elo);
        json_str(&j, "note", pics->note[0] ? pics->note : NULL);
        json_close(&j);
    } else {
        json_null(&j, "pictures");
    }
    json_end(&j);
}

int cli_report_write(const char *cmd, const CliReport *job)
{
    const char *db = job->db, *out = job->out, *plots = job->plots;
    const StoreSelection *sel = &job->sel;
    int nnames = sel->nruns, rc = 0;
    char *md = NULL, err[ERR_LEN], plots_buf[4096], stage[4096] = "";
    size_t md_len = 0;
    Report rep = {0};
    FILE *mf = NULL;
    bool matches = sel->kind && !strcmp(sel->kind, "match");

    if (!matches) {
        if (report_load(&rep, db, (int)job->busy, sel, err)) {
            rc = cli_error(cmd, "%s", err);
            goto done;
        }
        if (rep.games == 0) {
            if (nnames)
                rc = cli_error(cmd, "the selected %s of '%s' hold%s no games%s: nothing to report",
                               nnames > 1 ? "runs" : "run", db, nnames > 1 ? "" : "s",
                               sel->kind ? " of this kind (self-play runs by default: --kind match or --kind all)"
                                         : "");
            else
                rc = cli_error(cmd, "database '%s' holds no games%s: nothing to report (`yinsh selfplay` plays some)",
                               db, sel->kind || sel->agent || sel->variant ? " in this selection" : "");
            goto done;
        }
    }
    /* Everything is written into a staging folder inside DIR first and
     * moved into DIR only when all of it was written: a full disk leaves
     * DIR as it was. */
    if ((rc = cli_stage_open(cmd, out, "report", stage, sizeof stage))) goto done;
    if (!(mf = open_memstream(&md, &md_len))) {
        rc = cli_error(cmd, "out of memory");
        goto done;
    }
    if (matches) {
        /* the match report: a table, no pictures */
        rc = report_matches(db, (int)job->busy, sel, job->cmdline, mf, err);
        fclose(mf);
        mf = NULL;
        if (rc) {
            rc = cli_error(cmd, "%s", err);
            goto done;
        }
        rc = write_out(cmd, out, stage, md, md_len, job->quiet || job->json);
        goto done;
    }
    ReportPictures pics, *pp = NULL;
    if (!job->no_plots) {
        if (!plots) plots = find_plots(plots_buf, sizeof plots_buf);
        if (report_draw(&rep, stage, plots, &pics, err)) {
            rc = cli_error(cmd, "%s", err);
            goto done;
        }
        pp = &pics;
    }
    report_write_markdown(&rep, job->cmdline, pp, mf);
    fclose(mf);
    mf = NULL;
    if ((rc = write_out(cmd, out, stage, md, md_len, job->quiet || job->json))) goto done;
    if (pp && pp->note[0]) fprintf(stderr, "yinsh %s: %s\n", cmd, pp->note);
    if (job->json) json_report(&rep, out, pp, job->argc, job->argv);

done:
    if (stage[0]) cli_stage_remove(stage);
    if (mf) fclose(mf);
    free(md);
    report_free(&rep);
    return rc;
}

int cmd_report(int argc, char **argv)
{
    const char *cmd = "report";
    const char *db = NULL, *out = REPORT_DEFAULT_OUT, *plots = NULL;
    const char *kind = "selfplay", *agent_text = NULL, *variant_text = NULL;
    bool no_plots = false, quiet = false, json = false;
    CliList runs = {0};
    const CliOpt opts[] = {
        {.name = "--db", .kind = CLI_TEXT, .out = &db},
        {.name = "--runs", .kind = CLI_LIST, .out = &runs},
        {.name = "--out", .kind = CLI_TEXT, .out = &out},
        {.name = "--plots", .kind = CLI_TEXT, .out = &plots},
        {.name = "--no-plots", .kind = CLI_FLAG, .out = &no_plots},
        {.name = "--quiet", .kind = CLI_FLAG, .out = &quiet},
        CLI_SELECTION_OPTIONS(&kind, &agent_text, &variant_text),
        {.name = "--json", .kind = CLI_FLAG, .out = &json},
    };
    int npos;
    char *cmdline = NULL, agent[SPEC_LEN];
    int rc = cli_parse(cmd, argc, argv, opts, sizeof opts / sizeof *opts, NULL, 0, &npos);
    if (rc) goto done;
    if (plots && no_plots) {
        rc = cli_usage_error(cmd, "--plots and --no-plots contradict each other");
        goto done;
    }
    if ((rc = cli_check_db_out(cmd, &db, out))) goto done;
    const char *inputs[] = {db}, *input_opts[] = {"--db"};
    if ((rc = cli_check_report_out(cmd, "--out", out, inputs, input_opts, 1))) goto done;
    if (plots && !has_scripts(plots)) {
        rc = cli_usage_error(cmd, "--plots '%s' holds no strength.gp", plots);
        goto done;
    }
    CliReport job = {.db = db, .busy = STORE_BUSY_MS, .sel = {.runs = (const char *const *)runs.items, .nruns = runs.n}, .out = out,
                     .plots = plots, .no_plots = no_plots, .quiet = quiet, .json = json, .argc = argc, .argv = argv};
    if ((rc = cli_selection(cmd, kind, agent_text, variant_text, &job.sel, agent))) goto done;
    if (!(cmdline = cli_join_args(argc, argv))) {
        rc = cli_error(cmd, "out of memory");
        goto done;
    }
    job.cmdline = cmdline;
    rc = cli_report_write(cmd, &job);

done:
    cli_list_free(&runs);
    free(cmdline);
    return rc;
}
