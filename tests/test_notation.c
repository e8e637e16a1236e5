/* YPN and action notation (docs/notation.md §2, §3): one test per
 * rejection rule of the YPN parser (§2.3: the message must name the field
 * and the problem), action parser rejections, upper case input, and
 * formatting; game records with tags (docs/records.md): escapes, streams,
 * and the checks of what a record says of itself. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/base/number.h"

#define START "4/7/8/9/10/9/10/9/8/7/4 w P standard"
/* docs/notation.md §6: after the placements h6 g6 g8 c6 e10 f8 g11 e9 h11 d7 */
#define MOVES "4/7/5B2/6B2/8BW/6B2/4B1W2W/3W4W/8/7/4 w M standard"
/* White rings a2 b1 k7 k8, Black rings a5 b7 j11 k9 k10; then a board
 * with White's row e1..e5 and one with White's and Black's (g3..g7) rows */
#define SPARE "W2B/W5B/8/9/10/9/10/9/8/6B/WWBB"
#define SPARE5 "W2B/W5B/8/9/4W5/9/10/9/8/6B/WWBB" /* and White e5 */
#define ROW_W "W2B/W5B/8/9/wwwww5/9/10/9/8/6B/WWBB"
#define ROW_WB "W2B/W5B/8/9/wwwww5/9/1bbbbb4/9/8/6B/WWBB"

/* ypn_parse must refuse text, with a message that starts with field and
 * contains word. */
static void reject(const char *text, const char *field, const char *word)
{
    Position pos;
    char err[ERR_LEN] = "";
    cr_assert_neq(ypn_parse(text, &pos, err), 0, "accepted: '%s'", text);
    cr_expect(!strncmp(err, field, strlen(field)), "'%s': message '%s' does not start with '%s'", text, err,
              field);
    cr_expect(strstr(err, word) != NULL, "'%s': message '%s' does not mention '%s'", text, err, word);
}

static void accept(const char *text)
{
    Position pos;
    char err[ERR_LEN] = "";
    cr_assert_eq(ypn_parse(text, &pos, err), 0, "'%s' refused: %s", text, err);
}

Test(ypn, accepts_the_reference_positions)
{
    accept(START);
    accept(MOVES);
    accept(SPARE " w M standard");
    accept(ROW_W " w R standard");
    accept(ROW_WB " w R standard");
    accept(ROW_W " w X standard");
    accept("4/2b4/5b2/4B1b2/4b2Bb1/7W1/4b5/4Wwwww/4b1W1/7/4 b - standard");
    accept(START "\n"); /* a trailing newline (a line read from a file) is fine */
}

Test(ypn, wrong_field_count)
{
    reject("4/7/8/9/10/9/10/9/8/7/4 w P", "position:", "fields");
    reject(START " extra", "position:", "fields");
    reject("4/7/8/9/10/9/10/9/8/7/4", "position:", "fields");
    reject("4/7/8/9/10/9/10/9/8/7/4  w P standard", "position:", "fields");
    reject("", "position:", "fields");
    reject(START " ", "position:", "");
}

Test(ypn, column_group_too_short)
{
    reject("3/7/8/9/10/9/10/9/8/7/4 w P standard", "board:", "covers 3 of the column's 4");
    reject("4/7/8/9/9/9/10/9/8/7/4 w P standard", "board:", "column e");
    reject("4/7/8/9/10/9/10/9/8/7/W2 w P standard", "board:", "column k");
}

Test(ypn, column_group_too_long)
{
    reject("5/7/8/9/10/9/10/9/8/7/4 w P standard", "board:", "more than");
    reject("4W/7/8/9/10/9/10/9/8/7/4 w P standard", "board:", "more than");
    reject("4/7/8/9/11/9/10/9/8/7/4 w P standard", "board:", "column e");
    reject("4/7/8/9/10/9/10/9/8/7/4/1 w P standard", "board:", "11");
    reject("4/7/8/9/10/9/10/9/8/7 w P standard", "board:", "11");
    reject("4/7/8//9/10/9/10/9/8/7/4 w P standard", "board:", "column");
}

