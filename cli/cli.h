/* The command line's shared helpers: option parsing, messages, the
 * options every run takes, progress. The table of subcommands is
 * commands.c; each subcommand (cmd_*.c) is a thin call into the
 * libraries. */
#ifndef YINSH_CLI_H
#define YINSH_CLI_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "engine/base/folder.h"
#include "engine/base/interrupt.h"
#include "engine/base/parallel.h"
#include "engine/base/progress.h"
#include "eval/policy_train.h"
#include "selfplay/play/run.h"
#include "study/plans/planned.h"
#include "study/report/report.h"

/* Exit statuses: 0 success, 1 failure (bad data, illegal action, I/O), 2 usage. */
enum { EXIT_USAGE = 2 };

/* Prints "yinsh CMD: message" and a hint to `--help` to stderr; returns 2. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints "yinsh CMD: message" to stderr; returns 1. */
int cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* True when argv holds -h or --help (before any "--"). */
bool cli_wants_help(int argc, char **argv);

/* An output path is never also an input: every command checks each path
 * it writes against each path it reads before any work, by device and
 * inode (so also through links and other spellings), with these.
 *
 * cli_check_output: an output file: not a directory, in a folder that
 * exists and can be written, and not the same file as any of the n
 * inputs (NULL inputs are skipped; input_opts[i] names inputs[i] in the
 * message, "--db"; file_same_any, engine/base/file.h). cli_check_same:
 * only the last (a database that run_open makes the folder of). 0, or EXIT_USAGE / 1 after printing why. */
int cli_check_output(const char *cmd, const char *opt, const char *out, const char *const *inputs,
                     const char *const *input_opts, int n);
int cli_check_same(const char *cmd, const char *opt, const char *out, const char *const *inputs,
                   const char *const *input_opts, int n);
/* Checks a folder that a command writes into before any work: not an
 * existing file of another kind, and no input among what it overwrites
 * (FolderWrites, folder_overwrites: engine/base/folder.h).
 * 0, or EXIT_USAGE after printing why (opt names the folder's option). */
int cli_check_writes(const char *cmd, const char *opt, const FolderWrites *w, const char *const *inputs,
                     const char *const *input_opts, int n);
/* What `yinsh report` (and a study's report) writes into its folder:
 * report.md, the pictures (*.png), their data (*.dat) and gnuplot.log;
 * cli_check_writes on them (report_folder_writes). */
int cli_check_report_out(const char *cmd, const char *opt, const char *dir, const char *const *inputs,
                         const char *const *input_opts, int n);

/* The paths of a command that reads a database and writes a folder
 * (cli_db on db): 0, or EXIT_USAGE after saying which one is empty. */
int cli_check_db_out(const char *cmd, const char **db, const char *out);

/* "yinsh " and the command's arguments joined by spaces, each quoted for
 * the shell where it needs it (malloc'd; NULL when out of memory): the
 * command line stored with runs and reports, runnable when pasted. */
char *cli_join_args(int argc, char **argv);

/* A YPN is either one argument with spaces or four arguments: the
 * positional arguments from i on. Returns how many it took (0 when there
 * are none) and writes it to buf. */
int cli_take_ypn(int n, const char **args, int i, char *buf, size_t size);

/* Options as a table: each command lists its options, and cli_parse
 * fills the targets. Names match exactly (never an abbreviation); a value
 * follows as the next argument or after '='; `--` ends the options.
 * Arguments that are not options are positional, returned in order. */
typedef enum {
    CLI_FLAG,  /* bool: set to true */
    CLI_TEXT,  /* const char *: the argument itself */
    CLI_INT,   /* long, in [min, max] */
    CLI_U64,   /* uint64_t, any */
    CLI_REAL,  /* double, finite, in [min, max] */
    CLI_LIST,  /* CliList: comma-separated items; may be repeated */
    CLI_TEXTS, /* CliList: each value one item, commas and all; repeated */
} CliKind;

typedef struct CliOpt {
    const char *name; /* "--games" */
    CliKind kind;
    void *out;
    double min, max;  /* CLI_INT and CLI_REAL */
    bool *seen;       /* NULL, or set when the option is given */
    /* NULL, or the option is required in every mode of its command, and
     * this is the usage error when it is not given (or, a text, given
     * empty): "--db PATH is required". */
    const char *required;
} CliOpt;

enum { CLI_LIST_MAX = 1000 };
typedef struct CliList {
    char *items[CLI_LIST_MAX]; /* malloc'ed copies: free with cli_list_free */
    int n;
} CliList;
void cli_list_free(CliList *l);

