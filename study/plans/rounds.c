#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "engine/base/error.h"
#include "engine/base/file.h"
#include "engine/notation.h"
#include "engine/base/rng.h"
#include "study/plans/rounds.h"
#include "eval/nnue.h"
#include "study/positions/train_load.h"
#include "study/positions/tune_load.h"

/* The weights files' ending, and what an eval= value puts before a path. */
static const char *file_ext(const Rounds *r) { return r->net ? "nnue" : "txt"; }
static const char *eval_prefix(const Rounds *r) { return r->net ? AGENT_NET_PREFIX : ""; }

int rounds_check(const Rounds *r, char *err)
{
    if (!planned_word(r->name, ROUNDS_NAME_LEN + 1)) {
        return error_set(err, "the name '%.40s': 1 to %d " PLANNED_WORD " (it begins the runs' and the files' names)",
                         r->name, ROUNDS_NAME_LEN);
    }
    const AgentSpec *a = &r->agent;
    if (!agent_spec_has_eval(a)) {
        char text[SPEC_LEN];
        return error_set(err, "the agent '%.200s' has no evaluation to tune: give ab:..., or mcts with rollout=N",
                 agent_spec_format(a, text));
    }
    if (!r->net && agent_spec_names_net(a)) {
        /* each round replaces eval by linear weights fitted to its games */
        char text[SPEC_LEN];
        return error_code(err, ERR_USAGE, "the agent '%.200s' evaluates with a net: the rounds fit linear weights",
                          agent_spec_format(a, text));
    }
    if (r->rounds < 1 || r->rounds > ROUNDS_MAX || r->games < 1 || r->games > STORE_MAX_GAMES || r->pairs < 1 ||
        r->pairs > STORE_MAX_GAMES / 2) {
        return error_set(err, "rounds 1 to %d, games 1 to %d, pairs 1 to %d", ROUNDS_MAX, STORE_MAX_GAMES,
                 STORE_MAX_GAMES / 2);
    }
    if (r->net) {
        const NnueTrainOptions *o = &r->train;
        if (o->hidden < NNUE_MIN_HIDDEN || o->hidden > NNUE_MAX_HIDDEN || o->hidden % 16 || o->l2 < 0 ||
            o->l2 > NNUE_MAX_L2 || o->epochs < 1 || o->epochs > NNUE_TRAIN_MAX_EPOCHS || !(o->lambda >= 0) ||
            !(o->lambda <= 1)) {
            return error_set(err, "the nets' training: hidden %d to %d in steps of 16, l2 0 to %d, epochs 1 to %d, "
                             "lambda 0 to 1", NNUE_MIN_HIDDEN, NNUE_MAX_HIDDEN, NNUE_MAX_L2, NNUE_TRAIN_MAX_EPOCHS);
        }
    }
    /* the paths travel in spec texts, where ',' separates the keys */
    int room = AGENT_PATH_LEN - (int)strlen(eval_prefix(r));
    if (strchr(r->from, ',') || (int)strlen(r->from) >= room) {
        return error_set(err, "the starting %s '%.200s': a path of fewer than %d characters, without ','",
                         r->net ? "net" : "weights", r->from, room);
    }
    char last[2 * AGENT_PATH_LEN];
    if (strchr(r->dir, ',') ||
        snprintf(last, sizeof last, "%s/%s.%d.%s", r->dir, r->name, r->rounds, file_ext(r)) >= room) {
        return error_set(err, "the weights' folder '%.200s': too long a path for the weights files in it (%d "
                 "characters at most), or it holds a ','", r->dir, room - 1);
    }
    struct stat sb;
    if (stat(r->dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        return error_set(err, "the weights' folder '%.200s' is not a folder: make it first", r->dir);
    }
    if (access(r->dir, W_OK | X_OK) != 0) {
        return error_set(err, "the weights' folder '%.200s': cannot write into it: %s", r->dir, strerror(errno));
    }
    return 0;
}

void rounds_weights_path(const Rounds *r, int k, char *path)
{
    if (k == 0) snprintf(path, AGENT_PATH_LEN, "%s", r->from);
    else snprintf(path, AGENT_PATH_LEN, "%s/%s.%d.%s", r->dir, r->name, k, file_ext(r));
}

uint64_t rounds_train_seed(const Rounds *r, int k)
{
    char name[STORE_NAME_LEN + 16];
    snprintf(name, sizeof name, "%s.%d/train", r->name, k);
    return rng_mix(r->seed, rng_hash_text(name));
}

/* The agent with eval = W_k (the file read now: what is played is what
 * the file says), and its canonical text (SPEC_LEN). The spec holds its
 * own reference to a net: give it back with agent_spec_release. */
static int agent_at(const Rounds *r, int k, AgentSpec *spec, char *text, char *err)
{
    char path[AGENT_PATH_LEN], eval[AGENT_PATH_LEN + 8], e[ERR_LEN];
    rounds_weights_path(r, k, path);
    snprintf(eval, sizeof eval, "%s%s", eval_prefix(r), path);
    agent_spec_copy(spec, &r->agent);
    if (agent_spec_set(spec, "eval", eval, e)) {
        agent_spec_release(spec);
        return error_set(err, "round %d: %.900s", k + 1, e);
    }
    agent_spec_format(spec, text);
    return 0;
}

/* The stored state of a round's run, refusing one that another plan
 * made. */
static int run_state(const Rounds *r, Planned *run, char *err)
{
    int refused, rc = planned_read(&r->where, run, 1, &refused, err);
    if (rc == ERR_EXISTS) error_append(err, "; the rounds ask for another run under that name");
    return rc;
}

/* Step 2: the fit of the round's self-play games from W_{k-1}, written to
 * W_k with a header that says what made it. The header names no folder
 * or database, so the same games give the same file wherever they are. */
static int fit_round(const Rounds *r, int k, const AgentSpec *prev, RoundRow *row, char *err)
{
    Store *store = NULL;
    TuneData data = {0};
    TuneOptions o;
    tune_options_default(&o);
    o.threads = r->where.threads;
    const char *runs[1] = {row->selfplay_run};
    StoreSelection sel = {.runs = runs, .nruns = 1};
    int64_t repeats = 0;
    char e[ERR_LEN];
    if (store_open(&store, r->where.db, STORE_READ, r->where.busy_ms, e) ||
        tune_load(store, &sel, &o, &data, &repeats, e)) {
        store_close(store);
        tune_data_free(&data);
        return error_set(err, "round %d: the fit: %.900s", k, e);
    }
    store_close(store);
    TuneFit fit;
    tune_fit(&data, &prev->weights, &o, &fit);
    row->games = data.games;
    row->games_val = data.games_val;
    row->positions = data.n - data.n_val;
    row->positions_val = data.n_val;
    memcpy(row->loss_before, fit.loss_before, sizeof row->loss_before);
    memcpy(row->loss_after, fit.loss_after, sizeof row->loss_after);

    char *header = NULL, from[AGENT_PATH_LEN];
    size_t header_len = 0;
    FILE *h = open_memstream(&header, &header_len);
    if (!h) {
        tune_data_free(&data);
        return error_set(err, "out of memory");
    }
    if (k == 1) snprintf(from, sizeof from, "%s", r->from);
    else snprintf(from, sizeof from, "%s.%d.txt", r->name, k - 1);
    fprintf(h, "made by: yinsh rounds %s, round %d: the games of run %s fitted from %s (agent %s)\n", r->name, k,
            row->selfplay_run, from, agent_spec_kind_name(&r->agent));
    tune_summary_write(h, &data, &o, &fit, repeats, "starting");
    fclose(h);
    tune_data_free(&data);
    rounds_weights_path(r, k, row->weights);
    int rc = weights_save(row->weights, &fit.after, header, e);
    free(header);
    return rc ? error_set(err, "round %d: the fit gives no usable weights: %.900s", k, e) : 0;
}

/* Step 2 with nets: a net trained from scratch on the self-play games of
 * rounds 1 to k (the trainer has no warm start, so the data grows with
 * the rounds instead), written to W_k. Its description names the rounds,
 * the round and the runs, not the folder or database, so the same games
 * give the same bytes wherever they are. */
static int train_round(const Rounds *r, int k, const AgentSpec *prev, RoundRow *row, char *err)
{
    Store *store = NULL;
    NnueData data = {0};
    NnueTrainOptions o = r->train;
    o.seed = rounds_train_seed(r, k);
    o.threads = r->where.threads;
    char (*names)[STORE_NAME_LEN] = calloc((size_t)k, sizeof *names);
    const char **runs = calloc((size_t)k, sizeof *runs);
    StoreSelection sel = {.runs = runs, .nruns = k};
    NnueTrained trained = {0};
    Nnue *net = NULL;
    char e[ERR_LEN], what[NNUE_DESC_MAX + 1], desc[NNUE_DESC_MAX + 1];
    int rc = -1;
    if (!names || !runs) {
        rc = error_set(err, "round %d: out of memory", k);
        goto done;
    }
    for (int j = 1; j <= k; j++) {
        snprintf(names[j - 1], sizeof names[j - 1], "%s.%d/selfplay", r->name, j);
        runs[j - 1] = names[j - 1];
    }
    if (store_open(&store, r->where.db, STORE_READ, r->where.busy_ms, e) ||
        train_load(store, &sel, &o, &data, NULL, e)) {
        rc = error_set(err, "round %d: the training: %.900s", k, e);
        goto done;
    }
    /* a warm start from W(k-1), whose hash the description then names */
    if (r->warm) o.init = agent_spec_net(prev);
    nnue_train_describe(what, sizeof what, &o, &data);
    const char *start = r->warm ? "from W(k-1)" : "from scratch";
    if (k == 1)
        snprintf(desc, sizeof desc, "yinsh rounds %s, round 1: run %s, %s: %s", r->name, row->selfplay_run, start,
                 what);
    else
        snprintf(desc, sizeof desc, "yinsh rounds %s, round %d: runs %s.1/selfplay to %s, %s: %s", r->name, k,
                 r->name, row->selfplay_run, start, what);
    rounds_weights_path(r, k, row->weights);
    NnueTrainRun run = {.description = desc};
    if (nnue_train(&o, &data, &run, &trained, e) || nnue_decode(&net, trained.bytes, trained.len, row->weights, e)) {
        rc = error_set(err, "round %d: the training gives no usable net: %.900s", k, e);
        goto done;
    }
    row->games = data.games;
    row->games_val = data.games_val;
    row->positions = data.n_train;
    row->positions_val = data.n_val;
    const Nnue *old = agent_spec_net(prev);
    for (int v = 0; v < 2; v++) {
        row->loss_before[v] = old ? nnue_data_loss(old, &data, v, false, o.threads) : NAN;
        row->loss_after[v] = nnue_data_loss(net, &data, v, false, o.threads);
    }
    /* a stored match of this round played another net as new (other
     * training options): refused before the file is replaced */
    StoreRun played;
    char match[STORE_NAME_LEN + 16], hex[STORE_HASH_LEN];
    snprintf(match, sizeof match, "%s.%d/new-vs-old", r->name, k);
    snprintf(hex, sizeof hex, "%016" PRIx64, nnue_hash(net));
    int got = store_run_get(store, match, &played, e);
    if (got && got != ERR_NOT_FOUND) {
        rc = error_set(err, "round %d: %.900s", k, e);
        goto done;
    }
    if (!got && played.white_weights[0] && strcmp(played.white_weights, hex)) {
        rc = error_code(err, ERR_EXISTS, "database '%.200s': the run %s played a net of hash %s as new, and this "
                        "training gives %s; the rounds ask for another run under that name", r->where.db, match,
                        played.white_weights, hex);
        goto done;
    }
    store_close(store);
    store = NULL;
    if (nnue_save(row->weights, trained.bytes, trained.len, e)) {
        rc = error_set(err, "round %d: %.900s", k, e);
        goto done;
    }
    rc = 0;
done:
    store_close(store);
    nnue_free(net);
    nnue_trained_free(&trained);
    nnue_data_free(&data);
    free(runs);
    free(names);
    return rc;
}

/* Step 3: the match of W_k against W_{k-1}, A's tally into row. */
static int match_round(const Rounds *r, int k, const AgentSpec *prev, const char *prev_text, const RoundsHooks *h,
                       RoundRow *row, char *err)
{
    AgentSpec next;
    char next_text[SPEC_LEN];
    if (agent_at(r, k, &next, next_text, err)) return -1;
    /* new is A by its role, whatever the names' order says */
    Tournament t = {.gauntlet = true, .as_given = true, .games = 2 * r->pairs, .seed = r->seed,
                    .variant = VARIANT_STANDARD, .opening = OPENING_RINGS, .controls = r->controls};
    snprintf(t.name, sizeof t.name, "%s.%d", r->name, k);
    TournamentResults res = {0};
    Planned run;
    int rc = ERR_FAIL;
    if (tournament_add(&t, "new", next_text, &next, err) || tournament_add(&t, "old", prev_text, prev, err) ||
        tournament_pairings(&t, err))
        goto done;
    tournament_planned(&t, 0, &run);
    if ((rc = run_state(r, &run, err))) goto done;
    snprintf(row->match_run, sizeof row->match_run, "%s", run.name);
    if ((rc = h->play(h->ctx, &run))) goto done;
    if ((rc = tournament_results(&t, &r->where, 0, &res, err) ? ERR_FAIL : 0)) goto done;
    row->tally = res.tally[0];
done:
    tournament_results_free(&res);
    tournament_free(&t);
    agent_spec_release(&next);
    return rc;
}

int rounds_run(const Rounds *r, const RoundsHooks *h, RoundRow *rows, int *nrows, int *best, char *err)
{
    char csv[2 * AGENT_PATH_LEN];
    snprintf(csv, sizeof csv, "%s/%s.csv", r->dir, r->name);
    *nrows = 0;
    *best = 0;
    for (int k = 1; k <= r->rounds; k++) {
        RoundRow *row = &rows[k - 1];
        *row = (RoundRow){.k = k};
        AgentSpec prev;
        char prev_text[SPEC_LEN];
        if (agent_at(r, k - 1, &prev, prev_text, err)) return -1;

        /* 1. self-play with W_{k-1} */
        snprintf(row->selfplay_run, sizeof row->selfplay_run, "%s.%d/selfplay", r->name, k);
        Planned run = {.kind = "selfplay", .name = row->selfplay_run};
        run.plan = (SelfplayPlan){.variant = VARIANT_STANDARD, .white = prev, .black = prev,
                                  .seed = rng_mix(r->seed, rng_hash_text(row->selfplay_run)), .games = r->games,
                                  .opening = OPENING_RINGS, .controls = r->controls};
        int rc = run_state(r, &run, err);
        if (!rc) rc = h->play(h->ctx, &run);

        /* 2. W_k fitted to (or trained on) those games */
        if (!rc) rc = r->net ? train_round(r, k, &prev, row, err) : fit_round(r, k, &prev, row, err);
        if (!rc && h->fitted) h->fitted(h->ctx, row);

        /* 3. W_k against W_{k-1} */
        if (!rc) rc = match_round(r, k, &prev, prev_text, h, row, err);
        agent_spec_release(&prev);
        if (rc) return rc;

        /* 4. the stop rule */
        row->elo = stats_elo_pentanomial(row->tally.penta);
        row->gains = row->elo.lo > 0;
        *nrows = k;
        if (h->judged) h->judged(h->ctx, row);
        if (rounds_csv_write(csv, rows, k, err)) return -1;
        if (!row->gains) break;
        *best = k;
    }
    return 0;
}

/* A figure for the CSV: empty when it is not a number. */
static void csv_num(FILE *f, double v)
{
    if (isnan(v)) fprintf(f, ",");
    else fprintf(f, ",%.6g", v);
}

int rounds_csv_write(const char *path, const RoundRow *rows, int n, char *err)
{
    FileOut o;
    if (file_out_open(&o, path, err)) return -1;
    FILE *f = o.f;
    fprintf(f, "round,selfplay_run,selfplay_games,positions,positions_validation,train_loss_before,train_loss_after,"
               "val_loss_before,val_loss_after,match_run,wins,draws,losses,pairs,elo,elo_lo,elo_hi,gains,weights\n");
    for (int i = 0; i < n; i++) {
        const RoundRow *w = &rows[i];
        fprintf(f, "%d,%s,%llu,%zu,%zu", w->k, w->selfplay_run, (unsigned long long)w->games, w->positions,
                w->positions_val);
        csv_num(f, w->loss_before[0]);
        csv_num(f, w->loss_after[0]);
        csv_num(f, w->loss_before[1]);
        csv_num(f, w->loss_after[1]);
        fprintf(f, ",%s,%llu,%llu,%llu,%llu", w->match_run, (unsigned long long)w->tally.wins,
                (unsigned long long)w->tally.draws, (unsigned long long)w->tally.losses,
                (unsigned long long)w->tally.pairs);
        csv_num(f, w->elo.mid + 0.0);
        csv_num(f, w->elo.lo + 0.0);
        csv_num(f, w->elo.hi + 0.0);
        fprintf(f, ",%s,%s\n", w->gains ? "yes" : "no", w->weights);
    }
    return file_out_commit(&o, err);
}
