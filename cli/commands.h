/* The subcommands: their table (commands.c) and every entry point. */
#ifndef YINSH_COMMANDS_H
#define YINSH_COMMANDS_H

#include <stdio.h>

typedef struct Command {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
    const char *summary;               /* one line for `yinsh --help` */
} Command;

/* The defaults of the commands that their usage texts (cli/usage/CMD.txt)
 * state: test_usage_defaults checks that each text says the value here
 * (and RUN_DEFAULT_DB, VIEW_MARKER), so that one changed alone fails it.
 * A match without --games: 100 colour-swapped pairs (Elo within about
 * +-50 between agents of like strength), or under an SPRT a cap about
 * twice what fine bounds expect (`yinsh sprt 0,5,0.05,0.05`: 10,495 pairs
 * at either hypothesis), so that the test, not the cap, ends it. */
enum { MATCH_DEFAULT_GAMES = 200, MATCH_DEFAULT_SPRT_GAMES = 40000 };
#define SELFPLAY_DEFAULT_AGENT "mcts"         /* selfplay's --agent */
#define REPORT_DEFAULT_OUT "results/report"   /* report's --out */
#define VIEW_DEFAULT_OUT "results/view"       /* view's --out */

/* The command of that name, NULL if none. */
const Command *cli_find(const char *name);
/* Prints the usage of a command to stdout, its text file cli/usage/CMD.txt
 * as built in: 0, or 1 after saying that none was built in. */
int cli_help(const char *cmd);
/* The list of commands, for `yinsh --help`. */
void cli_usage(FILE *f);

int cmd_perft(int argc, char **argv);
int cmd_legal(int argc, char **argv);
int cmd_apply(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_randgame(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_selfplay(int argc, char **argv);
int cmd_match(int argc, char **argv);
int cmd_sprt(int argc, char **argv);
int cmd_tournament(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_train(int argc, char **argv);
int cmd_train_policy(int argc, char **argv); /* cmd_train's --policy */

int cmd_report(int argc, char **argv);
int cmd_study(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_svg(int argc, char **argv);
int cmd_view(int argc, char **argv);
int cmd_uyi(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_relabel(int argc, char **argv);
int cmd_spsa(int argc, char **argv);
int cmd_rounds(int argc, char **argv);
int cmd_loop(int argc, char **argv);
int cmd_positions(int argc, char **argv);

#endif
