#define _GNU_SOURCE /* nftw, in test_proc.h */
/* Study files: the INI reader as data (what it accepts, and the line each
 * mistake is reported on); what a study file means (its options, each
 * mistake named by its line with nothing stored, a changed file that does
 * not touch the stored runs); what reaches the report (a declared margin,
 * the reference, declared comparisons) and the report folder's owner
 * mark. */
#include "engine/base/error.h"
#include "study/plans/ini.h"
#include "study/plans/study.h"
#include "tests/study_helpers.h"

/* ---- the INI reader --------------------------------------------------- */

Test(ini, what_it_reads)
{
    const char *text = "# a comment\r\n"
                       "; another\n"
                       "\n"
                       "[study]\n"
                       "  name   =  main  \n"
                       "seed = 1   # the first seed\n"
                       "path = a#b;c\n"
                       "empty =\n"
                       "[agent sims50]   ; a label\n"
                       "spec = mcts:sims=50,c=1.5\r\n"
                       "[report]\n"
                       "out=results/x y";
    Ini ini;
    char err[ERR_LEN];
    cr_assert_eq(ini_parse(&ini, "t.ini", text, strlen(text), err), ERR_OK, "%s", err);
    cr_assert_eq(ini.nsections, 3);
    const IniSection *s = &ini.sections[0];
    cr_assert_str_eq(s->name, "study");
    cr_assert_str_eq(s->label, "");
    cr_assert_eq(s->line, 4);
    cr_assert_eq(s->nkeys, 4);
    cr_assert_str_eq(ini_key(s, "name")->value, "main");
    cr_assert_eq(ini_key(s, "name")->line, 5);
    cr_assert_str_eq(ini_key(s, "seed")->value, "1");
    cr_assert_str_eq(ini_key(s, "path")->value, "a#b;c");
    cr_assert_str_eq(ini_key(s, "empty")->value, "");
    cr_assert_null(ini_key(s, "games"));
    s = &ini.sections[1];
    cr_assert_str_eq(s->name, "agent");
    cr_assert_str_eq(s->label, "sims50");
    cr_assert_str_eq(ini_key(s, "spec")->value, "mcts:sims=50,c=1.5");
    cr_assert_str_eq(ini_key(&ini.sections[2], "out")->value, "results/x y");
    ini_free(&ini);
}

/* Each broken text, the line its error names, and a piece of the message. */
static const struct {
    const char *text;
    int line;
    const char *says;
} INI_BAD_CASES[] = {
    {"seed = 1\n", 1, "before any [section]"},
    {"[study]\nname = a\nname = b\n", 3, "given twice in this section (first on line 2)"},
    {"[study]\n[report]\n[study]\n", 3, "is there already (line 1)"},
    {"[study\n", 1, "ends with ']'"},
    {"[study] x\n", 1, "ends with ']'"},
    {"[]\n", 1, "names its section"},
    {"[agent a b]\n", 1, "at most one label"},
    {"[study]\nname\n", 2, "neither `key = value`"},
    {"[study]\n = 3\n", 2, "key is missing"},
    {"[study]\nName = x\n", 2, "keys are lower-case"},
    {"[study]\nname = a\x01" "b\n", 2, "control character (byte 0x01)"},
    {"[study]\n\nname = a\tb\x7f\n", 3, "control character (byte 0x7f)"},
};

Test(ini, mistakes_name_their_line)
{
    for (size_t i = 0; i < sizeof INI_BAD_CASES / sizeof *INI_BAD_CASES; i++) {
        Ini ini;
        char err[ERR_LEN], where[32];
        const char *t = INI_BAD_CASES[i].text;
        cr_assert_eq(ini_parse(&ini, "f.ini", t, strlen(t), err), ERR_USAGE, "case %zu accepted", i);
        snprintf(where, sizeof where, "f.ini:%d: ", INI_BAD_CASES[i].line);
        cr_assert(!strncmp(err, where, strlen(where)), "case %zu: '%s' does not begin with '%s'", i, err, where);
        cr_assert(strstr(err, INI_BAD_CASES[i].says), "case %zu: '%s' lacks '%s'", i, err, INI_BAD_CASES[i].says);
        ini_free(&ini);
    }
    /* a NUL byte is a control character too */
    Ini ini;
    char err[ERR_LEN];
    cr_assert_eq(ini_parse(&ini, "f.ini", "[study]\nname = a\0b\n", 19, err), ERR_USAGE);
    cr_assert(strstr(err, "f.ini:2: "), "%s", err);
    ini_free(&ini);
}