Test(ypn, unknown_characters)
{
    reject("4/7/8/9/4x5/9/10/9/8/7/4 w P standard", "board:", "unknown character");
    reject("4/7/8/9/4R5/9/10/9/8/7/4 w P standard", "board:", "unknown character");
    reject("4/7/8/9/05/9/10/9/8/7/4 w P standard", "board:", "0");
    reject("4/7/8/9/4-5/9/10/9/8/7/4 w P standard", "board:", "column e");
}

Test(ypn, more_than_five_rings)
{
    reject("W2B/W5B/8/9/4W5/4W4/10/9/8/6B/WWBB w M standard", "board:", "6 white rings");
    reject("W2B/W5B/8/9/4B5/9/10/9/8/6B/WWBB w M standard", "board:", "6 black rings");
}

Test(ypn, more_than_51_markers)
{
    reject("wwww/wwwwwww/wwwwwwww/wwwwwwwww/wwwwwwwwww/wwwwwwwww/wwwww5/9/8/7/4 w P standard", "board:",
           "52 markers");
}

Test(ypn, row_state_without_a_row)
{
    reject(SPARE " w R standard", "state:", "no row");
    reject(SPARE " b r standard", "state:", "no row");
    /* the row is White's, the actor Black */
    reject(ROW_W " b R standard", "state:", "no row");
}

Test(ypn, placement_with_all_rings_placed)
{
    reject("4/7/5B2/6B2/8BW/6B2/4B1W2W/3W4W/8/7/4 w P standard", "state:", "10 rings");
}

Test(ypn, placement_with_wrong_ring_counts)
{
    reject("W3/B6/B7/B8/10/9/10/9/8/7/4 b P standard", "state:", "W = B");
    reject("W3/W6/W7/9/10/9/10/9/8/7/4 b P standard", "state:", "W = B");
}

Test(ypn, placement_with_wrong_actor)
{
    reject("W3/B6/8/9/10/9/10/9/8/7/4 b P standard", "actor:", "White places next");
    reject("4/7/8/9/10/9/10/9/8/7/4 b P standard", "actor:", "White places next");
    reject("W3/B6/W7/9/10/9/10/9/8/7/4 w P standard", "actor:", "Black places next");
}

Test(ypn, markers_in_placement)
{
    reject("w3/7/8/9/10/9/10/9/8/7/4 w P standard", "state:", "markers");
}

Test(ypn, too_few_rings_after_placement)
{
    static const char *states[] = {"M", "R", "X", "r", "x"};
    for (int i = 0; i < 5; i++) {
        char text[128];
        snprintf(text, sizeof text, "W2B/W5B/8/9/wwwww5/9/10/9/8/6B/2BB w %s standard", states[i]);
        reject(text, "board:", "2 white");
    }
    reject("4/7/8/9/10/9/10/9/8/7/4 w M standard", "board:", "rings");
}

Test(ypn, row_in_movement)
{
    reject(ROW_W " w M standard", "state:", "row of white");
    reject(ROW_W " b M standard", "state:", "row of white");
}

Test(ypn, opponent_row_while_r_or_x)
{
    reject(ROW_WB " b r standard", "state:", "also has a row");
    reject(ROW_WB " b x standard", "state:", "also has a row");
    accept(ROW_WB " w X standard"); /* the mover resolves its own row first */
}

Test(ypn, standard_only_states_in_blitz)
{
    reject(ROW_W " w R blitz", "state:", "standard");
    reject(SPARE " w X blitz", "state:", "standard");
    reject(ROW_W " b r blitz", "state:", "standard");
    reject(SPARE " b x blitz", "state:", "standard");
}

Test(ypn, blitz_keeps_all_rings)
{
    reject("W2B/W5B/8/9/10/9/10/9/8/7/WWBB w M blitz", "board:", "blitz");
}

Test(ypn, end_state_contradicted)
{
    /* standard '-': the actor must have just removed a third ring */
    reject(SPARE " w - standard", "state:", "third ring");
    /* blitz '-': the row that ended the game must be on the board */
    reject(SPARE5 " w - blitz", "state:", "row");
}

