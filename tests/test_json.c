/* The JSON writer (engine/base/json.c) and the --json of selfplay, match,
 * tournament, report, bench and tune (docs/json.md): exact text for the writer's cases, and
 * every document read back by Python's json module (`python3 -m
 * json.tool`, then a few figures checked against what the command did). */
#define _GNU_SOURCE /* nftw, in test_proc.h */
#include <math.h>
#include "engine/base/json.h"
#include "tests/test_proc.h"


/* Runs python3 with args (NULL-terminated), its stdout thrown away (what
 * fails is said on stderr); its exit status. Skips the test when the
 * build found no python3. */
static int python(const char *const *args)
{
    if (!*YINSH_PYTHON3) cr_skip_test("no python3 found at configure time");
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, 1);
        const char *argv[16];
        int n = 0;
        argv[n++] = YINSH_PYTHON3;
        for (int i = 0; args[i]; i++) argv[n++] = args[i];
        argv[n] = NULL;
        execv(YINSH_PYTHON3, (char **)argv);
        _exit(127);
    }
    return yinsh_wait(pid);
}

/* The file is one JSON document (json.tool refuses anything after it),
 * and the Python expression `check` holds for it as `d`. */
static void expect_json(const char *file, const char *check)
{
    cr_assert_eq(python(ARGS("-m", "json.tool", file)), 0, "not JSON: %s", slurp(file));
    char code[2048];
    snprintf(code, sizeof code,
             "import json, sys\nd = json.load(open(sys.argv[1], encoding='utf-8'))\n"
             "assert %s, json.dumps(d)[:2000]\n",
             check);
    cr_expect_eq(python(ARGS("-c", code, file)), 0, "%s does not hold for %s", check, slurp(file));
}

/* A document written into memory. */
typedef struct Doc {
    char *text;
    size_t len;
    FILE *f;
    Json j;
} Doc;

static void doc_begin(Doc *d)
{
    d->f = open_memstream(&d->text, &d->len);
    cr_assert(d->f);
    json_begin(&d->j, d->f);
}

static char *doc_end(Doc *d)
{
    json_end(&d->j);
    fclose(d->f);
    return gc(d->text);
}

Test(json, layout)
{
    Doc d;
    doc_begin(&d);
    json_str(&d.j, "a", "x");
    json_object(&d.j, "o");
    json_int(&d.j, "i", -3);
    json_array(&d.j, "empty");
    json_close(&d.j);
    json_close(&d.j);
    json_estimate(&d.j, "s", 0.25, 0.5, 0.75);
    json_estimate(&d.j, "none", 1, 1, 1);
    json_open(&d.j, "row", '[', true);
    json_uint(&d.j, NULL, 1);
    json_open(&d.j, NULL, '{', false); /* inside an inline array: inline too */
    json_bool(&d.j, "t", true);
    json_close(&d.j);
    json_close(&d.j);
    cr_expect_str_eq(doc_end(&d), "{\n"
                                  "  \"a\": \"x\",\n"
                                  "  \"o\": {\n"
                                  "    \"i\": -3,\n"
                                  "    \"empty\": []\n"
                                  "  },\n"
                                  "  \"s\": {\"value\": 0.5, \"ci95\": [0.25, 0.75]},\n"
                                  "  \"none\": {\"value\": 1, \"ci95\": null},\n"
                                  "  \"row\": [1, {\"t\": true}]\n"
                                  "}\n");
}

/* Numbers: finite ones in ten digits, -0 as 0, NaN and infinities null;
 * 64-bit values as strings that keep every digit. */
