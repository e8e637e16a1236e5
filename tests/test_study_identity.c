#define _GNU_SOURCE /* nftw, in test_proc.h */
/* Studies that cannot double count (the identity suite): a game's
 * identity, repeats, which runs a statistic uses, provenance, the match
 * report, the schema's views and the documented queries (docs/schema.md),
 * the reproduce commands run as written. */
#include <fcntl.h>
#include "tests/study_helpers.h"

Test(identity, the_main_job_twice_counts_each_game_once)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "j.db"), *out, *err;
    const char *first[] = {"selfplay", "--games", "30", "--agent", "random", "--seed", "21", "--db", db, "--run",
                           "first", "--quiet", NULL};
    ok(dir, first, NULL);
    const char *report[] = {"report", "--db", db, "--out", path_in(dir, "r1"), "--no-plots", "--quiet", NULL};
    ok(dir, report, NULL);
    char *once = figures(slurp(path_in(dir, "r1/report.md")));
    /* the same games again: refused, naming the run that holds them */
    const char *second[] = {"selfplay", "--games", "30", "--agent", "random", "--seed", "21", "--db", db, "--run",
                            "second", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, second, &out, &err), 1);
    cr_assert(strstr(err, "stored already") && strstr(err, "'first'"), "%s", err);
    /* on purpose: stored as repeats, which the report leaves out and says so */
    const char *repeat[] = {"selfplay", "--games", "40", "--agent", "random", "--seed", "21", "--db", db, "--run",
                            "second", "--repeat", "--quiet", NULL};
    ok(dir, repeat, NULL);
    sqlite3 *h = db_open(db);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM game WHERE repeat = 1"), 30);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM game WHERE repeat = 0"), 40);
    sqlite3_close(h);
    const char *report2[] = {"report", "--db", db, "--runs", "first", "--runs", "second", "--out",
                             path_in(dir, "r2"), "--no-plots", "--quiet", NULL};
    ok(dir, report2, NULL);
    char *md = slurp(path_in(dir, "r2/report.md"));
    cr_assert(strstr(md, "30 repeats left out"), "%.600s", md);
    /* only the 10 new games are added: the report of 'first' plus them */
    cr_assert(strstr(md, "; 40 games"), "%.600s", md);
    /* and the report of the first run alone is what it was */
    const char *report3[] = {"report", "--db", db, "--runs", "first", "--out", path_in(dir, "r3"), "--no-plots",
                             "--quiet", NULL};
    ok(dir, report3, NULL);
    cr_assert_str_eq(figures(slurp(path_in(dir, "r3/report.md"))), once);
    /* tune counts each game once too */
    const char *tune[] = {"tune", "--db", db, "--out", path_in(dir, "w.txt"), NULL};
    cr_assert_eq(yinsh_run(dir, tune, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "data: 40 games") && strstr(out, "30 repeats skipped"), "%s", out);
}