Test(ypn, bad_actor)
{
    reject("4/7/8/9/10/9/10/9/8/7/4 x P standard", "actor:", "expected w or b");
    reject("4/7/8/9/10/9/10/9/8/7/4 W P standard", "actor:", "expected w or b");
    reject("4/7/8/9/10/9/10/9/8/7/4 white P standard", "actor:", "expected w or b");
}

Test(ypn, bad_state)
{
    reject("4/7/8/9/10/9/10/9/8/7/4 w Q standard", "state:", "expected one of");
    reject("4/7/8/9/10/9/10/9/8/7/4 w p standard", "state:", "expected one of");
    reject("4/7/8/9/10/9/10/9/8/7/4 w PM standard", "state:", "expected one of");
}

Test(ypn, bad_variant)
{
    reject("4/7/8/9/10/9/10/9/8/7/4 w P classic", "variant:", "expected standard or blitz");
    reject("4/7/8/9/10/9/10/9/8/7/4 w P Standard", "variant:", "expected standard or blitz");
    reject("4/7/8/9/10/9/10/9/8/7/4 w P standardx", "variant:", "expected standard or blitz");
}

Test(ypn, format_round_trip)
{
    static const char *texts[] = {START, MOVES, ROW_W " w R standard", ROW_WB " w X standard",
                                  SPARE5 " b M blitz", "4/2b4/5b2/4B1b2/4b2Bb1/7W1/4b5/4Wwwww/4b1W1/7/4 b - standard"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        Position pos, again;
        char err[ERR_LEN], out[YPN_MAX_LEN];
        cr_assert_eq(ypn_parse(texts[i], &pos, err), 0, "%s", err);
        cr_expect_str_eq(ypn_format(&pos, out), texts[i]);
        cr_assert_eq(ypn_parse(out, &again, err), 0, "%s", err);
        cr_expect(pos_equal(&pos, &again));
        cr_expect_eq(pos_check(&pos, err), 0, "%s: %s", texts[i], err);
    }
    Position pos;
    char out[YPN_MAX_LEN];
    pos_start(&pos, VARIANT_STANDARD);
    cr_expect_str_eq(ypn_format(&pos, out), START);
    pos_start(&pos, VARIANT_BLITZ);
    cr_expect_str_eq(ypn_format(&pos, out), "4/7/8/9/10/9/10/9/8/7/4 w P blitz");
}

Test(ypn, derived_fields)
{
    Position pos;
    char err[ERR_LEN];
    cr_assert_eq(ypn_parse("4/2b4/5b2/4B1b2/4b2Bb1/7W1/4b5/4Wwwww/4b1W1/7/4 b - standard", &pos, err), 0, "%s", err);
    cr_expect_eq(pos.removed[WHITE], 2);
    cr_expect_eq(pos.removed[BLACK], 3);
    cr_expect_eq(pos.placed, 10);
    cr_expect_eq(pos.pool, 51 - 11);
    cr_expect_eq(pos.key, pos_compute_key(&pos));
    cr_assert_eq(ypn_parse("W3/B6/W7/9/10/9/10/9/8/7/4 b P standard", &pos, err), 0, "%s", err);
    cr_expect_eq(pos.placed, 3);
    cr_expect_eq(pos.pool, 51);
}

/* action_parse must refuse text in pos, with a message containing word. */
static void refuse(const char *ypn, const char *text, const char *word)
{
    Position pos;
    Action a = ACTION_NONE;
    char err[ERR_LEN] = "";
    cr_assert_eq(ypn_parse(ypn, &pos, err), 0, "%s", err);
    cr_assert_neq(action_parse(&pos, text, &a, err), 0, "'%s' accepted in %s", text, ypn);
    cr_expect(strstr(err, word) != NULL, "'%s': message '%s' does not mention '%s'", text, err, word);
}

static Action parse_ok(const char *ypn, const char *text)
{
    Position pos;
    Action a = ACTION_NONE;
    char err[ERR_LEN] = "";
    cr_assert_eq(ypn_parse(ypn, &pos, err), 0, "%s", err);
    cr_assert_eq(action_parse(&pos, text, &a, err), 0, "'%s' refused in %s: %s", text, ypn, err);
    return a;
}

