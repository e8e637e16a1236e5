/* The harness's conversation with an external UYI engine (uyi/engine.h):
 * descriptions, the engines file, and the engine handle. */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/clock.h"
#include "base/error.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "uyi/client.h"
#include "uyi/engine.h"

/* ---- descriptions -------------------------------------------------------- */

int uyi_engine_desc_set(UyiEngineDesc *d, const char *key, const char *value, char *err)
{
    size_t len = strlen(value);
    if (len >= UYI_ENGINE_VALUE_LEN) return error_code(err, ERR_USAGE, "uyi field '%.64s': its value is too long", key);
    for (const char *c = value; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            return error_code(err, ERR_USAGE, "uyi field %.64s: a control character in its value", key);
    bool option = !strncmp(key, "option.", 7);
    if (!strcmp(key, "name") && *value && len < sizeof d->name) {
        memcpy(d->name, value, len + 1);
    } else if (!strcmp(key, "cmd") && *value) {
        memcpy(d->cmd, value, len + 1);
    } else if (!strcmp(key, "dir") && len < sizeof d->dir) {
        memcpy(d->dir, value, len + 1);
    } else if (option && key[7] && strlen(key + 7) < UYI_ENGINE_NAME_LEN && len < UYI_ENGINE_OPTION_LEN &&
               d->noptions < UYI_ENGINE_OPTIONS && !strpbrk(key + 7, " \t;\\")) {
        size_t klen = strlen(key + 7), at = (size_t)d->options_len;
        if (at + klen + len + 2 > sizeof d->options)
            return error_code(err, ERR_USAGE, "uyi field %.64s: the options are longer than %d characters together",
                              key, UYI_ENGINE_OPTIONS_LEN - 2);
        memcpy(d->options + at, key + 7, klen + 1);
        memcpy(d->options + at + klen + 1, value, len + 1);
        d->options_len = (int)(at + klen + len + 2);
        d->noptions++;
    } else if (!strcmp(key, "name") || !strcmp(key, "cmd") || !strcmp(key, "dir") || option) {
        return error_code(err, ERR_USAGE, "uyi field %.64s: bad or too long value '%.64s' (or more than %d options)",
                          key, value, UYI_ENGINE_OPTIONS);
    } else {
        return error_code(err, ERR_USAGE, "unknown uyi field '%.64s' (known: name, cmd, dir, option.KEY)", key);
    }
    return 0;
}

void uyi_engine_option(const UyiEngineDesc *d, int i, const char **key, const char **value)
{
    const char *k = d->options;
    for (; i > 0; i--) {
        k += strlen(k) + 1; /* the key */
        k += strlen(k) + 1; /* its value */
    }
    *key = k;
    *value = k + strlen(k) + 1;
}

/* ---- engines files -------------------------------------------------------- */

/* Trims white space at both ends, in place. */
static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n')) s[--n] = '\0';
    return s;
}

int uyi_engines_read(const char *file, const char *name, UyiEngineDesc *d, char *err)
{
    *d = (UyiEngineDesc){0};
    if (strlen(name) >= sizeof d->name)
        return error_code(err, ERR_USAGE, "%.200s: engine [%.64s]: a name of at most %d characters", file, name,
                          UYI_ENGINE_NAME_LEN - 1);
    FILE *f = fopen(file, "r");
    if (!f) return error_set(err, "cannot read the engines file '%.200s': %s", file, strerror(errno));
    snprintf(d->name, sizeof d->name, "%s", name);
    char line[1024];
    int lineno = 0, rc = 0;
    bool in = false, found = false;
    while (!rc && fgets(line, sizeof line, f)) {
        lineno++;
        char *l = trim(line);
        if (!*l || *l == '#' || *l == ';') continue;
        if (*l == '[') {
            char *end = strchr(l, ']');
            if (!end || end[1]) {
                rc = error_code(err, ERR_USAGE, "%.200s:%d: a section header is [NAME]", file, lineno);
                break;
            }
            *end = '\0';
            in = !strcmp(trim(l + 1), name);
            if (in && found)
                rc = error_code(err, ERR_USAGE, "%.200s:%d: engine '%.64s' is defined twice", file, lineno, name);
            found |= in;
            continue;
        }
        char *eq = strchr(l, '=');
        if (!eq) {
            rc = error_code(err, ERR_USAGE, "%.200s:%d: not `key = value`: '%.64s'", file, lineno, l);
            break;
        }
        if (!in) continue;
        *eq = '\0';
        char *key = trim(l), *value = trim(eq + 1), why[ERR_LEN];
        if (strcmp(key, "cmd") && strcmp(key, "dir") && strncmp(key, "option.", 7))
            rc = error_code(err, ERR_USAGE, "%.200s:%d: unknown key '%.64s' (known: cmd, dir, option.KEY)", file,
                            lineno, key);
        else if (uyi_engine_desc_set(d, key, value, why))
            rc = error_code(err, ERR_USAGE, "%.200s:%d: %.400s", file, lineno, why);
    }
    fclose(f);
    if (rc) return rc;
    if (!found) return error_code(err, ERR_USAGE, "the engines file '%.200s' has no engine [%.64s]", file, name);
    if (!d->cmd[0]) return error_code(err, ERR_USAGE, "%.200s: engine [%.64s] has no cmd", file, name);
    return 0;
}

