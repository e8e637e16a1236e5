/* The engine's commands: perft, legal, apply, show, replay, randgame. */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "engine/base/clock.h"
#include "engine/base/file.h"
#include "cli/commands.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/base/number.h"
#include "engine/perft.h"
#include "engine/base/rng.h"
#include "selfplay/store/store.h"

const char USAGE_PERFT[] =
    "usage: yinsh perft [--divide] DEPTH [YPN]\n"
    "  Counts the action sequences of length DEPTH from the position (default: the\n"
    "  empty standard start). --divide first prints `<action> <count>` per legal\n"
    "  action. The last line is `nodes N time S nps R`.\n";
const char USAGE_LEGAL[] = "usage: yinsh legal YPN\n  Prints the legal actions, one per line, in canonical order.\n";
const char USAGE_APPLY[] =
    "usage: yinsh apply YPN ACTION...\n"
    "  Applies the actions in order and prints the resulting YPN. The YPN is one\n"
    "  argument (quoted) or its four fields as four arguments.\n";
const char USAGE_SHOW[] =
    "usage: yinsh show YPN\n"
    "       yinsh show [--db PATH] --run NAME --game I [--ply K]\n"
    "  Draws the position as the hexagonal board with coordinates. The second\n"
    "  form draws a stored game's position after its first K actions (default:\n"
    "  all of them, the final position), with its YPN; the database defaults\n"
    "  to " RUN_DEFAULT_DB ".\n";
const char USAGE_REPLAY[] =
    "usage: yinsh replay [FILE]\n"
    "  Reads game records (standard input when FILE is absent or -) and checks\n"
    "  them: a record is tag lines [Name \"value\"] (optional), a start YPN line,\n"
    "  then actions separated by white space; a file may hold a stream of them,\n"
    "  as `yinsh export` writes (docs/records.md). Every action must be legal,\n"
    "  and the tags Variant, Actions, Result and Reason, where present, must\n"
    "  agree with the replay: a difference is an error (exit status 1).\n"
    "  Prints each record's final YPN and `actions N result R reason Q`; for a\n"
    "  stream or tagged records, a last line with the records checked.\n";
const char USAGE_RANDGAME[] =
    "usage: yinsh randgame --seed S [--variant V]\n"
    "  Plays a uniformly random game from the empty start and prints its record:\n"
    "  the start YPN, then the actions, ten per line.\n";

/* Positional arguments at most: a command's YPN and actions. */
enum { MAX_ARGS = 1024 };

/* The legal actions in canonical order, as every list of them is written. */
static int sorted_legal(const Position *pos, Action *list)
{
    int n = movegen_all(pos, list);
    movegen_sort(list, n);
    return n;
}

static bool parse_ypn_arg(const char *cmd, const char *text, Position *pos)
{
    char err[ERR_LEN];
    if (ypn_parse(text, pos, err) == 0) return true;
    cli_error(cmd, "invalid position: %s", err);
    return false;
}

/* For commands whose only argument is a YPN: parses it into pos, or
 * reports the problem and returns false with the exit status in *rc. */
static bool only_ypn(const char *cmd, int argc, char **argv, Position *pos, int *rc)
{
    char ypn[1024];
    const char *args[4];
    int n;
    if ((*rc = cli_parse(cmd, argc, argv, NULL, 0, args, 4, &n))) return false;
    int took = cli_take_ypn(n, args, 0, ypn, sizeof ypn);
    if (!took) *rc = cli_usage_error(cmd, "missing YPN");
    else if (took != n) *rc = cli_usage_error(cmd, "unexpected argument '%s'", args[took]);
    else if (!parse_ypn_arg(cmd, ypn, pos)) *rc = 1;
    else return true;
    return false;
}

