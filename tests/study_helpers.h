/* Helpers shared by the study tests (tests/test_study_*.c): a database
 * dumped as text (equal dumps, equal studies), a small study file, a
 * command that must succeed, a report's figures. Static and
 * unused-tolerant (TEST_HELPER), as tests/test_proc.h. */
#ifndef YINSH_STUDY_HELPERS_H
#define YINSH_STUDY_HELPERS_H

#include "tests/test_proc.h"

/* Every stored game of every run with its actions, and the runs' rows
 * (but their uid and dates): equal dumps, equal studies. */
TEST_HELPER char *db_dump(const char *path)
{
    sqlite3 *db = db_open(path);
    char *runs = db_text(db, "SELECT coalesce(group_concat(line, char(10)), '') FROM (SELECT name || ' ' || kind || ' ' ||"
                             " variant || ' ' || seed || ' ' || games || ' ' || white || ' ' || black || ' ' ||"
                             " command || ' ' || (finished_at IS NOT NULL) AS line FROM run ORDER BY id)");
    char *games = db_text(
        db, "SELECT coalesce(group_concat(line, char(10)), '') FROM ("
            " SELECT r.name || ' ' || g.idx || ' ' || g.seed || ' ' || g.result || ' ' || g.reason || ' ' || g.actions ||"
            "  ' :' || (SELECT group_concat(a.ply || a.action || '/' || a.legal || '/' || coalesce(a.root_visits, '-') ||"
            "  '/' || coalesce(a.chosen_visits, '-') || '/' || coalesce(printf('%.9f', a.value), '-'), ' ')"
            "   FROM (SELECT * FROM action WHERE game_id = g.id ORDER BY ply) a) AS line"
            " FROM game g JOIN run r ON g.run_id = r.id ORDER BY r.name, g.idx)");
    sqlite3_close(db);
    char *s = gc(malloc(strlen(runs) + strlen(games) + 2));
    sprintf(s, "%s\n%s", runs, games);
    return s;
}

/* Two agents in two variants: four runs, seeds 40..43. */
TEST_HELPER const char SMALL[] = "# a small study\n"
                            "[study]\n"
                            "name = small\n"
                            "db = s.db\n"
                            "seed = 40\n"
                            "games = 6\n"
                            "variants = standard, blitz\n"
                            "\n"
                            "[agent random]\n"
                            "spec = random\n"
                            "\n"
                            "[agent s20]\n"
                            "spec = mcts:sims=20\n"
                            "games = 4   # fewer: they cost more\n"
                            "\n"
                            "[report]\n"
                            "out = report\n"
                            "plots = no\n";

TEST_HELPER void ok(const char *dir, const char *const *args, char **out)
{
    char *err;
    int rc = yinsh_run(dir, args, out, &err);
    cr_assert_eq(rc, 0, "%s %s: exit %d: %s", args[0], args[1], rc, err);
}

/* The report's text from "## Results" to "## Pictures": the figures. */
TEST_HELPER char *figures(const char *md)
{
    const char *a = strstr(md, "## Results"), *b = strstr(md, "## Pictures");
    cr_assert(a && b && b > a);
    return gc(strndup(a, (size_t)(b - a)));
}

#endif
