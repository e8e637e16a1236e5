#define _GNU_SOURCE /* nftw, in test_proc.h */
/* The defaults a command falls back on: tune's database, a default
 * database in a new folder, a study's report folder of its own (and a
 * copy that keeps another study's), an exported import's date. */
#include <criterion/criterion.h>
#include <signal.h>
#include <sys/resource.h>
#include "tests/test_proc.h"

Test(defaults, tune_reads_the_default_database)
{
    char *dir = tmpdir_new(), *err;
    const char *play[] = {"selfplay", "--games", "10", "--agent", "random", "--seed", "3", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, play, NULL, &err), 0, "%s", err);
    cr_assert(file_exists(path_in(dir, "yinsh.db")));
    const char *tune[] = {"tune", "--out", "w.txt", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, tune, NULL, &err), 0, "%s", err);
    cr_assert(file_nonempty(path_in(dir, "w.txt")));
}

/* match (and every command) without --db in a folder that has no
 * yinsh.db yet says where the database goes, the folder named: yinsh.db
 * there, and no results/ folder made (results/ holds reports); once it
 * is there, and with --quiet or --no-db, nothing more is said. */
Test(defaults, a_default_database_in_a_new_folder_is_named)
{
    char *dir = tmpdir_new(), *err, *real = gc(realpath(dir, NULL));
    const char *match[] = {"match", "--a", "random", "--b", "random", "--games", "2", "--seed", "1", NULL};
    cr_assert_eq(yinsh_run(dir, match, NULL, &err), 0, "%s", err);
    cr_expect(strstr(err, "no --db given") && strstr(err, "yinsh.db") && strstr(err, real), "not named: %s", err);
    cr_assert(file_exists(path_in(dir, "yinsh.db")));
    cr_assert(!file_exists(path_in(dir, "results")), "the default database made results/");
    const char *again[] = {"match", "--a", "random", "--b", "random", "--games", "2", "--seed", "2", NULL};
    cr_assert_eq(yinsh_run(dir, again, NULL, &err), 0, "%s", err);
    cr_expect(!strstr(err, "no --db given"), "said again: %s", err);
    char *other = tmpdir_new();
    const char *quiet[] = {"match", "--a", "random", "--b", "random", "--games", "2", "--seed", "1", "--quiet", NULL};
    cr_assert_eq(yinsh_run(other, quiet, NULL, &err), 0, "%s", err);
    cr_expect(!strstr(err, "no --db given"), "said with --quiet: %s", err);
    const char *none[] = {"match", "--a", "random", "--b", "random", "--games", "2", "--seed", "1", "--no-db", NULL};
    char *third = tmpdir_new();
    cr_assert_eq(yinsh_run(third, none, NULL, &err), 0, "%s", err);
    cr_expect(!strstr(err, "no --db given"), "said with --no-db: %s", err);
    const char *report[] = {"report", "--no-plots", NULL};
    cr_expect_eq(yinsh_run(third, report, NULL, &err), 1, "%s", err);
    cr_expect(strstr(err, "no --db given"), "report: %s", err);
}

Test(defaults, a_study_reports_into_a_folder_of_its_own)
{
    char *dir = tmpdir_new(), *err;
    write_in(dir, "s.ini", "[study]\nname = mine\nseed = 1\nvariants = standard\ngames = 2\ndb = s.db\n"
                           "[agent random]\nspec = random\n[report]\nplots = no\n");
    const char *args[] = {"study", "s.ini", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "%s", err);
    cr_assert(file_exists(path_in(dir, "results/mine/report.md")), "%s", err);
    cr_assert(!file_exists(path_in(dir, "results/report")), "the main job's report folder was written");
    /* the repository's studies keep theirs */
    cr_assert(strstr(slurp(YINSH_SOURCE_DIR "/studies/main.ini"), "\nout = results/report\n"));
    cr_assert(strstr(slurp(YINSH_SOURCE_DIR "/studies/balance.ini"), "\nout = results/balance\n"));
}

/* The repro: a copy of studies/main.ini with only its name changed
 * keeps `out = results/report`, and wrote over the main job's report. */
Test(defaults, a_copy_that_keeps_another_studys_out_is_refused)
{
    char *dir = tmpdir_new(), *err;
    const char *body = "seed = 1\nvariants = standard\ngames = 2\ndb = s.db\n"
                       "[agent random]\nspec = random\n[report]\nout = rep\nplots = no\n";
    char one[512], two[512];
    snprintf(one, sizeof one, "[study]\nname = main\n%s", body);
    snprintf(two, sizeof two, "[study]\nname = mine\n%s", body);
    write_in(dir, "main.ini", one);
    write_in(dir, "mine.ini", two);
    const char *first[] = {"study", "main.ini", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, first, NULL, &err), 0, "%s", err);
    char *report = slurp(path_in(dir, "rep/report.md"));
    cr_assert(strstr(report, "main-standard-random"), "%s", report);
    /* the copy: refused before it plays, the report left as it was */
    const char *copy[] = {"study", "mine.ini", "--quiet", NULL};
    err = expect_exit(dir, copy, 1, "holds the report of study 'main'");
    cr_assert(strstr(err, "nothing was stored"), "%s", err);
    cr_assert_str_eq(slurp(path_in(dir, "rep/report.md")), report);
    const char *check[] = {"study", "mine.ini", "--check", NULL};
    expect_exit(dir, check, 1, "holds the report of study 'main'");
    /* the study that owns the folder goes on writing there */
    cr_assert_eq(yinsh_run(dir, first, NULL, &err), 0, "%s", err);
}

Test(defaults, an_exported_import_keeps_the_record_date)
{
    char *dir = tmpdir_new(), *out, *err;
    const char *sgf = YINSH_SOURCE_DIR "/tests/data/Y-DrMih-Dumbot-2026-02-20-0858.sgf";
    const char *import[] = {"import", "--format", "boardspace", "--db", "i.db", sgf, NULL};
    cr_assert_eq(yinsh_run(dir, import, NULL, &err), 0, "%s", err);
    const char *records[] = {"export", "--db", "i.db", NULL};
    cr_assert_eq(yinsh_run(dir, records, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "[Date \"Fri Feb 20 11:58:00 MSK 2026\"]"), "%s", out);
    const char *boardspace[] = {"export", "--db", "i.db", "--format", "boardspace", NULL};
    cr_assert_eq(yinsh_run(dir, boardspace, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "DT[Fri Feb 20 11:58:00 MSK 2026]"), "%s", out);
    /* a game played here keeps the date it was stored */
    random_db(dir, "p.db", "p", "1");
    const char *played[] = {"export", "--db", "p.db", NULL};
    cr_assert_eq(yinsh_run(dir, played, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "[Date \"20"), "%s", out);
}
