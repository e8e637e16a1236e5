/* The compact form of a study's games (docs/records.md): `yinsh export
 * --format games` and `yinsh import --format games`, as processes. The
 * round trip: a study's database exported, imported into a new one and
 * exported again gives the same file, the same rows, the same report,
 * and `yinsh study` finds every run complete. A damaged file (an action,
 * a result, a visit count or a prefix hash changed, a file cut short) is
 * refused naming what differs, and nothing is written. */
#define _GNU_SOURCE /* nftw, in test_proc.h */
#include "tests/test_proc.h"


/* A study of two runs in dir/s.db: 30 games of ab:depth=1 from 4 random
 * actions, and 6 of mcts:sims=20 that store their root visits. */
static const char STUDY[] = "[study]\nname = t\ndb = DB\nseed = 3\ngames = 30\nvariants = standard\nvisits = yes\n"
                            "[agent ab1]\nspec = ab:depth=1\nopening = random:4\n"
                            "[agent m]\nspec = mcts:sims=20\ngames = 6\n"
                            "[report]\nout = OUT\nplots = no\n";

/* The study file over database db with its report in out. */
static char *study_file(const char *dir, const char *name, const char *db, const char *out)
{
    char text[1024], *p;
    snprintf(text, sizeof text, "%s", STUDY);
    p = strstr(text, "DB");
    char rest[1024];
    snprintf(rest, sizeof rest, "%s%s", db, p + 2);
    snprintf(p, sizeof text - (size_t)(p - text), "%s", rest);
    p = strstr(text, "OUT");
    snprintf(rest, sizeof rest, "%s%s", out, p + 3);
    snprintf(p, sizeof text - (size_t)(p - text), "%s", rest);
    return write_in(dir, name, text);
}

static void play_study(const char *dir)
{
    char *err;
    study_file(dir, "s.ini", "s.db", "rep");
    cr_assert_eq(yinsh_run(dir, ARGS("study", "s.ini"), NULL, &err), 0, "%s", err);
}

/* Every row of the four tables, local ids left out, reals to 17 digits:
 * one text per database. */
static char *rows(const char *db)
{
    static const char *const sql[] = {
        "SELECT uid, name, command, version, host, seed, variant, white, black, games, threads, started_at, "
        "finished_at, kind, pairs, opening, max_actions, white_weights, black_weights, plan_ident, git_commit, "
        "compiler, machine, controls, visits, repeat_of IS NULL FROM run ORDER BY uid",
        "SELECT r.uid, g.idx, g.seed, g.variant, g.white, g.black, g.result, g.reason, g.actions, g.white_removed, "
        "g.black_removed, g.white_markers, g.black_markers, printf('%.17g', g.duration_ms), g.stored_at, g.ident, "
        "g.repeat FROM game g JOIN run r ON r.id = g.run_id ORDER BY 1, 2",
        "SELECT r.uid, g.idx, a.ply, a.actor, a.state, a.action, a.legal, quote(a.root_visits), "
        "quote(a.chosen_visits), printf('%.17g', a.value), a.time_us, quote(a.clock_us), printf('%.17g', "
        "a.root_value) FROM action a JOIN game g ON g.id = a.game_id JOIN run r ON r.id = g.run_id ORDER BY 1, 2, 3",
        ("SELECT r.uid, g.idx, v.ply, v.action, v.visits FROM action_visits v JOIN game g ON g.id = v.game_id "
         "JOIN run r ON r.id = g.run_id ORDER BY 1, 2, 3, 4"),
    };
    sqlite3 *h = db_open(db);
    size_t cap = 1 << 20, len = 0;
    char *out = gc(malloc(cap));
    out[0] = 0;
    for (size_t q = 0; q < sizeof sql / sizeof *sql; q++) {
        sqlite3_stmt *st;
        cr_assert_eq(sqlite3_prepare_v2(h, sql[q], -1, &st, NULL), SQLITE_OK, "%s", sqlite3_errmsg(h));
        while (sqlite3_step(st) == SQLITE_ROW) {
            for (int c = 0; c < sqlite3_column_count(st); c++) {
                const char *t = (const char *)sqlite3_column_text(st, c);
                size_t n = strlen(t ? t : "NULL") + 2;
                if (len + n >= cap) {
                    proc_garbage[proc_ngarbage - 1] = out = realloc(out, cap *= 2);
                    cr_assert(out);
                }
                len += (size_t)sprintf(out + len, "%s%c", t ? t : "NULL", c + 1 < sqlite3_column_count(st) ? '|' : '\n');
            }
        }
        sqlite3_finalize(st);
    }
    sqlite3_close(h);
    return out;
}

