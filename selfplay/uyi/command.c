#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "engine/base/error.h"
#include "engine/notation.h"
#include "engine/base/number.h"
#include "selfplay/uyi/command.h"

enum { MAX_TOKENS = GAME_MAX_ACTIONS + 16 };

/* The line cut into tokens: starts and lengths into the caller's text. */
typedef struct Tokens {
    int n;
    const char *at[MAX_TOKENS];
    int len[MAX_TOKENS];
} Tokens;

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

static int tokenize(const char *line, Tokens *t, char *err)
{
    t->n = 0;
    for (const char *p = line; *p;) {
        while (is_space(*p)) p++;
        if (!*p) break;
        if (t->n == MAX_TOKENS) {
            return error_set(err, "too many words on one line (at most %d)", MAX_TOKENS);
        }
        t->at[t->n] = p;
        while (*p && !is_space(*p)) p++;
        t->len[t->n] = (int)(p - t->at[t->n]);
        t->n++;
    }
    return 0;
}

static bool tok_is(const Tokens *t, int i, const char *word)
{
    return i < t->n && (size_t)t->len[i] == strlen(word) && !strncmp(t->at[i], word, (size_t)t->len[i]);
}

/* Copies token i into buf (size bytes); false when it does not fit. */
static bool tok_copy(const Tokens *t, int i, char *buf, size_t size)
{
    if ((size_t)t->len[i] >= size) return false;
    memcpy(buf, t->at[i], (size_t)t->len[i]);
    buf[t->len[i]] = '\0';
    return true;
}

/* setoption name <words...> value <rest of the line>. The value keeps its
 * inner spaces (a path may have them); the name's words are joined by one. */
static int parse_setoption(const char *line, const Tokens *t, UyiCommand *cmd, char *err)
{
    if (!tok_is(t, 1, "name")) {
        return error_set(err, "setoption needs 'name <id> value <x>'");
    }
    int v = 2;
    while (v < t->n && !tok_is(t, v, "value")) v++;
    if (v == 2) {
        return error_set(err, "setoption has no option name");
    }
    if (v >= t->n - 1) {
        return error_set(err, "setoption needs a value ('value <x>')");
    }
    size_t at = 0;
    for (int i = 2; i < v; i++) {
        size_t need = (size_t)t->len[i] + (i > 2);
        if (at + need >= sizeof cmd->name) {
            return error_set(err, "option name too long (at most %d characters)", UYI_NAME_LEN - 1);
        }
        if (i > 2) cmd->name[at++] = ' ';
        memcpy(cmd->name + at, t->at[i], (size_t)t->len[i]);
        at += (size_t)t->len[i];
    }
    cmd->name[at] = '\0';
    const char *start = t->at[v + 1], *end = line + strlen(line);
    while (end > start && is_space(end[-1])) end--;
    if ((size_t)(end - start) >= sizeof cmd->value) {
        return error_set(err, "option value too long (at most %d characters)", UYI_VALUE_LEN - 1);
    }
    memcpy(cmd->value, start, (size_t)(end - start));
    cmd->value[end - start] = '\0';
    return 0;
}

/* position startpos [variant V] [moves ...] | position ypn F1 F2 F3 F4 [moves ...] */
static int parse_position(const Tokens *t, UyiCommand *cmd, char *err)
{
    int i = 2;
    if (tok_is(t, 1, "startpos")) {
        int variant = VARIANT_STANDARD;
        if (tok_is(t, 2, "variant")) {
            char name[32];
            if (t->n < 4 || !tok_copy(t, 3, name, sizeof name) || !variant_parse(name, &variant)) {
                return error_set(err, "position startpos variant: expected " VARIANT_EXPECTED);
            }
            i = 4;
        }
        pos_start(&cmd->base, variant);
    } else if (tok_is(t, 1, "ypn")) {
        if (t->n < 6) {
            return error_set(err, "position ypn needs the YPN's four fields");
        }
        char ypn[YPN_MAX_LEN * 2], why[ERR_LEN];
        int n = snprintf(ypn, sizeof ypn, "%.*s %.*s %.*s %.*s", t->len[2], t->at[2], t->len[3], t->at[3],
                         t->len[4], t->at[4], t->len[5], t->at[5]);
        if (n < 0 || (size_t)n >= sizeof ypn) {
            return error_set(err, "position ypn: the YPN is too long");
        }
        if (ypn_parse(ypn, &cmd->base, why)) {
            return error_set(err, "position ypn: %s", why);
        }
        i = 6;
    } else {
        return error_set(err, "position needs 'startpos' or 'ypn'");
    }
    cmd->pos = cmd->base;
    cmd->nactions = 0;
    if (i == t->n) return 0;
    if (!tok_is(t, i, "moves")) {
        return error_set(err, "position: expected 'moves' where '%.*s' is", t->len[i] > 32 ? 32 : t->len[i],
                 t->at[i]);
    }
    for (i++; i < t->n; i++) {
        char text[ACTION_MAX_LEN * 2], why[ERR_LEN];
        Action a;
        Undo u;
        if (cmd->nactions == GAME_MAX_ACTIONS) {
            return error_set(err, "position: more than %d actions", GAME_MAX_ACTIONS);
        }
        if (!tok_copy(t, i, text, sizeof text)) {
            return error_set(err, "position: action %d is too long", cmd->nactions + 1);
        }
        if (action_parse(&cmd->pos, text, &a, why)) {
            return error_set(err, "position: action %d '%s': %s", cmd->nactions + 1, text, why);
        }
        pos_make(&cmd->pos, a, &u);
        cmd->actions[cmd->nactions++] = a;
    }
    return 0;
}

