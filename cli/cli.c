#include <errno.h>
#include <signal.h>
#include <limits.h>
#include <sys/stat.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli/cli.h"
#include "selfplay/play/distribute.h"
#include "engine/base/json.h"
#include "engine/base/clock.h"
#include "engine/base/file.h"
#include "engine/base/folder.h"
#include "engine/notation.h"
#include "engine/base/number.h"
#include "engine/base/shell_words.h"
#include "selfplay/play/engine_logs.h"
#include "selfplay/play/run_summary.h"
#include "selfplay/records/record_text.h"
#include "study/report/report.h"

static void vmessage(const char *cmd, const char *fmt, va_list ap)
{
    fprintf(stderr, "yinsh %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage(cmd, fmt, ap);
    va_end(ap);
    fprintf(stderr, "(`yinsh %s --help` explains the options)\n", cmd);
    return EXIT_USAGE;
}

int cli_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage(cmd, fmt, ap);
    va_end(ap);
    return 1;
}

bool cli_wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--")) break;
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) return true;
    }
    return false;
}

int cli_take_ypn(int n, const char **args, int i, char *buf, size_t size)
{
    if (i >= n) return 0;
    if (strchr(args[i], ' ')) {
        snprintf(buf, size, "%s", args[i]);
        return 1;
    }
    if (i + 4 > n) {
        snprintf(buf, size, "%s", args[i]);
        return n - i;
    }
    snprintf(buf, size, "%s %s %s %s", args[i], args[i + 1], args[i + 2], args[i + 3]);
    return 4;
}

void cli_list_free(CliList *l)
{
    for (int i = 0; i < l->n; i++) free(l->items[i]);
    l->n = 0;
}

/* One option's value into its target; 0 or EXIT_USAGE. */
static int take_value(const char *cmd, const CliOpt *o, const char *v)
{
    switch (o->kind) {
    case CLI_TEXT:
        *(const char **)o->out = v;
        return 0;
    case CLI_INT:
        if (number_long(v, (long)o->min, (long)o->max, o->out)) return 0;
        return cli_usage_error(cmd, "%s wants a number from %ld to %ld, not '%s'", o->name, (long)o->min,
                               (long)o->max, v);
    case CLI_U64:
        if (number_u64(v, o->out)) return 0;
        return cli_usage_error(cmd, "%s wants an unsigned 64-bit number, not '%s'", o->name, v);
    case CLI_REAL:
        if (number_real(v, o->min, o->max, o->out)) return 0;
        return cli_usage_error(cmd, "%s wants a number from %g to %g, not '%s'", o->name, o->min, o->max, v);
    case CLI_LIST: {
        CliList *l = o->out;
        const char *p = v;
        while (*p) {
            size_t len = strcspn(p, ",");
            if (len) {
                if (l->n == CLI_LIST_MAX) return cli_usage_error(cmd, "%s names more than %d items", o->name, CLI_LIST_MAX);
                if (!(l->items[l->n] = strndup(p, len))) return cli_error(cmd, "out of memory"), EXIT_USAGE;
                l->n++;
            }
            p += len + (p[len] == ',');
        }
        if (l->n == 0) return cli_usage_error(cmd, "%s wants names, not '%s'", o->name, v);
        return 0;
    }
    case CLI_TEXTS: {
        CliList *l = o->out;
        if (l->n == CLI_LIST_MAX) return cli_usage_error(cmd, "%s is given more than %d times", o->name, CLI_LIST_MAX);
        if (!(l->items[l->n] = strdup(v))) return cli_error(cmd, "out of memory"), EXIT_USAGE;
        l->n++;
        return 0;
    }
    case CLI_FLAG: break;
    }
    return 0;
}

