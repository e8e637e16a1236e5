#define _GNU_SOURCE /* nftw */
/* Tournaments and opening books: the pairings of a round robin and a
 * gauntlet, a tournament killed with -9 and run again equals one never
 * stopped, a complete one only prints its list, the rating list's anchor
 * and its refusal when a participant won everything, bad command lines;
 * a book's mistakes named by line, a match from a book (both games of a
 * pair start with the pair's opening), a resume with another book
 * refused. */
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include "selfplay/stats/bt_bounds.h"
#include "selfplay/play/book.h"
#include "engine/notation.h"
#include "engine/base/rng.h"
#include "tests/test_proc.h"

/* Every stored game, run by run, with its result and actions: equal dumps,
 * equal games. */
static char *games_dump(const char *path)
{
    sqlite3 *db = db_open(path);
    char *s = db_text(db, "SELECT group_concat(line, char(10)) FROM (SELECT r.name || ' ' || g.idx || ' ' || "
                          "g.result || ' ' || g.reason || ' ' || (SELECT group_concat(a.action || '/' || "
                          "coalesce(a.root_visits, '') || '/' || coalesce(a.chosen_visits, ''), ' ') FROM "
                          "(SELECT * FROM action WHERE game_id = g.id ORDER BY ply) a) AS line FROM game g JOIN run r "
                          "ON r.id = g.run_id ORDER BY r.name, g.idx)");
    sqlite3_close(db);
    return s;
}

#define PLAYERS "--p", "rnd=random", "--p", "m5=mcts:sims=5", "--p", "m20=mcts:sims=20"

Test(tournament, round_robin_and_gauntlet_pairings)
{
    char *dir = tmpdir_new(), *out, *err;
    const char *rr[] = {"tournament", PLAYERS, "--games", "4", "--name", "rr", "--db", "t.db", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, rr, &out, &err), 0, "%s", err);
    const char *gt[] = {"tournament", PLAYERS, "--games", "6", "--name", "g", "--gauntlet", "--db", "t.db", "--quiet",
                        NULL};
    cr_assert_eq(yinsh_run(dir, gt, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "gauntlet of 3 participants, 2 pairings of 6 games"), "%s", out);
    sqlite3 *db = db_open(path_in(dir, "t.db"));
    cr_assert_str_eq(db_text(db, "SELECT group_concat(name || ':' || white || ':' || black || ':' || games || ':' || "
                                 "kind || ':' || pairs || ':' || opening, ' ') FROM (SELECT * FROM run ORDER BY id)"),
                     /* A and B in the names' order: m5, m20, rnd (docs/tournament.md) */
                     "rr/m5-vs-rnd:mcts:sims=5,c=1,rollout=random:random:4:match:1:rings "
                     "rr/m20-vs-rnd:mcts:sims=20,c=1,rollout=random:random:4:match:1:rings "
                     "rr/m5-vs-m20:mcts:sims=5,c=1,rollout=random:mcts:sims=20,c=1,rollout=random:4:match:1:rings "
                     "g/m5-vs-rnd:mcts:sims=5,c=1,rollout=random:random:6:match:1:rings "
                     "g/m20-vs-rnd:mcts:sims=20,c=1,rollout=random:random:6:match:1:rings");
    cr_assert_eq(db_int(db, "SELECT count(*) FROM game"), 3 * 4 + 2 * 6);
    cr_assert_eq(db_int(db, "SELECT count(*) FROM run WHERE finished_at IS NULL"), 0);
    /* the pairings' seeds differ (each from the tournament seed and its name) */
    cr_assert_eq(db_int(db, "SELECT count(DISTINCT seed) FROM run"), 5);
    sqlite3_close(db);
    /* every participant of the gauntlet played 6 games, but the first 12 */
    cr_assert(strstr(out, "pairwise"), "%s", out);
    cr_assert(strstr(out, "g/m5-vs-rnd") && strstr(out, "g/m20-vs-rnd") && !strstr(out, "g/m5-vs-m20"), "%s", out);
}

/* Long enough to be killed midway on two threads. */
#define KILLABLE                                                                                             \
    "tournament", "--p", "rnd=random", "--p", "m100=mcts:sims=100", "--p", "m300=mcts:sims=300", "--games", "24", \
        "--name", "k", "--seed", "7", "--db", "k.db"
enum { KILLABLE_GAMES = 3 * 24 };

