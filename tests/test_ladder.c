#define _GNU_SOURCE /* nftw (test_proc.h) */
/* A study's strength ladder (docs/study.md, [ladder]): the neighbour
 * matches of its levels, each level against the one below in
 * colour-swapped pairs, after the self-play runs, named
 * STUDY-VARIANT-A-vs-B and seeded from the study's seed and the name, so
 * that a level added moves no other run; played, resumed or skipped as
 * the self-play runs are; each stored command reproduces its run; a
 * mistake in the section names its line and stores nothing. */
#include "tests/test_proc.h"

static const char *STUDY = "[study]\nname = l\ndb = %s\nseed = 5\nvariants = standard, blitz\ngames = 4\n"
                           "opening = random:4\n"
                           "[agent r]\nspec = random\n[agent m]\nspec = mcts:sims=20\n[agent a]\nspec = ab:depth=1\n"
                           "%s"
                           "[report]\nout = %s/rep\nplots = no\n";

static char *study_file(const char *dir, const char *name, const char *db, const char *ladder)
{
    char text[2048];
    snprintf(text, sizeof text, STUDY, db, ladder, dir);
    return write_in(dir, name, text);
}

/* The actions of every game of a run, in order. */
static char *actions_of(const char *db, const char *run)
{
    sqlite3 *h = db_open(db);
    char sql[512];
    snprintf(sql, sizeof sql,
             "SELECT coalesce(group_concat(action, ' '), '') FROM (SELECT a.action FROM action a JOIN game g ON "
             "g.id = a.game_id JOIN run ON run.id = g.run_id WHERE run.name = '%s' ORDER BY g.idx, a.ply)", run);
    char *t = db_text(h, sql);
    sqlite3_close(h);
    return t;
}

Test(ladder, neighbour_matches_follow_the_self_play_runs)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "l.db"), *err;
    char *file = study_file(dir, "l.ini", db, "[ladder]\nlevels = r, m, a\ngames = 6\n");
    const char *run[] = {"study", file, "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, run, NULL, &err), 0, "%s", err);
    sqlite3 *h = db_open(db);
    cr_expect_eq(db_int(h, "SELECT count(*) FROM run WHERE kind = 'selfplay'"), 6);
    cr_expect_eq(db_int(h, "SELECT count(*) FROM run WHERE kind = 'match' AND pairs AND games = 6 AND opening = "
                           "'random:4' AND finished_at IS NOT NULL"),
                 4);
    cr_expect_str_eq(db_text(h, "SELECT group_concat(name, ' ') FROM (SELECT name FROM run WHERE kind = 'match' "
                                "ORDER BY id)"),
                     "l-standard-m-vs-r l-standard-a-vs-m l-blitz-m-vs-r l-blitz-a-vs-m");
    cr_expect_str_eq(db_text(h, "SELECT white || ' / ' || black FROM run WHERE name = 'l-blitz-a-vs-m'"),
                     "ab:depth=1,tt=16 / mcts:sims=20,c=1,rollout=random");
    /* self-play seeds as before: seed + k */
    cr_expect_eq(db_int(h, "SELECT seed FROM run WHERE name = 'l-blitz-a'"), 10);
    char *command = db_text(h, "SELECT command FROM run WHERE name = 'l-standard-a-vs-m'");
    long long seed = db_int(h, "SELECT seed FROM run WHERE name = 'l-standard-a-vs-m'");
    sqlite3_close(h);

    /* the stored command plays the same games */
    char *db2 = path_in(dir, "again.db"), seed_text[32];
    snprintf(seed_text, sizeof seed_text, "%llu", (unsigned long long)seed);
    cr_expect(strstr(command, "yinsh match --a ab:depth=1 --b mcts:sims=20 --games 6 --variant standard --seed"),
              "%s", command);
    const char *again[] = {"match", "--a", "ab:depth=1", "--b", "mcts:sims=20", "--games", "6", "--variant",
                           "standard", "--seed", seed_text, "--run", "l-standard-a-vs-m", "--db", db2, "--opening",
                           "random:4", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, again, NULL, &err), 0, "%s", err);
    cr_expect_str_eq(actions_of(db2, "l-standard-a-vs-m"), actions_of(db, "l-standard-a-vs-m"));

    /* run again: nothing to play */
    char *before = actions_of(db, "l-blitz-m-vs-r");
    cr_assert_eq(yinsh_run(dir, run, NULL, &err), 0, "%s", err);
    cr_expect_str_eq(actions_of(db, "l-blitz-m-vs-r"), before);

    /* a level added on top: the runs stored keep their names and seeds, one more match each variant */
    char *more = study_file(dir, "more.ini", db, "[ladder]\nlevels = r, m, a, a2\ngames = 6\n[agent a2]\nspec = "
                                                 "ab:depth=2\n");
    const char *check[] = {"study", more, "--check", NULL};
    char *out;
    cr_assert_eq(yinsh_run(dir, check, &out, &err), 0, "%s", err);
    cr_expect(strstr(out, "l-standard-a2-vs-a"), "%s", out);
    cr_expect(strstr(out, "l-standard-a-vs-m"), "%s", out);
    const char *after[] = {"study", more, "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, after, NULL, &err), 0, "%s", err);
    cr_expect_str_eq(actions_of(db, "l-blitz-m-vs-r"), before);
    h = db_open(db);
    cr_expect_eq(db_int(h, "SELECT count(*) FROM run WHERE kind = 'match'"), 6);
    sqlite3_close(h);
}

Test(ladder, a_mistake_names_its_line_and_stores_nothing)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "bad.db"), *err;
    static const struct {
        const char *section, *says;
    } BAD[] = {
        {"[ladder]\nlevels = r, x\ngames = 4\n", "level 'x' is no agent"},
        {"[ladder]\nlevels = r, m, r\ngames = 4\n", "listed twice"},
        {"[ladder]\nlevels = r\ngames = 4\n", "at least two levels"},
        {"[ladder]\nlevels = r, m\ngames = 5\n", "even number"},
        {"[ladder]\nlevels = r, m\n", "needs games"},
        {"[ladder]\ngames = 4\n", "needs levels"},
        {"[ladder]\nlevels = r, m\ngames = 4\nsize = 3\n", "unknown key 'size'"},
        {"[ladder]\nlevels = r, m\ngames = 4\nopening = random:0\n", "opening"},
        {"[ladder x]\nlevels = r, m\ngames = 4\n", "takes no label"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof *BAD; i++) {
        char *file = study_file(dir, "bad.ini", db, BAD[i].section);
        const char *run[] = {"study", file, NULL};
        cr_expect_eq(yinsh_run(dir, run, NULL, &err), 2, "%s: %s", BAD[i].section, err);
        cr_expect(strstr(err, "bad.ini:1") && strstr(err, BAD[i].says), "%s: %s", BAD[i].section, err);
        cr_expect(!file_exists(db), "%s: something was stored", BAD[i].section);
    }
}
