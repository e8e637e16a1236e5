/* The table of subcommands: `yinsh --help` lists them, `yinsh CMD --help`
 * prints one's usage, the text file cli/usage/CMD.txt built into the
 * binary (cmake/embed_dir.cmake: the table YINSH_USAGE; ctest usage_texts
 * checks every command's). A default a text names (the database, a
 * folder, a count) is a macro (cli/commands.h, RUN_DEFAULT_DB,
 * VIEW_MARKER) that test_usage_defaults finds in the text. */
#include <stdio.h>
#include <string.h>
#include "cli/commands.h"

static const Command COMMANDS[] = {
    {"perft", cmd_perft, "count action sequences to a depth (correctness and speed)"},
    {"legal", cmd_legal, "list the legal actions of a position"},
    {"apply", cmd_apply, "apply actions to a position and print the result"},
    {"show", cmd_show, "draw a position, or a stored game's, as the hexagonal board"},
    {"replay", cmd_replay, "check game records (one or a stream): actions, stored results"},
    {"svg", cmd_svg, "draw a position as an SVG picture, its last action marked"},
    {"randgame", cmd_randgame, "play a uniformly random game and print its record"},
    {"bench", cmd_bench, "engine benchmark: perft and random playouts"},
    {"selfplay", cmd_selfplay, "play a self-play run and store every game in the database"},
    {"match", cmd_match, "agent A against agent B in colour-swapped pairs: Elo, LOS, SPRT"},
    {"sprt", cmd_sprt, "what an SPRT's bounds cost (expected pairs, simulated error rates); LLR of counts"},
    {"tournament", cmd_tournament, "a round robin or gauntlet of named agents: rating list and pairwise table"},
    {"tune", cmd_tune, "fit the evaluation weights to stored games (logistic regression)"},
    {"train", cmd_train, "train a net (the NNUE-style evaluation) on stored games"},
    {"relabel", cmd_relabel, "copy stored games into a new run whose positions carry a deeper search's values"},
    {"export", cmd_export, "write stored games as game records that `yinsh replay` checks"},
    {"report", cmd_report, "the balance report of stored games: Markdown and pictures"},
    {"study", cmd_study, "run a study file: its self-play runs (missing or unfinished ones), then its report"},
    {"merge", cmd_merge, "merge the runs of other databases (shards of one run) into one, checked"},
    {"spsa", cmd_spsa, "tune numeric parameters of an agent spec by SPSA over colour-swapped game pairs"},
    {"rounds", cmd_rounds, "self-play, fit and match, round after round while the new weights gain"},
    {"loop", cmd_loop, "PUCT self-play that trains its own net (value and policy) behind an SPRT gate"},
    {"import", cmd_import, "store games played elsewhere (boardspace.net records), one run per file"},
    {"view", cmd_view, "a static web site to step through stored games in a browser"},
    {"uyi", cmd_uyi, "an agent as a UYI engine on stdin/stdout (docs/uyi.md)"},
    {"positions", cmd_positions, "write the stored games' positions for training: YPN, CSV or planes (.npy)"},
};
/* The usage texts: file names ("match.txt") and bytes, NULL-ended. */
extern const char *const YINSH_USAGE_NAMES[];
extern const char *const YINSH_USAGE_BYTES[];

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
    char file[64];
    snprintf(file, sizeof file, "%s.txt", cmd);
    for (int i = 0; YINSH_USAGE_NAMES[i]; i++)
        if (!strcmp(YINSH_USAGE_NAMES[i], file)) {
            fputs(YINSH_USAGE_BYTES[i], stdout);
            return 0;
        }
    fprintf(stderr, "yinsh: no usage text for %s (cli/usage/%s was not built in)\n", cmd, file);
    return 1;
}
