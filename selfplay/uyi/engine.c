/* The harness's conversation with an external UYI engine (uyi/engine.h):
 * descriptions, the engines file, and the engine handle. */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "engine/base/clock.h"
#include "engine/base/error.h"
#include "engine/base/file.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "selfplay/uyi/client.h"
#include "selfplay/uyi/engine.h"

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
        /* a command that cannot be split would fail every game: refused here */
        char why[ERR_LEN];
        if (uyi_client_check_command(value, why)) return error_code(err, ERR_USAGE, "uyi field cmd: %s", why);
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
    } else if (option && (!key[7] || strlen(key + 7) >= UYI_ENGINE_NAME_LEN || strpbrk(key + 7, " \t;\\"))) {
        /* the key is wrong, not its value */
        return error_code(err, ERR_USAGE, "uyi field '%.64s': an option's name is 1 to %d characters after "
                          "'option.', without spaces, ';' or '\\'", key, UYI_ENGINE_NAME_LEN - 1);
    } else if (option && d->noptions == UYI_ENGINE_OPTIONS) {
        return error_code(err, ERR_USAGE, "uyi field '%.64s': more than %d options", key, UYI_ENGINE_OPTIONS);
    } else if (!strcmp(key, "name") || !strcmp(key, "cmd") || !strcmp(key, "dir") || option) {
        return error_code(err, ERR_USAGE, "uyi field %.64s: bad or too long value '%.64s'", key, value);
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

/* Whether option KEY is in d already. */
static bool has_option(const UyiEngineDesc *d, const char *key)
{
    for (int i = 0; i < d->noptions; i++) {
        const char *k, *v;
        uyi_engine_option(d, i, &k, &v);
        if (!strcmp(k, key)) return true;
    }
    return false;
}

int uyi_engines_parse(const char *text, size_t size, const char *file, const char *name, UyiEngineDesc *d,
                      char *err)
{
    *d = (UyiEngineDesc){0};
    if (strlen(name) >= sizeof d->name)
        return error_code(err, ERR_USAGE, "%.200s: engine [%.64s]: a name of at most %d characters", file, name,
                          UYI_ENGINE_NAME_LEN - 1);
    if (memchr(text, '\0', size))
        return error_code(err, ERR_USAGE, "%.200s: not an engines file (it holds a NUL byte)", file);
    snprintf(d->name, sizeof d->name, "%s", name);
    int lineno = 0, cmd_line = 0, dir_line = 0;
    bool in = false, found = false;
    for (const char *p = text, *end = text + size; p < end;) {
        lineno++;
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        const char *next = nl ? nl + 1 : end;
        /* a line is read whole: a long one is never taken for two */
        const char *first = p;
        while (first < p + len && (*first == ' ' || *first == '\t')) first++;
        bool comment = first < p + len && (*first == '#' || *first == ';');
        if (comment) {
            p = next;
            continue;
        }
        if (len >= UYI_ENGINES_LINE_MAX)
            return error_code(err, ERR_USAGE, "%.200s:%d: a line of more than %d characters", file, lineno,
                              UYI_ENGINES_LINE_MAX - 1);
        char line[UYI_ENGINES_LINE_MAX];
        memcpy(line, p, len);
        line[len] = '\0';
        p = next;
        char *l = trim(line);
        if (!*l) continue;
        if (*l == '[') {
            char *close = strchr(l, ']');
            if (!close || close[1])
                return error_code(err, ERR_USAGE, "%.200s:%d: a section header is [NAME]", file, lineno);
            *close = '\0';
            in = !strcmp(trim(l + 1), name);
            if (in && found)
                return error_code(err, ERR_USAGE, "%.200s:%d: engine '%.64s' is defined twice", file, lineno, name);
            found |= in;
            continue;
        }
        char *eq = strchr(l, '=');
        if (!eq) return error_code(err, ERR_USAGE, "%.200s:%d: not `key = value`: '%.64s'", file, lineno, l);
        if (!in) continue;
        *eq = '\0';
        char *key = trim(l), *value = trim(eq + 1), why[ERR_LEN];
        bool is_cmd = !strcmp(key, "cmd"), is_dir = !strcmp(key, "dir"), is_option = !strncmp(key, "option.", 7);
        if (!is_cmd && !is_dir && !is_option)
            return error_code(err, ERR_USAGE, "%.200s:%d: unknown key '%.64s' (known: cmd, dir, option.KEY)", file,
                              lineno, key);
        /* a key given twice is a mistake: which one was meant cannot be known */
        int *seen = is_cmd ? &cmd_line : is_dir ? &dir_line : NULL;
        if ((seen && *seen) || (is_option && has_option(d, key + 7)))
            return error_code(err, ERR_USAGE, "%.200s:%d: '%.64s' is given twice in [%.64s]%s", file, lineno, key,
                              name, seen ? " (first on an earlier line)" : "");
        if (seen) *seen = lineno;
        if (uyi_engine_desc_set(d, key, value, why))
            return error_code(err, ERR_USAGE, "%.200s:%d: %.400s", file, lineno, why);
    }
    if (!found) return error_code(err, ERR_USAGE, "the engines file '%.200s' has no engine [%.64s]", file, name);
    if (!d->cmd[0]) return error_code(err, ERR_USAGE, "%.200s: engine [%.64s] has no cmd", file, name);
    return 0;
}

int uyi_engines_read(const char *file, const char *name, UyiEngineDesc *d, char *err)
{
    *d = (UyiEngineDesc){0};
    char *text;
    size_t n;
    int rc = file_read(file, UYI_ENGINES_FILE_MAX, FILE_READ_TEXT, &text, &n, err);
    if (rc) return rc == ERR_NOT_FOUND ? ERR_FAIL : rc; /* ERR_FAIL or ERR_USAGE, as documented */
    rc = uyi_engines_parse(text, n, file, name, d, err);
    free(text);
    return rc;
}

/* ---- the seed option ------------------------------------------------------ */

/* One bound's word: a 64-bit integer, negative or not (two's complement
 * in *v); false when the word is not one. */
static bool read_bound(const char *word, size_t len, uint64_t *v, bool *negative)
{
    char text[32];
    if (!len || len >= sizeof text) return false;
    memcpy(text, word, len);
    text[len] = '\0';
    char *end;
    errno = 0;
    *negative = text[0] == '-';
    if (*negative) *v = (uint64_t)strtoll(text, &end, 10);
    else if (text[0] >= '0' && text[0] <= '9') *v = strtoull(text, &end, 10);
    else return false;
    return !errno && !*end;
}

bool uyi_seed_option_parse(const char *line, UyiSeedOption *o)
{
    if (strncmp(line, "option name seed ", 17) && strncmp(line, "option name Seed ", 17)) return false;
    *o = (UyiSeedOption){.announced = true};
    bool spin = false, has_min = false, has_max = false, min_neg = false, max_neg = false;
    uint64_t min = 0, max = 0;
    /* the words after the name, in pairs: type spin, default D, min A, max B */
    const char *p = line + 17, *prev = NULL;
    size_t prev_len = 0;
    while (*p) {
        while (*p == ' ' || *p == '\t') p++;
        size_t len = strcspn(p, " \t");
        if (!len) break;
        if (prev && prev_len == 4 && !strncmp(prev, "type", 4)) spin = len == 4 && !strncmp(p, "spin", 4);
        if (prev && prev_len == 3 && !strncmp(prev, "min", 3)) has_min = read_bound(p, len, &min, &min_neg);
        if (prev && prev_len == 3 && !strncmp(prev, "max", 3)) has_max = read_bound(p, len, &max, &max_neg);
        prev = p;
        prev_len = len;
        p += len;
    }
    if (!spin || !has_min || !has_max) return true;
    /* a negative min below a max over INT64_MAX spans more than 2^64
     * values: its non-negative part, from 0, is as good a range */
    if (min_neg && !max_neg && max > INT64_MAX) min_neg = false, min = 0;
    bool crossed = min_neg != max_neg ? max_neg : min_neg ? (int64_t)max < (int64_t)min : max < min;
    if (crossed) return true;
    o->bounded = true;
    o->negative = min_neg;
    o->min = min;
    o->span = max - min; /* exact modulo 2^64: the range holds at most 2^64 values */
    return true;
}

void uyi_seed_value(const UyiSeedOption *o, uint64_t seed, char out[24])
{
    if (!o->bounded) {
        snprintf(out, 24, "%llu", (unsigned long long)seed);
        return;
    }
    uint64_t v = o->min + (o->span == UINT64_MAX ? seed : seed % (o->span + 1));
    if (o->negative) snprintf(out, 24, "%lld", (long long)(int64_t)v);
    else snprintf(out, 24, "%llu", (unsigned long long)v);
}

/* ---- the engine ------------------------------------------------------------ */

struct UyiEngine {
    UyiEngineDesc desc;
    UyiEngineEnv env;
    UyiClient *client; /* NULL until a game starts it, and after a fault killed it */
    UyiSeedOption seed; /* its option `seed`, if it announced one */
    bool visits;        /* it announced the option `visits` (a check) */
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
    char note[ERR_LEN + 64];
    snprintf(note, sizeof note, "yinsh: %s: %s\n", reason_name(reason), why);
    /* a running engine's log is the client's (its standard error first) */
    if (e->client) {
        uyi_client_note(e->client, note);
        return;
    }
    FILE *f = fopen(e->log, "a");
    if (!f) return;
    fputs(note, f);
    fclose(f);
}

static int64_t answer_ms(const UyiEngine *e) { return e->env.answer_ms > 0 ? e->env.answer_ms : UYI_ENGINE_ANSWER_MS; }

/* A fault that ends the process (it starts again for the next game): the
 * reason, with what happened in why (fmt names the engine, then detail). */
static int fault(UyiEngine *e, int reason, char *why, const char *fmt, const char *detail)
{
    error_set(why, fmt, e->desc.name, detail ? detail : "");
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
/* `info visits ACTION:N ...` (after "info visits"), read in pos: 0, or
 * -1 with what is wrong in err (a word that is not a legal action with
 * its count). */
static int read_visits(const char *p, const Position *pos, UyiInfo *info, char *err)
{
    info->nchildren = 0;
    while (*p) {
        while (*p == ' ' || *p == '\t') p++;
        size_t len = strcspn(p, " \t");
        if (!len) break;
        char word[ACTION_MAX_LEN + 16], *colon, *end;
        if (len >= sizeof word) return error_set(err, "'%.64s': too long for ACTION:N", p);
        if (info->nchildren == MAX_ACTIONS) return error_set(err, "more visited actions than any position has");
        memcpy(word, p, len);
        word[len] = '\0';
        p += len;
        if (!(colon = strchr(word, ':'))) return error_set(err, "'%s' is not ACTION:N", word);
        *colon = '\0';
        errno = 0;
        unsigned long n = strtoul(colon + 1, &end, 10);
        if (errno || *end || end == colon + 1 || colon[1] == '-' || n > UINT32_MAX)
            return error_set(err, "'%s:%s': no count of visits", word, colon + 1);
        Action a;
        char why[ERR_LEN];
        if (action_parse(pos, word, &a, why)) return error_set(err, "visits of '%s': %.300s", word, why);
        info->children[info->nchildren] = a;
        info->visits[info->nchildren++] = (uint32_t)n;
    }
    return 0;
}

static int expect_line(UyiEngine *e, const char *want, double deadline, int timeout_reason, const char **line,
                  UyiInfo *info, const Position *pos, char *why)
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
        if (!strncmp(l, "info visits", 11) && (l[11] == ' ' || l[11] == '\0')) {
            char err[ERR_LEN];
            if (!e->visits || !info || !pos || read_visits(l + 11, pos, info, err))
                return fault(e, REASON_ENGINE_ERROR, why, "engine %s: %.400s", e->visits && info && pos ? err : l);
            continue;
        }
        if (!strncmp(l, "info", 4) && (l[4] == ' ' || l[4] == '\0')) {
            if (info) {
                /* the last line's figures stand; an alpha-beta engine
                 * counts positions (nodes), an MCTS one simulations */
                const char *p;
                if ((p = strstr(l, " sims ")) || (p = strstr(l, " nodes ")))
                    info->sims = (uint32_t)strtoul(strchr(p + 1, ' ') + 1, NULL, 10);
                if ((p = strstr(l, " winprob "))) info->winprob = strtod(p + 9, NULL);
            }
            continue;
        }
        if (!strcmp(want, "uyiok") && (!strncmp(l, "id ", 3) || !strncmp(l, "option ", 7))) {
            uyi_seed_option_parse(l, &e->seed);
            if (!strncmp(l, "option name visits type check", 29)) e->visits = true;
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
        char thread[16];
        if (e->env.thread < 0) snprintf(thread, sizeof thread, "check");
        else snprintf(thread, sizeof thread, "t%d", e->env.thread);
        snprintf(e->log, sizeof e->log, "%s/%s-%s-%u-%ld.log", e->env.log_dir, name, thread, k, (long)getpid());
        log_path = e->log;
    }
    if (uyi_client_start(&e->client, e->desc.cmd, e->desc.dir, log_path, err)) {
        e->client = NULL;
        error_set(why, "engine %s: %.400s", e->desc.name, err);
        uyi_engine_log(e, REASON_ENGINE_DIED, why);
        return REASON_ENGINE_DIED;
    }
    if (log_path && e->env.transcript) {
        /* beside the log: the same name, .uyi for .log */
        char talk[sizeof e->log];
        snprintf(talk, sizeof talk, "%.*s.uyi", (int)(strlen(e->log) - 4), e->log);
        if (uyi_client_transcript(e->client, talk, err)) uyi_client_note(e->client, err); /* the games go on */
    }
    e->seed = (UyiSeedOption){0};
    e->visits = false;
    const char *l;
    int rc;
    if ((rc = send_line(e, "uyi", why)) ||
        (rc = expect_line(e, "uyiok", clock_now() + answer_ms(e) * 1e-3, REASON_NO_ANSWER, &l, NULL, NULL, why)))
        return rc;
    for (int i = 0; i < e->desc.noptions; i++) {
        const char *key, *value;
        char line[UYI_ENGINE_NAME_LEN + UYI_ENGINE_OPTION_LEN + 32];
        uyi_engine_option(&e->desc, i, &key, &value);
        snprintf(line, sizeof line, "setoption name %s value %s", key, value);
        if ((rc = send_line(e, line, why))) return rc;
    }
    /* its root visits, when a run stores them and it can say them */
    if (e->visits && !e->env.visits) e->visits = false;
    if (e->visits && (rc = send_line(e, "setoption name visits value true", why))) return rc;
    return REASON_NONE;
}

int uyi_engine_new_game(UyiEngine *e, const UyiEngineEnv *env, bool seeded, uint64_t seed, char *why)
{
    if (env) e->env = *env;
    int rc;
    const char *l;
    if (!e->client && (rc = start_process(e, why))) return rc;
    if ((rc = send_line(e, "isready", why)) ||
        (rc = expect_line(e, "readyok", clock_now() + answer_ms(e) * 1e-3, REASON_NO_ANSWER, &l, NULL, NULL, why)))
        return rc;
    uyi_client_watch(e->client); /* what it has started by now dies with it */
    if (seeded && e->seed.announced) {
        char line[64], value[24];
        uyi_seed_value(&e->seed, seed, value);
        snprintf(line, sizeof line, "setoption name seed value %s", value);
        if ((rc = send_line(e, line, why))) return rc;
    }
    return send_line(e, "newgame", why);
}

int uyi_engine_go(UyiEngine *e, const UyiTurn *t, Action *best, UyiInfo *info, char *why)
{
    *best = ACTION_NONE;
    *info = (UyiInfo){0};
    if (!e->client) {
        error_set(why, "engine %s is not running", e->desc.name);
        return REASON_ENGINE_DIED;
    }
    /* position startpos [variant V] moves ...: at most 1000 actions of 15 characters */
    size_t cap = 64 + (size_t)t->nmoves * ACTION_MAX_LEN, n;
    char *line = malloc(cap);
    if (!line) return fault(e, REASON_ENGINE_ERROR, why, "engine %s: out of memory%s", NULL);
    n = (size_t)snprintf(line, cap, "position startpos%s%s%s", t->pos->variant ? " variant " : "",
                         t->pos->variant ? variant_name(t->pos->variant) : "", t->nmoves ? " moves" : "");
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
    if (!rc)
        rc = expect_line(e, "bestmove", deadline, t->timed ? REASON_TIME_FORFEIT : REASON_NO_ANSWER, &l, info, t->pos,
                         why);
    if (rc) return rc;
    char word[64] = "", err[ERR_LEN];
    sscanf(l + 8, " %63s", word);
    if (action_parse(t->pos, word, best, err)) {
        *best = ACTION_NONE;
        /* ended like any engine at fault: what it wrote after its answer
         * must not be read in the next game */
        char detail[ERR_LEN];
        snprintf(detail, sizeof detail, "'bestmove %s': %.300s", word, err);
        return fault(e, REASON_ILLEGAL_ACTION, why, "engine %s answered %.400s", detail);
    }
    return REASON_NONE;
}

int uyi_engine_check(const UyiEngineDesc *d, const UyiEngineEnv *env, char *err)
{
    UyiEngine *e;
    char why[ERR_LEN];
    if (uyi_engine_new(&e, d, err)) return ERR_FAIL;
    UyiEngineEnv check = *env;
    check.thread = -1; /* its log is named NAME-check-K-PID.log */
    int reason = uyi_engine_new_game(e, &check, false, 0, why);
    int rc = 0;
    if (reason) {
        if (e->log[0])
            rc = error_set(err, "%.300s (%s; its standard error is in %.200s)", why, reason_name(reason), e->log);
        else
            rc = error_set(err, "%.400s (%s; no log of its standard error was kept)", why, reason_name(reason));
    }
    uyi_engine_free(e);
    return rc;
}