Test(action, malformed)
{
    static const char *bad[] = {"", "e", "5", "e5e6", "e05", "ee5", "e5 ", " e5", "e5x", "pas", "passs", "p"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) refuse(START, bad[i], "not an action");
    static const char *bad_moves[] = {"e5-", "-e5", "e5--e6", "e5-e6-e7", "e5-6", "e5-e"};
    for (size_t i = 0; i < sizeof bad_moves / sizeof bad_moves[0]; i++) refuse(MOVES, bad_moves[i], "malformed move");
    refuse(ROW_W " w R standard", "xe1-", "malformed row removal");
    refuse(ROW_W " w R standard", "xe1e5", "malformed ring removal");
    refuse(ROW_W " w X standard", "x", "malformed ring removal");
    refuse(ROW_W " w X standard", "xx", "malformed ring removal");
}

Test(action, off_board_points)
{
    static const char *bad[] = {"a1", "a6", "f1", "f11", "k6", "k11", "l5", "e0", "e11", "a7", "k1", "z9", "e100"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) refuse(START, bad[i], "85 points");
    refuse(MOVES, "h6-h12", "85 points");
    refuse(MOVES, "f11-f10", "85 points");
    refuse(ROW_W " w R standard", "xa1-e5", "malformed row removal");
    refuse(ROW_W " w X standard", "xf1", "malformed ring removal");
}

Test(action, illegal_in_this_state)
{
    refuse(START, "e5-e6", "illegal in state P");
    refuse(START, "pass", "illegal in state P");
    refuse(START, "xe5", "illegal in state P");
    refuse(MOVES, "e5", "illegal in state M");
    refuse(MOVES, "xe1-e5", "illegal in state M");
    refuse(ROW_W " w R standard", "e1-e2", "illegal in state R");
    refuse(ROW_W " w R standard", "xa2", "illegal in state R");
    refuse(ROW_W " w X standard", "xe1-e5", "illegal in state X");
    refuse(ROW_W " w X standard", "pass", "illegal in state X");
}

Test(action, illegal_for_the_position)
{
    refuse(MOVES, "h6", "illegal in state M");
    refuse("W3/B6/8/9/10/9/10/9/8/7/4 w P standard", "a2", "occupied");
    refuse(MOVES, "pass", "pass is allowed only");
    refuse(MOVES, "e5-e6", "no white ring on the start point");
    refuse(MOVES, "g6-g5", "no white ring on the start point"); /* g6 is Black's */
    refuse(MOVES, "h6-g7", "cannot move there");              /* (column+1, row-1) is no line */
    refuse(MOVES, "h6-h11", "cannot move there");             /* onto a ring */
    refuse(MOVES, "h6-h6", "cannot move there");
    refuse(ROW_W " w R standard", "xe2-e6", "not 5 white markers");
    refuse(ROW_W " w X standard", "xa5", "no white ring there");
    refuse(ROW_W " w X standard", "xe3", "no white ring there");
    refuse("4/2b4/5b2/4B1b2/4b2Bb1/7W1/4b5/4Wwwww/4b1W1/7/4 b - standard", "xe4", "game is over");
    refuse("Wbww/Bbwwbww/bww2wbw/ww5wb/w3w1W1ww/w3W3b/wb5bww/ww4wwb/bwwbwwbw/wbwwbwB/BbwW w M standard", "f6-f7",
           "pool is empty");
}

