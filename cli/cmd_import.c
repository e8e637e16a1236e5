/* yinsh import: games played elsewhere (boardspace.net's YINSH records)
 * into the database, one run of kind "import" per file (docs/boardspace.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "engine/base/error.h"
#include "engine/base/file.h"
#include "engine/base/text.h"
#include "selfplay/records/boardspace.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "engine/notation.h"
#include "selfplay/store/store.h"
#include "engine/base/number.h"

const char USAGE_IMPORT[] =
    "usage: yinsh import --format boardspace FILE.sgf... [--db PATH] [--repeat]\n"
    "  Reads boardspace.net YINSH records (SGF), checks every action with the\n"
    "  engine, and stores each file's game as a run of kind `import` holding\n"
    "  that one game (docs/boardspace.md): the run is named import-GAME (GAME:\n"
    "  the record's GN), its white and black are boardspace:NAME, its command\n"
    "  says the file, the site and the date. A resigned game is won by the\n"
    "  other side (reason resign); a record that stops early is stored with\n"
    "  result none. Each file is one transaction: a file that cannot be read,\n"
    "  or holds an illegal action, is refused with its move number and why,\n"
    "  and the other files are still imported (exit status 1 if any failed).\n"
    "\n"
    "  --format F    the records' format: boardspace (the only one)\n"
    "  --db PATH     the database (default " RUN_DEFAULT_DB ")\n"
    "  --repeat      store a game the database holds already (same players and\n"
    "                actions) again, as a repeat that every statistic skips\n";

enum { IMPORT_MAX_FILES = 10000, IMPORT_MAX_BYTES = 4 << 20 };

/* A whole file (at most IMPORT_MAX_BYTES) into *text, malloc'ed; 0, or
 * file_read's code with why in err, without the path (the caller names
 * the file). */
static int slurp(const char *path, char **text, size_t *len, char *err)
{
    char why[ERR_LEN];
    int rc = file_read(path, IMPORT_MAX_BYTES, 0, text, len, why);
    return rc ? error_code(err, rc, "%s", file_read_reason(why, path)) : 0;
}

/* The run's name: import- and the game's name on the site (else the
 * file's name without its folder and extension). */
static void run_name(const BoardspaceGame *g, const char *path, char *out, size_t size)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    int blen = dot && dot > base ? (int)(dot - base) : (int)strlen(base);
    if (g->name[0]) snprintf(out, size, "import-%.100s", g->name);
    else snprintf(out, size, "import-%.*s", blen > 100 ? 100 : blen, base);
    if (strlen(g->name[0] ? g->name : base) > 100) text_cut(out); /* cut at a whole character */
}

static int import_file(Store *store, const char *path, bool repeat, char *err)
{
    size_t len;
    char *text;
    if (slurp(path, &text, &len, err)) return ERR_FAIL;
    BoardspaceGame g;
    int rc = boardspace_read(text, len, &g, err);
    free(text);
    if (!rc) {
        char name[STORE_NAME_LEN], white[SPEC_LEN], black[SPEC_LEN], *command = NULL;
        run_name(&g, path, name, sizeof name);
        /* a name made from the file's name: the record's own were checked */
        long bad = text_bad_byte(name);
        if (bad >= 0) {
            rc = error_set(err, "the run's name, made from the file's name, holds %s (byte 0x%02x): refused; "
                                "give the record a GN or the file another name",
                           text_control((unsigned char)name[bad]) ? "a control character" : "a byte that is not UTF-8",
                           (unsigned char)name[bad]);
            record_free(&g.rec);
            return rc;
        }
        snprintf(white, sizeof white, "boardspace:%s", g.player[WHITE]);
        snprintf(black, sizeof black, "boardspace:%s", g.player[BLACK]);
        /* the site and date ride in the command, after a shell comment */
        char *argv[] = {"import", "--format", "boardspace", (char *)path};
        char *joined = cli_join_args(4, argv);
        size_t clen = (joined ? strlen(joined) : 0) + strlen(g.date) + strlen(g.name) + 96;
        if (joined && (command = malloc(clen)))
            snprintf(command, clen, "%s # site boardspace.net, date %s, game %s", joined, g.date[0] ? g.date : "?",
                     g.name[0] ? g.name : "?");
        free(joined);
        if (!command) {
            rc = error_set(err, "out of memory");
        } else {
            rc = run_import(store, name, white, black, command, &g.rec, repeat, err);
        }
        free(command);
        if (!rc)
            printf("%s: run %s: %s (White) against %s (Black), %d action%s, result %s (%s)\n", path, name,
                   g.player[WHITE], g.player[BLACK], g.rec.nactions, number_plural((uint64_t)g.rec.nactions),
                   result_name(g.rec.result),
                   reason_name(g.rec.reason));
    }
    record_free(&g.rec);
    return rc;
}

int cmd_import(int argc, char **argv)
{
    const char *cmd = "import";
    const char *db = NULL, *format = NULL;
    bool repeat = false;
    static const char *files[IMPORT_MAX_FILES];
    const CliOpt opts[] = {
        {.name = "--db", .kind = CLI_TEXT, .out = &db},
        {.name = "--format", .kind = CLI_TEXT, .out = &format},
        {.name = "--repeat", .kind = CLI_FLAG, .out = &repeat},
    };
    int nfiles, rc = cli_parse(cmd, argc, argv, opts, sizeof opts / sizeof *opts, files, IMPORT_MAX_FILES, &nfiles);
    if (rc) return rc;
    if (!format) return cli_usage_error(cmd, "--format wants the records' format (boardspace)");
    if (strcmp(format, "boardspace")) return cli_usage_error(cmd, "--format '%s': the one format read is boardspace", format);
    if ((rc = cli_db(cmd, &db))) return rc;
    if (nfiles == 0) return cli_usage_error(cmd, "no record files given");
    for (int i = 0; i < nfiles; i++) {
        const char *input_opts[] = {"the record file"};
        if ((rc = cli_check_same(cmd, "--db", db, &files[i], input_opts, 1))) return rc;
    }

    Store *store = NULL;
    char err[ERR_LEN];
    if (run_db_folder(db, err) || store_open(&store, db, STORE_CREATE, STORE_BUSY_MS, err))
        return cli_error(cmd, "%s", err);
    int failed = 0;
    for (int i = 0; i < nfiles; i++) {
        int got = import_file(store, files[i], repeat, err);
        if (got) {
            fprintf(stderr, "yinsh import: %s: %s%s\n", files[i], err,
                    got == ERR_REPEAT ? ": add --repeat to store it again, as a repeat that every statistic skips" : "");
            failed++;
        }
    }
    store_close(store);
    if (failed)
        fprintf(stderr, "yinsh import: %d of %d file%s refused\n", failed, nfiles, number_plural((uint64_t)nfiles));
    return failed ? 1 : 0;
}
