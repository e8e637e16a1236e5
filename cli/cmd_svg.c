/* yinsh svg: a position as an SVG picture (study/viewer/board_svg.c draws it, as
 * it draws the viewer's boards). */
#include <stdio.h>
#include "study/viewer/board_svg.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "engine/notation.h"

/* The command line, as parsed. */
typedef struct SvgArgs {
    const char *last;
    long size;
    char ypn[1024];
} SvgArgs;

static int parse_args(const char *cmd, int argc, char **argv, SvgArgs *a)
{
    const char *args[4];
    const CliOpt opts[] = {
        {.name = "--last", .kind = CLI_TEXT, .out = &a->last},
        {.name = "--size", .kind = CLI_INT, .out = &a->size, .min = BOARD_SIZE_MIN, .max = BOARD_SIZE_MAX},
    };
    int n, rc = cli_parse(cmd, argc, argv, opts, sizeof opts / sizeof *opts, args, 4, &n);
    if (rc) return rc;
    int took = cli_take_ypn(n, args, 0, a->ypn, sizeof a->ypn);
    if (!took) return cli_usage_error(cmd, "missing YPN");
    if (took != n) return cli_usage_error(cmd, "unexpected argument '%s'", args[took]);
    return 0;
}

int cmd_svg(int argc, char **argv)
{
    const char *cmd = "svg";
    SvgArgs a = {.size = 450};
    char err[ERR_LEN];
    int rc = parse_args(cmd, argc, argv, &a);
    if (rc) return rc;
    Position pos;
    if (ypn_parse(a.ypn, &pos, err)) return cli_error(cmd, "invalid position: %s", err);
    if (board_svg_write(stdout, &pos, a.last, (int)a.size, err)) return cli_error(cmd, "%s", err);
    return 0;
}