Test(tournament, killed_and_run_again_equals_never_stopped)
{
    char *dir = tmpdir_new(), *out, *err;
    const char *first[] = {KILLABLE, "--threads", "2", "--quiet", NULL};
    pid_t pid = yinsh_start(dir, first);
    char *db = path_in(dir, "k.db");
    long long stored = games_awaited(db, 31, 12);
    cr_assert_gt(stored, 30, "no MCTS game stored");
    kill(pid, SIGKILL);
    cr_assert_eq(yinsh_wait(pid), 128 + SIGKILL);
    stored = games_in(db);
    cr_assert_lt(stored, KILLABLE_GAMES, "the tournament finished before it was killed: make it longer");

    const char *again[] = {KILLABLE, "--threads", "1", NULL};
    cr_assert_eq(yinsh_run(dir, again, &out, &err), 0, "%s", err);
    cr_assert(strstr(err, "1 complete") || strstr(err, "2 complete"), "%s", err);
    cr_assert(strstr(err, "resuming it"), "%s", err);
    /* the hash a resumed match counts (its stored games and the new ones)
     * is the hash of the run's stored games in the table */
    int checked = 0;
    for (const char *p = strstr(err, "yinsh tournament: run "); p; p = strstr(p + 1, "yinsh tournament: run ")) {
        char run[64], hash[17], line[128];
        if (sscanf(p, "yinsh tournament: run %63s complete: hash %16s", run, hash) != 2) continue;
        const char *row = strstr(out, run);
        cr_assert(row, "%s not in %s", run, out);
        snprintf(line, sizeof line, "hash %s\n", hash);
        const char *nl = strchr(row, '\n');
        cr_assert(nl && strstr(row, line) == nl - strlen(line) + 1, "%s: %s", run, out);
        checked++;
    }
    cr_assert_geq(checked, 1, "%s", err);

    char *whole = tmpdir_new(), *wout;
    const char *never[] = {KILLABLE, "--threads", "2", "--quiet", NULL};
    cr_assert_eq(yinsh_run(whole, never, &wout, &err), 0, "%s", err);
    cr_assert_str_eq(out, wout);
    char *dk = games_dump(db), *dw = games_dump(path_in(whole, "k.db"));
    cr_assert(strlen(dk) > 5000);
    cr_assert_str_eq(dk, dw);
    sqlite3 *h = db_open(db);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM game"), KILLABLE_GAMES);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM run WHERE finished_at IS NOT NULL"), 3);
    sqlite3_close(h);

    /* complete: the same command plays nothing and prints the same list */
    char *out3;
    cr_assert_eq(yinsh_run(dir, again, &out3, &err), 0, "%s", err);
    cr_assert(strstr(err, "3 complete, 0 unfinished, 0 to play"), "%s", err);
    cr_assert_str_eq(out3, out);
    /* --no-play reads the same */
    const char *report[] = {KILLABLE, "--no-play", NULL};
    cr_assert_eq(yinsh_run(dir, report, &out3, &err), 0, "%s", err);
    cr_assert_str_eq(out3, out);
    cr_assert_str_eq(err, "");
}

/* The rating line of a participant in the list, from its name on. */
static char *rating_line(const char *out, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, " %s ", name);
    const char *list = strstr(out, "\nrank "), *p = list ? strstr(list + 1, key) : NULL;
    cr_assert(p, "no line for %s in %s", name, out);
    const char *nl = strchr(p, '\n');
    return gc(strndup(p, (size_t)(nl - p)));
}