/* Parses argv[1..] by the table (nopts entries, at most CLI_OPTS_MAX).
 * Positional arguments go to pos (at most maxpos; more is a usage error),
 * their count to *npos. Then the first required option of the table that
 * is missing is a usage error. 0, or EXIT_USAGE after printing what is
 * wrong. */
enum { CLI_OPTS_MAX = 128 };
int cli_parse(const char *cmd, int argc, char **argv, const CliOpt *opts, int nopts, const char **pos, int maxpos,
              int *npos);

/* The options many commands share, resolved once (cli_shared_check) and
 * passed down as they are: the database (RUN_DEFAULT_DB when none is
 * named), how long every reader and writer of it waits for another
 * process's lock, the threads, quiet. */
typedef struct CliShared {
    const char *db; /* --db PATH; after cli_shared_check never NULL */
    long busy;      /* --busy-timeout MS */
    long threads;   /* --threads T (0: all cores) */
    bool quiet;     /* --quiet */
} CliShared;
#define CLI_SHARED_DEFAULTS {.busy = STORE_BUSY_MS}
#define CLI_DB_OPTION(s) {.name = "--db", .kind = CLI_TEXT, .out = &(s)->db}
#define CLI_BUSY_OPTION(s) {.name = "--busy-timeout", .kind = CLI_INT, .out = &(s)->busy, .min = 0, .max = 3600000}
#define CLI_QUIET_OPTION(s) {.name = "--quiet", .kind = CLI_FLAG, .out = &(s)->quiet}
/* --threads T: the OpenMP threads of a command's games or fit, capped
 * where parallel_threads caps them. */
#define CLI_THREADS_OPTION(target) {.name = "--threads", .kind = CLI_INT, .out = (target), .min = 1, .max = THREADS_MAX}
/* Removes a database file and its -wal and -shm files: one this command
 * made and left empty by a failure, or a temporary one. */
void cli_remove_db(const char *db);
/* --db: a path when given (an empty one is a usage error), else
 * RUN_DEFAULT_DB, said on stderr (with the working folder) when it does
 * not exist yet: it is made there, not where the user may think. 0, or
 * EXIT_USAGE after saying so. */
int cli_db(const char *cmd, const char **db);
/* cli_db on s->db. */
int cli_shared_check(const char *cmd, CliShared *s);
/* The shared options as the planned runs take them (planned.h). */
PlannedOptions cli_planned_options(const CliShared *s);

/* The options every run takes (selfplay, match), with the checks they
 * share: --db is a path, --no-db excludes --db and --run, a run name's
 * length. cli_run_check resolves them into o (the database, its lock
 * wait, the threads). */
typedef struct CliRun {
    CliShared sh;      /* --db, --busy-timeout, --threads, --quiet (o.db stays NULL with --no-db) */
    RunOptions o;
    const char *shard; /* --shard K/N, parsed by cli_run_check into o.shard, o.shards */
    char *command;     /* the command line, joined by cli_run_open */
} CliRun;
#define CLI_RUN_DEFAULTS(kind_) {.sh = CLI_SHARED_DEFAULTS, .o = {.kind = (kind_)}}
#define CLI_RUN_OPTIONS(r)                                                                        \
    CLI_THREADS_OPTION(&(r)->sh.threads),                                                         \
    {.name = "--seed", .kind = CLI_U64, .out = &(r)->o.plan.seed, .seen = &(r)->o.have_seed},     \
    CLI_DB_OPTION(&(r)->sh),                                                                      \
    {.name = "--no-db", .kind = CLI_FLAG, .out = &(r)->o.no_db},                                  \
    {.name = "--run", .kind = CLI_TEXT, .out = &(r)->o.name},                                     \
    CLI_QUIET_OPTION(&(r)->sh),                                                                   \
    CLI_BUSY_OPTION(&(r)->sh),                                                                    \
    {.name = "--repeat", .kind = CLI_FLAG, .out = &(r)->o.allow_repeat},                          \
    {.name = "--store-visits", .kind = CLI_FLAG, .out = &(r)->o.plan.store_visits},               \
    {.name = "--shard", .kind = CLI_TEXT, .out = &(r)->shard}
int cli_run_check(const char *cmd, CliRun *r);

/* --shard K/N: 0 with *shard = K and *shards = N (1 <= K <= N <= 10^6),
 * or the usage error's status, naming the text. */
