#define _GNU_SOURCE /* nftw, in test_proc.h */
/* Nothing the balance report prints may run code or break its tables
 * (#22): names that would not print as themselves refused on import, the
 * reproduce commands giving the stored hashes with a shell block that runs
 * nothing else, every table cell escaped, and base/text.h's checks behind
 * them. */
#include "engine/base/text.h"
#include "tests/report_helpers.h"

/* The shared boardspace record with `from` replaced by `to` (once). */
static char *sgf_with(const char *from, const char *to)
{
    const char *all = slurp(SHARED_SGF), *at = strstr(all, from);
    cr_assert(at, "'%s' is not in the shared record", from);
    char *out = gc(malloc(strlen(all) + strlen(to) + 1));
    sprintf(out, "%.*s%s%s", (int)(at - all), all, to, at + strlen(from));
    return out;
}

/* A name that would not print as itself (an ESC, a BEL, a newline, bytes
 * that are no UTF-8) is refused on import, naming the file and the
 * field, and nothing of that file is stored; a name in another script
 * (valid UTF-8) comes in as it is. */
Test(report, import_refuses_names_that_do_not_print_as_themselves)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "d.db"), *so, *se;
    struct {
        const char *file, *from, *to, *field;
    } const BAD[] = {
        {"esc.sgf", "P0[id \"DrMih\"]", "P0[id \"Dr\033[31mMih\"]", "esc.sgf: the name of player P0 holds a control character"},
        {"bel.sgf", "P1[id \"Dumbot\"]", "P1[id \"Dum\007bot\"]", "bel.sgf: the name of player P1 holds a control character"},
        {"nl.sgf", "GN[Y-DrMih", "GN[x\n$(touch pwned)\nY-DrMih", "nl.sgf: the game's name (GN) holds a control character"},
        {"utf.sgf", "P0[id \"DrMih\"]", "P0[id \"Dr\xff\xfeMih\"]", "utf.sgf: the name of player P0 holds a byte that is not UTF-8"},
        {"date.sgf", "DT[Fri", "DT[\033[2JFri", "date.sgf: the date (DT) holds a control character"},
    };
    int n = sizeof BAD / sizeof BAD[0];
    for (int i = 0; i < n; i++) {
        write_in(dir, BAD[i].file, sgf_with(BAD[i].from, BAD[i].to));
        cr_expect_eq(yinsh_run(dir, ARGS("import", "--format", "boardspace", BAD[i].file, "--db", db), &so, &se), 1);
        cr_expect(strstr(se, BAD[i].field), "want '%s' in: %s", BAD[i].field, se);
        cr_expect(!strchr(so, '\033') && !strchr(se, '\033') && !strchr(se, '\007'), "raw control bytes printed");
    }
    /* a file's name becomes the run's name when the record has no GN */
    char *nameless = sgf_with("GN[Y-DrMih-Dumbot-2026-02-20-0858]", "");
    write_in(dir, "a\nb.sgf", nameless);
    cr_expect_eq(yinsh_run(dir, ARGS("import", "--format", "boardspace", "a\nb.sgf", "--db", db), NULL, &se), 1);
    cr_expect(strstr(se, "the run's name, made from the file's name, holds a control character"), "%s", se);
    cr_expect(!file_exists(path_in(dir, "pwned")));
    /* nothing stored (the database may not even have been made) */
    if (file_exists(db)) {
        sqlite3 *h = db_open(db);
        cr_expect_eq(db_int(h, "SELECT count(*) FROM sqlite_master WHERE name = 'run'") ?
                         db_int(h, "SELECT count(*) FROM run") : 0, 0);
        sqlite3_close(h);
    }
    /* Cyrillic is UTF-8: imported */
    write_in(dir, "ru.sgf", sgf_with("P0[id \"DrMih\"]", "P0[id \"ДрМих\"]"));
    cr_expect_eq(yinsh_run(dir, ARGS("import", "--format", "boardspace", "ru.sgf", "--db", db), &so, &se), 0, "%s", se);
    cr_expect(strstr(so, "ДрМих (White)"), "%s", so);
}