Test(identity, selections_and_the_match_report)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "s.db"), *out;
    const char *sp[] = {"selfplay", "--games", "12", "--agent", "random", "--seed", "1", "--db", db, "--run", "sp",
                        "--quiet", NULL};
    const char *bl[] = {"selfplay", "--games", "10", "--agent", "mcts:sims=5", "--variant", "blitz", "--seed", "2",
                        "--db", db, "--run", "bl", "--quiet", NULL};
    const char *m[] = {"match", "--a", "mcts:sims=20", "--b", "random", "--games", "8", "--seed", "3", "--db", db,
                       "--run", "m", "--quiet", NULL};
    ok(dir, sp, NULL);
    ok(dir, bl, NULL);
    ok(dir, m, &out);
    char *pent = strstr(out, "pentanomial");
    cr_assert(pent);
    /* by default a report is self-play only */
    const char *all[] = {"report", "--db", db, "--out", path_in(dir, "a"), "--no-plots", "--quiet", NULL};
    ok(dir, all, NULL);
    char *md = slurp(path_in(dir, "a/report.md"));
    cr_assert(strstr(md, "; 22 games") && !strstr(md, "`m` ("), "%.800s", md);
    cr_assert(strstr(md, "### Provenance") && strstr(md, "cores"), "%s", md);
    /* an agent, in any spelling, and a variant */
    const char *agent[] = {"report", "--db", db, "--agent", "mcts:sims=5,c=1", "--out", path_in(dir, "b"),
                           "--no-plots", "--quiet", NULL};
    ok(dir, agent, NULL);
    md = slurp(path_in(dir, "b/report.md"));
    cr_assert(strstr(md, "; 10 games") && strstr(md, "`bl` ("), "%.800s", md);
    const char *variant[] = {"report", "--db", db, "--variant", "standard", "--out", path_in(dir, "c"), "--no-plots",
                             "--quiet", NULL};
    ok(dir, variant, NULL);
    cr_assert(strstr(slurp(path_in(dir, "c/report.md")), "; 12 games"));
    /* the match report gives the match's own figures */
    const char *mr[] = {"report", "--db", db, "--kind", "match", "--out", path_in(dir, "d"), "--quiet", NULL};
    ok(dir, mr, NULL);
    md = slurp(path_in(dir, "d/report.md"));
    cr_assert(strstr(md, "# YINSH match report") && strstr(md, "| `m` | standard | `mcts:sims=20,c=1,rollout=random` "
                                                              "| `random` | 4 |"),
              "%s", md);
    /* "pentanomial  a b c d e (...": the same five counts in the report */
    int p[5];
    cr_assert_eq(sscanf(pent, "pentanomial %d %d %d %d %d", &p[0], &p[1], &p[2], &p[3], &p[4]), 5);
    char counts[64];
    snprintf(counts, sizeof counts, "| %d %d %d %d %d |", p[0], p[1], p[2], p[3], p[4]);
    cr_assert(strstr(md, counts), "%s not in %s", counts, md);
    const char *bad[] = {"report", "--db", db, "--kind", "matches", NULL};
    char *err;
    cr_assert_eq(yinsh_run(dir, bad, NULL, &err), 2);
}

/* The views of the schema, and the example queries of docs/schema.md run
 * as written against a small database, each giving rows. */
Test(identity, views_and_documented_queries)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "v.db");
    const char *sp[] = {"selfplay", "--games", "10", "--agent", "mcts:sims=5", "--seed", "1", "--db", db, "--run",
                        "my-run", "--quiet", NULL};
    const char *bl[] = {"selfplay", "--games", "6", "--agent", "random", "--variant", "blitz", "--seed", "2", "--db",
                        db, "--quiet", NULL};
    const char *m[] = {"match", "--a", "mcts:sims=5", "--b", "random", "--games", "4", "--seed", "3", "--db", db,
                       "--run", "my-match", "--quiet", NULL};
    ok(dir, sp, NULL);
    ok(dir, bl, NULL);
    ok(dir, m, NULL);
    sqlite3 *h = db_open(db);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM game_score WHERE white_sims = 5"), 12);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM game_score WHERE white_sims IS NULL"), 8);
    cr_assert_eq(db_int(h, "SELECT stored FROM run_summary WHERE run = 'my-run'"), 10);
    cr_assert_eq(db_int(h, "SELECT (SELECT sum(white_score) FROM game_score WHERE run = 'my-run') = "
                           "(SELECT white_score * stored FROM run_summary WHERE run = 'my-run')"),
                 1);
    /* every ```sql block of docs/schema.md */
    char *doc = slurp(YINSH_SOURCE_DIR "/docs/schema.md");
    int blocks = 0;
    for (char *p = strstr(doc, "```sql\n"); p; p = strstr(p, "```sql\n")) {
        p += 7;
        char *end = strstr(p, "```");
        cr_assert(end);
        char *sql = gc(strndup(p, (size_t)(end - p)));
        /* one statement after another, each must run and give a row */
        for (char *stmt = sql; *stmt;) {
            sqlite3_stmt *st;
            const char *tail;
            cr_assert_eq(sqlite3_prepare_v2(h, stmt, -1, &st, &tail), SQLITE_OK, "%s\n%s", sqlite3_errmsg(h), stmt);
            if (!st) break;
            cr_assert_eq(sqlite3_step(st), SQLITE_ROW, "no row: %s", stmt);
            sqlite3_finalize(st);
            blocks++;
            stmt = (char *)tail;
        }
        p = end + 3;
    }
    cr_assert(blocks >= 5, "%d queries", blocks);
    sqlite3_close(h);
}

