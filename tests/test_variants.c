#define _GNU_SOURCE /* nftw, in test_proc.h */
/* The rule options of docs/rules.md §9 (swap, draw odds) beyond the rules
 * cases of tests/data/variants.txt: names and their errors, the swap's
 * errors, its index in the action space, random play, perft by products,
 * the UYI reader, and a stored game's round trip through the database and
 * its records. */
#include "tests/test_proc.h"
#include "engine/encode/encode.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/perft.h"
#include "selfplay/uyi/command.h"

static const char START_SWAP[] = "4/7/8/9/10/9/10/9/8/7/4 w P standard+swap";
static const char FIRST_RING[] = "4/7/8/9/6W3/9/10/9/8/7/4 b P standard+swap";

static Position parsed(const char *ypn)
{
    Position pos;
    char err[ERR_LEN];
    cr_assert_eq(ypn_parse(ypn, &pos, err), 0, "%s: %s", ypn, err);
    return pos;
}

/* Every combination has one name, read back as itself. */
Test(variants, names_round_trip)
{
    for (int v = 0; v < VARIANT_NB; v++) {
        int back = -1;
        cr_expect(variant_parse(variant_name(v), &back) && back == v, "%d: %s", v, variant_name(v));
    }
    cr_expect_str_eq(variant_name(VARIANT_STANDARD), "standard");
    cr_expect_str_eq(variant_name(VARIANT_BLITZ), "blitz");
    cr_expect_str_eq(variant_name(VARIANT_BLITZ | VARIANT_SWAP | VARIANT_DRAW_ODDS), "blitz+swap+draw-odds");
}