/* ---- the meaning of a study file --------------------------------------- */

#define STUDY_HEAD "[study]\nname = t\ndb = s.db\nseed = 7\ngames = 4\nvariants = standard, blitz\n"

/* Each file with a mistake, the line named, and a piece of the message. */
static const struct {
    const char *text;
    int line;
    const char *says;
} STUDY_BAD_CASES[] = {
    {STUDY_HEAD "[agent a]\nspec = mcts:sim=50\n", 8, "agent 'a': unknown mcts key 'sim'"},
    {STUDY_HEAD "[agent a]\nspec = mcts:sims=100,rollout=4,eval=missing.txt\n", 8, "missing.txt"},
    {STUDY_HEAD "[agent a]\nspec = mcts:sims=50,rollout=random,eval=w.txt\n", 8, "agent 'a'"},
    {STUDY_HEAD "[agent a]\nspec = random\ngame = 3\n", 9, "unknown key 'game' in [agent]"},
    {STUDY_HEAD "[agent a]\nspec = random\ngames = 0\n", 9, "games wants a number from 1"},
    {STUDY_HEAD "[agent a]\n", 7, "needs a spec"},
    {STUDY_HEAD "[agent a]\nspec =\n", 8, "'spec' wants a value"},
    {STUDY_HEAD "[agent]\nspec = random\n", 7, "[agent LABEL]"},
    {STUDY_HEAD "[agent a/b]\nspec = random\n", 7, "[agent LABEL]"},
    {STUDY_HEAD "[agents a]\nspec = random\n", 7, "unknown section [agents]"},
    {STUDY_HEAD, 1, "no [agent LABEL] section"},
    {"[agent a]\nspec = random\n", 1, "no [study] section"},
    {STUDY_HEAD "[agent a]\nspec = random\n[study]\n", 9, "[study] is there already (line 1)"},
    {"[study]\ndb = s.db\nseed = 1\nvariants = standard\n[agent a]\nspec = random\ngames = 2\n", 1, "needs a name"},
    {"[study]\nname = t\ndb = s.db\nvariants = standard\n[agent a]\nspec = random\ngames = 2\n", 1, "needs a seed"},
    {"[study]\nname = t\ndb = s.db\nseed = 1\n[agent a]\nspec = random\ngames = 2\n", 1, "needs variants"},
    {"[study]\nname = t x\n", 2, "name 't x'"},
    {"[study]\nname = t\nseed = -1\n", 3, "seed wants an unsigned"},
    {"[study]\nname = t\nseed = 1\nvariants = standard, bliz\n", 4, "unknown variant 'bliz'"},
    {"[study]\nname = t\nseed = 1\nvariants = blitz blitz\n", 4, "'blitz' is listed twice"},
    {"[study]\nname = t\nseed = 1\nvariants = standard\ndb = nowhere/s.db\n", 5, "the folder 'nowhere' does not exist"},
    {"[study]\nname = t\nseed = 1\nvariants = standard\ngames = 1e3\n", 5, "games wants a number"},
    {"[study]\nname = t\nseed = 1\nvariants = standard\ndb = s.db\n[agent a]\nspec = random\n", 6, "has no games"},
    {STUDY_HEAD "[agent a]\nspec = random\n[report]\nplots = maybe\n", 10, "plots wants yes or no"},
    {STUDY_HEAD "[agent a]\nspec = random\n[report]\nout = w.txt\n", 10, "is a file, not a folder"},
    {STUDY_HEAD "[agent a]\nspec = random\n[report x]\n", 9, "[report] takes no label"},
    {STUDY_HEAD "[agent a]\nspec = random\n[agent b]\nspec = mcts:sims=5\n[report]\ncompare = a vs c\n", 12,
     "compare: 'c' is no agent of the study"},
    {STUDY_HEAD "[agent a]\nspec = random\n[agent b]\nspec = mcts:sims=5\n[report]\ncompare = a b\n", 12,
     "compare wants 'LABEL vs LABEL'"},
    {STUDY_HEAD "[agent a]\nspec = random\n[agent b]\nspec = mcts:sims=5\n[report]\ncompare = a vs b vs a\n", 12,
     "compare wants 'LABEL vs LABEL'"},
    {STUDY_HEAD "[agent a]\nspec = random\n[agent b]\nspec = mcts:sims=5\n[report]\ncompare = a vs b,\n", 12,
     "compare wants 'LABEL vs LABEL'"},
    {STUDY_HEAD "[agent a]\nspec = random\n[agent b]\nspec = random\n[report]\ncompare = b vs a\n", 12,
     "the same agent from the same opening"},
    {STUDY_HEAD "[agent a]\nspec = random\n[report]\nreference = ab:depth=2,movetime=50\n", 10,
     "must search to a fixed depth on one thread"},
    {STUDY_HEAD "[agent a]\nspec = random\n[report]\nreference = mcts:sims=5\n", 10, "an agent of another kind"},
    {STUDY_HEAD "[agent a]\nspec = random\n[report]\nreference = nosuch.txt\n", 10, "nosuch.txt"},
    {STUDY_HEAD "[agent a]\nspec = random\n[report]\nreference =\n", 10, "'reference' wants a value"},
    {STUDY_HEAD "[agent a]\nspec = random\n[report]\nmargin = 0\n", 10, "margin wants points of White's score"},
    {STUDY_HEAD "[agent a]\nspec = random\n[report]\nmargin = two\n", 10, "margin wants points of White's score"},
    {STUDY_HEAD "[agent a]\nspec = random\n[report]\nmargin = 50\n", 10, "margin wants points of White's score"},
    {STUDY_HEAD "[agent a]\nspec = random\nopening = pie:0\n", 9, "opening wants none, rings, random:K or pie:K"},
};

