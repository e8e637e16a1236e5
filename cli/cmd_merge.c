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
#include "selfplay/store/store.h"
#include "engine/base/number.h"

const char USAGE_MERGE[] =
    "usage: yinsh merge --db OUT.db SHARD.db... [--busy-timeout MS] [--quiet]\n"
    "  Copies the runs of the SHARD databases into OUT (created if missing; it\n"
    "  may hold other runs), matching runs by their identity (uid): the shards\n"
    "  of one run (`yinsh selfplay ... --seed S --shard K/N`, one database each)\n"
    "  become that run, whole. Every copy of a run must have the same plan\n"
    "  (seed, agents and their weights' hashes, variant, size, kind, engine\n"
    "  version); a game held twice must be the same game (actions, visit\n"
    "  counts, root visit distributions, result), and is then copied once; a\n"
    "  different one stops the merge naming both files. A file that is not a\n"
    "  Yinsh Lab database, of another schema version, or damaged (a truncated\n"
    "  copy) is refused by name before anything is written. The merge is one\n"
    "  transaction: all of it or nothing. A run that then holds every game is\n"
    "  marked finished; else the indices it lacks are listed, and `yinsh\n"
    "  selfplay --resume RUN --db OUT` plays them (docs/cluster.md).\n"
    "\n"
    "  --db OUT.db        the database merged into\n"
    "  --busy-timeout MS  how long to wait for another process's lock (default 5000)\n"
    "  --quiet            no line per run on stdout\n";

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

int cmd_merge(int argc, char **argv)
{
    const char *cmd = "merge", *db = NULL;
    const char **files = calloc(MERGE_MAX_FILES, sizeof *files);
    long busy = STORE_BUSY_MS;
    bool quiet = false;
    const CliOpt opts[] = {
        {.name = "--db", .kind = CLI_TEXT, .out = &db,
         .required = "--db OUT.db is required: the database to merge into"},
        {.name = "--busy-timeout", .kind = CLI_INT, .out = &busy, .min = 0, .max = 3600000},
        {.name = "--quiet", .kind = CLI_FLAG, .out = &quiet},
    };
    int n = 0, rc;
    if (!files) return cli_error(cmd, "out of memory");
    if ((rc = cli_parse(cmd, argc, argv, opts, sizeof opts / sizeof *opts, files, MERGE_MAX_FILES, &n))) goto done;
    if ((rc = cli_db(cmd, &db))) goto done;
    if (n == 0) {
        rc = cli_usage_error(cmd, "no database to merge: name one or more after --db OUT.db");
        goto done;
    }
    if ((rc = check_files(cmd, files, n))) goto done;

    /* a file made here and left empty by a failure is removed */
    struct stat sb;
    bool existed = stat(db, &sb) == 0;
    char err[ERR_LEN];
    Store *s = NULL;
    StoreMergeRun *runs = NULL;
    int nruns = 0;
    if (store_open(&s, db, STORE_CREATE, (int)busy, err) || store_merge(s, files, NULL, n, &runs, &nruns, err)) {
        store_close(s);
        if (!existed) cli_remove_db(db);
        rc = cli_error(cmd, "%s", err);
        fprintf(stderr, "yinsh merge: nothing was written to '%s'\n", db);
        goto done;
    }
    store_close(s);
    for (int i = 0; i < nruns && !quiet; i++) {
        const StoreMergeRun *r = &runs[i];
        printf("run %s: %" PRIu64 " game%s copied, %" PRIu64 " held already (identical); %" PRIu64 "/%u game%s: ",
               r->name, r->added, number_plural(r->added), r->duplicates, r->stored, r->games,
               number_plural(r->games));
        if (r->finished) printf("finished\n");
        else printf("missing %s (`yinsh selfplay --resume %s --db %s` plays them)\n", r->missing, r->name, db);
    }
    free(runs);
    rc = 0;
done:
    free(files);
    return rc;
}