/* ---- reproduce commands that reproduce, and a shell block that runs
 * nothing else (#22) ----------------------------------------------------- */

/* Runs `sh -c script` in dir with stdout and stderr into dir/out; its
 * exit status. */
static int sh_run(const char *dir, const char *script)
{
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        int fo = open(path_in(dir, "sh.out"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fo, 1);
        dup2(fo, 2);
        execl("/bin/sh", "sh", "-c", script, (char *)NULL);
        _exit(127);
    }
    int st;
    cr_assert(waitpid(pid, &st, 0) == pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The ```sh block of the report's "How to reproduce". */
static char *sh_block(const char *md)
{
    const char *sec = strstr(md, "## How to reproduce");
    cr_assert(sec);
    const char *start = strstr(sec, "```sh\n"), *end = start ? strstr(start + 6, "\n```\n") : NULL;
    cr_assert(start && end, "%s", sec);
    return gc(strndup(start + 6, (size_t)(end - start - 5)));
}

/* Runs with every control, opening and a weights file whose name a shell
 * would run ('$(touch pwned)'); an imported run renamed by SQL to hold a
 * newline and a line of shell, and a run renamed to hold an ESC. The
 * report's block, run whole by sh as printed (from a folder whose
 * build/yinsh is the binary under test: every path in these runs is
 * absolute), prints every run's stored hash and runs nothing else. */
Test(report, reproduce_commands_give_the_stored_hashes)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "c.db"), *se;
    /* a weights file whose name holds a quote, a $ and parentheses */
    const char *wname = "w'$(touch pwned)'.txt";
    write_in(dir, wname, slurp(YINSH_SOURCE_DIR "/eval/weights/default.txt"));
    char *spec = gc(malloc(strlen(dir) + strlen(wname) + 64));
    sprintf(spec, "mcts:sims=8,rollout=4,eval=%s/%s", dir, wname);
    char *book = write_in(dir, "o.book", "e5 f6\nd4 g7 c3\n");
    const char *const *RUNS[] = {
        ARGS("selfplay", "--games", "4", "--agent", "mcts:sims=30", "--sims", "8", "--opening", "random:2", "--seed",
             "3", "--run", "sims"),
        ARGS("selfplay", "--games", "4", "--agent", "random", "--agent-streams", "--variant", "blitz", "--seed", "4",
             "--run", "streams"),
        ARGS("match", "--a", "mcts:sims=100", "--b", "mcts:sims=100", "--sims", "20", "--games", "4", "--seed", "1",
             "--run", "m"),
        ARGS("match", "--a", "random", "--b", "random", "--tc", "5+0.1", "--games", "2", "--seed", "2", "--run",
             "clock"),
        ARGS("selfplay", "--games", "2", "--agent", "random", "--movetime", "50", "--seed", "5", "--run", "movetime"),
        ARGS("match", "--a", "mcts:sims=8", "--b", "random", "--book", book, "--games", "4", "--seed", "6", "--run",
             "book"),
        ARGS("selfplay", "--games", "2", "--agent", spec, "--seed", "7", "--run", "quote"),
        ARGS("import", "--format", "boardspace", SHARED_SGF),
    };
    int nruns = sizeof RUNS / sizeof RUNS[0];
    for (int i = 0; i < nruns; i++) {
        const char *args[32];
        int n = 0;
        for (int k = 0; RUNS[i][k]; k++) args[n++] = RUNS[i][k];
        args[n++] = "--db";
        args[n++] = db;
        if (strcmp(RUNS[i][0], "import")) args[n++] = "--quiet";
        args[n] = NULL;
        cr_assert_eq(yinsh_run(dir, args, NULL, &se), 0, "%s: %s", RUNS[i][0], se);
    }
    char *pwned = path_in(dir, "pwned"), *pwned2 = path_in(dir, "pwned2");
    cr_assert(!file_exists(pwned));
    sqlite3 *h = db_open(db);
    cr_assert(sqlite3_exec(h, "UPDATE run SET name = 'imp' || char(10) || 'touch pwned2' WHERE kind = 'import'", NULL,
                           NULL, NULL) == SQLITE_OK, "%s", sqlite3_errmsg(h));
    cr_assert(sqlite3_exec(h, "UPDATE run SET name = 'str' || char(27) || '[31meams' WHERE name = 'streams'", NULL,
                           NULL, NULL) == SQLITE_OK);
    sqlite3_close(h);
    cr_assert_eq(yinsh_run(dir, ARGS("report", "--db", db, "--kind", "all", "--out", "r", "--no-plots", "--quiet"),
                           NULL, &se),
                 0, "%s", se);
    char *md = slurp(path_in(dir, "r/report.md"));
    cr_expect(!strchr(md, '\033'), "no ESC reaches the report");
    char *block = sh_block(md);
    char hashes[16][17];
    int commands = 0, comments = 0;
    for (const char *line = block; *line;) {
        const char *nl = strchr(line, '\n');
        cr_assert(nl);
        if (line[0] == '#') {
            comments++;
        } else {
            cr_assert(!strncmp(line, "build/yinsh ", 12), "%.*s", (int)(nl - line), line);
            const char *hash = strstr(line, ": hash ");
            cr_assert(hash && hash < nl && commands < 16, "%.*s", (int)(nl - line), line);
            snprintf(hashes[commands++], 17, "%.16s", hash + 7);
        }
        line = nl + 1;
    }
    cr_expect_eq(commands, 7, "%s", block);
    cr_expect_eq(comments, 1, "the imported run is a comment: %s", block);
    cr_expect(strstr(block, "# 'imp?touch pwned2': played elsewhere"), "the newline shown as ?: %s", block);
    cr_expect(strstr(block, "# 'str?[31meams': hash "), "the ESC shown as ?: %s", block);
    cr_expect(strstr(block, " --sims 20 ") && strstr(block, " --agent-streams ") && strstr(block, " --tc 5+0.1 ") &&
                  strstr(block, " --movetime 50 ") && strstr(block, " --opening 'random:2' ") &&
                  strstr(block, " --book '"),
              "%s", block);
    /* the block as printed, by sh */
    cr_assert(mkdir(path_in(dir, "build"), 0755) == 0);
    cr_assert(symlink(YINSH_BIN, path_in(dir, "build/yinsh")) == 0);
    char *script = gc(malloc(strlen(block) + 4096));
    sprintf(script, "cd '%s' || exit 99\n%s", dir, block);
    cr_expect_eq(sh_run(dir, script), 0, "%s\n%s", script, slurp(path_in(dir, "sh.out")));
    char *printed = slurp(path_in(dir, "sh.out"));
    for (int i = 0; i < commands; i++) {
        char want[64];
        snprintf(want, sizeof want, "hash         %s", hashes[i]);
        cr_expect(strstr(printed, want), "command %d does not give its run's hash %s:\n%s", i, hashes[i], printed);
    }
    cr_expect(!file_exists(pwned) && !file_exists(pwned2), "the block ran code of the database:\n%s", block);
}

/* The cells of a Markdown table row: its '|' that no backslash escapes,
 * less one. */
static int cells_of(const char *row, size_t len)
{
    int pipes = 0;
    for (size_t i = 0; i < len; i++) pipes += row[i] == '|' && (i == 0 || row[i - 1] != '\\');
    return pipes - 1;
}

/* Every table row of md has as many cells as its header: checks each
 * table (a header line, then its |---| line, then rows). */
static void expect_whole_tables(const char *md)
{
    int want = -1;
    for (const char *line = md; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        if (line[0] == '|') {
            int n = cells_of(line, len);
            if (want < 0) want = n;
            cr_expect_eq(n, want, "a row of %d cells in a table of %d: %.*s", n, want, (int)len, line);
        } else {
            want = -1;
        }
        if (!nl) break;
        line = nl + 1;
    }
}

/* Agents named with '|', a newline, a backtick, an ESC and bytes that
 * are no UTF-8 (as an old database or a hand-made one may hold them):
 * every table keeps its cells, no raw control byte or bad UTF-8 reaches
 * the report, and the match report the same. */
Test(report, every_cell_is_escaped)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "d.db"), *se;
    cr_assert_eq(yinsh_run(dir, ARGS("selfplay", "--games", "4", "--agent", "random", "--seed", "3", "--db", db,
                                     "--run", "s", "--quiet"),
                           NULL, &se),
                 0, "%s", se);
    cr_assert_eq(yinsh_run(dir, ARGS("match", "--a", "random", "--b", "mcts:sims=4", "--games", "2", "--seed", "3",
                                     "--db", db, "--run", "m", "--quiet"),
                           NULL, &se),
                 0, "%s", se);
    sqlite3 *h = db_open(db);
    const char *bad = "'ra|nd' || char(10) || '| x `y' || char(27) || '[2J' || CAST(x'ff' AS TEXT)";
    char sql[512];
    snprintf(sql, sizeof sql, "UPDATE game SET white = %s WHERE white = 'random'; UPDATE run SET white = %s, "
                              "name = name || '|' || char(10) || 'n' WHERE white = 'random'", bad, bad);
    cr_assert(sqlite3_exec(h, sql, NULL, NULL, NULL) == SQLITE_OK, "%s", sqlite3_errmsg(h));
    sqlite3_close(h);
    const char *const KINDS[] = {"all", "match"};
    for (int k = 0; k < 2; k++) {
        cr_assert_eq(yinsh_run(dir, ARGS("report", "--db", db, "--kind", KINDS[k], "--out", "r", "--no-plots", "--quiet"),
                               NULL, &se),
                     0, "%s", se);
        char *md = slurp(path_in(dir, "r/report.md"));
        expect_whole_tables(md);
        for (const unsigned char *c = (const unsigned char *)md; *c; c++) {
            cr_expect(*c != 0x1b && *c != 0xff, "a raw byte 0x%02x at %ld", *c, (long)(c - (const unsigned char *)md));
            if (*c == 0x1b || *c == 0xff) break;
        }
        cr_expect(strstr(md, "`ra\\|nd?\\| x `y?[2J\xef\xbf\xbd`") || strstr(md, "``ra\\|nd?\\| x `y?[2J\xef\xbf\xbd``"),
                  "%s", md);
    }
}

/* base/text.h, behind the import's refusals and the report's escaping:
 * the first byte that would not print as itself, and a cut that keeps
 * UTF-8 whole. */
Test(report, text_that_prints_as_itself)
{
    cr_expect_eq(text_bad_byte("DrMih"), -1);
    cr_expect_eq(text_bad_byte("ДрМих €"), -1);
    cr_expect_eq(text_bad_byte("Dr\033[31m"), 2);
    cr_expect_eq(text_bad_byte("a\nb"), 1);
    cr_expect_eq(text_bad_byte("ab\x7f"), 2);
    cr_expect_eq(text_bad_byte("ab\xff"), 2);
    cr_expect_eq(text_bad_byte("\xc0\xaf"), 0);     /* an overlong '/' */
    cr_expect_eq(text_bad_byte("x\xed\xa0\x80"), 1); /* a surrogate */
    cr_expect_eq(text_bad_byte("€\xe2\x82"), 3);    /* cut short */
    char cut[][16] = {"ab\xe2\x82", "ab\xd0", "ab\xe2\x82\xac", "abc", "\xf0\x9f\x98"};
    const char *want[] = {"ab", "ab", "ab\xe2\x82\xac", "abc", ""};
    for (int i = 0; i < 5; i++) {
        text_cut(cut[i]);
        cr_expect_str_eq(cut[i], want[i], "cut %d", i);
    }
}
