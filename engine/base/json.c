#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/json.h"
#include "engine/base/shell_words.h"
#include "engine/base/text.h"

/* One escaper for both: html also writes '<', '>' and '&' as \u escapes,
 * so that no text (a run name, an agent spec) can end the HTML <script>
 * element a viewer page embeds the JSON in. */
static void write_string(FILE *f, const char *s, bool html)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        unsigned char c = *p;
        if (c >= 0x80) {
            int n = text_utf8_length(p);
            if (n) fwrite(p, 1, (size_t)n, f), p += n;
            else fputs("\\ufffd", f), p++;
            continue;
        }
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c == '\n') fputs("\\n", f);
        else if (c == '\r') fputs("\\r", f);
        else if (c == '\t') fputs("\\t", f);
        else if (c < 0x20 || c == 0x7f || (html && (c == '<' || c == '>' || c == '&'))) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
        p++;
    }
    fputc('"', f);
}

void json_write_string(FILE *f, const char *s) { write_string(f, s, false); }

void json_string(FILE *f, const char *s) { write_string(f, s, true); }

/* Before a member: the comma, the line break and indent (or the space of
 * an inline container), and the key. */
static void member(Json *j, const char *key)
{
    assert(j->depth > 0);
    int d = j->depth - 1;
    assert((key != NULL) == (j->close[d] == '}'));
    if (j->any[d]) fputc(',', j->f);
    if (j->inline_[d]) {
        if (j->any[d]) fputc(' ', j->f);
    } else {
        fprintf(j->f, "\n%*s", 2 * j->depth, "");
    }
    j->any[d] = true;
    if (key) {
        write_string(j->f, key, j->script);
        fputs(": ", j->f);
    }
}

void json_begin(Json *j, FILE *f)
{
    *j = (Json){.f = f, .depth = 1, .close = {'}'}};
    fputc('{', f);
}

void json_begin_script(Json *j, FILE *f)
{
    json_begin(j, f);
    j->script = true;
}

void json_end(Json *j)
{
    while (j->depth > 0) json_close(j);
    fputc('\n', j->f);
}

void json_open(Json *j, const char *key, char kind, bool inline_)
{
    assert(j->depth < JSON_DEPTH_MAX && (kind == '{' || kind == '['));
    member(j, key);
    fputc(kind, j->f);
    int d = j->depth++;
    j->close[d] = kind == '{' ? '}' : ']';
    j->inline_[d] = inline_ || j->inline_[d - 1];
    j->any[d] = false;
}

void json_close(Json *j)
{
    assert(j->depth > 0);
    int d = --j->depth;
    if (j->any[d] && !j->inline_[d]) fprintf(j->f, "\n%*s", 2 * d, "");
    fputc(j->close[d], j->f);
}

void json_str(Json *j, const char *key, const char *v)
{
    member(j, key);
    if (v) write_string(j->f, v, j->script);
    else fputs("null", j->f);
}

void json_int(Json *j, const char *key, int64_t v)
{
    member(j, key);
    fprintf(j->f, "%" PRId64, v);
}

void json_uint(Json *j, const char *key, uint64_t v)
{
    member(j, key);
    fprintf(j->f, "%" PRIu64, v);
}

/* Ten significant digits: more than any figure here means, and the same
 * text for the same double on every machine. */
void json_num(Json *j, const char *key, double v)
{
    member(j, key);
    if (isfinite(v)) fprintf(j->f, "%.10g", v + 0.0);
    else fputs("null", j->f);
}

void json_fixed(Json *j, const char *key, double v, int decimals)
{
    assert(decimals >= 0 && decimals <= 17);
    member(j, key);
    if (!isfinite(v)) {
        fputs("null", j->f);
        return;
    }
    char text[400];
    snprintf(text, sizeof text, "%.*f", decimals, v);
    /* "-0", "-0.00": a negative value too small to show */
    if (text[0] == '-' && strspn(text + 1, "0.") == strlen(text + 1)) memmove(text, text + 1, strlen(text));
    fputs(text, j->f);
}

void json_bool(Json *j, const char *key, bool v)
{
    member(j, key);
    fputs(v ? "true" : "false", j->f);
}

void json_null(Json *j, const char *key)
{
    member(j, key);
    fputs("null", j->f);
}

void json_u64_text(Json *j, const char *key, uint64_t v)
{
    member(j, key);
    fprintf(j->f, "\"%" PRIu64 "\"", v);
}

void json_hex(Json *j, const char *key, uint64_t v)
{
    member(j, key);
    fprintf(j->f, "\"%016" PRIx64 "\"", v);
}

void json_estimate(Json *j, const char *key, double lo, double mid, double hi)
{
    json_open(j, key, '{', true);
    json_num(j, "value", mid);
    if (lo == hi) {
        json_null(j, "ci95");
    } else {
        json_open(j, "ci95", '[', true);
        json_num(j, NULL, lo);
        json_num(j, NULL, hi);
        json_close(j);
    }
    json_close(j);
}

void json_begin_command(Json *j, FILE *f, const char *cmd, int argc, char **argv)
{
    char *line = shell_join("yinsh", argc, argv);
    json_begin(j, f);
    json_str(j, "command", cmd);
    json_str(j, "command_line", line);
    json_str(j, "version", YINSH_VERSION);
    free(line);
}
