/* yinsh merge: the runs of other databases (shards played with --shard
 * K/N, anywhere) merged into one database, by run identity. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/commands.h"
#include "selfplay/store/merge_text.h"
#include "selfplay/store/store.h"
#include "engine/base/number.h"

enum { MERGE_MAX_FILES = 100000 };

/* Each database to merge is there and is not a directory: 0, or 1 after
 * saying which is not. */
static int check_files(const char *cmd, const char **files, int n)
{
    for (int i = 0; i < n; i++) {
        struct stat sb;
        if (stat(files[i], &sb) != 0) return cli_error(cmd, "cannot merge '%s': %s", files[i], strerror(errno));
        if (S_ISDIR(sb.st_mode)) return cli_error(cmd, "cannot merge '%s': it is a directory", files[i]);
    }
    return 0;
}

/* The command line, as parsed. */
typedef struct MergeArgs {
    const char *db;
    const char **files;
    int nfiles;
    long busy;
    bool quiet;
} MergeArgs;

static int parse_args(int argc, char **argv, MergeArgs *a)
{
    const CliOpt opts[] = {
        {.name = "--db", .kind = CLI_TEXT, .out = &a->db,
         .required = "--db OUT.db is required: the database to merge into"},
        {.name = "--busy-timeout", .kind = CLI_INT, .out = &a->busy, .min = 0, .max = 3600000},
        {.name = "--quiet", .kind = CLI_FLAG, .out = &a->quiet},
    };
    return cli_parse("merge", argc, argv, opts, sizeof opts / sizeof *opts, a->files, MERGE_MAX_FILES, &a->nfiles);
}

static int check_args(const char *cmd, MergeArgs *a)
{
    int rc;
    if ((rc = cli_db(cmd, &a->db))) return rc;
    if (a->nfiles == 0) return cli_usage_error(cmd, "no database to merge: name one or more after --db OUT.db");
    return check_files(cmd, a->files, a->nfiles);
}

/* Merges the files into the database (a file made here and left empty by
 * a failure is removed): 0, or 1 after saying why. */
static int merge(const char *cmd, const MergeArgs *a, StoreMergeRun **runs, int *nruns)
{
    struct stat sb;
    bool existed = stat(a->db, &sb) == 0;
    char err[ERR_LEN];
    Store *s = NULL;
    if (store_open(&s, a->db, STORE_CREATE, (int)a->busy, err) ||
        store_merge(s, a->files, NULL, a->nfiles, runs, nruns, err)) {
        store_close(s);
        if (!existed) cli_remove_db(a->db);
        cli_error(cmd, "%s", err);
        fprintf(stderr, "yinsh merge: nothing was written to '%s'\n", a->db);
        return 1;
    }
    store_close(s);
    return 0;
}

int cmd_merge(int argc, char **argv)
{
    const char *cmd = "merge";
    MergeArgs a = {.files = calloc(MERGE_MAX_FILES, sizeof *a.files), .busy = STORE_BUSY_MS};
    StoreMergeRun *runs = NULL;
    int nruns = 0, rc;
    if (!a.files) return cli_error(cmd, "out of memory");
    if (!(rc = parse_args(argc, argv, &a)) && !(rc = check_args(cmd, &a)) && !(rc = merge(cmd, &a, &runs, &nruns)) &&
        !a.quiet)
        store_merge_print(stdout, runs, nruns, a.db);
    free(runs);
    free(a.files);
    return rc;
}