Test(study, mistakes_name_their_line_and_store_nothing)
{
    char *dir = tmpdir_new();
    write_in(dir, "w.txt", "markers 1\n");
    for (size_t i = 0; i < sizeof STUDY_BAD_CASES / sizeof *STUDY_BAD_CASES; i++) {
        char *file = write_in(dir, "bad.ini", STUDY_BAD_CASES[i].text), *err, where[64];
        const char *args[] = {"study", file, NULL};
        int rc = yinsh_run(dir, args, NULL, &err);
        cr_assert_eq(rc, 2, "case %zu: exit %d: %s", i, rc, err);
        snprintf(where, sizeof where, "yinsh study: %s:%d: ", file, STUDY_BAD_CASES[i].line);
        cr_assert(strstr(err, where), "case %zu: '%s' lacks '%s'", i, err, where);
        cr_assert(strstr(err, STUDY_BAD_CASES[i].says), "case %zu: '%s' lacks '%s'", i, err, STUDY_BAD_CASES[i].says);
        cr_assert(!file_exists(path_in(dir, "s.db")), "case %zu made the database", i);
    }
    /* the library says the same */
    Study s;
    char err[ERR_LEN];
    cr_assert_eq(study_load(&s, path_in(dir, "none.ini"), err), ERR_FAIL);
    cr_assert(strstr(err, "none.ini"), "%s", err);
    study_free(&s);
}

Test(study, options)
{
    char *dir = tmpdir_new(), *err;
    const char *none[] = {"study", NULL};
    cr_assert_eq(yinsh_run(dir, none, NULL, &err), 2);
    cr_assert(strstr(err, "a study FILE is required"), "%s", err);
    const char *two[] = {"study", "a.ini", "b.ini", NULL};
    cr_assert_eq(yinsh_run(dir, two, NULL, &err), 2);
    const char *unknown[] = {"study", "a.ini", "--thread", "2", NULL};
    cr_assert_eq(yinsh_run(dir, unknown, NULL, &err), 2);
    cr_assert(strstr(err, "unknown option '--thread'"), "%s", err);
    const char *missing[] = {"study", "a.ini", NULL};
    cr_assert_eq(yinsh_run(dir, missing, NULL, &err), 1);
    cr_assert(strstr(err, "cannot read 'a.ini'"), "%s", err);
    char *out;
    const char *help[] = {"study", "--help", NULL};
    cr_assert_eq(yinsh_run(dir, help, &out, NULL), 0);
    cr_assert(strstr(out, "usage: yinsh study FILE"), "%s", out);
}

/* The same file but for one value (text replaced): the stored runs no
 * longer fit it. */
