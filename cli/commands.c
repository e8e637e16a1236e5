/* The table of subcommands: `yinsh --help` lists them, `yinsh CMD --help`
 * prints one's usage. */
#include <stdio.h>
#include <string.h>
#include "cli/commands.h"

static const Command COMMANDS[] = {
    {"perft", cmd_perft, "count action sequences to a depth (correctness and speed)", USAGE_PERFT},
    {"legal", cmd_legal, "list the legal actions of a position", USAGE_LEGAL},
    {"apply", cmd_apply, "apply actions to a position and print the result", USAGE_APPLY},
    {"show", cmd_show, "draw a position, or a stored game's, as the hexagonal board", USAGE_SHOW},
    {"replay", cmd_replay, "check game records (one or a stream): actions, stored results", USAGE_REPLAY},
    {"svg", cmd_svg, "draw a position as an SVG picture, its last action marked", USAGE_SVG},
    {"randgame", cmd_randgame, "play a uniformly random game and print its record", USAGE_RANDGAME},
    {"bench", cmd_bench, "engine benchmark: perft and random playouts", USAGE_BENCH},
    {"selfplay", cmd_selfplay, "play a self-play run and store every game in the database", USAGE_SELFPLAY},
    {"match", cmd_match, "agent A against agent B in colour-swapped pairs: Elo, LOS, SPRT", USAGE_MATCH},
    {"sprt", cmd_sprt, "what an SPRT's bounds cost (expected pairs, simulated error rates); LLR of counts",
     USAGE_SPRT},
    {"tournament", cmd_tournament, "a round robin or gauntlet of named agents: rating list and pairwise table",
     USAGE_TOURNAMENT},
    {"tune", cmd_tune, "fit the evaluation weights to stored games (logistic regression)", USAGE_TUNE},
    {"train", cmd_train, "train a net (the NNUE-style evaluation) on stored games", USAGE_TRAIN},
    {"export", cmd_export, "write stored games as game records that `yinsh replay` checks", USAGE_EXPORT},
    {"report", cmd_report, "the balance report of stored games: Markdown and pictures", USAGE_REPORT},
    {"study", cmd_study, "run a study file: its self-play runs (missing or unfinished ones), then its report",
     USAGE_STUDY},
    {"merge", cmd_merge, "merge the runs of other databases (shards of one run) into one, checked", USAGE_MERGE},
    {"spsa", cmd_spsa, "tune numeric parameters of an agent spec by SPSA over colour-swapped game pairs", USAGE_SPSA},
    {"rounds", cmd_rounds, "self-play, fit and match, round after round while the new weights gain", USAGE_ROUNDS},
    {"loop", cmd_loop, "PUCT self-play that trains its own net (value and policy) behind an SPRT gate", USAGE_LOOP},
    {"import", cmd_import, "store games played elsewhere (boardspace.net records), one run per file", USAGE_IMPORT},
    {"view", cmd_view, "a static web site to step through stored games in a browser", USAGE_VIEW},
    {"uyi", cmd_uyi, "an agent as a UYI engine on stdin/stdout (docs/uyi.md)", USAGE_UYI},
    {"positions", cmd_positions, "write the stored games' positions for training: YPN, CSV or planes (.npy)",
     USAGE_POSITIONS},
};
enum { COMMAND_NB = sizeof COMMANDS / sizeof COMMANDS[0] };

const Command *cli_find(const char *name)
{
    for (int i = 0; i < COMMAND_NB; i++)
        if (!strcmp(COMMANDS[i].name, name)) return &COMMANDS[i];
    return NULL;
}

void cli_usage(FILE *f)
{
    fprintf(f, "usage: yinsh COMMAND [ARGS...]\n\n"
               "Yinsh Lab " YINSH_VERSION ": a YINSH rules engine and self-play lab.\n\ncommands:\n");
    for (int i = 0; i < COMMAND_NB; i++) fprintf(f, "  %-10s %s\n", COMMANDS[i].name, COMMANDS[i].summary);
    fprintf(f, "\n`yinsh COMMAND --help` explains a command.\n"
               "Rules: docs/rules.md; positions (YPN), actions and perft: docs/notation.md.\n");
}

int cli_help(const char *cmd)
{
    const Command *c = cli_find(cmd);
    if (c) printf("%s", c->usage);
    return 0;
}
