#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "engine/base/clock.h"
#include "engine/base/error.h"
#include "engine/base/file.h"
#include "engine/base/rng.h"
#include "eval/nnue.h"
#include "study/plans/loop.h"
#include "study/positions/policy_load.h"
#include "study/positions/train_load.h"

/* ---- the plan -------------------------------------------------------------- */

int loop_default_gate(const AgentSpec *agent, AgentSpec *gate, char *err)
{
    static const char *const OFF[][2] = {{"temp", "0"}, {"tempmoves", "0"}, {"noise", "0"}, {"pcr", "0"}};
    agent_spec_copy(gate, agent);
    for (size_t i = 0; i < sizeof OFF / sizeof *OFF; i++)
        if (agent_spec_set(gate, OFF[i][0], OFF[i][1], err)) {
            agent_spec_release(gate);
            return -1;
        }
    return 0;
}

/* Whether a spec is a PUCT agent (mcts with puct=1). */
static bool is_puct(const AgentSpec *a)
{
    MctsConfig cfg;
    return agent_spec_mcts_config(a, &cfg) && cfg.puct;
}

int loop_check(const Loop *l, char *err)
{
    if (!planned_word(l->name, LOOP_NAME_LEN + 1))
        return error_set(err, "the name '%.40s': 1 to %d " PLANNED_WORD " (it begins the runs' and the files' names)",
                         l->name, LOOP_NAME_LEN);
    char text[SPEC_LEN];
    if (!is_puct(&l->agent))
        return error_set(err, "the agent '%.200s' is not a PUCT agent: give mcts:puct=1,...",
                         agent_spec_format(&l->agent, text));
    if (!is_puct(&l->gate))
        return error_set(err, "the gate agent '%.200s' is not a PUCT agent: give mcts:puct=1,...",
                         agent_spec_format(&l->gate, text));
    if (l->rounds < 1 || l->rounds > LOOP_MAX_ROUNDS || l->games < 1 || l->games > STORE_MAX_GAMES ||
        l->window < 1 || l->window > LOOP_MAX_WINDOW || l->gate_games < 2 || l->gate_games % 2 ||
        l->gate_games > STORE_MAX_GAMES || !(l->lambda >= 0 && l->lambda <= 1))
        return error_set(err, "rounds 1 to %d, games 1 to %d, window 1 to %d, gate games an even number from 2 to %d, "
                         "lambda 0 to 1", LOOP_MAX_ROUNDS, STORE_MAX_GAMES, LOOP_MAX_WINDOW, STORE_MAX_GAMES);
    if (!l->sprt.on) return error_set(err, "the gate needs an SPRT (elo0,elo1,alpha,beta)");
    int room = AGENT_PATH_LEN - (int)strlen(AGENT_NET_PREFIX);
    char last[2 * AGENT_PATH_LEN];
    if (strchr(l->from, ',') || (int)strlen(l->from) >= room)
        return error_set(err, "net 0 '%.200s': a path of fewer than %d characters, without ','", l->from, room);
    if (strchr(l->dir, ',') || snprintf(last, sizeof last, "%s/%s.%d.nnue", l->dir, l->name, l->rounds) >= room)
        return error_set(err, "the folder '%.200s': too long a path for the nets in it (%d characters at most), or "
                         "it holds a ','", l->dir, room - 1);
    struct stat sb;
    if (stat(l->dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return error_set(err, "the folder '%.200s' is not a folder: make it first", l->dir);
    if (access(l->dir, W_OK | X_OK) != 0)
        return error_set(err, "the folder '%.200s': cannot write into it: %s", l->dir, strerror(errno));
    return 0;
}

void loop_net_path(const Loop *l, int k, char *path)
{
    if (k == 0) snprintf(path, AGENT_PATH_LEN, "%s", l->from);
    else snprintf(path, AGENT_PATH_LEN, "%s/%s.%d.nnue", l->dir, l->name, k);
}

/* DIR/NAME.k.EXT into path. */
static void round_file(const Loop *l, int k, const char *ext, char *path, size_t size)
{
    snprintf(path, size, "%s/%s.%d.%s", l->dir, l->name, k, ext);
}

/* A seed of the loop's: mix(seed, hash of "NAME.k/what"). */
static uint64_t round_seed(const Loop *l, int k, const char *what)
{
    char name[STORE_NAME_LEN + 32];
    snprintf(name, sizeof name, "%s.%d/%s", l->name, k, what);
    return rng_mix(l->seed, rng_hash_text(name));
}

/* spec with eval=net:path: its text into text (SPEC_LEN); the spec holds
 * the net (agent_spec_release gives it back). */
static int with_net(const AgentSpec *base, const char *path, int k, AgentSpec *spec, char *text, char *err)
{
    char eval[AGENT_PATH_LEN + 8], e[ERR_LEN];
    snprintf(eval, sizeof eval, AGENT_NET_PREFIX "%s", path);
    agent_spec_copy(spec, base);
    if (agent_spec_set(spec, "eval", eval, e)) {
        agent_spec_release(spec);
        return error_set(err, "round %d: %.900s", k, e);
    }
    if (text) agent_spec_format(spec, text);
    return 0;
}

/* ---- the files of a round ------------------------------------------------------
 *
 * DIR/NAME.k.train and DIR/NAME.k.gate are lines of "key value", the first
 * "plan HEX": a hash of everything the step's output depends on but the
 * stored games (which the planned runs answer for): the options, seeds
 * and nets. A file of another plan is refused, not reused. */

static uint64_t hash_text(uint64_t h, const char *s) { return rng_mix(h, rng_hash_text(s)); }
static uint64_t hash_num(uint64_t h, double v)
{
    char t[64];
    snprintf(t, sizeof t, "%.17g", v);
    return hash_text(h, t);
}

/* The head's options of `yinsh train --policy` the loop passes on, each
 * 0 when off (trunk_lr off without joint, which alone reads it): what the
 * plan adds, the .train file and the table name, in this order. */
enum { HEAD_OPTIONS = 6 };
typedef struct HeadOption {
    const char *key, *opt; /* the .train file's key, the command line's option */
    double v;
    bool flag;             /* an option without a value */
} HeadOption;

static void head_options(const PolicyTrainOptions *p, HeadOption *h)
{
    h[0] = (HeadOption){"child_temp", "--child-temp", p->child_temp, false};
    h[1] = (HeadOption){"child_mix", "--child-mix", p->child_mix, false};
    h[2] = (HeadOption){"reduced_too", "--reduced-too", p->reduced_too, true};
    h[3] = (HeadOption){"joint", "--joint", p->joint, false};
    h[4] = (HeadOption){"trunk_lr", "--trunk-lr", p->joint > 0 ? p->trunk_lr : 0, false};
    h[5] = (HeadOption){"widen", "--widen", p->widen, false};
}

/* The options that are on, as a command line gives them (" --child-temp
 * 1 --reduced-too"; "" when none), into buf. */
static const char *head_options_text(const PolicyTrainOptions *p, char *buf, size_t size)
{
    HeadOption h[HEAD_OPTIONS];
    head_options(p, h);
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < HEAD_OPTIONS; i++) {
        if (!(h[i].v > 0) || n >= size) continue;
        if (h[i].flag) n += (size_t)snprintf(buf + n, size - n, " %s", h[i].opt);
        else n += (size_t)snprintf(buf + n, size - n, " %s %g", h[i].opt, h[i].v);
    }
    return buf;
}

/* The training's plan: the self-play runs it reads, the options, best(k-1). */
static uint64_t train_plan(const Loop *l, int k, const Nnue *best)
{
    char text[SPEC_LEN];
    uint64_t h = hash_text(l->seed, l->name);
    h = hash_num(h, k);
    h = hash_num(h, l->window);
    h = hash_num(h, l->games);
    h = hash_text(h, agent_spec_format(&l->agent, text));
    h = hash_num(h, l->lambda);
    const NnueTrainOptions *v = &l->value;
    h = hash_num(hash_num(hash_num(hash_num(hash_num(h, v->epochs), v->lr), v->batch), v->val_frac), v->min_ply);
    const PolicyTrainOptions *p = &l->policy;
    h = hash_num(hash_num(hash_num(hash_num(h, p->epochs), p->lr), p->batch), p->val_frac);
    /* the head's options that are on (none: the plan of a loop before them) */
    HeadOption ho[HEAD_OPTIONS];
    head_options(p, ho);
    for (int i = 0; i < HEAD_OPTIONS; i++)
        if (ho[i].v > 0) h = hash_num(hash_text(h, ho[i].key), ho[i].v);
    return rng_mix(h, nnue_hash(best));
}

/* The gate's plan: its agent, test, size, seed and the two nets. */
static uint64_t gate_plan(const Loop *l, int k, const Nnue *cand, const Nnue *best)
{
    char text[SPEC_LEN];
    uint64_t h = hash_text(l->seed, l->name);
    h = hash_num(h, k);
    h = hash_text(h, agent_spec_format(&l->gate, text));
    const SprtSpec *s = &l->sprt.spec;
    h = hash_num(hash_num(hash_num(hash_num(hash_num(h, s->elo0), s->elo1), s->alpha), s->beta), s->model);
    h = hash_num(h, l->gate_games);
    return rng_mix(rng_mix(h, nnue_hash(cand)), nnue_hash(best));
}

/* A round file's value of key as a double (NAN when absent). */
static double file_num(const char *text, const char *key)
{
    size_t n = strlen(key);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (!strncmp(p, key, n) && p[n] == ' ') return strtod(p + n + 1, NULL);
    return NAN;
}

static uint64_t file_u64(const char *text, const char *key)
{
    double v = file_num(text, key);
    return isnan(v) ? 0 : (uint64_t)v;
}

/* A .train file of another plan that was made with other head options
 * than the loop's: err names the first that differs, and ERR_EXISTS; 0
 * when they are the same (the plan differs elsewhere). */
static int head_options_changed(const Loop *l, const char *path, char *err)
{
    char *text = NULL, e[ERR_LEN];
    size_t len;
    if (file_read(path, 1 << 16, FILE_READ_TEXT, &text, &len, e)) return 0;
    HeadOption h[HEAD_OPTIONS];
    head_options(&l->policy, h);
    int rc = 0;
    for (int i = 0; i < HEAD_OPTIONS && !rc; i++) {
        double was = file_num(text, h[i].key);
        if (isnan(was)) was = 0;
        if (was == h[i].v) continue;
        char made[64], asks[64];
        if (!(was > 0)) snprintf(made, sizeof made, "without %s", h[i].opt);
        else if (h[i].flag) snprintf(made, sizeof made, "with %s", h[i].opt);
        else snprintf(made, sizeof made, "with %s %g", h[i].opt, was);
        if (!(h[i].v > 0)) snprintf(asks, sizeof asks, "without it");
        else if (h[i].flag) snprintf(asks, sizeof asks, "with %s", h[i].opt);
        else snprintf(asks, sizeof asks, "with %s %g", h[i].opt, h[i].v);
        rc = error_code(err, ERR_EXISTS, "%.200s was made %s, the loop asks %s: a loop trains its rounds with "
                        "the options it began with (give %s as then, or start another loop: another --name)", path,
                        made, asks, h[i].opt);
    }
    free(text);
    return rc;
}

/* Reads a round file: 1 when there and of this plan (*text malloc'ed), 0
 * when absent, or ERR_EXISTS / ERR_FAIL with err. */
static int read_round_file(const char *path, uint64_t plan, char **text, char *err)
{
    size_t len;
    char e[ERR_LEN];
    *text = NULL;
    int rc = file_read(path, 1 << 16, FILE_READ_TEXT, text, &len, e);
    if (rc == ERR_NOT_FOUND) return 0;
    if (rc) return error_set(err, "%s", e);
    char want[32];
    snprintf(want, sizeof want, "plan %016" PRIx64 "\n", plan);
    if (strncmp(*text, want, strlen(want))) {
        free(*text);
        *text = NULL;
        return error_code(err, ERR_EXISTS, "%.200s was made for another plan (its first line is not '%.*s'): the loop "
                          "asks for other options, seeds or nets than the ones it was made with", path,
                          (int)strlen(want) - 1, want);
    }
    return 1;
}

/* What the costs file gets: a line per step, wall and CPU seconds. */
static void cost_line(const Loop *l, int k, const char *step, double wall, double cpu)
{
    char path[2 * AGENT_PATH_LEN];
    snprintf(path, sizeof path, "%s/%s.costs", l->dir, l->name);
    FILE *f = fopen(path, "a");
    if (!f) return; /* the costs are figures, not results: their loss loses nothing */
    fprintf(f, "round %d %s wall %.1f s cpu %.1f s threads %d\n", k, step, wall, cpu, l->where.threads);
    fclose(f);
}

/* ---- step 2: the training -------------------------------------------------------- */

static void train_from_file(const char *t, LoopRow *row)
{
    row->window_from = (int)file_num(t, "window_from");
    row->games = file_u64(t, "games");
    row->value_positions = file_u64(t, "value_positions");
    row->value_positions_val = file_u64(t, "value_positions_val");
    row->value_loss_before = file_num(t, "value_loss_before");
    row->value_loss_after = file_num(t, "value_loss_after");
    row->policy_positions = file_u64(t, "policy_positions");
    row->policy_positions_val = file_u64(t, "policy_positions_val");
    row->policy_reduced = file_u64(t, "policy_reduced");
    row->policy_base = file_num(t, "policy_base");
    row->policy_start = file_num(t, "policy_start");
    row->policy_final = file_num(t, "policy_final");
    row->policy_top1_base = file_num(t, "policy_top1_base");
    row->policy_top1_final = file_num(t, "policy_top1_final");
    row->trained = true;
}

/* A figure as the round files write it: shortest exact, "nan" for none. */
static void put_num(FILE *f, const char *key, double v) { fprintf(f, "%s %.17g\n", key, v); }

/* The candidate of round k: the value net, then the head, from the
 * window's games; its figures into row and DIR/NAME.k.train. */
static int train_round(const Loop *l, int k, const Nnue *best, uint64_t plan, LoopRow *row, char *err)
{
    int from = k - l->window + 1 > 1 ? k - l->window + 1 : 1, nruns = k - from + 1;
    char (*names)[STORE_NAME_LEN] = calloc((size_t)nruns, sizeof *names);
    const char **runs = calloc((size_t)nruns, sizeof *runs);
    StoreSelection sel = {.runs = runs, .nruns = nruns};
    Store *store = NULL;
    NnueData data = {0};
    NnueTrained trained = {0};
    Nnue *value = NULL;
    PolicyData pd = {0};
    uint8_t *bytes = NULL;
    size_t len = 0;
    char e[ERR_LEN], what[NNUE_DESC_MAX + 1], desc[NNUE_DESC_MAX + 1];
    int rc = -1;
    if (!names || !runs) {
        rc = error_set(err, "round %d: out of memory", k);
        goto done;
    }
    for (int j = from; j <= k; j++) {
        snprintf(names[j - from], sizeof names[j - from], "%s.%d/selfplay", l->name, j);
        runs[j - from] = names[j - from];
    }
    /* a. the value net, from best(k-1)'s weights */
    NnueTrainOptions o = l->value;
    o.seed = round_seed(l, k, "value");
    o.threads = l->where.threads;
    o.init = best;
    o.hidden = nnue_hidden(best);
    o.l2 = nnue_l2(best);
    o.linear = true;
    o.patterns = true;
    o.lambda = l->lambda;
    o.root_value = true;
    o.symmetry = true;
    if (store_open(&store, l->where.db, STORE_READ, l->where.busy_ms, e) || train_load(store, &sel, &o, &data, NULL, e)) {
        rc = error_set(err, "round %d: the value net's data: %.900s", k, e);
        goto done;
    }
    nnue_train_describe(what, sizeof what, &o, &data);
    snprintf(desc, sizeof desc, "yinsh loop %s, round %d: value net on runs %s.%d/selfplay to %s.%d/selfplay: %s",
             l->name, k, l->name, from, l->name, k, what);
    NnueTrainRun run = {.description = desc};
    if (nnue_train(&o, &data, &run, &trained, e) || nnue_decode(&value, trained.bytes, trained.len, "the value net", e)) {
        rc = error_set(err, "round %d: the value net: %.900s", k, e);
        goto done;
    }
    row->window_from = from;
    row->games = data.games;
    row->value_positions = data.n_train;
    row->value_positions_val = data.n_val;
    row->value_loss_before = nnue_data_loss(best, &data, true, false, o.threads);
    row->value_loss_after = nnue_data_loss(value, &data, true, false, o.threads);
    nnue_data_free(&data);

    /* b. the direct head on it, from best(k-1)'s direct head */
    PolicyTrainOptions po = l->policy;
    po.seed = round_seed(l, k, "policy");
    po.symmetries = true;
    po.head_from = nnue_policy_direct(best) ? best : NULL;
    po.lambda = l->lambda; /* joint training's value targets: the value net's */
    pd = (PolicyData){.net = value, .width = 2 * nnue_hidden(value), .direct = true};
    if (policy_load(store, &sel, &po, &pd, NULL, NULL, e)) {
        rc = error_set(err, "round %d: the policy head's data: %.900s", k, e);
        goto done;
    }
    char opts[160];
    head_options_text(&po, opts, sizeof opts);
    snprintf(desc, sizeof desc, "yinsh loop %s, round %d: %s%s, %zu positions of runs %s.%d/selfplay to %s.%d/"
             "selfplay, seed %" PRIu64 ", %d epochs; value net: %s", l->name, k,
             po.joint > 0 ? "joint net and direct head" : "direct head", opts, pd.count, l->name, from, l->name, k,
             po.seed, po.epochs, what);
    PolicyEpoch base, start, final;
    if (policy_train(&pd, &po, desc, NULL, NULL, &bytes, &len, &base, &start, &final, e)) {
        rc = error_set(err, "round %d: the policy head: %.900s", k, e);
        goto done;
    }
    row->policy_positions = pd.count - pd.positions_val;
    row->policy_positions_val = pd.positions_val;
    row->policy_reduced = pd.reduced;
    row->policy_base = base.val_loss;
    row->policy_start = start.val_loss;
    row->policy_final = final.val_loss;
    row->policy_top1_base = base.val_top1;
    row->policy_top1_final = final.val_top1;
    store_close(store);
    store = NULL;

    /* the net, then its figures: the step is done once both are there */
    char path[2 * AGENT_PATH_LEN];
    loop_net_path(l, k, row->net);
    if (nnue_save(row->net, bytes, len, e)) {
        rc = error_set(err, "round %d: %.900s", k, e);
        goto done;
    }
    round_file(l, k, "train", path, sizeof path);
    FileOut out;
    if (file_out_open(&out, path, e)) {
        rc = error_set(err, "round %d: %.900s", k, e);
        goto done;
    }
    Nnue *cand = NULL;
    uint64_t hash = nnue_decode(&cand, bytes, len, row->net, e) ? 0 : nnue_hash(cand);
    nnue_free(cand);
    fprintf(out.f, "plan %016" PRIx64 "\nnet %016" PRIx64 "\n", plan, hash);
    HeadOption ho[HEAD_OPTIONS];
    head_options(&po, ho);
    for (int i = 0; i < HEAD_OPTIONS; i++)
        if (ho[i].v > 0) put_num(out.f, ho[i].key, ho[i].v);
    fprintf(out.f, "window_from %d\ngames %" PRIu64 "\nvalue_positions %" PRIu64 "\nvalue_positions_val %" PRIu64 "\n",
            row->window_from, row->games, row->value_positions, row->value_positions_val);
    put_num(out.f, "value_loss_before", row->value_loss_before);
    put_num(out.f, "value_loss_after", row->value_loss_after);
    fprintf(out.f, "policy_positions %" PRIu64 "\npolicy_positions_val %" PRIu64 "\npolicy_reduced %" PRIu64 "\n",
            row->policy_positions, row->policy_positions_val, row->policy_reduced);
    put_num(out.f, "policy_base", row->policy_base);
    put_num(out.f, "policy_start", row->policy_start);
    put_num(out.f, "policy_final", row->policy_final);
    put_num(out.f, "policy_top1_base", row->policy_top1_base);
    put_num(out.f, "policy_top1_final", row->policy_top1_final);
    if (po.child_temp > 0) { /* against the child-value targets */
        put_num(out.f, "policy_child_final", final.val_loss_child);
        put_num(out.f, "policy_child_top1_final", final.val_top1_child);
    }
    if (po.joint > 0) { /* the joint net's value against the head's data's value targets, before and after */
        put_num(out.f, "joint_value_start", start.val_value);
        put_num(out.f, "joint_value_final", final.val_value);
    }
    if (file_out_commit(&out, e)) {
        rc = error_set(err, "round %d: %.900s", k, e);
        goto done;
    }
    row->trained = true;
    rc = 0;
done:
    store_close(store);
    nnue_free(value);
    nnue_trained_free(&trained);
    nnue_data_free(&data);
    policy_data_free(&pd);
    free(bytes);
    free(runs);
    free(names);
    return rc;
}

/* ---- step 3: the gate ------------------------------------------------------------- */

static void gate_from_file(const char *t, LoopRow *row)
{
    row->tally.wins = file_u64(t, "wins");
    row->tally.draws = file_u64(t, "draws");
    row->tally.losses = file_u64(t, "losses");
    row->tally.pairs = file_u64(t, "pairs");
    static const char *const PENTA[5] = {"penta0", "penta1", "penta2", "penta3", "penta4"};
    for (int i = 0; i < 5; i++) row->tally.penta[i] = file_u64(t, PENTA[i]);
    row->llr = file_num(t, "llr");
    row->lower = file_num(t, "lower");
    row->upper = file_num(t, "upper");
    row->verdict = (int)file_num(t, "verdict");
    row->gate_hash = strtoull(strstr(t, "\nhash ") ? strstr(t, "\nhash ") + 6 : "0", NULL, 16);
    row->elo = stats_elo_pentanomial(row->tally.penta);
    row->promoted = row->verdict == 1;
    row->gated = true;
}

typedef struct GateShow {
    const LoopHooks *h;
} GateShow;

static void gate_progress(void *ctx, const MatchTally *t, uint64_t games)
{
    const GateShow *g = ctx;
    if (g->h->gate_progress) g->h->gate_progress(g->h->ctx, t, games);
}

/* The candidate (A) against best(k-1) (B), under the SPRT; its verdict
 * into row and DIR/NAME.k.gate. 1 when interrupted (nothing written). */
static int gate_round(const Loop *l, int k, const char *best_path, uint64_t plan, const LoopHooks *h, LoopRow *row,
                      char *err)
{
    AgentSpec a, b;
    if (with_net(&l->gate, row->net, k, &a, NULL, err)) return -1;
    if (with_net(&l->gate, best_path, k, &b, NULL, err)) {
        agent_spec_release(&a);
        return -1;
    }
    GateShow show = {.h = h};
    MatchPlan mp = {.plan = {.variant = VARIANT_STANDARD, .white = a, .black = b, .seed = round_seed(l, k, "gate"),
                             .games = l->gate_games, .threads = l->where.threads, .opening = OPENING_RANDOM,
                             .opening_actions = 2},
                    .sprt = l->sprt, .progress = gate_progress, .ctx = &show, .interrupt = h->interrupt};
    MatchResult res;
    char e[ERR_LEN];
    int rc = match_run(&mp, NULL, &res, e);
    agent_spec_release(&a);
    agent_spec_release(&b);
    if (rc) return error_set(err, "round %d: the gate: %.900s", k, e);
    bool whole = res.decided_at || res.tally.pairs == l->gate_games / 2;
    if (!whole) return 1; /* interrupted: played again from its first pair */
    row->tally = res.tally;
    row->llr = res.sprt.llr;
    row->lower = res.sprt.lower;
    row->upper = res.sprt.upper;
    row->verdict = res.decided_at ? res.sprt.decision : 0;
    row->gate_hash = res.hash;
    row->elo = stats_elo_pentanomial(row->tally.penta);
    row->promoted = row->verdict == 1;
    char path[2 * AGENT_PATH_LEN];
    round_file(l, k, "gate", path, sizeof path);
    FileOut out;
    if (file_out_open(&out, path, e)) return error_set(err, "round %d: %.900s", k, e);
    fprintf(out.f, "plan %016" PRIx64 "\nverdict %d\n", plan, row->verdict);
    fprintf(out.f, "wins %" PRIu64 "\ndraws %" PRIu64 "\nlosses %" PRIu64 "\npairs %" PRIu64 "\n", row->tally.wins,
            row->tally.draws, row->tally.losses, row->tally.pairs);
    for (int i = 0; i < 5; i++) fprintf(out.f, "penta%d %" PRIu64 "\n", i, row->tally.penta[i]);
    put_num(out.f, "llr", row->llr);
    put_num(out.f, "lower", row->lower);
    put_num(out.f, "upper", row->upper);
    fprintf(out.f, "hash %016" PRIx64 "\n", row->gate_hash);
    if (file_out_commit(&out, e)) return error_set(err, "round %d: %.900s", k, e);
    row->gated = true;
    return 0;
}

/* ---- the rounds --------------------------------------------------------------------- */

static bool stopped(const LoopHooks *h) { return h->interrupt && atomic_load(h->interrupt); }

/* The table, written whole. */
static int write_table(const Loop *l, const LoopRow *rows, int n, int best, char *err)
{
    char path[2 * AGENT_PATH_LEN];
    snprintf(path, sizeof path, "%s/%s.md", l->dir, l->name);
    FileOut out;
    if (file_out_open(&out, path, err)) return -1;
    loop_table_write(out.f, l, rows, n, best);
    return file_out_commit(&out, err);
}

/* A net's content hash, loaded as an agent would load it. */
static int load_net(const char *path, Nnue **net, char *err)
{
    char e[ERR_LEN];
    if (nnue_load(net, path, e)) return error_set(err, "%.900s", e);
    if (!nnue_has_patterns(*net)) {
        nnue_free(*net);
        *net = NULL;
        return error_code(err, ERR_USAGE, "%.200s: the loop's nets have a linear and a pattern part (feature set 3 "
                          "to 5)", path);
    }
    return 0;
}

int loop_run(const Loop *l, const LoopHooks *h, LoopRow *rows, int *best, char *err)
{
    *best = 0;
    int n = 0, rc = 0;
    char best_path[AGENT_PATH_LEN];
    loop_net_path(l, 0, best_path);
    for (int k = 1; k <= l->rounds && !rc; k++) {
        LoopRow *row = &rows[k - 1];
        *row = (LoopRow){.k = k, .best_before = *best, .value_loss_before = NAN, .value_loss_after = NAN,
                         .policy_base = NAN, .policy_start = NAN, .policy_final = NAN, .policy_top1_base = NAN,
                         .policy_top1_final = NAN, .llr = NAN, .reduced_too = l->policy.reduced_too};
        loop_net_path(l, k, row->net);
        Nnue *bnet = NULL;
        if ((rc = load_net(best_path, &bnet, err))) break;

        /* 1. self-play with best(k-1) */
        AgentSpec self;
        double w0 = clock_now(), c0 = clock_process_cpu();
        if ((rc = with_net(&l->agent, best_path, k, &self, NULL, err))) {
            nnue_free(bnet);
            break;
        }
        snprintf(row->selfplay_run, sizeof row->selfplay_run, "%s.%d/selfplay", l->name, k);
        Planned run = {.kind = "selfplay", .name = row->selfplay_run};
        run.plan = (SelfplayPlan){.variant = VARIANT_STANDARD, .white = self, .black = self,
                                  .seed = rng_mix(l->seed, rng_hash_text(row->selfplay_run)), .games = l->games,
                                  .opening = OPENING_NONE, .store_visits = true};
        int refused;
        rc = planned_read(&l->where, &run, 1, &refused, err);
        if (rc == ERR_EXISTS) error_append(err, "; the loop asks for another run under that name");
        bool complete = !rc && run.state == PLANNED_COMPLETE;
        if (!rc && !complete) rc = h->play(h->ctx, &run);
        agent_spec_release(&self);
        if (!rc && stopped(h)) rc = 1;
        if (!rc && !complete) cost_line(l, k, "selfplay", clock_now() - w0, clock_process_cpu() - c0);
        if (!rc && h->step) h->step(h->ctx, row, "selfplay", complete);

        /* 2. the candidate */
        char path[2 * AGENT_PATH_LEN], *text = NULL;
        uint64_t tplan = train_plan(l, k, bnet);
        round_file(l, k, "train", path, sizeof path);
        int there = rc ? 0 : read_round_file(path, tplan, &text, err);
        if (!rc && there == ERR_EXISTS) head_options_changed(l, path, err); /* names the option that changed */
        if (!rc && there < 0) rc = there;
        if (!rc && there == 1) {
            /* the net must be the one its figures are of */
            Nnue *cand = NULL;
            char e[ERR_LEN];
            uint64_t want = strtoull(strstr(text, "\nnet ") ? strstr(text, "\nnet ") + 5 : "0", NULL, 16);
            if (nnue_load(&cand, row->net, e) || nnue_hash(cand) != want) there = 0; /* trained again: the same bytes */
            nnue_free(cand);
            if (there) train_from_file(text, row);
        }
        free(text);
        if (!rc && !there) {
            w0 = clock_now(), c0 = clock_process_cpu();
            rc = train_round(l, k, bnet, tplan, row, err);
            if (!rc) cost_line(l, k, "train", clock_now() - w0, clock_process_cpu() - c0);
        }
        if (!rc && stopped(h)) rc = 1;
        if (!rc && h->step) h->step(h->ctx, row, "train", there == 1);

        /* 3. the gate */
        Nnue *cand = NULL;
        if (!rc) rc = load_net(row->net, &cand, err);
        if (!rc) {
            uint64_t gplan = gate_plan(l, k, cand, bnet);
            round_file(l, k, "gate", path, sizeof path);
            there = read_round_file(path, gplan, &text, err);
            if (there < 0) rc = there;
            else if (there) gate_from_file(text, row);
            free(text);
            if (!rc && !there) {
                w0 = clock_now(), c0 = clock_process_cpu();
                rc = gate_round(l, k, best_path, gplan, h, row, err);
                if (!rc) cost_line(l, k, "gate", clock_now() - w0, clock_process_cpu() - c0);
            }
            if (!rc && h->step) h->step(h->ctx, row, "gate", there == 1);
        }
        nnue_free(cand);
        nnue_free(bnet);
        if (rc) break;
        n = k;
        if (row->promoted) {
            *best = k;
            snprintf(best_path, sizeof best_path, "%s", row->net);
        }
        /* 4. the table */
        if ((rc = write_table(l, rows, n, *best, err))) break;
    }
    return rc;
}

/* A figure for the table into buf: "-" when it is not a number. */
static const char *fig(char *buf, size_t size, const char *fmt, double v)
{
    if (isnan(v)) snprintf(buf, size, "-");
    else snprintf(buf, size, fmt, v);
    return buf;
}

void loop_table_write(FILE *f, const Loop *l, const LoopRow *rows, int n, int best)
{
    char agent[SPEC_LEN], gate[SPEC_LEN];
    fprintf(f, "# Loop %s\n\n", l->name);
    fprintf(f, "Self-play `%s`, %u games a round, window %d round%s, lambda %g (the root value's share of the "
               "value target); gate `%s`, SPRT %g,%g,%g,%g, at most %u games; seed %" PRIu64 "; net 0 `%s`.\n\n",
            agent_spec_format(&l->agent, agent), l->games, l->window, l->window == 1 ? "" : "s", l->lambda,
            agent_spec_format(&l->gate, gate), l->sprt.spec.elo0, l->sprt.spec.elo1, l->sprt.spec.alpha,
            l->sprt.spec.beta, l->gate_games, l->seed, l->from);
    char opts[160];
    if (*head_options_text(&l->policy, opts, sizeof opts))
        fprintf(f, "The head trained with `yinsh train --policy`'s `%s`.\n\n", opts + 1);
    fprintf(f, "| round | played by | games (rounds) | value positions | value log-loss before / after | policy "
               "positions (reduced %s) | policy CE uniform / start / after | top-1 after | gate W-D-L | Elo "
               "(95%%) | SPRT | net |\n", l->policy.reduced_too ? "among them" : "left out");
    fprintf(f, "|--:|--:|--:|--:|---|--:|---|--:|---|---|---|---|\n");
    for (int i = 0; i < n; i++) {
        const LoopRow *r = &rows[i];
        char a[32], b[32], c[32], d[32], e[32], t[32];
        fprintf(f, "| %d | %d | %" PRIu64 " (%d-%d) | %" PRIu64 " | %s / %s | %" PRIu64 " (%" PRIu64 ") | %s / %s / %s | "
                   "%s | %" PRIu64 "-%" PRIu64 "-%" PRIu64 " |",
                r->k, r->best_before, r->games, r->window_from, r->k, r->value_positions,
                fig(a, sizeof a, "%.5f", r->value_loss_before), fig(b, sizeof b, "%.5f", r->value_loss_after),
                r->policy_positions, r->policy_reduced, fig(c, sizeof c, "%.4f", r->policy_base),
                fig(d, sizeof d, "%.4f", r->policy_start), fig(e, sizeof e, "%.4f", r->policy_final),
                fig(t, sizeof t, "%.1f%%", 100 * r->policy_top1_final), r->tally.wins, r->tally.draws,
                r->tally.losses);
        if (r->elo.lo == r->elo.hi) fprintf(f, " %+.1f |", r->elo.mid + 0.0);
        else fprintf(f, " %+.1f (%+.1f to %+.1f) |", r->elo.mid + 0.0, r->elo.lo + 0.0, r->elo.hi + 0.0);
        fprintf(f, " %s after %" PRIu64 " pairs (llr %.2f) | %s.%d.nnue, %s |\n",
                r->verdict > 0 ? "H1" : r->verdict < 0 ? "H0" : "no decision", r->tally.pairs, r->llr, l->name, r->k,
                r->promoted ? "promoted" : "rejected (kept)");
    }
    if (best) fprintf(f, "\nBest: %s.%d.nnue (round %d).\n", l->name, best, best);
    else fprintf(f, "\nBest: net 0, `%s`.\n", l->from);
}

bool loop_writes_file(const char *name, const void *ctx)
{
    const Loop *l = ctx;
    size_t n = strlen(l->name);
    if (strncmp(name, l->name, n) || name[n] != '.') return false;
    if (!strcmp(name + n, ".md") || !strcmp(name + n, ".costs")) return true;
    char *end;
    long k = strtol(name + n + 1, &end, 10);
    return name[n + 1] >= '0' && name[n + 1] <= '9' && k >= 1 && k <= l->rounds &&
           (!strcmp(end, ".nnue") || !strcmp(end, ".train") || !strcmp(end, ".gate"));
}

void loop_step_write(FILE *f, const LoopRow *r, const char *step, int rounds, bool done_before)
{
    const char *again = done_before ? " (done before)" : "";
    if (!strcmp(step, "selfplay")) {
        fprintf(f, "round %d/%d: self-play %s with net %d%s\n", r->k, rounds, r->selfplay_run, r->best_before, again);
    } else if (!strcmp(step, "train")) {
        fprintf(f, "round %d/%d: %s%s: value log-loss %.5f -> %.5f on %" PRIu64 " positions; policy "
                   "cross-entropy %.4f (uniform %.4f) on %" PRIu64 " positions, %" PRIu64 " reduced %s\n",
                r->k, rounds, r->net, again, r->value_loss_before, r->value_loss_after, r->value_positions,
                r->policy_final, r->policy_base, r->policy_positions, r->policy_reduced,
                r->reduced_too ? "among them" : "left out");
    } else {
        fprintf(f, "round %d/%d: gate%s: W %" PRIu64 " D %" PRIu64 " L %" PRIu64 " in %" PRIu64 " pairs, llr %.2f: %s\n",
                r->k, rounds, again, r->tally.wins, r->tally.draws, r->tally.losses, r->tally.pairs, r->llr,
                r->verdict > 0 ? "H1, promoted" : r->verdict < 0 ? "H0, rejected" : "no decision, rejected");
    }
}