int cli_shard(const char *cmd, const char *text, uint32_t *shard, uint32_t *shards);
/* Joins the command line, joins the MPI job when started by mpirun
 * (selfplay/play/distribute.h) and opens the run (run.h); 0, or 1 after
 * printing why (a rank other than 0 says nothing when rank 0 failed: rank
 * 0 says why). cli_run_close frees both, whatever the outcome. */
int cli_run_open(const char *cmd, CliRun *r, int argc, char **argv, Run *run);
void cli_run_close(CliRun *r, Run *run);

/* How a new run's games open, from --opening TEXT (none, rings or
 * random:K; NULL: dflt) and whether --book FILE is given (then
 * OPENING_BOOK; the caller reads the book): 0, or EXIT_USAGE after
 * printing why (an unknown text, or both options). */
int cli_opening(const char *cmd, const char *text, bool book, int dflt, int *opening, int *actions);

/* Parses an agent spec given on the command line: a bad spec is a usage
 * error (2), a weights file that cannot be read bad data (1), either
 * printed with `what` ("agent A"). 0 when it parsed. */
int cli_agent(const char *cmd, const char *what, const char *text, AgentSpec *spec);
/* The same, where `engine:NAME` names an engine of the engines file
 * (--engines FILE; NULL: none given). */
int cli_agent_in(const char *cmd, const char *what, const char *text, const char *engines, AgentSpec *spec);

/* The controls of a run's agents (selfplay, match): time controls, agent
 * streams, the engines file and the external engines' logs and waits. */
typedef struct CliControls {
    const char *tc, *engines, *engine_logs;
    long movetime, sims, margin, engine_timeout;
    bool agent_streams, have_margin, engine_transcript;
    char logs[4096]; /* the default log folder, next to the database (the controls point here) */
} CliControls;
#define CLI_CONTROL_OPTIONS(c)                                                                            \
    {.name = "--tc", .kind = CLI_TEXT, .out = &(c)->tc},                                                 \
    {.name = "--movetime", .kind = CLI_INT, .out = &(c)->movetime, .min = 1, .max = 86400000},           \
    {.name = "--sims", .kind = CLI_INT, .out = &(c)->sims, .min = 1, .max = 10000000},                   \
    {.name = "--tc-margin", .kind = CLI_INT, .out = &(c)->margin, .min = 0, .max = 86400000,             \
     .seen = &(c)->have_margin},                                                                         \
    {.name = "--agent-streams", .kind = CLI_FLAG, .out = &(c)->agent_streams},                           \
    {.name = "--engines", .kind = CLI_TEXT, .out = &(c)->engines},                                       \
    {.name = "--engine-logs", .kind = CLI_TEXT, .out = &(c)->engine_logs},                               \
    {.name = "--engine-transcript", .kind = CLI_FLAG, .out = &(c)->engine_transcript},                   \
    {.name = "--engine-timeout", .kind = CLI_INT, .out = &(c)->engine_timeout, .min = 1, .max = 86400000}
/* Checks the controls into pc, once the n agents that play under them
 * are parsed: an external one logs into --engine-logs (a folder, made
 * when missing, with the transcripts too), else into the folder
 * engine-logs next to the database db
 * (NULL: none, and no log), which is made then; then each external
 * engine is checked (cli_check_engines). 0 or EXIT_USAGE / 1 after
 * printing why. */
int cli_controls_check(const char *cmd, CliControls *c, const char *db, const AgentSpec *const *agents, int n,
                       PlayControls *pc);
/* Each external engine among the n agents (each once) started, shaken
 * hands with and ended under the controls' log folder and answer time
 * (agent_spec_check), before the first game: 0, or 1 after printing why
 * and where its log is. cli_controls_check ends with it; a command whose
 * agents come from elsewhere (a resumed run, a study file) calls it. */
int cli_check_engines(const char *cmd, const AgentSpec *const *agents, int n, const PlayControls *pc);
/* Whether any control that changes a run's plan was given (refused with --resume). */
bool cli_controls_plan_given(const CliControls *c);

/* The selection options of report and tune: --kind (selfplay, match or
 * all: NULL), --agent (any spelling of a spec, made canonical into
 * agent[SPEC_LEN]), --variant. Fills sel; 0 or EXIT_USAGE. */
int cli_selection(const char *cmd, const char *kind, const char *agent_text, const char *variant,
                  StoreSelection *sel, char *agent);
/* The direct head's training options of `yinsh train --policy`, which
 * `yinsh loop` passes on (eval/policy_train.h: child-value targets, joint
 * training): into the PolicyTrainOptions o_, --widen into the long w_. */