Test(action, upper_case_and_either_row_end)
{
    Action a = parse_ok(START, "E5");
    cr_expect_eq(a, ACTION_MAKE(ACT_PLACE, point_make(4, 5), 0));
    cr_expect_eq(parse_ok(START, "K10"), parse_ok(START, "k10"));
    cr_expect_eq(parse_ok(MOVES, "H6-H5"), parse_ok(MOVES, "h6-h5"));
    Action lo = parse_ok(ROW_W " w R standard", "xe1-e5");
    cr_expect_eq(lo, ACTION_MAKE(ACT_ROW, point_make(4, 1), point_make(4, 5)));
    cr_expect_eq(parse_ok(ROW_W " w R standard", "xe5-e1"), lo, "row given high end first");
    cr_expect_eq(parse_ok(ROW_W " w R standard", "XE1-E5"), lo);
    cr_expect_eq(parse_ok(ROW_W " w R standard", "XE5-E1"), lo);
    cr_expect_eq(parse_ok(ROW_W " w X standard", "XA2"), ACTION_MAKE(ACT_RING, point_make(0, 2), 0));
    char out[ACTION_MAX_LEN];
    cr_expect_str_eq(action_format(parse_ok(ROW_W " w R standard", "XE5-E1"), out), "xe1-e5");
}

Test(action, format)
{
    char out[ACTION_MAX_LEN];
    cr_expect_str_eq(action_format(ACTION_MAKE(ACT_PLACE, point_make(4, 5), 0), out), "e5");
    cr_expect_str_eq(action_format(ACTION_MAKE(ACT_PLACE, point_make(10, 10), 0), out), "k10");
    cr_expect_str_eq(action_format(ACTION_MAKE(ACT_MOVE, point_make(4, 5), point_make(4, 8)), out), "e5-e8");
    cr_expect_str_eq(action_format(ACTION_MAKE(ACT_MOVE, point_make(7, 11), point_make(6, 10)), out), "h11-g10");
    cr_expect_str_eq(action_format(ACTION_MAKE(ACT_PASS, 0, 0), out), "pass");
    cr_expect_str_eq(action_format(ACTION_MAKE(ACT_ROW, point_make(4, 2), point_make(4, 6)), out), "xe2-e6");
    cr_expect_str_eq(action_format(ACTION_MAKE(ACT_RING, point_make(4, 5), 0), out), "xe5");
    /* round trip of every kind through the parser */
    cr_expect_str_eq(action_format(parse_ok(START, "a2"), out), "a2");
    cr_expect_str_eq(action_format(parse_ok(MOVES, "h6-h3"), out), "h6-h3");
    cr_expect_str_eq(action_format(parse_ok("WWWW/1BBBBB1/8/9/4w5/4b4/10/9/8/7/4 w M standard", "pass"), out),
                     "pass");
}

Test(point, all_points_round_trip)
{
    int n = 0;
    for (int col = 0; col < 11; col++)
        for (int row = 1; row <= 11; row++) {
            char name[16], upper[16], out[16];
            snprintf(name, sizeof name, "%c%d", 'a' + col, row);
            snprintf(upper, sizeof upper, "%c%d", 'A' + col, row);
            Point p = -1, q = -1;
            bool ok = point_parse(name, strlen(name), &p);
            cr_expect_eq(ok, point_valid(col, row), "%s", name);
            cr_expect_eq(point_parse(upper, strlen(upper), &q), ok, "%s", upper);
            if (!ok) continue;
            n++;
            cr_expect_eq(p, point_make(col, row));
            cr_expect_eq(q, p);
            cr_expect_str_eq(point_format(p, out), name);
            cr_expect(bb_test(GEO->valid, p));
        }
    cr_expect_eq(n, 85);
    Point p;
    cr_expect(!point_parse("e", 1, &p));
    cr_expect(!point_parse("e05", 3, &p));
    cr_expect(!point_parse("e123", 4, &p));
    cr_expect(!point_parse("5e", 2, &p));
}

Test(names, result_reason_variant)
{
    cr_expect_str_eq(result_name(RESULT_WHITE), "white");
    cr_expect_str_eq(result_name(RESULT_BLACK), "black");
    cr_expect_str_eq(result_name(RESULT_DRAW), "draw");
    cr_expect_str_eq(result_name(RESULT_NONE), "none");
    cr_expect_str_eq(reason_name(REASON_THREE_RINGS), "three-rings");
    cr_expect_str_eq(reason_name(REASON_BLITZ_ROW), "blitz-row");
    cr_expect_str_eq(reason_name(REASON_POOL_EMPTY), "pool-empty");
    cr_expect_str_eq(reason_name(REASON_NO_MOVES), "no-moves");
    cr_expect_str_eq(reason_name(REASON_NONE), "none");
    cr_expect_str_eq(variant_name(VARIANT_STANDARD), "standard");
    cr_expect_str_eq(variant_name(VARIANT_BLITZ), "blitz");
    int v = -1;
    cr_expect(variant_parse("standard", &v) && v == VARIANT_STANDARD);
    cr_expect(variant_parse("blitz", &v) && v == VARIANT_BLITZ);
    cr_expect(!variant_parse("classic", &v));
}

