/* What `yinsh selfplay` prints once a run's games are played
 * (run_summary.h). */
#include <inttypes.h>
#include <stdio.h>
#include "selfplay/play/run_summary.h"
#include "engine/base/json.h"
#include "engine/base/number.h"
#include "engine/base/parallel.h"
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