/* The report's "How to reproduce" commands run as written from the
 * repository root (the binary standing where the build puts it, here the
 * one under test) and print each run's hash. */
Test(identity, reproduce_commands_run_as_written)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "p.db");
    const char *sp[] = {"selfplay", "--games", "6", "--white", "mcts:sims=8", "--black", "random", "--variant",
                        "blitz", "--seed", "5", "--db", db, "--run", "sp", "--quiet", NULL};
    const char *m[] = {"match", "--a", "mcts:sims=8", "--b", "random", "--games", "4", "--seed", "6", "--db", db,
                       "--run", "m", "--quiet", NULL};
    ok(dir, sp, NULL);
    ok(dir, m, NULL);
    const char *report[] = {"report", "--db", db, "--kind", "all", "--out", path_in(dir, "r"), "--no-plots",
                            "--quiet", NULL};
    ok(dir, report, NULL);
    char *md = slurp(path_in(dir, "r/report.md"));
    char *block = strstr(md, "## How to reproduce");
    cr_assert(block);
    block = strstr(block, "```sh\n");
    cr_assert(block);
    block += 6;
    int commands = 0;
    for (char *line = block; strncmp(line, "```", 3); line = strchr(line, '\n') + 1) {
        char *nl = strchr(line, '\n'), *hash = strstr(line, "hash ");
        cr_assert(nl && hash && hash < nl, "%.200s", line);
        char want[17];
        snprintf(want, sizeof want, "%.16s", hash + 5);
        char *cmd = gc(strndup(line, (size_t)(strstr(line, "   #") - line)));
        cr_assert(!strncmp(cmd, "build/yinsh ", 12), "%s", cmd);
        char script[2048];
        snprintf(script, sizeof script, "cd '%s' && '%s' %s", YINSH_SOURCE_DIR, YINSH_BIN, cmd + 12);
        char *out = path_in(dir, "cmd.out");
        pid_t pid = fork();
        if (pid == 0) {
            int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            dup2(fo, 1);
            execl("/bin/sh", "sh", "-c", script, (char *)NULL);
            _exit(127);
        }
        int st;
        waitpid(pid, &st, 0);
        cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s", script);
        char *text = slurp(out);
        cr_assert(strstr(text, want), "%s\nprinted:\n%s\nwanted hash %s", cmd, text, want);
        commands++;
    }
    cr_assert_eq(commands, 2);
}

/* A study whose games another run holds already fails before playing
 * them, naming that run and what to do. */
Test(identity, a_study_does_not_store_games_twice)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "d.db"), *ini = path_in(dir, "s.ini"), *out, *err;
    const char *other[] = {"selfplay", "--games", "4", "--agent", "random", "--seed", "7", "--db", db, "--run",
                           "other", "--quiet", NULL};
    ok(dir, other, NULL);
    FILE *f = fopen(ini, "w");
    fprintf(f, "[study]\nname = s\ndb = %s\nseed = 7\ngames = 4\nvariants = standard\n[agent r]\nspec = random\n"
               "[report]\nout = %s\nplots = no\n",
            db, path_in(dir, "rep"));
    fclose(f);
    const char *study[] = {"study", ini, "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, study, &out, &err), 1, "%s", err);
    cr_assert(strstr(err, "'other'") && strstr(err, "another database"), "%s", err);
    sqlite3 *h = db_open(db);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM run"), 1);
    sqlite3_close(h);
}