/* The one number parser: the whole text, nothing around it. A tab before
 * "-1" once gave --seed 2^64-1 (strtoull skips white space and negates). */
Test(numbers, strict)
{
    uint64_t u = 7;
    cr_expect(number_u64("0", &u) && u == 0);
    cr_expect(number_u64("18446744073709551615", &u) && u == UINT64_MAX);
    const char *bad_u[] = {"", "-1", "\t-1", " 1", "+1", "1 ", "1x", "18446744073709551616", "0x10", ".5", NULL};
    for (int i = 0; bad_u[i]; i++) {
        u = 7;
        cr_expect(!number_u64(bad_u[i], &u) && u == 7, "'%s' accepted", bad_u[i]);
    }
    long l = 0;
    cr_expect(number_long("-5", -10, 10, &l) && l == -5);
    cr_expect(!number_long("11", -10, 10, &l));
    cr_expect(!number_long("\t3", -10, 10, &l));
    cr_expect(!number_long("3.0", -10, 10, &l));
    double d = 0;
    cr_expect(number_real("-1.5e2", -1e3, 1e3, &d) && d == -150);
    cr_expect(number_real(".25", 0, 1, &d) && d == 0.25);
    const char *bad_d[] = {"", "inf", "nan", "1e999", " 1", "\n1", "+1", "1,5", NULL};
    for (int i = 0; bad_d[i]; i++) cr_expect(!number_real(bad_d[i], -HUGE_VAL, HUGE_VAL, &d), "'%s' accepted", bad_d[i]);
}

/* A tag value of any text comes back as it was written. */
Test(record, tag_round_trip)
{
    const char *values[] = {"plain", "", "a \"quoted\" \\ back", "line\nbreak\ttab\rcr", "\x01\x1f\x7f", "ünïcode"};
    for (size_t i = 0; i < sizeof values / sizeof *values; i++) {
        char line[256], text[512];
        cr_assert_gt(record_tag_format("Key_1", values[i], line, sizeof line), 0);
        cr_expect(!strchr(line, '\n') && !strchr(line, '\r'), "one line: %s", line);
        snprintf(text, sizeof text, "%s\n" START "\ne5\n", line);
        RecordReader r;
        RecordTags tags;
        Position pos;
        int count;
        char err[ERR_LEN] = "";
        record_reader_init(&r, text, strlen(text));
        cr_assert_eq(record_next(&r, &tags, &pos, &count, err), 0, "%s: %s", line, err);
        cr_expect_eq(tags.n, 1);
        cr_expect_str_eq(record_tag(&tags, "Key_1"), values[i]);
        cr_expect_null(record_tag(&tags, "key_1"), "names match exactly");
        cr_expect_eq(count, 1);
        cr_expect_not(record_reader_more(&r));
    }
    char small[8];
    cr_expect_eq(record_tag_format("Key", "too long for it", small, sizeof small), -1);
}

/* Two records, the second after blank lines, CR LF line ends; each with
 * its tags; line numbers count from the start of the stream. */
