/* libFuzzer target for the INI reader of study files (study/plans/ini.c): any
 * text is read without a crash or a leak, and what it accepts keeps the
 * promises of ini.h: named sections, keys of the allowed characters with
 * values trimmed, no key twice in a section, lines that rise. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "study/plans/ini.h"
#include "engine/types.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Ini ini;
    char err[ERR_LEN];
    int rc = ini_parse(&ini, "fuzz.ini", (const char *)data, size, err);
    if (rc != ERR_OK && strncmp(err, "fuzz.ini:", 9)) abort();
    int last = 0;
    for (int i = 0; rc == ERR_OK && i < ini.nsections; i++) {
        const IniSection *s = &ini.sections[i];
        if (!s->name[0] || s->line <= last) abort();
        last = s->line;
        for (int k = 0; k < s->nkeys; k++) {
            const IniKey *key = &s->keys[k];
            if (!key->key[0] || strspn(key->key, "abcdefghijklmnopqrstuvwxyz0123456789_-") != strlen(key->key)) abort();
            size_t n = strlen(key->value);
            if (n && (key->value[0] == ' ' || key->value[n - 1] == ' ' || key->value[n - 1] == '\t')) abort();
            if (key->line <= last || ini_key(s, key->key) != key) abort();
            last = key->line;
        }
    }
    ini_free(&ini);
    return 0;
}