/* go [sims N] [movetime MS] [wtime MS] [btime MS] [winc MS] [binc MS] [depth D] [infinite] */
static void parse_go(const Tokens *t, UyiCommand *cmd)
{
    UyiGo *g = &cmd->go;
    *g = (UyiGo){.sims = -1, .movetime = -1, .wtime = -1, .btime = -1, .winc = -1, .binc = -1, .depth = -1};
    /* a clock may be negative after an overstep: it reads as empty */
    const struct {
        const char *key;
        long min, max;
        int64_t *slot;
    } KEYS[] = {
        {"sims", 1, 1000000000L, &g->sims},          {"movetime", 0, 1000000000L, &g->movetime},
        {"wtime", -1000000000L, 1000000000L, &g->wtime}, {"btime", -1000000000L, 1000000000L, &g->btime},
        {"winc", -1000000000L, 1000000000L, &g->winc},   {"binc", -1000000000L, 1000000000L, &g->binc},
        {"depth", 1, UYI_DEPTH_MAX, &g->depth},
    };
    enum { NKEYS = sizeof KEYS / sizeof KEYS[0] };
    size_t at = 0;
    for (int i = 1; i < t->n; i++) {
        if (tok_is(t, i, "infinite")) {
            g->infinite = true;
            continue;
        }
        int k = 0;
        while (k < NKEYS && !tok_is(t, i, KEYS[k].key)) k++;
        char num[24];
        long v;
        if (k < NKEYS && i + 1 < t->n && tok_copy(t, i + 1, num, sizeof num) &&
            number_long(num, KEYS[k].min, KEYS[k].max, &v)) {
            *KEYS[k].slot = v < 0 ? 0 : v;
            i++;
            continue;
        }
        /* an unknown word, or a known one without a good number: report it */
        int show = t->len[i] > 24 ? 24 : t->len[i];
        int n = snprintf(cmd->warning + at, ERR_LEN - at, "%s'%.*s'%s", at ? ", " : "go: ignored ", show,
                         t->at[i], k < NKEYS ? " (needs a number)" : "");
        if (n > 0 && at + (size_t)n < ERR_LEN) at += (size_t)n;
        /* "sims abc": the bad number goes with its word, but a word of go stays */
        if (k < NKEYS && i + 1 < t->n && !tok_is(t, i + 1, "infinite")) {
            int j = 0;
            while (j < NKEYS && !tok_is(t, i + 1, KEYS[j].key)) j++;
            if (j == NKEYS) i++;
        }
    }
}

int uyi_read_line(FILE *f, char *buf, size_t size)
{
    /* a character at a time, not fgets: a NUL inside a line must not hide
     * where the buffer filled, or a line's tail would read as a new line */
    size_t n = 0;
    bool long_line = false;
    int c = EOF;
    flockfile(f);
    while ((c = getc_unlocked(f)) != EOF) {
        if (n + 1 < size) buf[n++] = (char)c;
        else long_line = true;
        if (c == '\n') break;
    }
    funlockfile(f);
    buf[long_line ? 0 : n] = '\0';
    if (long_line) return UYI_LINE_LONG;
    return n == 0 && c == EOF ? UYI_LINE_EOF : UYI_LINE_OK;
}

int uyi_parse(const char *line, UyiCommand *cmd, char *err)
{
    Tokens t;
    cmd->kind = UYI_EMPTY;
    cmd->warning[0] = '\0';
    if (strlen(line) > UYI_LINE_MAX) {
        return error_set(err, "line too long (at most %d characters)", UYI_LINE_MAX);
    }
    if (tokenize(line, &t, err)) return -1;
    if (t.n == 0) return 0;
    static const struct {
        const char *word;
        UyiKind kind;
        bool args; /* takes arguments */
    } WORDS[] = {
        {"uyi", UYI_UYI, false},           {"isready", UYI_ISREADY, false}, {"setoption", UYI_SETOPTION, true},
        {"newgame", UYI_NEWGAME, false},   {"position", UYI_POSITION, true}, {"go", UYI_GO, true},
        {"stop", UYI_STOP, false},         {"quit", UYI_QUIT, false},
    };
    for (size_t w = 0; w < sizeof WORDS / sizeof WORDS[0]; w++) {
        if (!tok_is(&t, 0, WORDS[w].word)) continue;
        if (!WORDS[w].args && t.n > 1) {
            return error_set(err, "%s takes no arguments", WORDS[w].word);
        }
        int rc = 0;
        if (WORDS[w].kind == UYI_SETOPTION) rc = parse_setoption(line, &t, cmd, err);
        else if (WORDS[w].kind == UYI_POSITION) rc = parse_position(&t, cmd, err);
        else if (WORDS[w].kind == UYI_GO) parse_go(&t, cmd);
        if (rc == 0) cmd->kind = WORDS[w].kind;
        return rc;
    }
    return error_set(err, "unknown command '%.*s'", t.len[0] > 32 ? 32 : t.len[0], t.at[0]);
}

int64_t uyi_budget_ms(const UyiGo *go, int actor)
{
    if (go->infinite) return -1;
    int64_t budget = go->movetime;
    int64_t left = actor == WHITE ? go->wtime : go->btime, inc = actor == WHITE ? go->winc : go->binc;
    if (left >= 0) {
        int64_t share = left / 20 + (inc > 0 ? inc * 4 / 5 : 0);
        if (share > left - UYI_SAFETY_MS) share = left - UYI_SAFETY_MS;
        if (share < 1) share = 1;
        if (budget < 0 || share < budget) budget = share;
    }
    return budget;
}
