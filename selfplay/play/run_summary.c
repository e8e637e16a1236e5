/* What `yinsh selfplay` prints once a run's games are played
 * (run_summary.h). */
#include <inttypes.h>
#include <stdio.h>
#include "engine/base/error.h"
#include "selfplay/play/run_summary.h"
#include "engine/base/json.h"
#include "engine/base/number.h"
#include "engine/base/parallel.h"
#include "engine/notation.h"
#include "selfplay/play/distribute.h"
#include "selfplay/records/summary_text.h"

void run_resign_print(FILE *f, const ResignRule *rule, const ResignSummary *r, const RecordSummary *s)
{
    char text[96];
    Interval rate = resign_false_rate(r);
    fprintf(f, "resignation  %s: %" PRIu64 " game%s resigned\n", resign_format(rule, text, sizeof text), r->resigned,
            number_plural(r->resigned));
    fprintf(f, "  checked    %" PRIu64 " game%s played out, the rule fired in %" PRIu64 "\n", r->checked,
            number_plural(r->checked), r->fired);
    if (r->fired)
        fprintf(f, "  false      %" PRIu64 " of %" PRIu64 " (%" PRIu64 " drawn): rate %.3f (exact 95%% CI %.3f to %.3f)\n",
                r->wrong, r->fired, r->wrong_draw, rate.mid, rate.lo, rate.hi);
    else
        fprintf(f, "  false      - (no checked game to measure it)\n");
    double saved = resign_saved_actions(r);
    if (r->fired)
        fprintf(f, "  saved      ~%.0f actions (%.1f%% of those played), %.1f actions a resigned game\n", saved,
                s->actions ? 100 * saved / (double)s->actions : 0.0, (double)r->left / (double)r->fired);
    else
        fprintf(f, "  saved      -\n");
}

static void resign_json(Json *j, const ResignSummary *r)
{
    Interval rate = resign_false_rate(r);
    json_open(j, "resign", '{', true);
    json_uint(j, "resigned", r->resigned);
    json_uint(j, "checked", r->checked);
    json_uint(j, "fired", r->fired);
    json_uint(j, "false", r->wrong);
    json_uint(j, "false_drawn", r->wrong_draw);
    json_estimate(j, "false_rate", rate.lo, rate.mid, rate.hi);
    json_uint(j, "actions_left", r->left);
    json_num(j, "actions_saved", resign_saved_actions(r));
    json_close(j);
}

void run_summary_json(Json *j, const Run *run, uint64_t actions_now, double seconds)
{
    json_str(j, "white", run->row.white);
    json_str(j, "black", run->row.black);
    json_u64_text(j, "seed", run->plan.seed);
    json_uint(j, "games_planned", run->plan.games);
    record_summary_json(j, &run->sum);
    char controls[CONTROLS_TEXT_LEN];
    json_str(j, "controls", controls_format(&run->plan.controls, controls));
    if (run->plan.controls.resign.value > 0) resign_json(j, &run->resign);
    json_int(j, "threads", parallel_threads(run->plan.threads));
    json_uint(j, "games_played_now", run->done);
    json_uint(j, "actions_played_now", actions_now);
    json_num(j, "time_s", seconds);
}

void run_open_advice(int rc, const StoreClash *c, char *out, size_t len)
{
    out[0] = '\0';
    if (rc == ERR_REPEAT)
        snprintf(out, len, ": report that run, finish it with `--resume %s`, or add --repeat to play them again as "
                           "repeats that every statistic skips", c->run);
    else if (rc == ERR_EXISTS && c->finished)
        snprintf(out, len, ": choose another --run name");
    else if (rc == ERR_EXISTS)
        snprintf(out, len, " (`--resume %s` finishes it)", c->run);
    else if (rc == ERR_HELD && c->elsewhere)
        snprintf(out, len, ": if that process is gone, add --take-over to take the run over");
}

void run_json_begin(Json *j, FILE *f, const char *cmd, int argc, char **argv, const Run *run, int variant)
{
    json_begin_command(j, f, cmd, argc, argv);
    json_str(j, "run", run->row.name);
    json_str(j, "db", run->store ? run->db : NULL);
    json_str(j, "variant", variant_name(variant));
}

void run_stored_hint(FILE *f, const char *cmd, const char *name, const char *db, uint64_t done, uint64_t stored,
                     uint32_t games, uint32_t shard, uint32_t shards)
{
    char slice[48] = "";
    if (shards) snprintf(slice, sizeof slice, " --shard %u/%u", shard, shards);
    fprintf(f, "yinsh %s: run '%s': %" PRIu64 " game%s stored (%" PRIu64 " of %u); the stored games are kept, "
               "and `yinsh selfplay --resume %s --db %s%s` finishes the %s\n",
            cmd, name, done, number_plural(done), stored, games, name, db, slice, shards ? "shard" : "run");
}

void run_hint(FILE *f, const char *cmd, const Run *run)
{
    if (run->store)
        run_stored_hint(f, cmd, run->row.name, run->db, run->done, run->sum.games, run->row.games, run->shard,
                        run->shards);
}

void run_dist_summary(FILE *f, const char *cmd, const DistStats *st, double seconds)
{
    if (dist_ranks() < 2) return;
    fprintf(f,
            "yinsh %s: %d ranks, %.1f s: rank 0 played %" PRIu64 " game%s, the other ranks %" PRIu64 " (in %" PRIu64
            " message%s, %.1f KiB); receiving them cost rank 0 %.1f us a game\n",
            cmd, dist_ranks(), seconds, st->games_here, number_plural(st->games_here), st->games_received,
            st->messages, number_plural(st->messages), (double)st->bytes / 1024.0,
            st->games_received ? st->recv_s * 1e6 / (double)st->games_received : 0.0);
}

void run_rate_write(FILE *f, const char *cmd, uint64_t actions, double seconds, int threads)
{
    double rate = seconds > 0 ? (double)actions / seconds : 0;
    fprintf(f, "yinsh %s: %.0f actions/s, %.0f a thread (%" PRIu64 " actions in %.1f s on %d thread%s)\n", cmd, rate,
            rate / threads, actions, seconds, threads, number_plural((uint64_t)threads));
}
