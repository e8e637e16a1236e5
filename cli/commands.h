/* The subcommands: their table (commands.c) and every entry point. */
#ifndef YINSH_COMMANDS_H
#define YINSH_COMMANDS_H

#include <stdio.h>

typedef struct Command {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
    const char *summary;               /* one line for `yinsh --help` */
} Command;

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
int cmd_spsa(int argc, char **argv);
int cmd_rounds(int argc, char **argv);
int cmd_loop(int argc, char **argv);
int cmd_positions(int argc, char **argv);

#endif