/* A bad name is refused with the part that is wrong. */
Test(variants, bad_names)
{
    static const struct {
        const char *text, *says;
    } bad[] = {
        {"classic", "expected standard or blitz"},
        {"standard+swop", "unknown rule option 'swop'"},
        {"blitz+", "unknown rule option ''"},
        {"standard+draw-odds+swap", "out of order"},
        {"standard+swap+swap", "given twice"},
        {"swap", "expected standard or blitz"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char err[ERR_LEN] = "";
        int v;
        cr_expect_neq(variant_read(bad[i].text, strlen(bad[i].text), &v, err), 0, "%s", bad[i].text);
        cr_expect(strstr(err, bad[i].says), "%s: '%s' does not say '%s'", bad[i].text, err, bad[i].says);
        cr_expect(!variant_parse(bad[i].text, &v), "%s", bad[i].text);
    }
    Position pos;
    char err[ERR_LEN];
    cr_expect_neq(ypn_parse("4/7/8/9/10/9/10/9/8/7/4 w P standard+swop", &pos, err), 0);
    cr_expect(strstr(err, "variant: unknown rule option 'swop'"), "%s", err);
}

/* The rings after a swap are accepted only in a +swap variant. */
Test(variants, swapped_counts_need_the_option)
{
    Position pos;
    char err[ERR_LEN];
    cr_expect_eq(ypn_parse("4/7/8/9/6B3/9/10/9/8/7/4 w P standard+swap", &pos, err), 0, "%s", err);
    cr_expect_eq(ypn_parse("4/7/8/9/6B3/4W4/10/9/8/7/4 b P blitz+swap", &pos, err), 0, "%s", err);
    cr_expect_neq(ypn_parse("4/7/8/9/6B3/9/10/9/8/7/4 w P standard", &pos, err), 0);
    cr_expect_neq(ypn_parse("4/7/8/9/6B3/9/10/9/8/7/4 b P standard+swap", &pos, err), 0);
    cr_expect(strstr(err, "after a swap, White places next"), "%s", err);
}

/* Swap where it is not legal says why. */
Test(variants, swap_refused_with_the_reason)
{
    static const struct {
        const char *ypn, *says;
    } bad[] = {
        {"4/7/8/9/6W3/9/10/9/8/7/4 b P standard", "rule of the +swap variants, this game is standard"},
        {"4/7/8/9/10/9/10/9/8/7/4 w P standard+swap", "Black's answer to White's first ring"},
        {"4/7/8/9/6B3/9/10/9/8/7/4 w P standard+swap", "Black's answer to White's first ring"},
        {"4/7/8/9/6W3/4B4/10/9/8/7/4 w P standard+swap", "Black's answer to White's first ring"},
        {"4/7/5B2/6W2/6B1BB/4W4/4B1W3/3W4W/8/7/4 b M standard+swap", "Black's answer to White's first ring"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        Position pos = parsed(bad[i].ypn);
        Action a;
        char err[ERR_LEN] = "";
        cr_expect_neq(action_parse(&pos, "swap", &a, err), 0, "%s", bad[i].ypn);
        cr_expect(strstr(err, bad[i].says), "%s: '%s' does not say '%s'", bad[i].ypn, err, bad[i].says);
    }
    Position pos = parsed(FIRST_RING);
    Action a;
    char err[ERR_LEN];
    cr_expect_eq(action_parse(&pos, "SWAP", &a, err), 0, "%s", err);
    cr_expect_eq(a, ACTION_SWAP);
    cr_expect_eq(action_parse_form("swap", &a, err), 0);
    char text[ACTION_MAX_LEN];
    cr_expect_str_eq(action_format(ACTION_SWAP, text), "swap");
}

/* Make and unmake restore every field; the key follows the ring. */
Test(variants, swap_make_unmake)
{
    Position pos = parsed(FIRST_RING), before = pos, after = parsed("4/7/8/9/6B3/9/10/9/8/7/4 w P standard+swap");
    Undo u;
    pos_make(&pos, ACTION_SWAP, &u);
    char err[ERR_LEN];
    cr_expect_eq(pos_check(&pos, err), 0, "%s", err);
    cr_expect(pos_equal(&pos, &after), "the swap does not lead to its YPN");
    pos_unmake(&pos, ACTION_SWAP, &u);
    cr_expect(pos_equal(&pos, &before));
    /* the options are in the key: the same board in another variant is another position */
    Position std = parsed("4/7/8/9/6W3/9/10/9/8/7/4 b P standard");
    cr_expect_neq(std.key, before.key);
}

/* Swap shares the index of pass: the same slot, read in its position. */
Test(variants, swap_in_the_action_space)
{
    Position pos = parsed(FIRST_RING);
    cr_expect_eq(encode_action(ACTION_SWAP), ENCODE_PASS);
    cr_expect_eq(encode_action_in(&pos, ENCODE_PASS), ACTION_SWAP);
    cr_expect_eq(encode_action_at(ENCODE_PASS), ACTION_MAKE(ACT_PASS, 0, 0));
    Position m = parsed("4/7/5B2/6W2/6B1BB/4W4/4B1W3/3W4W/8/7/4 b M standard+swap");
    cr_expect_eq(encode_action_in(&m, ENCODE_PASS), ACTION_MAKE(ACT_PASS, 0, 0));
    cr_expect_eq(encode_action_in(&m, 0), encode_action_at(0));

    uint8_t mask[ENCODE_ACTIONS];
    cr_expect_eq(encode_mask(&pos, mask), 85);
    cr_expect_eq(mask[ENCODE_PASS], 1);
    int idx[MAX_ACTIONS];
    Action list[MAX_ACTIONS];
    int n = encode_legal(&pos, idx);
    cr_assert_eq(n, movegen_all(&pos, list));
    movegen_sort(list, n);
    /* the sorted indices are the canonical list, swap last in both */
    for (int k = 0; k < n; k++) cr_expect_eq(encode_action_in(&pos, idx[k]), list[k], "action %d", k);
    cr_expect_eq(list[n - 1], ACTION_SWAP);
}

/* movegen_random draws as list[rng_below(n)] does, swap included. */
Test(variants, random_draws_swap_as_the_list_does)
{
    Position pos = parsed(FIRST_RING);
    Action list[MAX_ACTIONS];
    int n = movegen_all(&pos, list), swaps = 0;
    cr_assert_eq(movegen_count(&pos), n);
    Rng a, b;
    rng_seed(&a, 7, 0);
    rng_seed(&b, 7, 0);
    for (int i = 0; i < 2000; i++) {
        Action x = movegen_random(&pos, &a), y = list[rng_below(&b, (uint32_t)n)];
        cr_assert_eq(x, y, "draw %d", i);
        swaps += x == ACTION_SWAP;
    }
    cr_expect(swaps > 5 && swaps < 60, "%d swaps in 2000 draws of 85", swaps);
}

/* Perft by products (docs/notation.md §6), independent of the generator:
 * at the start 85 first rings, each answered by 84 placements or swap;
 * after a placement 83 rings remain to choose from, after a swap 84. */
Test(variants, perft_by_products)
{
    Position pos = parsed(START_SWAP);
    uint64_t d3 = 85 * (84 * 83 + 84), d4 = 85 * (84 * 83 * 82 + 84 * 83);
    cr_expect_eq(perft(&pos, 1), 85);
    cr_expect_eq(perft(&pos, 2), 85 * 85);
    cr_expect_eq(perft(&pos, 3), d3);
    cr_expect_eq(perft(&pos, 4), d4);
    cr_expect_eq(perft_made(&pos, 3), d3);
    /* draw odds changes no action */
    Position odds = parsed("4/7/8/9/10/9/10/9/8/7/4 w P standard+draw-odds");
    cr_expect_eq(perft(&odds, 3), 85 * 84 * 83);
}

/* The UYI reader takes a variant's name and swap among the actions. */
Test(variants, uyi_position)
{
    static UyiCommand c;
    char err[ERR_LEN];
    cr_assert_eq(uyi_parse("position startpos variant standard+swap moves e7 swap f6", &c, err), 0, "%s", err);
    cr_expect_eq(c.base.variant, VARIANT_STANDARD | VARIANT_SWAP);
    cr_expect_eq(c.nactions, 3);
    cr_expect_eq(c.actions[1], ACTION_SWAP);
    char ypn[YPN_MAX_LEN];
    cr_expect_str_eq(ypn_format(&c.pos, ypn), "4/7/8/9/6B3/4W4/10/9/8/7/4 b P standard+swap");
    cr_assert_eq(uyi_parse("position ypn 4/7/8/9/6W3/9/10/9/8/7/4 b P blitz+swap+draw-odds moves swap", &c, err), 0,
                 "%s", err);
    cr_expect_eq(c.pos.variant, VARIANT_BLITZ | VARIANT_SWAP | VARIANT_DRAW_ODDS);
    cr_expect_neq(uyi_parse("position startpos variant standard+swop", &c, err), 0);
    cr_expect(strstr(err, "+swap"), "%s", err);
    cr_expect_neq(uyi_parse("position startpos moves e7 swap", &c, err), 0);
    cr_expect(strstr(err, "swap"), "%s", err);
}

/* A record of a swap game replays to its end, and says its variant. */
Test(variants, record_round_trip)
{
    const char text[] = "[Variant \"standard+swap+draw-odds\"]\n"
                        "4/7/8/9/10/9/10/9/8/7/4 w P standard+swap+draw-odds\n"
                        "e7 swap f6 c6 g8 e10 h6 g6 d7 e9 h11\n";
    Position pos;
    int count;
    char err[ERR_LEN], ypn[YPN_MAX_LEN];
    cr_assert_eq(record_play(text, strlen(text), &pos, &count, err), 0, "%s", err);
    cr_expect_eq(count, 11);
    cr_expect_str_eq(ypn_format(&pos, ypn), "4/7/5B2/6W2/6B1BB/4W4/4B1W3/3W4W/8/7/4 b M standard+swap+draw-odds");
    RecordTags tags = {.n = 1};
    strcpy(tags.key[0], "Variant");
    strcpy(tags.value[0], "standard+swap+draw-odds");
    cr_expect_eq(record_check(&tags, pos.variant, count, RESULT_NONE, REASON_NONE, err), 0, "%s", err);
    cr_expect_neq(record_check(&tags, VARIANT_STANDARD | VARIANT_SWAP, count, RESULT_NONE, REASON_NONE, err), 0);
}

/* Games of a +swap variant go into the store under its name, come out as
 * records that replay, and the command line names a bad variant. */
Test(variants, store_and_records)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "v.db"), *out, *err;
    const char *play[] = {"selfplay", "--games", "40", "--agent", "random", "--variant", "standard+swap+draw-odds",
                          "--seed", "3", "--db", db, "--run", "v", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, play, NULL, &err), 0, "%s", err);
    sqlite3 *s = db_open(db);
    cr_expect_eq(db_int(s, "SELECT count(*) FROM game WHERE variant = 'standard+swap+draw-odds'"), 40);
    cr_expect_eq(db_int(s, "SELECT count(*) FROM run WHERE variant = 'standard+swap+draw-odds'"), 1);
    /* draw odds: no game is a draw */
    cr_expect_eq(db_int(s, "SELECT count(*) FROM game WHERE result = 'draw'"), 0);
    sqlite3_close(s);

    char *records = path_in(dir, "v.txt");
    const char *export[] = {"export", "--db", db, "--out", records, NULL};
    cr_assert_eq(yinsh_run(dir, export, &out, &err), 0, "%s", err);
    cr_expect(strstr(slurp(records), "[Variant \"standard+swap+draw-odds\"]"));
    const char *replay[] = {"replay", records, NULL};
    cr_assert_eq(yinsh_run(dir, replay, &out, &err), 0, "%s", err);

    const char *bad[] = {"selfplay", "--games", "1", "--agent", "random", "--variant", "standard+swop", "--no-db", NULL};
    expect_exit(dir, bad, 2, "swop");
}
