/* The rules of docs/rules.md as data: every case in tests/data/{placement,moves,
 * rows,end,blitz,variants}.txt runs as its own Criterion test (a parameterized test
 * over the cases; a failure names the case, its file and line). The format
 * is described at the top of tests/data/placement.txt and in run_case below.
 * Also replays the real game of tests/data (the .rec file). */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/position.h"

static const char *const CASE_FILES[] = {"placement.txt", "moves.txt", "rows.txt", "end.txt", "blitz.txt", "variants.txt"};
enum { CASE_FILE_NB = sizeof CASE_FILES / sizeof CASE_FILES[0], MAX_CASES = 512, DIRECTIVE_LEN = 8192 };

/* A case: which file, and the line of its "case" directive. Plain data, so
 * Criterion can hand it to the forked test process. */
typedef struct CaseRef {
    int file;
    int line;
} CaseRef;

static FILE *open_data(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", YINSH_TEST_DATA, name);
    return fopen(path, "r");
}

/* Reads the next directive: one line, plus the lines after it that start with
 * white space (continuations). Skips blank lines and '#' comments. Returns
 * false at the end of the file; *line is the directive's line number. */
typedef struct Reader {
    FILE *f;
    int lineno;
    char pending[DIRECTIVE_LEN];
    bool has_pending;
} Reader;

static bool read_raw(Reader *r, char *buf)
{
    if (r->has_pending) {
        strcpy(buf, r->pending);
        r->has_pending = false;
        return true;
    }
    if (!fgets(buf, DIRECTIVE_LEN, r->f)) return false;
    r->lineno++;
    buf[strcspn(buf, "\r\n")] = 0;
    return true;
}

static bool read_directive(Reader *r, char *out, int *line)
{
    char buf[DIRECTIVE_LEN];
    for (;;) {
        if (!read_raw(r, buf)) return false;
        const char *s = buf;
        while (*s == ' ' || *s == '\t') s++;
        if (*s == 0 || *s == '#') continue;
        cr_assert(s == buf, "line %d: continuation line without a directive", r->lineno);
        strcpy(out, buf);
        *line = r->lineno;
        break;
    }
    /* continuations */
    for (;;) {
        if (!read_raw(r, buf)) return true;
        if (buf[0] != ' ' && buf[0] != '\t') {
            strcpy(r->pending, buf);
            r->has_pending = true;
            return true;
        }
        const char *s = buf;
        while (*s == ' ' || *s == '\t') s++;
        if (*s == '#' || *s == 0) continue;
        size_t n = strlen(out);
        cr_assert(n + 1 + strlen(s) < DIRECTIVE_LEN, "directive too long at line %d", r->lineno);
        out[n] = ' ';
        strcpy(out + n + 1, s);
    }
}

static size_t count_cases(CaseRef *refs, size_t max)
{
    size_t n = 0;
    for (int f = 0; f < CASE_FILE_NB; f++) {
        FILE *fp = open_data(CASE_FILES[f]);
        if (!fp) continue; /* test data_files_load reports it */
        char buf[DIRECTIVE_LEN];
        int line = 0;
        while (fgets(buf, sizeof buf, fp)) {
            line++;
            if (!strncmp(buf, "case ", 5) && n < max) refs[n++] = (CaseRef){f, line};
        }
        fclose(fp);
    }
    return n;
}

/* Splits s in place into white-space separated tokens. */
static int split(char *s, char **tok, int max)
{
    int n = 0;
    for (char *t = strtok(s, " \t"); t && n < max; t = strtok(NULL, " \t")) tok[n++] = t;
    return n;
}

/* The legal actions as text in canonical order, space separated. */
static void legal_text(const Position *pos, char *out, size_t cap, int *n_out)
{
    Action list[MAX_ACTIONS];
    int n = movegen_all(pos, list);
    movegen_sort(list, n);
    size_t len = 0;
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        char a[ACTION_MAX_LEN];
        len += (size_t)snprintf(out + len, cap - len, "%s%s", i ? " " : "", action_format(list[i], a));
    }
    *n_out = n;
}

/* Runs one case. Directives, in order, act on the current position:
 *   case <name>              starts the case
 *   ypn <YPN>                sets the position (must parse, and be written canonically)
 *   play <action> ...        applies actions, each through action_parse
 *   expect <YPN>             the position is now this one (text and key)
 *   actions [<action> ...]   the legal actions, exactly, in canonical order
 *   count <n>                the number of legal actions
 *   illegal <action> ...     each is refused by action_parse
 *   outcome <result> <reason>  pos_outcome (white black draw none; three-rings
 *                            blitz-row pool-empty no-moves none) */