int cli_parse(const char *cmd, int argc, char **argv, const CliOpt *opts, int nopts, const char **pos, int maxpos,
              int *npos)
{
    *npos = 0;
    bool options = true, given[CLI_OPTS_MAX] = {0};
    if (nopts > CLI_OPTS_MAX) return cli_error(cmd, "%d options in its table, more than %d", nopts, CLI_OPTS_MAX);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!options || a[0] != '-' || !a[1]) {
            if (*npos == maxpos) return cli_usage_error(cmd, "unexpected argument '%s'", a);
            pos[(*npos)++] = a;
            continue;
        }
        if (!strcmp(a, "--")) {
            options = false;
            continue;
        }
        const char *eq = strchr(a, '=');
        size_t len = eq ? (size_t)(eq - a) : strlen(a);
        const CliOpt *o = NULL;
        for (int k = 0; k < nopts && !o; k++)
            if (strlen(opts[k].name) == len && !strncmp(opts[k].name, a, len)) o = &opts[k];
        if (!o) return cli_usage_error(cmd, "unknown option '%.*s'", (int)len, a);
        if (o->seen) *o->seen = true;
        given[o - opts] = true;
        if (o->kind == CLI_FLAG) {
            if (eq) return cli_usage_error(cmd, "%s takes no value", o->name);
            *(bool *)o->out = true;
            continue;
        }
        const char *v = eq ? eq + 1 : NULL;
        if (!v) {
            if (i + 1 >= argc) return cli_usage_error(cmd, "option '%s' wants a value", o->name);
            v = argv[++i];
        }
        int rc = take_value(cmd, o, v);
        if (rc) return rc;
    }
    for (int k = 0; k < nopts; k++) {
        const CliOpt *o = &opts[k];
        bool empty = o->kind == CLI_TEXT && given[k] && !**(const char **)o->out;
        if (o->required && (!given[k] || empty)) return cli_usage_error(cmd, "%s", o->required);
    }
    return 0;
}

/* --db, or the default; the default where it does not exist yet (a
 * command run where no study was made) is said on stderr, with the
 * folder, unless quiet: it is made there. */
static int db_or_default(const char *cmd, const char **db, bool quiet)
{
    struct stat sb;
    if (*db && !**db) return cli_usage_error(cmd, "--db wants a path");
    if (*db) return 0;
    *db = RUN_DEFAULT_DB;
    if (!quiet && stat(RUN_DEFAULT_DB, &sb) != 0) {
        char *here = getcwd(NULL, 0);
        fprintf(stderr, "yinsh %s: no --db given: the database is %s in %s, where there is none yet\n", cmd,
                RUN_DEFAULT_DB, here ? here : ".");
        free(here);
    }
    return 0;
}

int cli_db(const char *cmd, const char **db) { return db_or_default(cmd, db, false); }

int cli_shared_check(const char *cmd, CliShared *s) { return db_or_default(cmd, &s->db, s->quiet); }

PlannedOptions cli_planned_options(const CliShared *s)
{
    return (PlannedOptions){.db = s->db, .busy_ms = (int)s->busy, .threads = (int)s->threads};
}

int cli_shard(const char *cmd, const char *text, uint32_t *shard, uint32_t *shards)
{
    const char *slash = strchr(text, '/');
    char k[32];
    long kv, nv;
    if (!slash || (size_t)(slash - text) >= sizeof k)
        return cli_usage_error(cmd, "--shard wants K/N (shard K of N, 1 <= K <= N), not '%s'", text);
    snprintf(k, sizeof k, "%.*s", (int)(slash - text), text);
    if (!number_long(slash + 1, 1, 1000000, &nv) || !number_long(k, 1, nv, &kv))
        return cli_usage_error(cmd, "--shard wants K/N (shard K of N, 1 <= K <= N <= 1000000), not '%s'", text);
    *shard = (uint32_t)kv;
    *shards = (uint32_t)nv;
    return 0;
}

