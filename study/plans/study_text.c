/* What `yinsh study` says of a study's runs (study_text.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "study/plans/study_text.h"
#include "engine/base/shell_words.h"
#include "engine/notation.h"
#include "engine/base/number.h"
#include "selfplay/play/provenance.h"

char *study_run_command(const StudyRun *r, const char *db, const char *shard)
{
    char games[16], seed[24], opening[32];
    snprintf(games, sizeof games, "%u", r->plan.games);
    snprintf(seed, sizeof seed, "%" PRIu64, r->plan.seed);
    opening_format(r->plan.opening, r->plan.opening_actions, opening, sizeof opening);
    if (!strcmp(r->kind, "match")) {
        char *argv[] = {"match", "--a", (char *)r->spec, "--b", (char *)r->spec_b, "--games", games, "--variant",
                        (char *)variant_name(r->plan.variant), "--seed", seed, "--run", (char *)r->name, "--db",
                        (char *)db, "--opening", opening, "--shard", (char *)shard};
        return shell_join("yinsh", sizeof argv / sizeof *argv - (shard ? 0 : 2), argv);
    }
    char *argv[18] = {"selfplay", "--games", games, "--variant", (char *)variant_name(r->plan.variant),
                      "--agent", (char *)r->spec, "--seed", seed, "--run", (char *)r->name, "--db", (char *)db};
    int argc = 13;
    /* the opening only when there is one: older studies' commands stay as they were */
    if (r->plan.opening != OPENING_NONE) {
        argv[argc++] = "--opening";
        argv[argc++] = opening;
    }
    if (shard) {
        argv[argc++] = "--shard";
        argv[argc++] = (char *)shard;
    }
    return shell_join("yinsh", argc, argv);
}

void study_plan_print(FILE *f, const Study *s, const Planned *runs, uint32_t shard, uint32_t shards)
{
    /* each column as wide as its widest entry; the agents, the widest, last */
    int wname = (int)strlen("run"), wvariant = (int)strlen("variant"), wgames = (int)strlen("games"),
        wseed = (int)strlen("seed");
    uint64_t stored = 0, planned = 0;
    int complete = 0;
    for (int i = 0; i < s->nruns; i++) {
        const StudyRun *r = &s->runs[i];
        uint32_t share = run_shard_games(r->plan.pairs, r->plan.games, shard, shards);
        int name = (int)strlen(r->name), variant = (int)strlen(variant_name(r->plan.variant)),
            games = snprintf(NULL, 0, "%u/%u", runs[i].stored, share),
            seed = snprintf(NULL, 0, "%" PRIu64, r->plan.seed);
        if (name > wname) wname = name;
        if (variant > wvariant) wvariant = variant;
        if (games > wgames) wgames = games;
        if (seed > wseed) wseed = seed;
    }
    fprintf(f, "%-*s  %-*s  %-10s  %*s  %*s  %s\n", wname, "run", wvariant, "variant", "state", wgames, "games", wseed,
           "seed", "agent");
    for (int i = 0; i < s->nruns; i++) {
        const StudyRun *r = &s->runs[i];
        uint32_t share = run_shard_games(r->plan.pairs, r->plan.games, shard, shards);
        PlannedState state = runs[i].state;
        if (shards) state = runs[i].stored >= share ? PLANNED_COMPLETE : state;
        char agents[2 * SPEC_LEN + 8], games[32];
        if (!strcmp(r->kind, "match")) snprintf(agents, sizeof agents, "%s vs %s", r->spec, r->spec_b);
        else snprintf(agents, sizeof agents, "%s", r->spec);
        snprintf(games, sizeof games, "%u/%u", runs[i].stored, share);
        fprintf(f, "%-*s  %-*s  %-10s  %*s  %*" PRIu64 "  %s\n", wname, r->name, wvariant, variant_name(r->plan.variant),
               planned_state_name(state), wgames, games, wseed, r->plan.seed, agents);
        stored += runs[i].stored;
        planned += share;
        complete += state == PLANNED_COMPLETE;
    }
    if (shards)
        fprintf(f, "shard %u/%u: %d of %d runs complete, %" PRIu64 "/%" PRIu64 " games\n", shard, shards, complete,
               s->nruns, stored, planned);
    else
        fprintf(f, "study %s: %d of %d runs complete, %" PRIu64 "/%" PRIu64 " games\n", s->name, complete, s->nruns, stored,
               planned);
}


bool study_build_check(FILE *f, const char *cmd, const Study *s, const Planned *runs, bool allow)
{
    int to_play = 0;
    for (int i = 0; i < s->nruns; i++) to_play += runs[i].state != PLANNED_COMPLETE;
    if (!to_play || provenance_committed(YINSH_GIT_COMMIT)) return true;
    const char *built = strcmp(YINSH_GIT_COMMIT, "unknown") ? "a work tree with changes not committed"
                                                           : "no git checkout";
    if (allow) {
        fprintf(f, "yinsh %s: this yinsh was built from %s (commit %s): playing anyway, as told; each run names it\n",
                cmd, built, YINSH_GIT_COMMIT);
        return true;
    }
    fprintf(f,
            "yinsh %s: this yinsh was built from %s (commit %s), and %d run%s of study %s would be played by it: a "
            "study's games are played by committed code. Commit, rebuild and run again, or add --allow-dirty to play "
            "anyway (each run names the build). Nothing was stored\n",
            cmd, built, YINSH_GIT_COMMIT, to_play, number_plural((uint64_t)to_play), s->name);
    return false;
}