Test(tournament, anchor_and_unbounded_ratings)
{
    char *dir = tmpdir_new(), *out, *err;
    const char *base[] = {"tournament", PLAYERS, "--games", "20", "--name", "a", "--db", "a.db", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, base, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "anchored at rnd = 0"), "%s", out);
    cr_assert(strstr(rating_line(out, "rnd"), "+0.0") && strstr(rating_line(out, "rnd"), "(anchor)"), "%s", out);
    double m5, m20, m5b, m20b, rndb;
    cr_assert_eq(sscanf(rating_line(out, "m5"), " m5 %lf", &m5), 1, "%s", out);
    cr_assert_eq(sscanf(rating_line(out, "m20"), " m20 %lf", &m20), 1, "%s", out);

    const char *moved[] = {"tournament", PLAYERS, "--games", "20", "--name", "a", "--db", "a.db", "--anchor", "m20",
                           "--no-play", NULL};
    cr_assert_eq(yinsh_run(dir, moved, &out, &err), 0, "%s", err);
    cr_assert(strstr(rating_line(out, "m20"), "(anchor)"), "%s", out);
    cr_assert_eq(sscanf(rating_line(out, "m5"), " m5 %lf", &m5b), 1, "%s", out);
    cr_assert_eq(sscanf(rating_line(out, "m20"), " m20 %lf", &m20b), 1, "%s", out);
    cr_assert_eq(sscanf(rating_line(out, "rnd"), " rnd %lf", &rndb), 1, "%s", out);
    cr_assert(m20b == 0 && fabs((m5b - rndb) - m5) < 0.11 && fabs(rndb + m20) < 0.11, "%s", out);

    /* 200 simulations win every game against random: no finite rating,
     * but a one-sided bound: 4 wins of 4 at 95% is p^4 = 0.05, p = 0.473,
     * -19 Elo */
    const char *lopsided[] = {"tournament", "--p", "rnd=random", "--p", "strong=mcts:sims=200", "--games", "4",
                              "--name", "u", "--db", "a.db", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, lopsided, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "anchored at rnd = 0"), "%s", out);
    cr_assert(strstr(out, "strong won 4 of 4 games against rnd"), "%s", out);
    /* the winner first, though named second */
    cr_assert(strstr(out, "\n1    strong "), "%s", out);
    cr_assert(strstr(rating_line(out, "strong"), " above -19 "), "%s", out);
    cr_assert(strstr(rating_line(out, "rnd"), "(anchor)"), "%s", out);
}

/* One participant unbeaten in a round robin: the others are still rated
 * against each other (Bradley-Terry on the part the games bound) and the
 * unbeaten one gets a one-sided bound, instead of "ratings none" for
 * everyone; also when the anchor asked for is the unbeaten one. The
 * bound: 12 wins of 12 against players rated 0 at 95% is p^12 = 0.05,
 * p = 0.779, +219 Elo. */
Test(tournament, one_unbeaten_participant_is_bounded)
{
    char *dir = tmpdir_new(), *out, *err;
    const char *args[] = {"tournament", "--p", "r1=random", "--p", "r2=random", "--p", "strong=mcts:sims=200",
                          "--games", "6", "--name", "v", "--db", "v.db", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, &out, &err), 0, "%s", err);
    cr_assert_not(strstr(out, "ratings      none"), "%s", out);
    cr_assert(strstr(out, "anchored at r1 = 0"), "%s", out);
    cr_assert(strstr(out, "strong won 6 of 6 games against r1") && strstr(out, "strong won 6 of 6 games against r2"),
              "%s", out);
    cr_assert(strstr(out, "\n1    strong "), "%s", out);
    cr_assert(strstr(rating_line(out, "strong"), " above +219 "), "%s", out);
    cr_assert(strstr(rating_line(out, "r1"), "(anchor)"), "%s", out);
    double r2;
    cr_assert_eq(sscanf(rating_line(out, "r2"), " r2 %lf", &r2), 1, "%s", out);
    cr_assert(strstr(rating_line(out, "r2"), " to "), "r2 has an interval: %s", out);
    /* asked to anchor at the unbeaten one: the rated group's first instead */
    const char *moved[] = {"tournament", "--p", "r1=random", "--p", "r2=random", "--p", "strong=mcts:sims=200",
                           "--games", "6", "--name", "v", "--db", "v.db", "--no-play", "--anchor", "strong", NULL};
    cr_assert_eq(yinsh_run(dir, moved, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "anchored at r1 = 0 (strong has no finite rating)"), "%s", out);
    cr_assert(strstr(rating_line(out, "strong"), " above +219 "), "%s", out);
    const char *json[] = {"tournament", "--p", "r1=random", "--p", "r2=random", "--p", "strong=mcts:sims=200",
                          "--games", "6", "--name", "v", "--db", "v.db", "--no-play", "--json", NULL};
    cr_assert_eq(yinsh_run(dir, json, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "\"partial\": true"), "%s", out);
    cr_assert(strstr(out, "\"rating\": \"above\""), "%s", out);
}

/* The pure function behind it, on counts: a chain of sweeps (A swept B,
 * B and C traded points, C swept D, E played nobody) rates B and C, puts
 * A above and D below, and E nowhere. */
