/* The subcommands: their table (commands.c) and every entry point. */
#ifndef YINSH_COMMANDS_H
#define YINSH_COMMANDS_H

#include <stdio.h>

typedef struct Command {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
    const char *summary;               /* one line for `yinsh --help` */
    const char *usage;                 /* full text for `yinsh CMD --help` */
} Command;

/* The command of that name, NULL if none. */
const Command *cli_find(const char *name);
/* Prints the usage of a command to stdout; returns 0. */
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

extern const char USAGE_PERFT[], USAGE_LEGAL[], USAGE_APPLY[], USAGE_SHOW[], USAGE_REPLAY[],
    USAGE_RANDGAME[], USAGE_BENCH[];
int cmd_selfplay(int argc, char **argv); extern const char USAGE_SELFPLAY[];
int cmd_match(int argc, char **argv); extern const char USAGE_MATCH[];
int cmd_sprt(int argc, char **argv); extern const char USAGE_SPRT[];
int cmd_tournament(int argc, char **argv); extern const char USAGE_TOURNAMENT[];
int cmd_tune(int argc, char **argv); extern const char USAGE_TUNE[];
int cmd_train(int argc, char **argv); extern const char USAGE_TRAIN[];
int cmd_train_policy(int argc, char **argv); /* cmd_train's --policy */

int cmd_report(int argc, char **argv); extern const char USAGE_REPORT[];
int cmd_study(int argc, char **argv); extern const char USAGE_STUDY[];
int cmd_export(int argc, char **argv); extern const char USAGE_EXPORT[];
int cmd_svg(int argc, char **argv); extern const char USAGE_SVG[];
int cmd_view(int argc, char **argv); extern const char USAGE_VIEW[];
int cmd_uyi(int argc, char **argv); extern const char USAGE_UYI[];
int cmd_import(int argc, char **argv); extern const char USAGE_IMPORT[];
int cmd_merge(int argc, char **argv); extern const char USAGE_MERGE[];
int cmd_spsa(int argc, char **argv); extern const char USAGE_SPSA[];
int cmd_rounds(int argc, char **argv); extern const char USAGE_ROUNDS[];
int cmd_loop(int argc, char **argv); extern const char USAGE_LOOP[];
int cmd_positions(int argc, char **argv); extern const char USAGE_POSITIONS[];

#endif
