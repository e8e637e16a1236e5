/* The engine's commands: perft, legal, apply, show, replay, randgame. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "engine/base/clock.h"
#include "engine/base/file.h"
#include "engine/board_text.h"
#include "cli/commands.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/base/number.h"
#include "engine/perft.h"
#include "engine/record_replay.h"
#include "selfplay/records/record_text.h"
#include "engine/base/rng.h"
#include "selfplay/store/store.h"


/* Positional arguments at most: a command's YPN and actions. */
enum { MAX_ARGS = 1024 };

static bool parse_ypn_arg(const char *cmd, const char *text, Position *pos)
{
    char err[ERR_LEN];
    if (ypn_parse(text, pos, err) == 0) return true;
    cli_error(cmd, "invalid position: %s", err);
    return false;
}

/* The command line of a command whose only argument is a position. */
typedef struct YpnArgs {
    const char *args[4];
    int n;
    Position pos;
} YpnArgs;

/* The YPN (one quoted argument or its four fields) into a->pos, nothing
 * after it: 0, or the exit status after saying what is wrong. */
static int ypn_args_check(const char *cmd, YpnArgs *a, const char *missing)
{
    char ypn[1024];
    int took = cli_take_ypn(a->n, a->args, 0, ypn, sizeof ypn);
    if (!took) return cli_usage_error(cmd, "%s", missing);
    if (took != a->n) return cli_usage_error(cmd, "unexpected argument '%s'", a->args[took]);
    return parse_ypn_arg(cmd, ypn, &a->pos) ? 0 : 1;
}

/* perft's command line, as parsed and checked. */
typedef struct PerftArgs {
    bool divide;
    const char *args[5];
    int n;
    long depth;
    Position pos;
} PerftArgs;

static int perft_parse(int argc, char **argv, PerftArgs *a)
{
    const CliOpt opts[] = {{.name = "--divide", .kind = CLI_FLAG, .out = &a->divide}};
    return cli_parse("perft", argc, argv, opts, 1, a->args, 5, &a->n);
}

/* DEPTH, then the position (default: the empty standard start). */
static int perft_check(PerftArgs *a)
{
    if (a->n == 0) return cli_usage_error("perft", "missing DEPTH");
    if (!number_long(a->args[0], 0, 64, &a->depth))
        return cli_usage_error("perft", "DEPTH '%s' is not a number from 0 to 64", a->args[0]);
    char ypn[1024] = "4/7/8/9/10/9/10/9/8/7/4 w P standard";
    int took = cli_take_ypn(a->n, a->args, 1, ypn, sizeof ypn);
    if (took && 1 + took != a->n) return cli_usage_error("perft", "unexpected argument '%s'", a->args[1 + took]);
    return parse_ypn_arg("perft", ypn, &a->pos) ? 0 : 1;
}

int cmd_perft(int argc, char **argv)
{
    PerftArgs a = {0};
    int rc = perft_parse(argc, argv, &a);
    if (rc || (rc = perft_check(&a))) return rc;
    double t0 = clock_now();
    uint64_t total = a.divide && a.depth > 0 ? perft_divide(&a.pos, (int)a.depth, stdout) : perft(&a.pos, (int)a.depth);
    double el = clock_now() - t0;
    printf("nodes %" PRIu64 " time %.3f nps %.0f\n", total, el, el > 0 ? total / el : 0.0);
    return 0;
}

int cmd_legal(int argc, char **argv)
{
    YpnArgs a;
    int rc = cli_parse("legal", argc, argv, NULL, 0, a.args, 4, &a.n);
    if (rc || (rc = ypn_args_check("legal", &a, "missing YPN"))) return rc;
    Action list[MAX_ACTIONS];
    int n = movegen_all(&a.pos, list);
    movegen_sort(list, n);
    for (int k = 0; k < n; k++) {
        char text[ACTION_MAX_LEN];
        puts(action_format(list[k], text));
    }
    return 0;
}

/* apply's command line: the position, then the actions. */
typedef struct ApplyArgs {
    const char *args[MAX_ARGS];
    int n, took; /* took: the arguments of the YPN */
    Position pos;
} ApplyArgs;

static int apply_check(ApplyArgs *a)
{
    char ypn[1024];
    a->took = cli_take_ypn(a->n, a->args, 0, ypn, sizeof ypn);
    if (!a->took) return cli_usage_error("apply", "missing YPN");
    return parse_ypn_arg("apply", ypn, &a->pos) ? 0 : 1;
}

int cmd_apply(int argc, char **argv)
{
    char ypn[YPN_MAX_LEN], err[ERR_LEN];
    ApplyArgs a;
    int rc = cli_parse("apply", argc, argv, NULL, 0, a.args, MAX_ARGS, &a.n);
    if (rc || (rc = apply_check(&a))) return rc;
    for (int i = a.took; i < a.n; i++) {
        Action act;
        if (action_parse(&a.pos, a.args[i], &act, err))
            return cli_error("apply", "action %d: %s", i - a.took + 1, err);
        Undo u;
        pos_make(&a.pos, act, &u);
    }
    printf("%s\n", ypn_format(&a.pos, ypn));
    return 0;
}

/* The stored game to draw and how far into it. */
typedef struct ShowCtx {
    long ply;       /* -1: the final position */
    bool found;
    char err[ERR_LEN];
} ShowCtx;

/* Draws the stored game at the ply asked (record_text_position checks
 * every action on the way). */