#define CLI_HEAD_OPTIONS(o_, w_)                                                                       \
    {.name = "--child-temp", .kind = CLI_REAL, .out = &(o_)->child_temp, .min = 0.01, .max = 100},   \
    {.name = "--child-mix", .kind = CLI_REAL, .out = &(o_)->child_mix, .min = 0, .max = 1},          \
    {.name = "--reduced-too", .kind = CLI_FLAG, .out = &(o_)->reduced_too},                          \
    {.name = "--joint", .kind = CLI_REAL, .out = &(o_)->joint, .min = 0, .max = 100},                \
    {.name = "--trunk-lr", .kind = CLI_REAL, .out = &(o_)->trunk_lr, .min = 1e-7, .max = 1},         \
    {.name = "--widen", .kind = CLI_INT, .out = (w_), .min = NNUE_MIN_HIDDEN, .max = NNUE_MAX_HIDDEN}
/* Checks them as both commands do, in the same words, and sets o->widen:
 * --child-mix needs --child-temp, --reduced-too --child-mix, --joint a
 * direct head (direct) and a net without a second layer, --widen --joint
 * and a multiple of 16 from the net's width. net: the value net the head
 * is trained on (or the loop's net 0), the file `path` given as
 * `net_opt` ("--init"). 0, or EXIT_USAGE after saying why. */
int cli_head_options_check(const char *cmd, PolicyTrainOptions *o, long widen, bool direct, const Nnue *net,
                           const char *net_opt, const char *path);

#define CLI_SELECTION_OPTIONS(k_, a_, v_)                                       \
    {.name = "--kind", .kind = CLI_TEXT, .out = (k_)},                         \
    {.name = "--agent", .kind = CLI_TEXT, .out = (a_)},                        \
    {.name = "--variant", .kind = CLI_TEXT, .out = (v_)}

/* The balance report of runs of a database written into a folder
 * (cli_report.c over study/report/; `yinsh report` and `yinsh study`): what
 * `yinsh report` does once its options are checked. */
typedef struct CliReport {
    const char *db;
    long busy;               /* how long the database is waited for */
    StoreSelection sel;      /* the runs reported; kind "match": the match report */
    const char *out;         /* the folder (made if missing) */
    const char *plots;       /* the gnuplot scripts; NULL: found beside the binary */
    bool no_plots;           /* the Markdown only */
    bool quiet;              /* the Markdown not on stdout */
    const char *cmdline;     /* the command shown in the report */
    bool json;               /* the figures as JSON on stdout (docs/json.md) instead of the Markdown */
    int argc;                /* the command line, for the JSON document */
    char **argv;
    const ReportComparison *declared; /* the comparisons declared before the games (report_compare) */
    int ndeclared;
    const char *reference;   /* the reference evaluator (ReportLoadOptions); NULL: REPORT_REFERENCE */
    double margin;           /* the equivalence margin (Report.margin, a fraction); 0: none */
} CliReport;
/* 0, or 1 after printing why. */
int cli_report_write(const char *cmd, const CliReport *job);

/* An MPI rank other than 0 (run->worker): plays what rank 0 hands out,
 * with Ctrl-C and SIGTERM handled; 0, or non-zero after printing why. */
int cli_run_work(const char *cmd, Run *run);
/* Sets the signal note (interrupt_note) of rank 0 of an MPI job playing
 * the run, the way to resume it: nothing with one rank. */
void cli_mpi_signal_note(const char *cmd, const Run *run);


/* Progress on stderr: engine/base/progress.h (included above). */

/* How `yinsh CMD` plays a planned run (planned.h; cli/cli_planned.c, for
 * study, tournament, rounds and spsa): a self-play run shown as `yinsh
 * selfplay` shows it, a match as a tournament's pairing ("RUN (k/n)
 * games" and A's results); Ctrl-C handled. */
typedef struct CliPlay {
    const char *cmd;
    bool quiet;
    int k, n;           /* a match's place among its plan's: shown as k+1/n */
    bool summary;       /* a self-play run's last line: its games, results and hash */
    const char *repeat; /* said when another run holds the games (ERR_REPEAT) */
} CliPlay;
/* 0; or the exit status after printing why: 1 when it failed, 128 + the
 * signal after an interruption. */
int cli_play_planned(const CliPlay *c, const Planned *p, const PlannedOptions *o);
/* The advice when a tournament (or an SPSA loop: its iterations are
 * tournaments) finds another plan's run under a pairing's name. */
extern const char CLI_TOURNAMENT_REFUSED[];

#endif