Test(tournament, ratings_and_bounds_from_counts)
{
    enum { N = 5 };
    double games[N * N] = {0}, score[N * N] = {0};
#define GAMES(i, j, g, si)                                                                                  \
    games[(i) * N + (j)] = games[(j) * N + (i)] = (g), score[(i) * N + (j)] = (si), score[(j) * N + (i)] = (g) - (si)
    GAMES(0, 1, 10, 10);
    GAMES(1, 2, 10, 6);
    GAMES(2, 3, 10, 10);
#undef GAMES
    const char *names[N] = {"A", "B", "C", "D", "E"};
    StatsBtRating r[N];
    char err[ERR_LEN];
    int anchor = 1;
    cr_assert_eq(stats_bt_bounds(N, games, score, 0.05, &anchor, names, r, err), 0, "%s", err);
    cr_assert_eq(anchor, 1);
    cr_assert_eq(r[1].state, STATS_BT_RATED);
    cr_assert_eq(r[2].state, STATS_BT_RATED);
    cr_assert_float_eq(r[2].elo, -400 * log10(6.0 / 4), 1e-6); /* 4 of 10: 400 log10(4/6) */
    cr_assert_eq(r[0].state, STATS_BT_ABOVE);
    cr_assert_eq(r[3].state, STATS_BT_BELOW);
    cr_assert_eq(r[4].state, STATS_BT_UNLINKED);
    /* A won 10 of 10 against B (0): P^10 = 0.05 */
    double p = pow(0.05, 0.1);
    cr_assert_float_eq(r[0].bound, 400 * log10(p / (1 - p)), 1e-6);
    cr_assert_float_eq(r[3].bound, r[2].elo - 400 * log10(p / (1 - p)), 1e-6);
    /* anchored at A, which has no finite rating: B, the first of the rated group */
    anchor = 0;
    cr_assert_eq(stats_bt_bounds(N, games, score, 0.05, &anchor, names, r, err), 0, "%s", err);
    cr_assert_eq(anchor, 1);
    /* two players, one swept the other: the anchor alone is rated */
    double g2[4] = {0, 4, 4, 0}, s2[4] = {0, 4, 0, 0};
    anchor = 1;
    cr_assert_eq(stats_bt_bounds(2, g2, s2, 0.05, &anchor, names, r, err), 0, "%s", err);
    cr_assert_eq(r[1].state, STATS_BT_RATED);
    cr_assert_eq(r[0].state, STATS_BT_ABOVE);
    cr_assert_float_eq(r[0].bound, 400 * log10(pow(0.05, 0.25) / (1 - pow(0.05, 0.25))), 1e-6);
}

/* An external participant shows as its display name (uyi:NAME), not its
 * command line, in the list and in the match report; the list counts
 * each participant's faults. */
Test(tournament, external_participants_by_display_name_with_faults)
{
    char *dir = tmpdir_new(), *out, *err;
    char crashy[512];
    snprintf(crashy, sizeof crashy, "eng=uyi:name=mine;cmd=%s crash %s", FAKE_ENGINE, dir);
    const char *args[] = {"tournament", "--p", crashy, "--p", "rnd=random", "--games", "2", "--name", "x", "--db",
                          "x.db", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, " faults "), "%s", out);
    cr_assert_not(strstr(out, "cmd="), "%s", out);
    char *eng = rating_line(out, "eng"), *rnd = rating_line(out, "rnd");
    cr_assert(strstr(eng, "      2  uyi:mine"), "%s", out);
    cr_assert(strstr(rnd, "      0  random"), "%s", out);
    const char *json[] = {"tournament", "--p", crashy, "--p", "rnd=random", "--games", "2", "--name", "x", "--db",
                          "x.db", "--no-play", "--json", NULL};
    cr_assert_eq(yinsh_run(dir, json, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "\"display\": \"uyi:mine\"") && strstr(out, "\"faults\": 2"), "%s", out);
    const char *report[] = {"report", "--kind", "match", "--db", "x.db", "--out", "rep", "--no-plots", NULL};
    cr_assert_eq(yinsh_run(dir, report, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "`uyi:mine`"), "%s", out);
    cr_assert_not(strstr(out, "cmd="), "%s", out);
}