/* The report without its third line, which names the command and the database. */
static const char *report_body(const char *text)
{
    const char *p = text;
    for (int i = 0; i < 3 && p; i++) p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
    cr_assert(p && strstr(text, "Made by"), "%s", text);
    return p;
}

Test(games, round_trip)
{
    char *dir = tmpdir_new(), *out, *err;
    play_study(dir);
    cr_assert_eq(yinsh_run(dir, ARGS("export", "--format", "games", "--db", "s.db", "--out", "s.games"), NULL, &err),
                 0, "%s", err);
    cr_expect(strstr(err, "wrote 2 runs, 36 games to s.games"), "%s", err);
    char *file = slurp(path_in(dir, "s.games"));
    cr_expect(!strncmp(file, "yinsh-games 1\nrun\nuid ", 22), "%s", file);
    cr_expect(strstr(file, "\nend 30 ") && strstr(file, "\nend 6 ") && strstr(file, "\nruns 2\n"), "%s", file);
    cr_expect(strstr(file, " | "), "the mcts run's root visits: %.300s", file);

    cr_assert_eq(yinsh_run(dir, ARGS("import", "--format", "games", "s.games", "--db", "new.db"), &out, &err), 0, "%s",
                 err);
    cr_expect(strstr(out, "run t-standard-ab1: 30 games imported, 0 held already (identical); 30/30 games, finished"),
              "%s", out);
    cr_expect(strstr(out, "s.games: 2 runs, 36 games: every action legal, every result and hash as the file says"),
              "%s", out);
    /* the same rows, the same file again */
    cr_expect_str_eq(rows(path_in(dir, "new.db")), rows(path_in(dir, "s.db")));
    cr_assert_eq(yinsh_run(dir, ARGS("export", "--format", "games", "--db", "new.db", "--out", "again.games"), NULL,
                           &err),
                 0, "%s", err);
    cr_expect_str_eq(slurp(path_in(dir, "again.games")), file);

    /* the study finds every run complete, and its report is the same */
    study_file(dir, "new.ini", "new.db", "rep2");
    cr_assert_eq(yinsh_run(dir, ARGS("study", "new.ini", "--check"), &out, &err), 0, "%s", err);
    cr_expect(strstr(out, "study t: 2 of 2 runs complete, 36/36 games\n"), "%s", out);
    cr_expect(!strstr(out, "missing") && !strstr(out, "unfinished"), "%s", out);
    cr_assert_eq(yinsh_run(dir, ARGS("study", "new.ini"), &out, &err), 0, "%s", err);
    cr_expect_str_eq(report_body(slurp(path_in(dir, "rep2/report.md"))),
                     report_body(slurp(path_in(dir, "rep/report.md"))));

    /* imported again: the runs are there, the same games, skipped */
    cr_assert_eq(yinsh_run(dir, ARGS("import", "--format", "games", "s.games", "--db", "new.db"), &out, &err), 0, "%s",
                 err);
    cr_expect(strstr(out, "run t-standard-m: 0 games imported, 6 held already (identical)"), "%s", out);
    cr_expect_str_eq(rows(path_in(dir, "new.db")), rows(path_in(dir, "s.db")));
}