Test(json, numbers)
{
    Doc d;
    doc_begin(&d);
    json_num(&d.j, "third", 1.0 / 3);
    json_num(&d.j, "negzero", -0.0);
    json_num(&d.j, "nan", NAN);
    json_num(&d.j, "inf", INFINITY);
    json_num(&d.j, "big", 1e300);
    json_uint(&d.j, "u", UINT64_MAX);
    json_u64_text(&d.j, "seed", UINT64_MAX);
    json_hex(&d.j, "hash", 0x0123456789abcdefULL);
    json_estimate(&d.j, "elo", 66, 241, INFINITY);
    cr_expect_str_eq(doc_end(&d), "{\n"
                                  "  \"third\": 0.3333333333,\n"
                                  "  \"negzero\": 0,\n"
                                  "  \"nan\": null,\n"
                                  "  \"inf\": null,\n"
                                  "  \"big\": 1e+300,\n"
                                  "  \"u\": 18446744073709551615,\n"
                                  "  \"seed\": \"18446744073709551615\",\n"
                                  "  \"hash\": \"0123456789abcdef\",\n"
                                  "  \"elo\": {\"value\": 241, \"ci95\": [66, null]}\n"
                                  "}\n");
}

/* Fixed decimals: rounded as printf rounds, a negative value too small to
 * show as 0, NaN and infinities null. */
Test(json, fixed_decimals)
{
    Doc d;
    doc_begin(&d);
    json_open(&d.j, "f", '[', true);
    json_fixed(&d.j, NULL, 12.345, 1);
    json_fixed(&d.j, NULL, 0.5, 4);
    json_fixed(&d.j, NULL, 1499.6, 0);
    json_fixed(&d.j, NULL, -0.04, 1);
    json_fixed(&d.j, NULL, -0.0, 0);
    json_fixed(&d.j, NULL, -2.26, 1);
    json_fixed(&d.j, NULL, NAN, 2);
    json_fixed(&d.j, NULL, -INFINITY, 2);
    json_close(&d.j);
    cr_expect_str_eq(doc_end(&d), "{\n  \"f\": [12.3, 0.5000, 1500, 0.0, 0, -2.3, null, null]\n}\n");
}

/* A document inside an HTML <script> element: every string, keys too,
 * with '<', '>' and '&' as \u escapes (json_string's), so no text ends
 * the element; the rest as json_begin writes it. */
Test(json, script_document)
{
    Doc d;
    d.f = open_memstream(&d.text, &d.len);
    cr_assert(d.f);
    json_begin_script(&d.j, d.f);
    json_str(&d.j, "name", "a</script><b>&\"");
    json_str(&d.j, "<k>", "v");
    json_open(&d.j, "row", '[', true);
    json_str(&d.j, NULL, "x&y");
    json_int(&d.j, NULL, 1);
    json_close(&d.j);
    cr_expect_str_eq(doc_end(&d), "{\n"
                                  "  \"name\": \"a\\u003c/script\\u003e\\u003cb\\u003e\\u0026\\\"\",\n"
                                  "  \"\\u003ck\\u003e\": \"v\",\n"
                                  "  \"row\": [\"x\\u0026y\", 1]\n"
                                  "}\n");
}

/* Strings: quotes, backslashes and control characters escaped; valid
 * UTF-8 kept; each byte of an invalid sequence becomes U+FFFD. Python
 * reads them back as the text meant. */
Test(json, strings)
{
    Doc d;
    doc_begin(&d);
    json_str(&d.j, "esc", "q\" b\\ n\n t\t r\r \x01 \x7f");
    json_str(&d.j, "utf8", "é → ∞ 😀");
    json_str(&d.j, "bad", "a\xff" "b\xc0\xaf" "c\xed\xa0\x80" "d\xe2\x82");
    json_str(&d.j, "null", NULL);
    json_str(&d.j, "key \"q\"", "k");
    char *text = doc_end(&d);
    cr_expect(strstr(text, "\"esc\": \"q\\\" b\\\\ n\\n t\\t r\\r \\u0001 \\u007f\""), "%s", text);
    cr_expect(strstr(text, "\"utf8\": \"é → ∞ 😀\""), "%s", text);
    cr_expect(strstr(text, "\"bad\": \"a\\ufffdb\\ufffd\\ufffdc\\ufffd\\ufffd\\ufffdd\\ufffd\\ufffd\""), "%s", text);
    cr_expect(strstr(text, "\"null\": null"), "%s", text);
    cr_expect(strstr(text, "\"key \\\"q\\\"\": \"k\""), "%s", text);
    char *dir = tmpdir_new(), *file = path_in(dir, "s.json");
    FILE *f = fopen(file, "w");
    fputs(text, f);
    fclose(f);
    expect_json(file, "d['esc'] == 'q\" b\\\\ n\\n t\\t r\\r \\x01 \\x7f' and d['utf8'] == 'é → ∞ 😀' "
                      "and d['bad'] == 'a\\ufffdb\\ufffd\\ufffdc\\ufffd\\ufffd\\ufffdd\\ufffd\\ufffd' "
                      "and d['null'] is None");
}

