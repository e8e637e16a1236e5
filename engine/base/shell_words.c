/* A command line as text a shell runs back (shell_words.h). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/shell_words.h"

/* Whether a word is safe for the shell as it is. */
static bool shell_plain(const char *s)
{
    if (!*s) return false;
    for (; *s; s++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=.,:/@%", *s)) return false;
    return true;
}

char *shell_join(const char *first, int argc, char **argv)
{
    size_t len = strlen(first) + 1;
    for (int i = 0; i < argc; i++) len += 4 * strlen(argv[i]) + 3;
    char *s = malloc(len + 1), *at = s;
    if (!s) return NULL;
    at += sprintf(at, "%s", first);
    for (int i = 0; i < argc; i++) {
        *at++ = ' ';
        if (shell_plain(argv[i])) {
            at += sprintf(at, "%s", argv[i]);
            continue;
        }
        bool control = false;
        for (const char *p = argv[i]; *p; p++) control |= (unsigned char)*p < 0x20 || *p == 0x7f;
        if (control) {
            /* bash's $'...': the command stays on one line */
            at += sprintf(at, "$'");
            for (const unsigned char *p = (const unsigned char *)argv[i]; *p; p++) {
                if (*p == '\\' || *p == '\'') at += sprintf(at, "\\%c", *p);
                else if (*p == '\n') at += sprintf(at, "\\n");
                else if (*p == '\t') at += sprintf(at, "\\t");
                else if (*p < 0x20 || *p == 0x7f) at += sprintf(at, "\\x%02x", *p);
                else *at++ = (char)*p;
            }
            *at++ = '\'';
            *at = '\0';
            continue;
        }
        /* single quotes; a quote inside becomes '\'' */
        *at++ = '\'';
        for (const char *p = argv[i]; *p; p++) {
            if (*p == '\'') at += sprintf(at, "'\\''");
            else *at++ = *p;
        }
        *at++ = '\'';
        *at = '\0';
    }
    return s;
}