static void run_case(CaseRef ref)
{
    FILE *fp = open_data(CASE_FILES[ref.file]);
    cr_assert(fp, "cannot open %s", CASE_FILES[ref.file]);
    Reader rd = {.f = fp};
    static char dir[DIRECTIVE_LEN], name[256], where[300];
    int line = 0;
    while (read_directive(&rd, dir, &line) && line < ref.line) {
    }
    cr_assert(line == ref.line && !strncmp(dir, "case ", 5), "case at line %d not found", ref.line);
    snprintf(name, sizeof name, "%.200s", dir + 5);

    Position pos;
    memset(&pos, 0, sizeof pos);
    bool have_pos = false;
    char err[ERR_LEN];
    while (read_directive(&rd, dir, &line) && strncmp(dir, "case ", 5)) {
        snprintf(where, sizeof where, "case '%s' (%s:%d)", name, CASE_FILES[ref.file], line);
        char *arg = dir + strcspn(dir, " ");
        if (*arg) *arg++ = 0;
        static char *tok[MAX_ACTIONS * 2];
        if (!strcmp(dir, "ypn")) {
            char out[YPN_MAX_LEN];
            cr_assert_eq(ypn_parse(arg, &pos, err), 0, "%s: ypn_parse rejects '%s': %s", where, arg, err);
            cr_assert_str_eq(ypn_format(&pos, out), arg, "%s: the YPN is not written canonically", where);
            have_pos = true;
            continue;
        }
        cr_assert(have_pos, "%s: '%s' before any ypn", where, dir);
        if (!strcmp(dir, "play")) {
            int n = split(arg, tok, MAX_ACTIONS * 2);
            for (int i = 0; i < n; i++) {
                Action a;
                Undo u;
                char why[ERR_LEN];
                cr_assert_eq(action_parse(&pos, tok[i], &a, err), 0, "%s: action %d '%s' refused: %s", where, i + 1,
                          tok[i], err);
                pos_make(&pos, a, &u);
                cr_assert_eq(pos_check(&pos, why), 0, "%s: pos_check after '%s': %s", where, tok[i], why);
            }
        } else if (!strcmp(dir, "expect")) {
            char out[YPN_MAX_LEN];
            Position want;
            cr_assert_eq(ypn_parse(arg, &want, err), 0, "%s: expected YPN does not parse: %s", where, err);
            cr_expect_str_eq(ypn_format(&pos, out), arg, "%s: position differs", where);
            cr_expect(pos_equal(&pos, &want),
                      "%s: differs from the parsed expected YPN in key or derived fields (key %016llx/%016llx, "
                      "pool %d/%d, removed %d,%d/%d,%d, placed %d/%d)",
                      where, (unsigned long long)pos.key, (unsigned long long)want.key, pos.pool, want.pool,
                      pos.removed[0], pos.removed[1], want.removed[0], want.removed[1], pos.placed, want.placed);
        } else if (!strcmp(dir, "actions")) {
            static char got[DIRECTIVE_LEN], want[DIRECTIVE_LEN];
            int n, m = split(arg, tok, MAX_ACTIONS * 2);
            legal_text(&pos, got, sizeof got, &n);
            want[0] = 0;
            for (int i = 0; i < m; i++) {
                strcat(want, i ? " " : "");
                strcat(want, tok[i]);
            }
            cr_expect_str_eq(got, want, "%s: legal actions differ\n  got  (%d): %s\n  want (%d): %s", where, n, got,
                             m, want);
            cr_expect_eq(movegen_count(&pos), n, "%s: movegen_count %d != movegen_all %d", where,
                         movegen_count(&pos), n);
        } else if (!strcmp(dir, "count")) {
            Action list[MAX_ACTIONS];
            int want = atoi(arg);
            cr_expect_eq(movegen_all(&pos, list), want, "%s: movegen_all %d, want %d", where,
                         movegen_all(&pos, list), want);
            cr_expect_eq(movegen_count(&pos), want, "%s: movegen_count %d, want %d", where, movegen_count(&pos),
                         want);
        } else if (!strcmp(dir, "illegal")) {
            int n = split(arg, tok, MAX_ACTIONS * 2);
            for (int i = 0; i < n; i++) {
                Action a;
                cr_expect_neq(action_parse(&pos, tok[i], &a, err), 0, "%s: '%s' is accepted, should be illegal", where,
                          tok[i]);
            }
        } else if (!strcmp(dir, "outcome")) {
            int result, reason;
            char want_res[32] = "", want_why[32] = "";
            cr_assert(sscanf(arg, "%31s %31s", want_res, want_why) == 2, "%s: outcome needs 2 words", where);
            bool over = pos_outcome(&pos, &result, &reason);
            cr_expect_str_eq(result_name(result), want_res, "%s: result %s, want %s", where, result_name(result),
                             want_res);
            cr_expect_str_eq(reason_name(reason), want_why, "%s: reason %s, want %s", where, reason_name(reason),
                             want_why);
            cr_expect_eq(over, strcmp(want_res, "none") != 0, "%s: pos_outcome's return value", where);
            Action list[MAX_ACTIONS];
            cr_expect_eq(movegen_all(&pos, list) == 0, over, "%s: no legal action exactly when the game is over",
                         where);
        } else {
            cr_assert_fail("%s: unknown directive '%s'", where, dir);
        }
    }
    fclose(fp);
}

ParameterizedTestParameters(rules, data)
{
    static CaseRef refs[MAX_CASES];
    size_t n = count_cases(refs, MAX_CASES);
    return cr_make_param_array(CaseRef, refs, n);
}