/* Each command's --json on stdout: one document, the figures it ran. */
Test(json, selfplay_and_match)
{
    char *dir = tmpdir_new(), *err, *out;
    char *db = path_in(dir, "d.db"), *sp = path_in(dir, "sp.json"), *m = path_in(dir, "m.json");
    cr_assert_eq(yinsh_wait(yinsh_spawn(dir, sp, NULL, NULL, NULL,
                                        ARGS("selfplay", "--games", "6", "--agent", "random", "--seed", "5", "--db", db,
                                             "--run", "r\"1", "--threads", "2", "--json"))),
                 0, "%s", slurp(path_in(dir, "err")));
    expect_json(sp, "d['command'] == 'selfplay' and d['run'] == 'r\"1' and d['games'] == 6 and d['seed'] == '5' "
                    "and sum(d['results'].values()) == 6 and d['white_score']['ci95'][0] < d['white_score']['value'] "
                    "and d['db'].endswith('d.db') and len(d['hash']) == 16");
    cr_expect(strstr(slurp(path_in(dir, "err")), "games 6/6"), "progress stays on stderr");
    /* the text summary's hash is the JSON's */
    cr_assert_eq(yinsh_run(dir, ARGS("selfplay", "--games", "6", "--agent", "random", "--seed", "5", "--no-db",
                                     "--quiet"),
                           &out, &err),
                 0, "%s", err);
    char code[128];
    cr_assert_eq(sscanf(strstr(out, "hash "), "hash %16s", code), 1);
    char check[256];
    snprintf(check, sizeof check, "d['hash'] == '%s'", code);
    expect_json(sp, check);

    cr_assert_eq(yinsh_wait(yinsh_spawn(dir, m, NULL, NULL, NULL,
                                        ARGS("match", "--a", "mcts:sims=20", "--b", "random", "--games", "8", "--seed",
                                             "2", "--no-db", "--sprt", "0,50,0.05,0.05", "--json"))),
                 0, "%s", slurp(path_in(dir, "err")));
    expect_json(m, "d['command'] == 'match' and d['games'] == 8 and d['pairs'] == 4 and d['db'] is None "
                   "and sum(d['pentanomial']) == 4 and d['sprt']['lower'] < 0 < d['sprt']['upper'] "
                   "and d['a_results']['wins'] + d['a_results']['draws'] + d['a_results']['losses'] == 8 "
                   "and set(d['elo']) == {'value', 'ci95'}");
    /* progress: the running score, Elo and the LLR between its bounds */
    err = slurp(path_in(dir, "err"));
    cr_expect(strstr(err, "score ") && strstr(err, "Elo ") && strstr(err, "LLR ") && strstr(err, "(-2.94, 2.94)"),
              "%s", err);
}

Test(json, tournament)
{
    char *dir = tmpdir_new(), *t = path_in(dir, "t.json");
    cr_assert_eq(yinsh_wait(yinsh_spawn(dir, t, NULL, NULL, NULL,
                                        ARGS("tournament", "--p", "rnd=random", "--p", "m5=mcts:sims=5", "--p",
                                             "m20=mcts:sims=20", "--games", "10", "--db", "t.db", "--anchor", "m5",
                                             "--json"))),
                 0, "%s", slurp(path_in(dir, "err")));
    expect_json(t, "d['command'] == 'tournament' and d['anchor'] == 'm5' and d['rated'] and d['why_unrated'] is None "
                   "and [p['name'] for p in d['participants']] == ['rnd', 'm5', 'm20'] "
                   "and d['participants'][1]['elo'] == {'value': 0, 'ci95': None} "
                   "and all(p['games'] == 20 for p in d['participants']) "
                   "and sum(p['points'] for p in d['participants']) == 30 "
                   "and [q['run'] for q in d['pairings']] == ['tournament/m5-vs-rnd', 'tournament/m20-vs-rnd', "
                   "'tournament/m5-vs-m20'] and all(sum(q['pentanomial']) == 5 for q in d['pairings'])");
}

