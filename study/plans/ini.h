/* The INI reader of study files (docs/study.md): sections of `key = value`
 * lines, every key and section remembered with its line so that whoever
 * checks the meaning can name the line of a mistake.
 *
 * The syntax, deliberately small:
 *   - a line is a section header `[name]` or `[name label]`, a
 *     `key = value` line, a comment (first character '#' or ';') or blank;
 *   - white space around names, keys and values is not part of them; a
 *     '#' or ';' after white space starts a comment to the end of the line;
 *   - keys are lower-case letters, digits, '_' and '-'; a value is the rest
 *     of the line (no quotes, no escapes, no continuation lines);
 *   - a key outside a section, a key given twice in a section, a section
 *     given twice, a control character or a NUL byte is an error.
 * Lines may end in CR LF, and the text may begin with a UTF-8 byte order
 * mark (skipped). What the keys mean is the reader's business:
 * this file knows no key. */
#ifndef YINSH_INI_H
#define YINSH_INI_H

#include <stddef.h>
#include "engine/base/error.h"

enum { INI_MAX_BYTES = 1 << 20 }; /* a study file is a few hundred bytes; more is a mistake */

typedef struct IniKey {
    char *key, *value;
    int line;
} IniKey;

typedef struct IniSection {
    char *name;  /* the header's first word: "agent" */
    char *label; /* the header's second word ("" when none): "sims50" */
    int line;
    IniKey *keys;
    int nkeys;
} IniSection;

typedef struct Ini {
    IniSection *sections; /* in file order */
    int nsections;
} Ini;

/* Parses text (len bytes; it need not end in a NUL) into ini. 0, or
 * ERR_USAGE (engine/base/error.h) when the text breaks the syntax, with
 * "FILE:LINE: why" in err (ERR_LEN bytes), file being the name given;
 * ERR_FAIL when memory runs out. ini_free frees what was read, whatever
 * the outcome. */
int ini_parse(Ini *ini, const char *file, const char *text, size_t len, char *err);
/* Reads and parses the file at path (file_read, engine/base/file.h): as
 * ini_parse; ERR_USAGE for a file over INI_MAX_BYTES; ERR_FAIL when the
 * file cannot be read ("cannot read 'PATH': why" in err). */
int ini_read(Ini *ini, const char *path, char *err);
void ini_free(Ini *ini);

/* The key of a section, NULL when it is not there. */
const IniKey *ini_key(const IniSection *s, const char *key);

#endif