Test(tournament, bad_command_lines_store_nothing)
{
    char *dir = tmpdir_new(), *err;
    char *book = write_in(dir, "bad.book", "# two openings\ne5 f6\n\ne5 e5\n");
    struct {
        const char *args[20];
        int rc;
        const char *word;
    } cases[] = {
        {{"tournament", "--p", "a=random", "--games", "2", NULL}, 2, "two participants"},
        {{"tournament", "--p", "a=random", "--p", "random", "--games", "2", NULL}, 2, "NAME=SPEC"},
        {{"tournament", "--p", "a=random", "--p", "a=random", "--games", "2", NULL}, 2, "twice"},
        {{"tournament", "--p", "a/b=random", "--p", "c=random", "--games", "2", NULL}, 2, "participant name"},
        {{"tournament", "--p", "a=random", "--p", "b=random", "--games", "3", NULL}, 2, "even"},
        {{"tournament", "--p", "a=random", "--p", "b=random", NULL}, 2, "--games"},
        {{"tournament", "--p", "a=random", "--p", "b=mcts:sims=0", "--games", "2", NULL}, 2, "sims"},
        {{"tournament", "--p", "a=random", "--p", "b=random", "--games", "2", "--anchor", "c", NULL}, 2, "anchor"},
        {{"tournament", "--p", "a=random", "--p", "b=random", "--games", "2", "--name", "x/y", NULL}, 2, "--name"},
        {{"tournament", "--p", "a=random", "--p", "b=random", "--games", "2", "--opening", "none", "--book", book,
          NULL},
         2,
         "exclude"},
        {{"tournament", "--p", "a=random", "--p", "b=random", "--games", "2", "--book", book, NULL}, 1, "bad.book:4:"},
        {{"tournament", "--p", "a=random", "--p", "b=random", "--games", "2", "--book", "nowhere.book", NULL},
         1,
         "nowhere.book"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = yinsh_run(dir, cases[i].args, NULL, &err);
        cr_assert_eq(rc, cases[i].rc, "case %zu: exit %d (%s)", i, rc, err);
        cr_assert(strstr(err, cases[i].word), "case %zu: '%s' does not name '%s'", i, err, cases[i].word);
    }
    cr_assert(!file_exists(path_in(dir, "yinsh.db")), "something was stored");
}

/* The match options of time control reach every pairing: stored with each
 * run, and a second command without them is another tournament. */
Test(tournament, time_controls_reach_every_pairing)
{
    char *dir = tmpdir_new(), *out, *err;
    const char *timed[] = {"tournament", "--p", "a=random", "--p", "b=mcts:sims=1000000,nodes=200000", "--p", "c=mcts:sims=20",
                           "--games", "2", "--name", "tc", "--movetime", "5", "--db", "t.db", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, timed, &out, &err), 0, "%s", err);
    sqlite3 *db = db_open(path_in(dir, "t.db"));
    cr_assert_eq(db_int(db, "SELECT count(*) FROM run WHERE name LIKE 'tc/%' AND controls = 'movetime=5,margin=100'"),
                 3);
    /* b's million simulations stop at the 5 ms: far fewer visits at any root */
    long long visits = db_int(db, "SELECT max(root_visits) FROM action JOIN game ON game.id = action.game_id "
                                  "JOIN run ON run.id = game.run_id WHERE run.name LIKE 'tc/%'");
    cr_assert(visits > 0 && visits < 500000, "%lld", visits);
    sqlite3_close(db);
    const char *untimed[] = {"tournament", "--p", "a=random", "--p", "b=mcts:sims=1000000,nodes=200000", "--p", "c=mcts:sims=20",
                             "--games", "2", "--name", "tc", "--db", "t.db", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, untimed, &out, &err), 1, "%s", err);
    cr_assert(strstr(err, "controls 'movetime=5,margin=100'"), "%s", err);
}

/* ---- opening books -------------------------------------------------------- */