Test(json, bench)
{
    char *dir = tmpdir_new(), *b = path_in(dir, "b.json"), *mc = path_in(dir, "mc.json");
    cr_assert_eq(yinsh_wait(yinsh_spawn(dir, b, NULL, NULL, NULL,
                                        ARGS("bench", "--depth", "2", "--games", "50", "--threads", "2", "--json"))),
                 0, "%s", slurp(path_in(dir, "err")));
    expect_json(b, "d['mode'] == 'engine' and d['perft']['nodes'] == d['perft']['expected'] == 4705 and d['ok'] "
                   "and d['playouts']['games'] == 50 and d['playouts']['many_threads']['totals_identical']");
    cr_assert_eq(yinsh_wait(yinsh_spawn(dir, mc, NULL, NULL, NULL,
                                        ARGS("bench", "--mcts", "--sims", "200", "--positions", "10", "--seed", "1",
                                             "--json"))),
                 0, "%s", slurp(path_in(dir, "err")));
    /* the pinned hash of tests/bench_quick.sh */
    expect_json(mc, "d['mode'] == 'mcts' and d['simulations'] == 2000 and d['hash'] == '0595c67039825e7e'");
}

Test(json, report_and_tune)
{
    char *dir = tmpdir_new(), *err, *db = path_in(dir, "d.db");
    cr_assert_eq(yinsh_run(dir, ARGS("selfplay", "--games", "20", "--agent", "random", "--seed", "3", "--db", db,
                                     "--run", "s", "--quiet"),
                           NULL, &err),
                 0, "%s", err);
    cr_assert_eq(yinsh_run(dir, ARGS("selfplay", "--games", "10", "--agent", "random", "--variant", "blitz", "--seed",
                                     "4", "--db", db, "--run", "b", "--quiet"),
                           NULL, &err),
                 0, "%s", err);
    char *r = path_in(dir, "r.json"), *t = path_in(dir, "t.json");
    cr_assert_eq(yinsh_wait(yinsh_spawn(dir, r, NULL, NULL, NULL,
                                        ARGS("report", "--db", db, "--out", "rep", "--no-plots", "--json"))),
                 0, "%s", slurp(path_in(dir, "err")));
    expect_json(r, "d['command'] == 'report' and d['games'] == 30 and [x['name'] for x in d['runs']] == ['s', 'b'] "
                   "and sorted(p['variant'] for p in d['pairs']) == ['blitz', 'standard'] "
                   "and len(d['blitz_vs_standard']) == 1 and d['pictures'] is None "
                   "and all(0 <= p['p_value'] <= 1 for p in d['pairs'])");
    cr_expect(file_nonempty(path_in(dir, "rep/report.md")), "the report is still written");

    cr_assert_eq(yinsh_wait(yinsh_spawn(dir, t, NULL, NULL, NULL,
                                        ARGS("tune", "--db", db, "--runs", "s", "--out", "w.txt", "--val", "0",
                                             "--quiet", "--json"))),
                 0, "%s", slurp(path_in(dir, "err")));
    /* no validation games: the validation losses are null, not NaN */
    expect_json(t, "d['command'] == 'tune' and d['data']['games'] == 20 and d['runs'] == ['s'] "
                   "and d['log_loss']['tuned']['validation'] is None and d['log_loss']['tuned']['train'] > 0 "
                   "and len(d['weights']) > 0 and all(set(w) == {'start', 'tuned'} for w in d['weights'].values())");
    cr_expect(file_nonempty(path_in(dir, "w.txt")), "the weights file is still written");
}