ParameterizedTest(CaseRef *ref, rules, data)
{
    run_case(*ref);
}

Test(rules, data_files_load)
{
    CaseRef refs[MAX_CASES];
    for (int f = 0; f < CASE_FILE_NB; f++) {
        FILE *fp = open_data(CASE_FILES[f]);
        cr_assert(fp, "cannot open %s/%s", YINSH_TEST_DATA, CASE_FILES[f]);
        fclose(fp);
    }
    size_t n = count_cases(refs, MAX_CASES);
    cr_assert(n > 0 && n < MAX_CASES, "%zu cases (raise MAX_CASES?)", n);
}

/* The game of docs/notation.md §5, played on boardspace.net: 56 actions,
 * Black wins 3-2 by three rings. */
Test(rules, boardspace_game)
{
    FILE *fp = open_data("boardspace-2026-02-20-DrMih-Dumbot.rec");
    cr_assert(fp, "cannot open the game record");
    static char text[8192];
    size_t len = fread(text, 1, sizeof text - 1, fp);
    text[len] = 0;
    fclose(fp);

    char *nl = strchr(text, '\n');
    cr_assert(nl, "no start position line");
    *nl = 0;
    Position pos;
    char err[ERR_LEN], out[YPN_MAX_LEN];
    cr_assert_eq(ypn_parse(text, &pos, err), 0, "start: %s", err);
    int plies = 0, result, reason;
    for (char *t = strtok(nl + 1, " \t\r\n"); t; t = strtok(NULL, " \t\r\n")) {
        Action a;
        Undo u;
        char why[ERR_LEN];
        cr_assert(!pos_outcome(&pos, NULL, NULL), "game over before action %d '%s'", plies + 1, t);
        cr_assert_eq(action_parse(&pos, t, &a, err), 0, "action %d '%s': %s", plies + 1, t, err);
        pos_make(&pos, a, &u);
        cr_assert_eq(pos_check(&pos, why), 0, "after action %d '%s': %s", plies + 1, t, why);
        plies++;
        if (plies == 10)
            cr_expect_str_eq(ypn_format(&pos, out), "4/7/5B2/6B2/8BW/6B2/4B1W2W/3W4W/8/7/4 w M standard",
                             "after the ten placements");
    }
    cr_expect_eq(plies, 56);
    cr_expect_str_eq(ypn_format(&pos, out), "4/2b4/5b2/4B1b2/4b2Bb1/7W1/4b5/4Wwwww/4b1W1/7/4 b - standard");
    cr_expect(pos_outcome(&pos, &result, &reason));
    cr_expect_str_eq(result_name(result), "black");
    cr_expect_str_eq(reason_name(reason), "three-rings");
    cr_expect_eq(pos.removed[WHITE], 2);
    cr_expect_eq(pos.removed[BLACK], 3);
    Action list[MAX_ACTIONS];
    cr_expect_eq(movegen_all(&pos, list), 0, "no action after the end");
}

/* record_play: the same game as one text, and records it must refuse. */
Test(rules, record_play)
{
    FILE *fp = open_data("boardspace-2026-02-20-DrMih-Dumbot.rec");
    cr_assert(fp, "cannot open the game record");
    static char text[8192];
    size_t len = fread(text, 1, sizeof text - 1, fp);
    text[len] = 0;
    fclose(fp);
    Position pos;
    int count = -1;
    char err[ERR_LEN] = "", out[YPN_MAX_LEN];
    cr_assert_eq(record_play(text, len, &pos, &count, err), 0, "%s", err);
    cr_expect_eq(count, 56);
    cr_expect_str_eq(ypn_format(&pos, out), "4/2b4/5b2/4B1b2/4b2Bb1/7W1/4b5/4Wwwww/4b1W1/7/4 b - standard");

    /* an action after the end of the game: action 57, and pos is the end */
    static char more[8300];
    snprintf(more, sizeof more, "%s xa2\n", text);
    cr_expect_neq(record_play(more, strlen(more), &pos, &count, err), 0);
    cr_expect(strstr(err, "action 57") && strstr(err, "game is over"), "message: %s", err);
    cr_expect_str_eq(ypn_format(&pos, out), "4/2b4/5b2/4B1b2/4b2Bb1/7W1/4b5/4Wwwww/4b1W1/7/4 b - standard");

    const char *bad = "4/7/8/9/10/9/10/9/8/7/4 w P standard\ne5 e5\n";
    cr_expect_neq(record_play(bad, strlen(bad), &pos, &count, err), 0);
    cr_expect(strstr(err, "action 2") && strstr(err, "occupied"), "message: %s", err);
    cr_expect_eq(count, 1);
    bad = "4/7/8/9/10/9/10/9/8/7/4 w Q standard\ne5\n";
    cr_expect_neq(record_play(bad, strlen(bad), &pos, &count, err), 0);
    cr_expect(strstr(err, "start position") && strstr(err, "state:"), "message: %s", err);
    cr_expect_neq(record_play("  \n\n", 4, &pos, &count, err), 0);
}