static int show_stored(void *ctx, const StoreGameText *g)
{
    ShowCtx *c = ctx;
    c->found = true;
    long ply = c->ply < 0 ? g->nactions : c->ply;
    Position pos;
    int rc = record_text_position(g, ply, &pos, c->err);
    if (rc == ERR_USAGE) error_append(c->err, ": --ply wants 0 to %d", g->nactions);
    if (rc) return 1;
    char ypn[YPN_MAX_LEN];
    record_text_position_head(stdout, g, ply);
    printf("%s\n\n", ypn_format(&pos, ypn));
    board_text_draw(&pos, stdout);
    board_text_describe(&pos, stdout);
    return 0;
}

/* show's command line: a YPN, or a stored game. */
typedef struct ShowArgs {
    const char *db, *run;
    long game, ply;
    bool have_game, have_ply, stored;
    YpnArgs y;
} ShowArgs;

static int show_parse(int argc, char **argv, ShowArgs *a)
{
    const CliOpt opts[] = {
        {.name = "--db", .kind = CLI_TEXT, .out = &a->db},
        {.name = "--run", .kind = CLI_TEXT, .out = &a->run},
        {.name = "--game", .kind = CLI_INT, .out = &a->game, .min = 0, .max = STORE_MAX_GAMES - 1,
         .seen = &a->have_game},
        {.name = "--ply", .kind = CLI_INT, .out = &a->ply, .min = 0, .max = GAME_MAX_ACTIONS, .seen = &a->have_ply},
    };
    return cli_parse("show", argc, argv, opts, sizeof opts / sizeof *opts, a->y.args, 4, &a->y.n);
}

/* A position (a->y.pos) or a stored game (a->stored, its database). */
static int show_check(ShowArgs *a)
{
    a->stored = a->db || a->run || a->have_game || a->have_ply;
    if (!a->stored) return ypn_args_check("show", &a->y, "missing YPN (or --run NAME --game I)");
    if (a->y.n) return cli_usage_error("show", "a YPN or a stored game (--run, --game), not both");
    if (!a->run || !*a->run || !a->have_game) return cli_usage_error("show", "a stored game wants --run NAME and --game I");
    return cli_db("show", &a->db);
}

int cmd_show(int argc, char **argv)
{
    ShowArgs a = {.game = -1, .ply = -1};
    char err[ERR_LEN];
    int rc = show_parse(argc, argv, &a);
    if (rc || (rc = show_check(&a))) return rc;
    if (!a.stored) {
        board_text_draw(&a.y.pos, stdout);
        board_text_describe(&a.y.pos, stdout);
        return 0;
    }
    Store *store = NULL;
    ShowCtx c = {.ply = a.ply};
    if (store_open(&store, a.db, STORE_READ, STORE_BUSY_MS, err) ||
        store_query_game_texts(store, a.run, a.game, show_stored, &c, err))
        rc = cli_error("show", "%s", c.err[0] ? c.err : err);
    else if (!c.found)
        rc = cli_error("show", "run '%s' of '%s' has no stored game %ld", a.run, a.db, a.game);
    store_close(store);
    return rc;
}

/* replay's command line: the file of records (standard input: -). */
typedef struct ReplayArgs {
    const char *args[1];
    int n;
} ReplayArgs;

int cmd_replay(int argc, char **argv)
{
    ReplayArgs a;
    int rc = cli_parse("replay", argc, argv, NULL, 0, a.args, 1, &a.n);
    if (rc) return rc;
    const char *name = a.n == 1 ? a.args[0] : "-";
    /* read whole: a record is small, a stream of a large run's records at
     * most 1 GiB */
    char *text, err[ERR_LEN];
    size_t len;
    if (strcmp(name, "-") ? file_read(name, (size_t)1 << 30, FILE_READ_TEXT, &text, &len, err)
                          : file_read_stream(stdin, name, (size_t)1 << 30, FILE_READ_TEXT, &text, &len, err))
        return cli_error("replay", "%s", err);
    RecordReplay r;
    if (record_replay(text, len, stdout, &r, err)) {
        if (!r.records) rc = cli_error("replay", "%s", err); /* out of memory */
        else if (r.where[0]) rc = cli_error("replay", "%s: %s: %s", name, r.where, err);
        else rc = cli_error("replay", "%s: %s", name, err);
    }
    free(text);
    return rc;
}

/* randgame's command line, as parsed and checked. */
typedef struct RandgameArgs {
    uint64_t seed;
    const char *variant_text;
    int variant;
} RandgameArgs;

static int randgame_parse(int argc, char **argv, RandgameArgs *a)
{
    const CliOpt opts[] = {
        {.name = "--seed", .kind = CLI_U64, .out = &a->seed, .required = "missing --seed S"},
        {.name = "--variant", .kind = CLI_TEXT, .out = &a->variant_text},
    };
    int npos;
    int rc = cli_parse("randgame", argc, argv, opts, 2, NULL, 0, &npos);
    if (!rc && a->variant_text && !variant_parse(a->variant_text, &a->variant))
        rc = cli_usage_error("randgame", "--variant must be " VARIANT_EXPECTED ", not '%s'", a->variant_text);
    return rc;
}

int cmd_randgame(int argc, char **argv)
{
    RandgameArgs a = {.variant = VARIANT_STANDARD};
    int rc = randgame_parse(argc, argv, &a);
    if (rc) return rc;
    Rng rng;
    rng_seed(&rng, a.seed, 0);
    Position pos;
    pos_start(&pos, a.variant);
    char text[YPN_MAX_LEN];
    printf("%s\n", ypn_format(&pos, text));
    Action list[MAX_ACTIONS];
    int n, ply = 0;
    while ((n = movegen_all(&pos, list)) > 0) {
        Action act = list[rng_below(&rng, (uint32_t)n)];
        Undo u;
        pos_make(&pos, act, &u);
        record_text_action(stdout, ply++, action_format(act, text));
    }
    printf("\n");
    return 0;
}
