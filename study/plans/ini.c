#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "study/plans/ini.h"
#include "engine/base/error.h"
#include "engine/base/file.h"
#include "engine/types.h"

static bool is_blank(char c) { return c == ' ' || c == '\t'; }

static bool key_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/* [*b, *e) without white space at either end. */
static void trim(const char **b, const char **e)
{
    while (*b < *e && is_blank(**b)) (*b)++;
    while (*e > *b && is_blank((*e)[-1])) (*e)--;
}

/* The end of a line's content: its comment, if any, cut off. A comment
 * starts at a '#' or ';' that opens the line or follows white space, so
 * that `seed = 1  # first run` reads as 1, while a value may still hold
 * '#' or ';' inside a word. */
static const char *content_end(const char *b, const char *e)
{
    for (const char *p = b; p < e; p++)
        if ((*p == '#' || *p == ';') && (p == b || is_blank(p[-1]))) return p;
    return e;
}

static char *copy(const char *b, const char *e)
{
    char *s = malloc((size_t)(e - b) + 1);
    if (!s) return NULL;
    memcpy(s, b, (size_t)(e - b));
    s[e - b] = '\0';
    return s;
}

const IniKey *ini_key(const IniSection *s, const char *key)
{
    for (int i = 0; i < s->nkeys; i++)
        if (!strcmp(s->keys[i].key, key)) return &s->keys[i];
    return NULL;
}

/* A section header's inside, [b, e) between the brackets. */
static int add_section(Ini *ini, const char *file, int line, const char *b, const char *e, char *err)
{
    trim(&b, &e);
    const char *w = b;
    while (w < e && !is_blank(*w)) w++;
    const char *lb = w, *le = e;
    trim(&lb, &le);
    if (b == e) {
        return error_code(err, ERR_USAGE, "%s:%d: a section header names its section: [study], [agent LABEL], [report]",
                          file, line);
    }
    for (const char *p = lb; p < le; p++)
        if (is_blank(*p)) {
            return error_code(err, ERR_USAGE, "%s:%d: a section header is a name and at most one label, without spaces in them",
                              file, line);
        }
    for (int i = 0; i < ini->nsections; i++) {
        const IniSection *s = &ini->sections[i];
        if (strlen(s->name) == (size_t)(w - b) && !strncmp(s->name, b, (size_t)(w - b)) &&
            strlen(s->label) == (size_t)(le - lb) && !strncmp(s->label, lb, (size_t)(le - lb))) {
            return error_code(err, ERR_USAGE, "%s:%d: section [%.*s] is there already (line %d)", file, line,
                              (int)(e - b), b, s->line);
        }
    }
    IniSection *grown = realloc(ini->sections, (size_t)(ini->nsections + 1) * sizeof *grown);
    if (!grown) goto oom;
    ini->sections = grown;
    IniSection *s = &ini->sections[ini->nsections];
    *s = (IniSection){.line = line};
    ini->nsections++;
    if (!(s->name = copy(b, w)) || !(s->label = copy(lb, le))) goto oom;
    return 0;
oom:
    return error_set(err, "%s: out of memory", file);
}

/* A `key = value` line, [b, e) without its comment, trimmed. */
static int add_key(Ini *ini, const char *file, int line, const char *b, const char *e, char *err)
{
    const char *eq = memchr(b, '=', (size_t)(e - b));
    if (!eq) {
        return error_code(err, ERR_USAGE, "%s:%d: '%.*s' is neither `key = value` nor a [section] header", file, line,
                          (int)(e - b > 80 ? 80 : e - b), b);
    }
    const char *kb = b, *ke = eq, *vb = eq + 1, *ve = e;
    trim(&kb, &ke);
    trim(&vb, &ve);
    if (kb == ke) {
        return error_code(err, ERR_USAGE, "%s:%d: a key is missing before '='", file, line);
    }
    for (const char *p = kb; p < ke; p++)
        if (!key_char(*p)) {
            return error_code(err, ERR_USAGE, "%s:%d: key '%.*s': keys are lower-case letters, digits, '_' and '-'",
                              file, line, (int)(ke - kb > 80 ? 80 : ke - kb), kb);
        }
    if (ini->nsections == 0) {
        return error_code(err, ERR_USAGE, "%s:%d: key '%.*s' comes before any [section]", file, line, (int)(ke - kb),
                          kb);
    }
    IniSection *s = &ini->sections[ini->nsections - 1];
    for (int i = 0; i < s->nkeys; i++)
        if (strlen(s->keys[i].key) == (size_t)(ke - kb) && !strncmp(s->keys[i].key, kb, (size_t)(ke - kb))) {
            return error_code(err, ERR_USAGE, "%s:%d: '%s' is given twice in this section (first on line %d)", file,
                              line, s->keys[i].key, s->keys[i].line);
        }
    IniKey *grown = realloc(s->keys, (size_t)(s->nkeys + 1) * sizeof *grown);
    if (!grown) goto oom;
    s->keys = grown;
    IniKey *k = &s->keys[s->nkeys];
    *k = (IniKey){.line = line};
    s->nkeys++;
    if (!(k->key = copy(kb, ke)) || !(k->value = copy(vb, ve))) goto oom;
    return 0;
oom:
    return error_set(err, "%s: out of memory", file);
}

int ini_parse(Ini *ini, const char *file, const char *text, size_t len, char *err)
{
    *ini = (Ini){0};
    if (len > INI_MAX_BYTES) {
        return error_code(err, ERR_USAGE, "%s: %zu bytes: a study file is at most %d bytes", file, len, INI_MAX_BYTES);
    }
    const char *p = text, *end = text + len;
    /* a UTF-8 byte order mark, which some editors put first: not text */
    if (len >= 3 && !memcmp(p, "\xef\xbb\xbf", 3)) p += 3;
    for (int line = 1; p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *b = p, *e = nl ? nl : end;
        p = nl ? nl + 1 : end;
        if (e > b && e[-1] == '\r') e--;
        for (const char *q = b; q < e; q++)
            if (((unsigned char)*q < 0x20 && *q != '\t') || *q == 0x7f) {
                return error_code(err, ERR_USAGE, "%s:%d: a control character (byte 0x%02x) in the text", file, line,
                                  (unsigned char)*q);
            }
        e = content_end(b, e);
        trim(&b, &e);
        if (b == e) continue;
        int rc;
        if (*b == '[') {
            if (e[-1] != ']' || e - b < 2) {
                return error_code(err, ERR_USAGE, "%s:%d: a section header ends with ']'", file, line);
            }
            rc = add_section(ini, file, line, b + 1, e - 1, err);
        } else {
            rc = add_key(ini, file, line, b, e, err);
        }
        if (rc) return rc;
    }
    return 0;
}

int ini_read(Ini *ini, const char *path, char *err)
{
    *ini = (Ini){0};
    char *text, why[ERR_LEN];
    size_t n;
    int rc = file_read(path, INI_MAX_BYTES, 0, &text, &n, why);
    if (rc == ERR_USAGE) return error_code(err, ERR_USAGE, "%s", why);
    if (rc) return error_set(err, "cannot read '%s': %s", path, file_read_reason(why, path));
    rc = ini_parse(ini, path, text, n, err);
    free(text);
    return rc;
}

void ini_free(Ini *ini)
{
    for (int i = 0; i < ini->nsections; i++) {
        IniSection *s = &ini->sections[i];
        for (int k = 0; k < s->nkeys; k++) {
            free(s->keys[k].key);
            free(s->keys[k].value);
        }
        free(s->keys);
        free(s->name);
        free(s->label);
    }
    free(ini->sections);
    *ini = (Ini){0};
}