/* The exported file with the first match of `from` on the first line
 * that starts with `line` replaced by `to`, as dir/name. */
static char *damaged(const char *dir, const char *text, const char *line, const char *from, const char *to,
                     const char *name)
{
    const char *l = strstr(text, line);
    cr_assert(l, "no line %s", line);
    const char *at = strstr(l, from), *end = strchr(l, '\n');
    cr_assert(at && at < end, "no %s on the line %s", from, line);
    char *copy = gc(malloc(strlen(text) + strlen(to) + 1));
    sprintf(copy, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    return write_in(dir, name, copy);
}

/* The import of name into dir/x.db refused with a message holding why,
 * and nothing written (x.db holds its one run "keep", or is not made). */
static void refused(const char *dir, const char *name, const char *why, bool db_exists)
{
    char *err;
    cr_expect_eq(yinsh_run(dir, ARGS("import", "--format", "games", name, "--db", "x.db"), NULL, &err), 1, "%s", err);
    cr_expect(strstr(err, why), "%s: wanted '%s' in: %s", name, why, err);
    cr_expect(strstr(err, "nothing was written to 'x.db'"), "%s", err);
    if (!db_exists) {
        cr_expect(!file_exists(path_in(dir, "x.db")), "%s: x.db made", name);
        return;
    }
    sqlite3 *h = db_open(path_in(dir, "x.db"));
    cr_expect_eq(db_int(h, "SELECT count(*) FROM run"), 1, "%s", name);
    cr_expect_eq(db_int(h, "SELECT count(*) FROM game"), 3, "%s", name);
    sqlite3_close(h);
}

Test(games, damaged_refused)
{
    char *dir = tmpdir_new(), *err;
    play_study(dir);
    cr_assert_eq(yinsh_run(dir, ARGS("export", "--format", "games", "--db", "s.db", "--out", "s.games"), NULL, &err),
                 0, "%s", err);
    char *file = slurp(path_in(dir, "s.games"));
    /* 250 random games: hash lines before games 100 and 200 */
    cr_assert_eq(yinsh_run(dir, ARGS("selfplay", "--games", "250", "--agent", "random", "--seed", "9", "--db", "r.db",
                                      "--run", "rnd", "--quiet"),
                           NULL, &err),
                 0, "%s", err);
    cr_assert_eq(yinsh_run(dir, ARGS("export", "--format", "games", "--db", "r.db", "--out", "r.games"), NULL, &err),
                 0, "%s", err);
    char *long_run = slurp(path_in(dir, "r.games"));
    cr_assert(strstr(long_run, "\nhash 100 ") && strstr(long_run, "\nhash 200 ") && !strstr(long_run, "\nhash 300"),
              "%s", long_run);

    for (int exists = 0; exists < 2; exists++) {
        if (exists)
            cr_assert_eq(yinsh_run(dir, ARGS("selfplay", "--games", "3", "--agent", "random", "--seed", "1", "--db",
                                              "x.db", "--run", "keep", "--quiet"),
                                   NULL, &err),
                         0, "%s", err);
        /* an action that is not legal where it stands: game 3's first */
        const char *g3 = strstr(file, "\ngame 3 ") + 1;
        int skip = 0;
        sscanf(g3, "game 3 %*s %*s %*s %*s %*s %n", &skip);
        cr_assert(skip > 0);
        char *bad = gc(malloc(strlen(file) + 8));
        sprintf(bad, "%.*sa1%s", (int)(g3 + skip - file), file, strchr(g3 + skip, ','));
        write_in(dir, "action", bad);
        refused(dir, "action", "(run 't-standard-ab1', game 3): action 0 'a1' is not legal where it stands", exists);
        /* a result changed */
        char result[16], from[20], to[20];
        cr_assert_eq(sscanf(strstr(file, "\ngame 7 ") + 1, "game 7 %*s %15s", result), 1);
        snprintf(from, sizeof from, " %s ", result);
        snprintf(to, sizeof to, " %s ", strcmp(result, "draw") ? "draw" : "white");
        refused(dir, damaged(dir, file, "game 7 ", from, to, "result"),
                "(run 't-standard-ab1', game 7): the stored result (", exists);
        /* a visit count changed: the run's hash */
        const char *g0 = strstr(file, "\ngame 0 ") + 1, *fig = strstr(g0, ",1,0.");
        cr_assert(fig && fig < strchr(g0, '\n'), "an ab action with chosen_visits 1: %.300s", g0);
        refused(dir, damaged(dir, file, "game 0 ", ",1,0.", ",2,0.", "visits"),
                "(run 't-standard-ab1'): the run's games hash to ", exists);
        /* the run's variant or seed changed, where no game tells (none swapped):
         * the run's plan identity is not its columns' */
        refused(dir, damaged(dir, file, "variant ", "standard", "standard+swap", "variant"),
                "run 't-standard-ab1': its plan_ident ", exists);
        refused(dir, damaged(dir, file, "seed ", "seed ", "seed 1", "seed"), "were changed", exists);
        /* a prefix hash changed */
        char digit[11], other[11];
        snprintf(digit, sizeof digit, "hash 200 %c", strstr(long_run, "\nhash 200 ")[10]);
        snprintf(other, sizeof other, "hash 200 %c", digit[9] == '0' ? '1' : '0');
        refused(dir, damaged(dir, long_run, "hash 200 ", digit, other, "prefix"),
                "(run 'rnd'): the games before 200 hash to ", exists);
        /* cut short: in a line, and between lines */
        char *cut = gc(strdup(file));
        cut[strlen(cut) / 2] = 0;
        write_in(dir, "cut", cut);
        refused(dir, "cut", "a truncated file?", exists);
        char *nl = strrchr(cut, '\n');
        nl[1] = 0;
        write_in(dir, "cut2", cut);
        refused(dir, "cut2", "the file ends before its last line ('runs N'): a truncated file?", exists);
    }
}

Test(games, outputs_and_inputs)
{
    char *dir = tmpdir_new(), *err;
    play_study(dir);
    cr_assert(mkdir(path_in(dir, "folder"), 0777) == 0);
    cr_expect_eq(yinsh_run(dir, ARGS("export", "--format", "games", "--db", "s.db", "--out", "folder"), NULL, &err), 2);
    cr_expect(strstr(err, "--out 'folder' is a directory: --format games writes one file"), "%s", err);
    cr_expect_eq(yinsh_run(dir, ARGS("export", "--format", "games", "--db", "s.db", "--out", "s.db"), NULL, &err), 2);
    cr_expect(strstr(err, "is the same file as --db"), "%s", err);
    char *out;
    cr_expect_eq(yinsh_run(dir, ARGS("export", "--format", "games", "--db", "s.db", "--run", "nope"), &out, &err), 1);
    cr_expect(strstr(err, "nope"), "%s", err);
    cr_expect_str_eq(out, "", "nothing written for a run that is not there");

    /* one run of two, to standard output; a gzip'd file is named as such */
    cr_assert_eq(yinsh_run(dir, ARGS("export", "--format", "games", "--db", "s.db", "--run", "t-standard-m"), &out,
                           &err),
                 0, "%s", err);
    cr_expect(strstr(out, "\nname t-standard-m\n") && !strstr(out, "t-standard-ab1") && strstr(out, "\nruns 1\n"),
              "%s", out);
    write_in(dir, "z.games.gz", "\x1f\x8b\x08");
    cr_expect_eq(yinsh_run(dir, ARGS("import", "--format", "games", "z.games.gz", "--db", "x.db"), NULL, &err), 1);
    cr_expect(strstr(err, "is compressed (gzip): read it through gzip, `gzip -dc FILE.gz |"), "%s", err);
    cr_expect(!file_exists(path_in(dir, "x.db")));
}