/* ---- the engine ------------------------------------------------------------ */

struct UyiEngine {
    UyiEngineDesc desc;
    UyiEngineEnv env;
    UyiClient *client; /* NULL until a game starts it, and after a fault killed it */
    bool has_seed;     /* it announced an option `seed` */
    char log[UYI_ENGINE_DIR_LEN + UYI_ENGINE_NAME_LEN + 64]; /* the process's log file ("" when none) */
};

int uyi_engine_new(UyiEngine **out, const UyiEngineDesc *d, char *err)
{
    UyiEngine *e = calloc(1, sizeof *e);
    *out = e;
    if (!e) return error_set(err, "out of memory for an engine");
    e->desc = *d;
    return 0;
}

void uyi_engine_free(UyiEngine *e)
{
    if (!e) return;
    uyi_client_free(e->client, 200);
    free(e);
}

int uyi_engine_pid(const UyiEngine *e) { return e->client ? (int)uyi_client_pid(e->client) : 0; }

void uyi_engine_log(UyiEngine *e, int reason, const char *why)
{
    if (!e->log[0]) return;
    FILE *f = fopen(e->log, "a");
    if (!f) return;
    fprintf(f, "yinsh: %s: %s\n", reason_name(reason), why);
    fclose(f);
}

static int64_t answer_ms(const UyiEngine *e) { return e->env.answer_ms > 0 ? e->env.answer_ms : UYI_ENGINE_ANSWER_MS; }

/* A fault that ends the process (it starts again for the next game): the
 * reason, with what happened in why (fmt names the engine, then detail). */
static int fault(UyiEngine *e, int reason, char *why, const char *fmt, const char *detail)
{
    snprintf(why, ERR_LEN, fmt, e->desc.name, detail ? detail : "");
    uyi_engine_log(e, reason, why);
    uyi_client_kill(e->client);
    e->client = NULL;
    return reason;
}

/* Reads lines until one starting with `want` (a whole word), at most
 * until deadline. `info` lines pass (their figures into info, if not
 * NULL); `info string error` and any other line are engine errors, but for
 * the handshake's id and option lines. REASON_NONE with *line at the
 * wanted one, or the fault. */
static int expect_line(UyiEngine *e, const char *want, double deadline, int timeout_reason, const char **line,
                  UyiInfo *info, char *why)
{
    size_t wlen = strlen(want);
    for (;;) {
        const char *l;
        int r = uyi_client_read(e->client, deadline, &l);
        if (r == UYI_READ_TIMEOUT) return fault(e, timeout_reason, why, "engine %s: no '%s' in time", want);
        if (r == UYI_READ_EOF) return fault(e, REASON_ENGINE_DIED, why, "engine %s died (waiting for '%s')", want);
        if (r == UYI_READ_LONG) return fault(e, REASON_ENGINE_ERROR, why, "engine %s: a line too long%s", NULL);
        if (!strncmp(l, want, wlen) && (l[wlen] == '\0' || l[wlen] == ' ' || l[wlen] == '\t')) {
            *line = l;
            return REASON_NONE;
        }
        if (!strncmp(l, "info string error", 17)) return fault(e, REASON_ENGINE_ERROR, why, "engine %s: %.400s", l);
        if (!strncmp(l, "info", 4) && (l[4] == ' ' || l[4] == '\0')) {
            if (info) {
                const char *p;
                if ((p = strstr(l, " sims "))) info->sims = (uint32_t)strtoul(p + 6, NULL, 10);
                if ((p = strstr(l, " winprob "))) info->winprob = strtod(p + 9, NULL);
            }
            continue;
        }
        if (!strcmp(want, "uyiok") && (!strncmp(l, "id ", 3) || !strncmp(l, "option ", 7))) {
            if (!strncmp(l, "option name seed ", 17) || !strncmp(l, "option name Seed ", 17)) e->has_seed = true;
            continue;
        }
        if (!*l) continue;
        return fault(e, REASON_ENGINE_ERROR, why, "engine %s wrote what is not UYI: '%.300s'", l);
    }
}

static int send_line(UyiEngine *e, const char *line, char *why)
{
    if (uyi_client_send(e->client, line))
        return fault(e, REASON_ENGINE_DIED, why, "engine %s died (its input is closed)%s", NULL);
    return REASON_NONE;
}

/* Starts the process, with a log file of its own (name, game thread, a
 * count of the engines this yinsh started, yinsh's pid), and shakes hands. */