int cmd_perft(int argc, char **argv)
{
    bool divide = false;
    const CliOpt opts[] = {{.name = "--divide", .kind = CLI_FLAG, .out = &divide}};
    const char *args[5];
    int n, rc = cli_parse("perft", argc, argv, opts, 1, args, 5, &n);
    if (rc) return rc;
    long depth;
    if (n == 0) return cli_usage_error("perft", "missing DEPTH");
    if (!number_long(args[0], 0, 64, &depth))
        return cli_usage_error("perft", "DEPTH '%s' is not a number from 0 to 64", args[0]);
    Position pos;
    char ypn[1024] = "4/7/8/9/10/9/10/9/8/7/4 w P standard";
    int took = cli_take_ypn(n, args, 1, ypn, sizeof ypn);
    if (took && 1 + took != n) return cli_usage_error("perft", "unexpected argument '%s'", args[1 + took]);
    if (!parse_ypn_arg("perft", ypn, &pos)) return 1;
    double t0 = clock_now();
    uint64_t total = 0;
    if (divide && depth > 0) {
        Action list[MAX_ACTIONS];
        int n = sorted_legal(&pos, list);
        for (int k = 0; k < n; k++) {
            Undo u;
            char text[ACTION_MAX_LEN];
            pos_make(&pos, list[k], &u);
            uint64_t c = perft(&pos, (int)depth - 1);
            pos_unmake(&pos, list[k], &u);
            printf("%s %" PRIu64 "\n", action_format(list[k], text), c);
            total += c;
        }
    } else {
        total = perft(&pos, (int)depth);
    }
    double el = clock_now() - t0;
    printf("nodes %" PRIu64 " time %.3f nps %.0f\n", total, el, el > 0 ? total / el : 0.0);
    return 0;
}

int cmd_legal(int argc, char **argv)
{
    Position pos;
    int rc;
    if (!only_ypn("legal", argc, argv, &pos, &rc)) return rc;
    Action list[MAX_ACTIONS];
    int n = sorted_legal(&pos, list);
    for (int k = 0; k < n; k++) {
        char text[ACTION_MAX_LEN];
        puts(action_format(list[k], text));
    }
    return 0;
}

int cmd_apply(int argc, char **argv)
{
    char ypn[1024], err[ERR_LEN];
    const char *args[MAX_ARGS];
    int n, rc = cli_parse("apply", argc, argv, NULL, 0, args, MAX_ARGS, &n);
    if (rc) return rc;
    int took = cli_take_ypn(n, args, 0, ypn, sizeof ypn);
    if (!took) return cli_usage_error("apply", "missing YPN");
    Position pos;
    if (!parse_ypn_arg("apply", ypn, &pos)) return 1;
    for (int i = took; i < n; i++) {
        Action a;
        if (action_parse(&pos, args[i], &a, err))
            return cli_error("apply", "action %d: %s", i - took + 1, err);
        Undo u;
        pos_make(&pos, a, &u);
    }
    printf("%s\n", ypn_format(&pos, ypn));
    return 0;
}

/* The board drawn with columns upright and each column half a line above
 * its left neighbour, so the three axes read as vertical, falling and rising
 * lines: point (c, r) goes to text line 2 (11 - r) + c, text column 4 c.
 * Column letters head and foot the drawing; each row number stands left of
 * the row's first point. */
static void draw_board(const Position *pos, FILE *f)
{
    enum { LINES = 32, WIDTH = 52, X0 = 4 };
    char screen[LINES][WIDTH + 1];
    memset(screen, ' ', sizeof screen);
    int top = LINES, bottom = 0;
    for (int n = 0; n < POINT_NB; n++) {
        Point p = GEO->point_of[n];
        int c = point_col(p), r = point_row(p), line = 2 * (11 - r) + c, x = X0 + 4 * c;
        char ch = bb_test(pos->rings[WHITE], p)     ? 'W'
                  : bb_test(pos->rings[BLACK], p)   ? 'B'
                  : bb_test(pos->markers[WHITE], p) ? 'w'
                  : bb_test(pos->markers[BLACK], p) ? 'b'
                                                    : '.';
        screen[line][x] = ch;
        if (line < top) top = line;
        if (line > bottom) bottom = line;
        if (c == 0 || !point_valid(c - 1, r)) {
            char num[4];
            int len = snprintf(num, sizeof num, "%d", r);
            memcpy(&screen[line][x - 1 - len], num, (size_t)len);
        }
    }
    char letters[WIDTH + 1];
    memset(letters, ' ', sizeof letters);
    for (int c = 0; c < 11; c++) letters[X0 + 4 * c] = (char)('a' + c);
    int width = X0 + 4 * 10 + 1;
    fprintf(f, "%.*s\n\n", width, letters);
    for (int l = top; l <= bottom; l++) {
        int end = WIDTH;
        while (end > 0 && screen[l][end - 1] == ' ') end--;
        fprintf(f, "%.*s\n", end, screen[l]);
    }
    fprintf(f, "\n%.*s\n", width, letters);
}