Test(book, mistakes_name_their_line)
{
    Book b;
    char err[ERR_LEN];
    struct {
        const char *text, *want;
    } cases[] = {
        {"e5 f6\n\n  # a comment\ne5 e5\n", "b:4: action 2 'e5'"},
        {"e5 zz9\n", "b:1: action 2 'zz9'"},
        {"# nothing\n\n", "b: the book holds no opening"},
        {"e5\n4/7/8/9/10/9/10/9/8/7/4 w P standard\n", "b:2: a position (YPN)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cr_expect_eq(book_read(&b, cases[i].text, "b", VARIANT_STANDARD, err), -1, "case %zu", i);
        cr_expect(strstr(err, cases[i].want), "case %zu: '%s' lacks '%s'", i, err, cases[i].want);
        book_free(&b);
    }
    /* comments, spacing and case do not change the content hash; the actions do */
    Book c;
    cr_assert_eq(book_read(&b, "e5 f6 # two rings\ng7\n", "b", VARIANT_STANDARD, err), 0, "%s", err);
    cr_assert_eq(book_read(&c, "# the same\n  E5   f6\n\ng7", "c", VARIANT_STANDARD, err), 0, "%s", err);
    cr_expect_eq(b.n, 2);
    cr_expect_eq(b.hash, c.hash);
    int n;
    const Action *a = book_opening(&b, 3, &n); /* pair 3 of 2 openings: the second */
    char text[ACTION_MAX_LEN];
    cr_expect_eq(n, 1);
    cr_expect_str_eq(action_format(a[0], text), "g7");
    book_free(&c);
    cr_assert_eq(book_read(&c, "e5 f6\ng8\n", "c", VARIANT_STANDARD, err), 0, "%s", err);
    cr_expect_neq(b.hash, c.hash);
    book_free(&b);
    book_free(&c);
}

/* The first `n` action texts of game idx of a run. */
static char *first_actions(sqlite3 *db, const char *run, int idx, int n)
{
    char sql[512];
    snprintf(sql, sizeof sql, "SELECT group_concat(action, ' ') FROM (SELECT a.action FROM action a JOIN game g ON "
                              "g.id = a.game_id JOIN run r ON r.id = g.run_id WHERE r.name = '%s' AND g.idx = %d AND "
                              "a.ply < %d ORDER BY a.ply)", run, idx, n);
    return db_text(db, sql);
}

Test(book, a_match_from_a_book)
{
    char *dir = tmpdir_new(), *out, *err;
    const char *ring10 = "i4 f2 h10 h4 h8 d7 j8 e1 d5 g9";
    char text[256];
    snprintf(text, sizeof text, "# two openings\n%s\n%s h8-f8\n", ring10, ring10);
    write_in(dir, "two.book", text);
    const char *args[] = {"match", "--a", "mcts:sims=10", "--b", "random", "--games", "8", "--seed", "3", "--book",
                          "two.book", "--db", "m.db", "--run", "bk", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, &out, &err), 0, "%s", err);
    sqlite3 *db = db_open(path_in(dir, "m.db"));
    for (int g = 0; g < 8; g++) {
        int pair = g / 2;
        char want[128];
        snprintf(want, sizeof want, "%s%s", ring10, pair % 2 ? " h8-f8" : "");
        cr_expect_str_eq(first_actions(db, "bk", g, pair % 2 ? 11 : 10), want, "game %d", g);
    }
    char *opening = db_text(db, "SELECT opening FROM run WHERE name = 'bk'");
    cr_expect(!strncmp(opening, "book:", 5) && strstr(opening, ":two.book"), "%s", opening);
    /* the same match without a book is another plan, with other games */
    cr_expect_str_neq(db_text(db, "SELECT plan_ident FROM run WHERE name = 'bk'"), "");
    sqlite3_close(db);

    /* a tournament from a book; run again with another book: refused, nothing stored */
    const char *t1[] = {"tournament", "--p", "a=random", "--p", "b=mcts:sims=5", "--games", "4", "--book", "two.book",
                        "--db", "t.db", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, t1, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "rank"), "%s", out);
    snprintf(text, sizeof text, "%s h8-f8\n%s\n", ring10, ring10); /* the same openings, in another order */
    write_in(dir, "two.book", text);
    long long before = games_in(path_in(dir, "t.db"));
    cr_assert_eq(yinsh_run(dir, t1, &out, &err), 1, "%s", err);
    cr_assert(strstr(err, "another opening book"), "%s", err);
    cr_assert_eq(games_in(path_in(dir, "t.db")), before);
}

/* ---- rating lists and pairings in any order ------------------------------- */

/* Participants in an order that ranks the loser first when the list
 * follows the command line: rnd lost every game, s1 and s2 beat it (and
 * s1 beat s2): no finite ratings but the anchor's, a bound above it for
 * the others (tests/test_tournament.c has the bounds' figures). */