static int start_process(UyiEngine *e, char *why)
{
    char err[ERR_LEN];
    const char *log_path = NULL;
    e->log[0] = '\0';
    if (e->env.log_dir) {
        static atomic_uint started;
        unsigned k = atomic_fetch_add(&started, 1);
        char name[UYI_ENGINE_NAME_LEN];
        snprintf(name, sizeof name, "%s", e->desc.name);
        for (char *c = name; *c; c++) /* a file name, whatever the display name holds */
            if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '-' ||
                  *c == '_'))
                *c = '_';
        snprintf(e->log, sizeof e->log, "%s/%s-t%d-%u-%ld.log", e->env.log_dir, name, e->env.thread, k,
                 (long)getpid());
        log_path = e->log;
    }
    if (uyi_client_start(&e->client, e->desc.cmd, e->desc.dir, log_path, err)) {
        e->client = NULL;
        snprintf(why, ERR_LEN, "engine %s: %.400s", e->desc.name, err);
        return REASON_ENGINE_DIED;
    }
    e->has_seed = false;
    const char *l;
    int rc;
    if ((rc = send_line(e, "uyi", why)) ||
        (rc = expect_line(e, "uyiok", clock_now() + answer_ms(e) * 1e-3, REASON_NO_ANSWER, &l, NULL, why)))
        return rc;
    for (int i = 0; i < e->desc.noptions; i++) {
        const char *key, *value;
        char line[UYI_ENGINE_NAME_LEN + UYI_ENGINE_OPTION_LEN + 32];
        uyi_engine_option(&e->desc, i, &key, &value);
        snprintf(line, sizeof line, "setoption name %s value %s", key, value);
        if ((rc = send_line(e, line, why))) return rc;
    }
    return REASON_NONE;
}

int uyi_engine_new_game(UyiEngine *e, const UyiEngineEnv *env, bool seeded, uint64_t seed, char *why)
{
    if (env) e->env = *env;
    int rc;
    const char *l;
    if (!e->client && (rc = start_process(e, why))) return rc;
    if ((rc = send_line(e, "isready", why)) ||
        (rc = expect_line(e, "readyok", clock_now() + answer_ms(e) * 1e-3, REASON_NO_ANSWER, &l, NULL, why)))
        return rc;
    if (seeded && e->has_seed) {
        char line[64];
        snprintf(line, sizeof line, "setoption name seed value %llu", (unsigned long long)seed);
        if ((rc = send_line(e, line, why))) return rc;
    }
    return send_line(e, "newgame", why);
}

int uyi_engine_go(UyiEngine *e, const UyiTurn *t, Action *best, UyiInfo *info, char *why)
{
    *best = ACTION_NONE;
    *info = (UyiInfo){0};
    if (!e->client) {
        snprintf(why, ERR_LEN, "engine %s is not running", e->desc.name);
        return REASON_ENGINE_DIED;
    }
    /* position startpos [variant blitz] moves ...: at most 1000 actions of 15 characters */
    size_t cap = 64 + (size_t)t->nmoves * ACTION_MAX_LEN, n;
    char *line = malloc(cap);
    if (!line) return fault(e, REASON_ENGINE_ERROR, why, "engine %s: out of memory%s", NULL);
    n = (size_t)snprintf(line, cap, "position startpos%s%s", t->pos->variant == VARIANT_BLITZ ? " variant blitz" : "",
                         t->nmoves ? " moves" : "");
    for (int i = 0; i < t->nmoves; i++) {
        char a[ACTION_MAX_LEN];
        n += (size_t)snprintf(line + n, cap - n, " %s", action_format(t->moves[i], a));
    }
    const UyiGo *go = &t->go;
    char golin[160];
    int g = snprintf(golin, sizeof golin, "go");
    if (go->sims > 0) g += snprintf(golin + g, sizeof golin - (size_t)g, " sims %lld", (long long)go->sims);
    if (go->movetime >= 0) g += snprintf(golin + g, sizeof golin - (size_t)g, " movetime %lld", (long long)go->movetime);
    if (go->wtime >= 0)
        snprintf(golin + g, sizeof golin - (size_t)g, " wtime %lld btime %lld winc %lld binc %lld",
                 (long long)go->wtime, (long long)go->btime, (long long)go->winc, (long long)go->binc);
    double deadline = clock_now() + (double)(t->timed ? t->wait_ms : answer_ms(e)) * 1e-3;
    const char *l;
    int rc = send_line(e, line, why);
    free(line);
    if (!rc) rc = send_line(e, golin, why);
    if (!rc) rc = expect_line(e, "bestmove", deadline, t->timed ? REASON_TIME_FORFEIT : REASON_NO_ANSWER, &l, info, why);
    if (rc) return rc;
    char word[64] = "", err[ERR_LEN];
    sscanf(l + 8, " %63s", word);
    if (action_parse(t->pos, word, best, err)) {
        *best = ACTION_NONE;
        snprintf(why, ERR_LEN, "engine %s answered 'bestmove %s': %.300s", e->desc.name, word, err);
        uyi_engine_log(e, REASON_ILLEGAL_ACTION, why);
        return REASON_ILLEGAL_ACTION;
    }
    return REASON_NONE;
}