static void refuse_changed(const char *dir, const char *from, const char *to, const char *says)
{
    char text[sizeof SMALL + 64];
    const char *at = strstr(SMALL, from);
    cr_assert(at);
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - SMALL), SMALL, to, at + strlen(from));
    char *file = write_in(dir, "changed.ini", text), *db = path_in(dir, "s.db"), *err;
    char *dump = db_dump(db);
    const char *args[] = {"study", file, NULL};
    cr_assert_eq(yinsh_run(dir, args, NULL, &err), 1, "%s", err);
    cr_assert(strstr(err, says), "'%s' lacks '%s'", err, says);
    cr_assert(strstr(err, "nothing was stored"), "%s", err);
    cr_assert_str_eq(db_dump(db), dump);
}

Test(study, a_changed_file_does_not_touch_the_stored_runs)
{
    char *dir = tmpdir_new(), *file = write_in(dir, "small.ini", SMALL), *err;
    const char *args[] = {"study", file, "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "%s", err);
    refuse_changed(dir, "seed = 40", "seed = 41", ":10: database 's.db': run 'small-standard-random' has seed 40, not 41");
    refuse_changed(dir, "games = 4 ", "games = 5 ", ":13: database 's.db': run 'small-standard-s20' has 4 games, not 5");
    refuse_changed(dir, "mcts:sims=20", "mcts:sims=21", "run 'small-standard-s20' was played by");
    /* and a typo in a file whose runs are stored stores nothing either */
    char *typo = write_in(dir, "typo.ini", STUDY_HEAD "[agent a]\nspec = random\n[agent b]\nspec = mcts:sim=50\n");
    char *db = path_in(dir, "s.db"), *dump = db_dump(db);
    const char *bad[] = {"study", typo, NULL};
    cr_assert_eq(yinsh_run(dir, bad, NULL, &err), 2, "%s", err);
    cr_assert(strstr(err, "typo.ini:10: agent 'b': unknown mcts key 'sim'"), "%s", err);
    cr_assert_str_eq(db_dump(db), dump);
}

/* A declared margin: the report tests every agent's self-play for a fair
 * game (TOST) and says so first; without one, no such section. */
Test(study, a_declared_margin_reaches_the_report)
{
    char *dir = tmpdir_new(), *err, *out;
    write_in(dir, "m.ini", "[study]\nname = m\ndb = s.db\nseed = 5\ngames = 24\nvariants = standard, blitz+swap\n"
                           "[agent random]\nspec = random\n[agent s2]\nspec = mcts:sims=2\ngames = 10\n"
                           "[report]\nout = report\nplots = no\nmargin = 10\n");
    cr_assert_eq(yinsh_run(dir, ARGS("study", "m.ini", "--quiet"), &out, &err), 0, "%s", err);
    char *md = slurp(path_in(dir, "report/report.md"));
    char *eq = strstr(md, "## Equivalence to a fair game");
    cr_assert(eq, "%s", md);
    char *next = strstr(eq + 1, "\n## ");
    cr_assert(next && next < strstr(md, "## Results by variant"), "the designer's table comes first");
    *next = '\0';
    cr_assert(strstr(eq, "within ±10.0 points"), "%s", eq);
    /* the self-play pairs of at least 20 games, one family */
    cr_assert(strstr(eq, "The 2 rows are one family"), "%s", eq);
    cr_assert(strstr(eq, "| standard | `random` | `none` | 24 |"), "%s", eq);
    cr_assert(strstr(eq, "| blitz+swap | `random` | `none` | 24 |"), "%s", eq);
    cr_assert(!strstr(eq, "mcts:sims=2"), "a pair of 10 games has no row: %s", eq);
    /* yinsh report --margin writes the same section; without it, none */
    cr_assert_eq(yinsh_run(dir, ARGS("report", "--db", "s.db", "--out", "r2", "--no-plots", "--quiet", "--margin",
                                     "10"),
                           &out, &err),
                 0, "%s", err);
    cr_assert(strstr(slurp(path_in(dir, "r2/report.md")), "## Equivalence to a fair game"));
    cr_assert_eq(yinsh_run(dir, ARGS("report", "--db", "s.db", "--out", "r3", "--no-plots", "--quiet"), &out, &err),
                 0, "%s", err);
    cr_assert(!strstr(slurp(path_in(dir, "r3/report.md")), "## Equivalence to a fair game"));
}

/* The mark of a study's report folder in process: no mark is taken, the
 * study's own is taken, another study's is refused by its name. */
Test(study, report_owner_mark)
{
    char *dir = tmpdir_new(), err[ERR_LEN], main_name[] = "main", copy_name[] = "copy";
    Study a = {.name = main_name, .report_out = dir}, b = {.name = copy_name, .report_out = dir};
    cr_assert_eq(study_report_owner_check(&b, err), 0);
    cr_assert_eq(study_report_owner_mark(&a, err), 0, "%s", err);
    cr_assert_eq(study_report_owner_check(&a, err), 0, "%s", err);
    cr_assert_eq(study_report_owner_check(&b, err), ERR_FAIL);
    cr_expect(strstr(err, "holds the report of study 'main'") && strstr(err, "not of 'copy'"), "%s", err);
}

/* [report] compare: the declared comparisons reach the report by the
 * agents' stored specs and openings (an agent from two openings is two
 * sides), in one Holm family over the variants. */
/* [report] reference names the report's reference evaluator: the report
 * says it, in the Markdown and the JSON. */
Test(study, reference_reaches_the_report)
{
    static const char TEXT[] = "[study]\nname = ref\ndb = s.db\nseed = 9\ngames = 6\nvariants = blitz\n"
                               "opening = random:4\n[agent ab1]\nspec = ab:depth=1\n"
                               "[report]\nout = report\nplots = no\nreference = ab:depth=1,eval=eval/weights/tuned3.txt\n";
    char *dir = tmpdir_new(), *file = write_in(dir, "s.ini", TEXT), *err;
    const char *study[] = {"study", file, "--quiet", "--threads", "1", NULL};
    cr_assert_eq(yinsh_run(dir, study, NULL, &err), 0, "%s", err);
    char *md = slurp(path_in(dir, "report/report.md"));
    cr_assert(md);
    cr_expect(strstr(md, "scored by the fixed searcher `ab:depth=1,eval=eval/weights/tuned3.txt`"), "%s", md);
    const char *json[] = {"report", "--db", "s.db", "--out", "r2", "--no-plots", "--json", "--reference",
                          "ab:depth=1,eval=eval/weights/tuned3.txt", NULL};
    char *out;
    cr_assert_eq(yinsh_run(dir, json, &out, &err), 0, "%s", err);
    cr_expect(strstr(out, "\"evaluator\": \"ab:depth=1,eval=eval/weights/tuned3.txt\""), "%s", out);
}

Test(study, declared_comparisons_reach_the_report)
{
    static const char TEXT[] = "[study]\nname = cmp\ndb = s.db\nseed = 9\ngames = 24\nvariants = standard, blitz\n"
                               "opening = random:2\n"
                               "[agent random]\nspec = random\n"
                               "[agent s5]\nspec = mcts:sims=5\n"
                               "[agent s5-rings]\nspec = mcts:sims=5\nopening = rings\n"
                               "[report]\nout = report\nplots = no\ncompare = s5 vs random, s5-rings vs s5\n";
    char *dir = tmpdir_new(), *file = write_in(dir, "s.ini", TEXT), *err, out[8192];
    Study s;
    char e[ERR_LEN];
    cr_assert_eq(study_load(&s, file, e), ERR_OK, "%s", e);
    cr_assert_eq(s.ncompare, 2);
    cr_expect_str_eq(s.compare[0].label[0], "s5");
    cr_expect_str_eq(s.compare[0].spec[0], "mcts:sims=5,c=1,rollout=random");
    cr_expect_str_eq(s.compare[0].spec[1], "random");
    cr_expect_str_eq(s.compare[0].opening[1], "random:2");
    cr_expect_str_eq(s.compare[1].opening[0], "rings");
    cr_expect_str_eq(s.compare[1].opening[1], "random:2");
    study_free(&s);

    const char *study[] = {"study", file, "--quiet", "--threads", "1", NULL};
    cr_assert_eq(yinsh_run(dir, study, NULL, &err), 0, "%s", err);
    char *md = slurp(path_in(dir, "report/report.md"));
    cr_assert(md);
    cr_assert(strstr(md, "## Declared comparisons"), "%s", md);
    cr_expect(strstr(md, "one family (4 tests)"), "%s", md);
    snprintf(out, sizeof out, "2. `s5-rings` vs `s5`: `mcts:sims=5,c=1,rollout=random` from `rings` against "
                              "`mcts:sims=5,c=1,rollout=random` from `random:2`");
    cr_expect(strstr(md, out), "no '%s' in\n%s", out, md);
    cr_expect(strstr(md, "| 1. `s5` vs `random` | standard | "), "%s", md);
    cr_expect(strstr(md, "| 2. `s5-rings` vs `s5` | blitz | "), "%s", md);
}