static void describe(const Position *pos, FILE *f)
{
    static const char *state_text[STATE_NB] = {
        "places a ring", "moves a ring", "removes a row (own move)", "removes a ring (own row)",
        "removes a row (made by the opponent)", "removes a ring (row made by the opponent)", "acted last: game over"};
    int result, reason;
    fprintf(f, "\nW/B rings, w/b markers, . empty\n%s %s, %s variant; rings removed: white %d, black %d; markers in pool: %d\n",
            pos->actor == WHITE ? "White" : "Black", state_text[pos->state], variant_name(pos->variant),
            pos->removed[WHITE], pos->removed[BLACK], pos->pool);
    if (pos_outcome(pos, &result, &reason))
        fprintf(f, "result: %s (%s)\n", result_name(result), reason_name(reason));
}

/* The stored game to draw and how far into it. */
typedef struct ShowCtx {
    long ply;       /* -1: the final position */
    bool found;
    char err[ERR_LEN];
} ShowCtx;

/* Replays the stored game to the ply asked and draws it: every action is
 * checked, so a tampered row stops here instead of drawing nonsense. */
static int show_stored(void *ctx, const StoreGameText *g)
{
    ShowCtx *c = ctx;
    int variant;
    c->found = true;
    if (!variant_parse(g->variant, &variant)) {
        error_set(c->err, "run '%s' game %u: variant '%.32s' is not one this yinsh plays", g->run,
                  (unsigned)g->index, g->variant);
        return 1;
    }
    long ply = c->ply < 0 ? g->nactions : c->ply;
    if (ply > g->nactions) {
        error_set(c->err, "run '%s' game %u has %d action%s: --ply wants 0 to %d", g->run, (unsigned)g->index,
                  g->nactions, number_plural((uint64_t)g->nactions), g->nactions);
        return 1;
    }
    Position pos;
    pos_start(&pos, variant);
    for (long i = 0; i < ply; i++) {
        Action a;
        char msg[ERR_LEN];
        if (action_parse(&pos, g->actions[i], &a, msg)) {
            error_set(c->err, "run '%s' game %u: stored action %ld: %s", g->run, (unsigned)g->index, i + 1,
                      msg);
            return 1;
        }
        Undo u;
        pos_make(&pos, a, &u);
    }
    char ypn[YPN_MAX_LEN];
    printf("run %s, game %u (%s, White %s, Black %s): after %ld of %d action%s; stored result %s (%s)\n", g->run,
           (unsigned)g->index, g->variant, g->white, g->black, ply, g->nactions, number_plural((uint64_t)g->nactions),
           g->result, g->reason);
    printf("%s\n\n", ypn_format(&pos, ypn));
    draw_board(&pos, stdout);
    describe(&pos, stdout);
    return 0;
}

int cmd_show(int argc, char **argv)
{
    const char *db = NULL, *run = NULL;
    long game = -1, ply = -1;
    bool have_game = false, have_ply = false;
    const CliOpt opts[] = {
        {.name = "--db", .kind = CLI_TEXT, .out = &db},
        {.name = "--run", .kind = CLI_TEXT, .out = &run},
        {.name = "--game", .kind = CLI_INT, .out = &game, .min = 0, .max = STORE_MAX_GAMES - 1, .seen = &have_game},
        {.name = "--ply", .kind = CLI_INT, .out = &ply, .min = 0, .max = GAME_MAX_ACTIONS, .seen = &have_ply},
    };
    const char *args[4];
    char ypn[1024], err[ERR_LEN];
    int n, rc = cli_parse("show", argc, argv, opts, sizeof opts / sizeof *opts, args, 4, &n);
    if (rc) return rc;
    if (!db && !run && !have_game && !have_ply) {
        Position pos;
        int took = cli_take_ypn(n, args, 0, ypn, sizeof ypn);
        if (!took) return cli_usage_error("show", "missing YPN (or --run NAME --game I)");
        if (took != n) return cli_usage_error("show", "unexpected argument '%s'", args[took]);
        if (!parse_ypn_arg("show", ypn, &pos)) return 1;
        draw_board(&pos, stdout);
        describe(&pos, stdout);
        return 0;
    }
    /* a stored game */
    if (n) return cli_usage_error("show", "a YPN or a stored game (--run, --game), not both");
    if (!run || !*run || !have_game) return cli_usage_error("show", "a stored game wants --run NAME and --game I");
    if ((rc = cli_db("show", &db))) return rc;
    Store *store = NULL;
    ShowCtx c = {.ply = ply};
    if (store_open(&store, db, STORE_READ, STORE_BUSY_MS, err) ||
        store_query_game_texts(store, run, game, show_stored, &c, err))
        rc = cli_error("show", "%s", c.err[0] ? c.err : err);
    else if (!c.found)
        rc = cli_error("show", "run '%s' of '%s' has no stored game %ld", run, db, game);
    store_close(store);
    return rc;
}

