/* libFuzzer target for the engines file reader (selfplay/uyi/engine.c,
 * uyi_engines_parse): the files `--engines FILE` names. The input is the
 * file's text; the engine asked for is named by its first line's first
 * word when it is a section header's name, else "e". Whatever the text,
 * the reader must not crash or read past it, a refusal must say why, and
 * what it accepts must hold together: its name, a command that splits
 * into words, options within their bounds, every field as a spec would
 * take it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "selfplay/uyi/client.h"
#include "selfplay/uyi/engine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > UYI_ENGINES_FILE_MAX) return 0;
    /* the text exactly as read: not NUL-terminated (a copy of its own, so
     * that reading past it is caught) */
    char *text = malloc(size ? size : 1);
    memcpy(text, data, size);
    char name[UYI_ENGINE_NAME_LEN + 8] = "e";
    if (size > 2 && text[0] == '[') {
        size_t n = 0;
        while (n + 1 < size && n < sizeof name - 1 && text[n + 1] != ']' && text[n + 1] != '\n') {
            name[n] = text[n + 1];
            n++;
        }
        name[n] = '\0';
        if (!n || memchr(name, '\0', n)) strcpy(name, "e");
    }
    UyiEngineDesc d;
    char err[ERR_LEN];
    if (uyi_engines_parse(text, size, "fuzz.ini", name, &d, err) == 0) {
        char why[ERR_LEN];
        if (strcmp(d.name, name) || !d.cmd[0] || uyi_client_check_command(d.cmd, why)) abort();
        if (d.noptions < 0 || d.noptions > UYI_ENGINE_OPTIONS || d.options_len > UYI_ENGINE_OPTIONS_LEN) abort();
        UyiEngineDesc again = {0};
        snprintf(again.name, sizeof again.name, "%s", d.name);
        if (uyi_engine_desc_set(&again, "cmd", d.cmd, why) || uyi_engine_desc_set(&again, "dir", d.dir, why)) abort();
        for (int i = 0; i < d.noptions; i++) {
            const char *k, *v;
            char key[UYI_ENGINE_NAME_LEN + 8];
            uyi_engine_option(&d, i, &k, &v);
            snprintf(key, sizeof key, "option.%s", k);
            if (uyi_engine_desc_set(&again, key, v, why)) abort();
        }
        if (again.noptions != d.noptions || memcmp(again.options, d.options, (size_t)d.options_len)) abort();
    } else if (!memchr(err, '\0', sizeof err) || !err[0]) {
        abort(); /* a refusal always says why */
    }
    free(text);
    return 0;
}