int cli_run_check(const char *cmd, CliRun *r)
{
    RunOptions *o = &r->o;
    bool named = r->sh.db != NULL;
    int rc = db_or_default(cmd, &r->sh.db, r->sh.quiet || o->no_db);
    if (rc) return rc;
    if (o->no_db && (named || o->name))
        return cli_usage_error(cmd, "--no-db stores nothing: --db and --run do not apply");
    o->db = o->no_db ? NULL : r->sh.db;
    o->busy_ms = (int)r->sh.busy;
    o->plan.threads = (int)r->sh.threads;
    if (o->name && (!*o->name || strlen(o->name) >= STORE_NAME_LEN))
        return cli_usage_error(cmd, "--run wants a name of 1 to %d characters", STORE_NAME_LEN - 1);
    for (const char *p = o->name; p && *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            return cli_usage_error(cmd, "--run: a run name holds no control characters (a newline, a tab)");
    if (r->shard) {
        if ((rc = cli_shard(cmd, r->shard, &o->shard, &o->shards))) return rc;
        if (o->no_db) return cli_usage_error(cmd, "--shard plays a slice into its own database: not with --no-db");
        if (!o->resume && !o->have_seed)
            return cli_usage_error(cmd, "--shard needs --seed S: every shard must play the same run, so the seed "
                                        "cannot come from the clock");
    }
    return 0;
}

int cli_run_open(const char *cmd, CliRun *r, int argc, char **argv, Run *run)
{
    char err[ERR_LEN], advice[ERR_LEN];
    *run = (Run){0};
    if (!(r->command = cli_join_args(argc, argv))) return cli_error(cmd, "out of memory");
    r->o.command = r->command;
    if (dist_init(err)) return cli_error(cmd, "%s", err);
    int rc = run_open(run, &r->o, err);
    if (rc) {
        if (!err[0]) return 1; /* rank 0 failed and said why */
        if (dist_rank() > 0) {
            cli_error(cmd, "%s", err);
            dist_abort(1); /* rank 0 would wait for this rank forever */
        }
        run_open_advice(rc, &run->clash, advice, sizeof advice);
        return cli_error(cmd, "%s%s", err, advice);
    }
    return 0;
}

int cli_run_work(const char *cmd, Run *run)
{
    char err[ERR_LEN], note[512];
    const atomic_bool *stop = interrupt_catch();
    snprintf(note, sizeof note,
             "yinsh %s: rank %d stopped by a signal while playing run '%s' (did another rank of the job end?); rank "
             "0's database keeps the games committed, and --resume finishes the run\n",
             cmd, dist_rank(), run->row.name);
    interrupt_note(note);
    int failed = run_work(run, stop, err);
    interrupt_note(NULL);
    if (failed) {
        cli_error(cmd, "rank %d: %s", dist_rank(), err);
        dist_abort(1);
        return 1;
    }
    if (interrupt_signal()) {
        fprintf(stderr, "yinsh %s: rank %d: stopped (%s) while playing run '%s'; rank 0 keeps the games stored\n",
                cmd, dist_rank(), strsignal(interrupt_signal()), run->row.name);
        return 128 + interrupt_signal();
    }
    return 0;
}

void cli_run_close(CliRun *r, Run *run)
{
    run_close(run);
    run_plan_release(&r->o.plan); /* the agents cli_agent parsed into it */
    free(r->command);
    r->command = NULL;
}

int cli_agent(const char *cmd, const char *what, const char *text, AgentSpec *spec)
{
    return cli_agent_in(cmd, what, text, NULL, spec);
}

int cli_opening(const char *cmd, const char *text, bool book, int dflt, int *opening, int *actions)
{
    *opening = book ? OPENING_BOOK : dflt;
    *actions = 0;
    if (!text) return 0;
    if (book) return cli_usage_error(cmd, "--opening and --book exclude each other");
    if (!opening_parse(text, opening, actions))
        return cli_usage_error(cmd, "unknown opening '%s' (none, rings, random:K or pie:K with K from 1 to %d)", text,
                               OPENING_RANDOM_MAX);
    return 0;
}

int cli_agent_in(const char *cmd, const char *what, const char *text, const char *engines, AgentSpec *spec)
{
    char err[ERR_LEN];
    int rc;
    if (!strncmp(text, "engine:", 7)) {
        if (!engines) return cli_usage_error(cmd, "%s: '%s' needs --engines FILE, the file that defines it", what, text);
        rc = agent_spec_engine(engines, text + 7, spec, err);
    } else {
        rc = agent_spec_parse(text, spec, err);
    }
    if (rc == ERR_FAIL) return cli_error(cmd, "%s: %s", what, err);
    if (rc) return cli_usage_error(cmd, "%s: %s", what, err);
    return 0;
}

bool cli_controls_plan_given(const CliControls *c)
{
    return c->tc || c->movetime || c->sims || c->have_margin || c->agent_streams || c->engines;
}

int cli_controls_check(const char *cmd, CliControls *c, const char *db, const AgentSpec *const *agents, int n,
                       PlayControls *pc)
{
    char err[ERR_LEN];
    pc->margin_ms = c->have_margin ? c->margin : CONTROLS_MARGIN_MS;
    pc->sims = (uint32_t)c->sims;
    pc->movetime_ms = c->movetime;
    pc->agent_streams = c->agent_streams;
    pc->answer_ms = c->engine_timeout;
    if (c->tc && controls_parse_tc(c->tc, pc, err)) return cli_usage_error(cmd, "--tc: %s", err);
    if (c->have_margin && !c->tc && !c->movetime)
        return cli_usage_error(cmd, "--tc-margin goes with --tc or --movetime");
    /* logs: as asked, or next to the database when an engine is external */
    const char *logs;
    bool external = false;
    for (int i = 0; i < n; i++) external |= agent_spec_external(agents[i]);
    if (engine_logs_prepare(c->engine_logs, db, external, c->logs, sizeof c->logs, &logs, &c->engine_transcript, err))
        return cli_error(cmd, "%s", err);
    pc->engine_logs = logs;
    pc->engine_transcript = c->engine_transcript;
    if (c->engine_transcript && n > 0 && !external)
        return cli_usage_error(cmd, "--engine-transcript: no agent is an external engine (uyi:... or engine:NAME)");
    if (c->engine_transcript && !logs)
        return cli_usage_error(cmd, "--engine-transcript writes beside the engines' logs: give --engine-logs DIR");
    return cli_check_engines(cmd, agents, n, pc);
}

int cli_check_engines(const char *cmd, const AgentSpec *const *agents, int n, const PlayControls *pc)
{
    char err[ERR_LEN];
    if (engine_logs_check_engines(agents, n, pc, err)) return cli_error(cmd, "%s; nothing was played", err);
    return 0;
}

int cli_selection(const char *cmd, const char *kind, const char *agent_text, const char *variant,
                  StoreSelection *sel, char *agent)
{
    if (kind && !strcmp(kind, "all")) kind = NULL;
    if (kind && strcmp(kind, "selfplay") && strcmp(kind, "match") && strcmp(kind, "import"))
        return cli_usage_error(cmd, "--kind wants selfplay, match, import or all, not '%s'", kind);
    sel->kind = kind;
    int v;
    if (variant && !variant_parse(variant, &v))
        return cli_usage_error(cmd, "unknown variant '%s' (" VARIANT_EXPECTED ")", variant);
    sel->variant = variant;
    if (agent_text) {
        AgentSpec spec;
        char err[ERR_LEN];
        /* the stored text is canonical: "mcts:sims=200" is stored as mcts:sims=200,c=1,rollout=random */
        if (agent_spec_parse_text(agent_text, &spec, err)) return cli_usage_error(cmd, "--agent: %s", err);
        agent_spec_format(&spec, agent);
        sel->agent = agent;
    }
    return 0;
}

int cli_head_options_check(const char *cmd, PolicyTrainOptions *o, long widen, bool direct, const Nnue *net,
                           const char *net_opt, const char *path)
{
    if (o->child_mix > 0 && !(o->child_temp > 0))
        return cli_usage_error(cmd, "--child-mix needs --child-temp T, the child-value targets' temperature");
    if (o->reduced_too && !(o->child_mix > 0))
        return cli_usage_error(cmd, "--reduced-too needs --child-mix M above 0 (a reduced search's positions are "
                                    "trained on their child-value targets alone: its visits are no target)");
    if (o->joint > 0 && !direct)
        return cli_usage_error(cmd, "--joint goes with a direct head (--direct, or an --init net of feature set 5)");
    if (widen && !(o->joint > 0))
        return cli_usage_error(cmd, "--widen goes with --joint (the new units are trained with the net)");
    if (widen && (widen % 16 || widen < nnue_hidden(net)))
        return cli_usage_error(cmd, "--widen %ld: a multiple of 16 from the net's %d hidden units a side up to %d",
                               widen, nnue_hidden(net), NNUE_MAX_HIDDEN);
    o->widen = (int)widen;
    if (o->joint > 0 && nnue_l2(net) != 0)
        return cli_usage_error(cmd, "--joint needs a net without a second layer (%s %s has %d units)", net_opt, path,
                               nnue_l2(net));
    return 0;
}

char *cli_join_args(int argc, char **argv) { return shell_join("yinsh", argc, argv); }

int cli_check_same(const char *cmd, const char *opt, const char *out, const char *const *inputs,
                   const char *const *input_opts, int n)
{
    int i = file_same_any(out, inputs, n);
    if (i >= 0)
        return cli_usage_error(cmd, "%s '%s' is the same file as %s '%s': it would be overwritten", opt, out,
                               input_opts[i], inputs[i]);
    return 0;
}

int cli_check_output(const char *cmd, const char *opt, const char *out, const char *const *inputs,
                     const char *const *input_opts, int n)
{
    struct stat so;
    char err[ERR_LEN];
    if (stat(out, &so) == 0 && S_ISDIR(so.st_mode)) return cli_usage_error(cmd, "%s '%s' is a directory", opt, out);
    int rc = cli_check_same(cmd, opt, out, inputs, input_opts, n);
    if (rc) return rc;
    if (file_out_check(out, err) < 0) return cli_error(cmd, "%s: %s", opt, err);
    return 0;
}

int cli_check_writes(const char *cmd, const char *opt, const FolderWrites *w, const char *const *inputs,
                     const char *const *input_opts, int n)
{
    struct stat sb;
    if (stat(w->dir, &sb) == 0 && !S_ISDIR(sb.st_mode))
        return cli_usage_error(cmd, "%s '%s' is not a directory", opt, w->dir);
    int i = folder_overwrites(w, inputs, n);
    if (i >= 0)
        return cli_usage_error(cmd, "%s '%s' would overwrite %s '%s', which it writes in that folder", opt, w->dir,
                               input_opts[i], inputs[i]);
    return 0;
}

int cli_check_report_out(const char *cmd, const char *opt, const char *dir, const char *const *inputs,
                         const char *const *input_opts, int n)
{
    FolderWrites w = {.dir = dir, .writes = report_folder_writes};
    return cli_check_writes(cmd, opt, &w, inputs, input_opts, n);
}

void cli_mpi_signal_note(const char *cmd, const Run *run)
{
    char note[1024];
    if (dist_ranks() < 2 || !run->store) return;
    snprintf(note, sizeof note,
             "yinsh %s: rank 0 stopped by a signal while playing run '%s' (did another rank of the job end?): the "
             "games committed to %s are kept; `yinsh selfplay --resume %s --db %s` (with any number of ranks) "
             "finishes the run\n",
             cmd, run->row.name, run->db, run->row.name, run->db);
    interrupt_note(note);
}

int cli_check_db_out(const char *cmd, const char **db, const char *out)
{
    int rc = cli_db(cmd, db);
    if (!rc && !*out) rc = cli_usage_error(cmd, "--out wants a directory");
    return rc;
}

void cli_remove_db(const char *db) { store_remove(db); }
