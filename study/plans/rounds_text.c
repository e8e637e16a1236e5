/* The rounds' results as text and JSON (rounds_text.h). */
#include "study/plans/rounds_text.h"
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/number.h"

void rounds_loss_text(double v, char *out, size_t size)
{
    if (isnan(v)) snprintf(out, size, "-");
    else snprintf(out, size, "%.5f", v);
}

void rounds_elo_text(Interval e, char *out, size_t size)
{
    if (e.lo == e.hi) snprintf(out, size, "%+.1f (no interval)", e.mid + 0.0);
    else snprintf(out, size, "%+.1f (%+.1f to %+.1f)", e.mid + 0.0, e.lo + 0.0, e.hi + 0.0);
}

void rounds_fitted_write(FILE *f, const RoundRow *w, int rounds, bool net)
{
    char before[16], after[16];
    rounds_loss_text(w->loss_before[1], before, sizeof before);
    rounds_loss_text(w->loss_after[1], after, sizeof after);
    fprintf(f, "round %d/%d: %s %zu position%s of %" PRIu64 " game%s: validation log-loss %s -> %s; wrote %s\n", w->k,
            rounds, net ? "trained on" : "fitted to", w->positions, number_plural(w->positions), w->games,
            number_plural(w->games), before, after, w->weights);
}

void rounds_judged_write(FILE *f, const RoundRow *w, int rounds)
{
    char elo[64];
    rounds_elo_text(w->elo, elo, sizeof elo);
    fprintf(f, "round %d/%d: new vs old W %" PRIu64 " D %" PRIu64 " L %" PRIu64 ", Elo %s: %s\n", w->k, rounds,
            w->tally.wins, w->tally.draws, w->tally.losses, elo, w->gains ? "gains" : "does not gain, the rounds stop");
}

void rounds_table_write(FILE *f, const Rounds *r, const RoundRow *rows, int nrows, int best)
{
    fprintf(f, "%-5s %9s %10s  %-22s %-14s %-28s %s\n", "round", "games", "positions", "val log-loss", "new W-D-L",
            "Elo (95% CI)", "gains");
    for (int i = 0; i < nrows; i++) {
        const RoundRow *w = &rows[i];
        char before[16], after[16], loss[40], wdl[64], elo[64];
        rounds_loss_text(w->loss_before[1], before, sizeof before);
        rounds_loss_text(w->loss_after[1], after, sizeof after);
        snprintf(loss, sizeof loss, "%s -> %s", before, after);
        snprintf(wdl, sizeof wdl, "%" PRIu64 "-%" PRIu64 "-%" PRIu64, w->tally.wins, w->tally.draws, w->tally.losses);
        rounds_elo_text(w->elo, elo, sizeof elo);
        fprintf(f, "%-5d %9" PRIu64 " %10zu  %-22s %-14s %-28s %s\n", w->k, w->games, w->positions, loss, wdl, elo,
                w->gains ? "yes" : "no");
    }
    if (best) fprintf(f, "best: %s (round %d)\n", rows[best - 1].weights, best);
    else fprintf(f, "best: %s (the start: round 1 did not gain)\n", r->from);
}

/* A [train, validation] pair of log-losses, before and after. */
static void json_losses(Json *j, const char *key, int set, const RoundRow *w)
{
    json_open(j, key, '{', true);
    json_num(j, "before", w->loss_before[set]);
    json_num(j, "after", w->loss_after[set]);
    json_close(j);
}

/* Each round's figures. */
static void json_rounds(Json *j, const RoundRow *rows, int n)
{
    json_array(j, "rounds");
    for (int i = 0; i < n; i++) {
        const RoundRow *w = &rows[i];
        json_object(j, NULL);
        json_int(j, "round", w->k);
        json_str(j, "selfplay_run", w->selfplay_run);
        json_uint(j, "selfplay_games", w->games);
        json_uint(j, "selfplay_games_validation", w->games_val);
        json_uint(j, "positions", w->positions);
        json_uint(j, "positions_validation", w->positions_val);
        json_losses(j, "log_loss_train", 0, w);
        json_losses(j, "log_loss_validation", 1, w);
        json_str(j, "weights", w->weights);
        json_str(j, "match_run", w->match_run);
        json_open(j, "results", '{', true);
        json_uint(j, "wins", w->tally.wins);
        json_uint(j, "draws", w->tally.draws);
        json_uint(j, "losses", w->tally.losses);
        json_uint(j, "pairs", w->tally.pairs);
        json_close(j);
        json_estimate(j, "elo", w->elo.lo, w->elo.mid, w->elo.hi);
        json_bool(j, "gains", w->gains);
        json_close(j);
    }
    json_close(j);
}

void rounds_json_write(Json *j, const Rounds *r, const RoundRow *rows, int nrows, int best, const char *csv)
{
    char spec[SPEC_LEN];
    json_str(j, "name", r->name);
    json_str(j, "agent", agent_spec_format(&r->agent, spec));
    json_str(j, "from", r->from);
    json_str(j, "db", r->where.db);
    json_str(j, "out_dir", r->dir);
    json_str(j, "csv", csv);
    json_u64_text(j, "seed", r->seed);
    json_int(j, "rounds_planned", r->rounds);
    json_uint(j, "games_per_round", r->games);
    json_uint(j, "pairs_per_round", r->pairs);
    json_bool(j, "net", r->net);
    if (r->net) {
        json_open(j, "training", '{', true);
        json_int(j, "hidden", r->train.hidden);
        json_int(j, "l2", r->train.l2);
        json_int(j, "epochs", r->train.epochs);
        json_num(j, "lambda", r->train.lambda);
        json_bool(j, "warm", r->warm);
        json_close(j);
    }
    json_rounds(j, rows, nrows);
    json_object(j, "best");
    json_int(j, "round", best);
    json_str(j, "weights", best ? rows[best - 1].weights : r->from);
    json_close(j);
}

bool rounds_writes_file(const char *name, const void *ctx)
{
    const Rounds *r = ctx;
    size_t n = strlen(r->name);
    if (strncmp(name, r->name, n) || name[n] != '.') return false;
    if (!strcmp(name + n, ".csv")) return true;
    char *end;
    long k = strtol(name + n + 1, &end, 10);
    return name[n + 1] >= '0' && name[n + 1] <= '9' && k >= 1 && k <= r->rounds &&
           !strcmp(end, r->net ? ".nnue" : ".txt");
}