/* Where a record of a stream is, for a message: its number and, when its
 * tags say, its run and game. */
static void record_where(int number, const RecordTags *tags, char *out, size_t len)
{
    const char *run = record_tag(tags, "Run"), *index = record_tag(tags, "Index");
    if (run && index) snprintf(out, len, "record %d (run %.128s, game %.32s)", number, run, index);
    else snprintf(out, len, "record %d", number);
}

int cmd_replay(int argc, char **argv)
{
    const char *args[1];
    int n, rc = cli_parse("replay", argc, argv, NULL, 0, args, 1, &n);
    if (rc) return rc;
    const char *name = n == 1 ? args[0] : "-";
    /* read whole: a record is small, a stream of a large run's records at
     * most 1 GiB */
    char *text, err[ERR_LEN];
    size_t len;
    if (strcmp(name, "-") ? file_read(name, (size_t)1 << 30, FILE_READ_TEXT, &text, &len, err)
                          : file_read_stream(stdin, name, (size_t)1 << 30, FILE_READ_TEXT, &text, &len, err))
        return cli_error("replay", "%s", err);
    RecordTags *tags = malloc(sizeof *tags);
    if (!tags) {
        rc = cli_error("replay", "out of memory");
        goto done;
    }
    Position pos;
    char ypn[YPN_MAX_LEN], where[256];
    int count, result, reason, records = 0, checked = 0;
    bool tagged = false;
    RecordReader rd;
    record_reader_init(&rd, text, len);
    do {
        int bad = record_next(&rd, tags, &pos, &count, err);
        records++;
        tagged |= tags->n > 0;
        if (!bad) {
            if (!pos_outcome(&pos, &result, &reason)) result = RESULT_NONE, reason = REASON_NONE;
            bad = record_check(tags, pos.variant, count, result, reason, err);
        }
        if (bad) {
            /* an untagged first record: the engine's message as it is */
            if (records == 1 && !tagged) {
                rc = cli_error("replay", "%s: %s", name, err);
            } else {
                record_where(records, tags, where, sizeof where);
                rc = cli_error("replay", "%s: %s: %s", name, where, strncmp(err, "record: ", 8) ? err : err + 8);
            }
            goto done;
        }
        checked += record_tag(tags, "Result") != NULL;
        printf("%s\n", ypn_format(&pos, ypn));
        if (result != RESULT_NONE)
            printf("actions %d result %s reason %s\n", count, result_name(result), reason_name(reason));
        else
            printf("actions %d result none (game not over)\n", count);
    } while (record_reader_more(&rd));
    if (records > 1 || tagged)
        printf("records %d: every action legal; stored results as replayed: %d\n", records, checked);
done:
    free(text);
    free(tags);
    return rc;
}

int cmd_randgame(int argc, char **argv)
{
    uint64_t seed = 0;
    const char *variant_text = NULL;
    int variant = VARIANT_STANDARD, npos;
    const CliOpt opts[] = {
        {.name = "--seed", .kind = CLI_U64, .out = &seed, .required = "missing --seed S"},
        {.name = "--variant", .kind = CLI_TEXT, .out = &variant_text},
    };
    int rc = cli_parse("randgame", argc, argv, opts, 2, NULL, 0, &npos);
    if (rc) return rc;
    if (variant_text && !variant_parse(variant_text, &variant))
        return cli_usage_error("randgame", "--variant must be " VARIANT_EXPECTED ", not '%s'", variant_text);
    Rng rng;
    rng_seed(&rng, seed, 0);
    Position pos;
    pos_start(&pos, variant);
    char text[YPN_MAX_LEN];
    printf("%s\n", ypn_format(&pos, text));
    Action list[MAX_ACTIONS];
    int n, ply = 0;
    while ((n = movegen_all(&pos, list)) > 0) {
        Action a = list[rng_below(&rng, (uint32_t)n)];
        Undo u;
        pos_make(&pos, a, &u);
        cli_print_action(stdout, ply++, action_format(a, text));
    }
    printf("\n");
    return 0;
}