Test(tournament, without_finite_ratings_the_list_bounds_and_says_who_beat_whom)
{
    char *dir = tmpdir_new(), *out, *err;
    const char *args[] = {"tournament", "--p", "rnd=random", "--p", "s1=mcts:sims=200", "--p", "s2=mcts:sims=300",
                          "--games", "2", "--db", "t.db", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "anchored at rnd = 0") && !strstr(out, "ratings      none"), "%s", out);
    cr_assert(strstr(out, "\n1    s1 ") && strstr(out, "\n2    s2 "), "%s", out);
    cr_assert(strstr(strstr(out, "\n1    s1 "), " above "), "%s", out);
    /* rank 1 is not the participant that lost every game */
    const char *list = strstr(out, "\nrank ");
    cr_assert(list, "%s", out);
    const char *first = strchr(list + 1, '\n') + 1;
    cr_assert(!strncmp(first, "1    s1 ", 8) || !strncmp(first, "1    s2 ", 8), "%s", out);
    cr_assert(strstr(out, "\n3    rnd "), "%s", out);
    /* the facts pairing by pairing, not one sentence naming a group */
    cr_assert(!strstr(out, "s1, s2") && !strstr(out, "s2, s1"), "%s", out);
    cr_assert(strstr(out, "s1 won 2 of 2 games against rnd"), "%s", out);
    cr_assert(strstr(out, "s2 won 2 of 2 games against rnd"), "%s", out);
}

Test(tournament, a_pairing_is_the_same_run_in_any_order)
{
    char *dir = tmpdir_new(), *err;
    const char *one[] = {"tournament", "--p", "rnd=random", "--p", "m5=mcts:sims=5", "--games", "4", "--db", "t.db",
                         NULL};
    cr_assert_eq(yinsh_run(dir, one, NULL, &err), 0, "%s", err);
    const char *other[] = {"tournament", "--p", "m5=mcts:sims=5", "--p", "rnd=random", "--games", "4", "--db",
                           "t.db", NULL};
    cr_assert_eq(yinsh_run(dir, other, NULL, &err), 0, "%s", err);
    cr_assert(strstr(err, "1 complete, 0 unfinished, 0 to play"), "%s", err);
    sqlite3 *db = db_open(path_in(dir, "t.db"));
    cr_assert_eq(db_int(db, "SELECT count(*) FROM run"), 1);
    /* A and B in the names' order: m5 before rnd, mcts5 before mcts20 (digits as numbers) */
    cr_assert_str_eq(db_text(db, "SELECT name FROM run"), "tournament/m5-vs-rnd");
    sqlite3_close(db);
    const char *numbers[] = {"tournament", "--p", "mcts20=mcts:sims=20", "--p", "mcts5=mcts:sims=5", "--games", "2",
                             "--name", "n", "--db", "t.db", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, numbers, NULL, &err), 0, "%s", err);
    db = db_open(path_in(dir, "t.db"));
    cr_assert_eq(db_int(db, "SELECT count(*) FROM run WHERE name = 'n/mcts5-vs-mcts20'"), 1);
    sqlite3_close(db);
}

/* A pairing stored by a yinsh that named it in the order given (B first
 * in the names' order) is found under that name, with its games. */
Test(tournament, a_pairing_stored_in_the_order_given_is_found)
{
    char *dir = tmpdir_new(), *err, seed[32];
    snprintf(seed, sizeof seed, "%" PRIu64, rng_mix(1, rng_hash_text("t/rnd-vs-m5")));
    const char *old[] = {"match", "--a", "random", "--b", "mcts:sims=5", "--games", "4", "--seed", seed, "--run",
                         "t/rnd-vs-m5", "--db", "t.db", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, old, NULL, &err), 0, "%s", err);
    const char *args[] = {"tournament", "--name", "t", "--p", "m5=mcts:sims=5", "--p", "rnd=random", "--games", "4",
                          "--db", "t.db", NULL};
    char *out;
    cr_assert_eq(yinsh_run(dir, args, &out, &err), 0, "%s", err);
    cr_assert(strstr(err, "1 complete, 0 unfinished, 0 to play"), "%s", err);
    cr_assert(strstr(out, "t/rnd-vs-m5 "), "%s", out);
    sqlite3 *db = db_open(path_in(dir, "t.db"));
    cr_assert_eq(db_int(db, "SELECT count(*) FROM run"), 1);
    sqlite3_close(db);
}