Test(record, stream)
{
    const char *text = "[Run \"r\"]\r\n[Index \"0\"]\r\n" START "\r\ne5 e6\r\n\r\n"
                       "[Run \"r\"] \r\n  [Index \"1\"]\r\n" START "\r\ne7\r\nf8 [x\r\n";
    RecordReader r;
    RecordTags tags;
    Position pos;
    int count;
    char err[ERR_LEN] = "";
    record_reader_init(&r, text, strlen(text));
    cr_assert(record_reader_more(&r));
    cr_assert_eq(record_next(&r, &tags, &pos, &count, err), 0, "%s", err);
    cr_expect_eq(count, 2);
    cr_expect_str_eq(record_tag(&tags, "Index"), "0");
    cr_assert(record_reader_more(&r));
    /* the second record's last line holds "[x" after an action: not a tag line, not an action */
    cr_expect_neq(record_next(&r, &tags, &pos, &count, err), 0);
    cr_expect(strstr(err, "action 3 (line 10)") && strstr(err, "[x"), "message: %s", err);
    cr_expect_str_eq(record_tag(&tags, "Index"), "1");

    /* record_play takes one record and names the line where a second begins */
    cr_expect_neq(record_play(text, strlen(text), &pos, &count, err), 0);
    cr_expect(strstr(err, "line 6") && strstr(err, "second record"), "message: %s", err);
}

/* Tag lines it must refuse, each with the line and what is wrong. */
Test(record, bad_tags)
{
    const struct {
        const char *text, *word;
    } cases[] = {
        {"[Run \"a\"]\n[Run \"b\"]\n" START "\n", "given twice"},
        {"[Run a]\n" START "\n", "double quotes"},
        {"[Run \"a]\n" START "\n", "no closing quote"},
        {"[Run \"a\"\n" START "\n", "no ']'"},
        {"[Run \"a\"] x\n" START "\n", "text after"},
        {"[ \"a\"]\n" START "\n", "no name"},
        {"[Run \"\\q\"]\n" START "\n", "unknown escape"},
        {"[Run \"\\x0\"]\n" START "\n", "two hex digits"},
        {"[Run \"\\x00\"]\n" START "\n", "two hex digits"},
        {"[Run \"a\"]\n", "no start position"},
        {"[Run \"a\"]\n\n  \n", "no start position"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        Position pos;
        int count;
        char err[ERR_LEN] = "";
        cr_expect_neq(record_play(cases[i].text, strlen(cases[i].text), &pos, &count, err), 0, "accepted: %s",
                      cases[i].text);
        cr_expect(strstr(err, cases[i].word), "'%s': message '%s' does not mention '%s'", cases[i].text, err,
                  cases[i].word);
    }
}

/* What a record says of itself against its replay: each tag when present. */
Test(record, check)
{
    RecordTags tags = {0};
    char err[ERR_LEN] = "";
    cr_expect_eq(record_check(&tags, VARIANT_STANDARD, 60, RESULT_WHITE, REASON_THREE_RINGS, err), 0, "no tags: %s",
                 err);
    const char *text = "[Variant \"standard\"]\n[Actions \"60\"]\n[Result \"white\"]\n[Reason \"three-rings\"]\n" START "\n";
    RecordReader r;
    Position pos;
    int count;
    record_reader_init(&r, text, strlen(text));
    cr_assert_eq(record_next(&r, &tags, &pos, &count, err), 0, "%s", err);
    cr_expect_eq(record_check(&tags, VARIANT_STANDARD, 60, RESULT_WHITE, REASON_THREE_RINGS, err), 0, "%s", err);
    cr_expect_neq(record_check(&tags, VARIANT_BLITZ, 60, RESULT_WHITE, REASON_THREE_RINGS, err), 0);
    cr_expect(strstr(err, "Variant"), "%s", err);
    cr_expect_neq(record_check(&tags, VARIANT_STANDARD, 59, RESULT_WHITE, REASON_THREE_RINGS, err), 0);
    cr_expect(strstr(err, "60 actions") && strstr(err, "59"), "%s", err);
    cr_expect_neq(record_check(&tags, VARIANT_STANDARD, 60, RESULT_DRAW, REASON_THREE_RINGS, err), 0);
    cr_expect(strstr(err, "Result is 'white'") && strstr(err, "draw"), "%s", err);
    cr_expect_neq(record_check(&tags, VARIANT_STANDARD, 60, RESULT_WHITE, REASON_POOL_EMPTY, err), 0);
    cr_expect(strstr(err, "Reason"), "%s", err);
    cr_expect_neq(record_check(&tags, VARIANT_STANDARD, 60, RESULT_NONE, REASON_NONE, err), 0, "a game not over");
}
