/* The defaults that the usage texts (cli/usage/CMD.txt, as built into the
 * binary: the table YINSH_USAGE of cli_usage) state are the macros the
 * commands use: a default changed in the code without its text, or a text
 * without its code, fails here. The values are read from the macros, never
 * written out in this file. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include "cli/commands.h"
#include "selfplay/play/relabel.h"
#include "selfplay/play/run.h"
#include "study/viewer/view_site.h"

extern const char *const YINSH_USAGE_NAMES[];
extern const char *const YINSH_USAGE_BYTES[];

/* The usage text of a command as built in; fails the test if none. */
static const char *usage(const char *cmd)
{
    char file[64];
    snprintf(file, sizeof file, "%s.txt", cmd);
    for (int i = 0; YINSH_USAGE_NAMES[i]; i++)
        if (!strcmp(YINSH_USAGE_NAMES[i], file)) return YINSH_USAGE_BYTES[i];
    cr_assert_fail("no usage text %s built in", file);
    return "";
}

static void says(const char *cmd, const char *words)
{
    cr_expect(strstr(usage(cmd), words) != NULL, "yinsh %s --help does not say \"%s\"", cmd, words);
}

/* n with a comma between each three digits, as the texts write counts. */
static void thousands(char *out, size_t size, long n)
{
    char digits[32];
    int len = snprintf(digits, sizeof digits, "%ld", n);
    size_t k = 0;
    for (int i = 0; i < len && k + 2 < size; i++) {
        if (i > 0 && (len - i) % 3 == 0) out[k++] = ',';
        out[k++] = digits[i];
    }
    out[k] = '\0';
}

Test(usage_defaults, match_games)
{
    char words[64], count[32];
    snprintf(words, sizeof words, "default %d, or with", MATCH_DEFAULT_GAMES);
    says("match", words);
    thousands(count, sizeof count, MATCH_DEFAULT_SPRT_GAMES);
    snprintf(words, sizeof words, "--sprt at most %s ", count);
    says("match", words);
}

Test(usage_defaults, selfplay_agent)
{
    says("selfplay", "both sides' agent (default " SELFPLAY_DEFAULT_AGENT ")");
}

Test(usage_defaults, report_and_view_folders)
{
    says("report", "(default " REPORT_DEFAULT_OUT ";");
    says("view", "(default " VIEW_DEFAULT_OUT ";");
    says("view", "the marker " VIEW_MARKER ",");
}

/* Each command that names its default database names RUN_DEFAULT_DB, and
 * no text names another file ending .db as a default. */
Test(usage_defaults, database)
{
    const char *names[] = {"export", "import", "match", "report", "selfplay", "spsa", "tournament", "tune", "view"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) says(names[i], "(default " RUN_DEFAULT_DB);
    for (int i = 0; YINSH_USAGE_NAMES[i]; i++)
        for (const char *p = YINSH_USAGE_BYTES[i]; (p = strstr(p, "default ")) != NULL; p++) {
            const char *word = p + strlen("default ");
            size_t n = strcspn(word, " ;,)\n");
            if (n > 3 && !strncmp(word + n - 3, ".db", 3))
                cr_expect(n == strlen(RUN_DEFAULT_DB) && !strncmp(word, RUN_DEFAULT_DB, n),
                          "%s names the default database %.*s, not " RUN_DEFAULT_DB, YINSH_USAGE_NAMES[i], (int)n,
                          word);
        }
}

Test(usage_defaults, relabel_every_and_seed)
{
    char words[64];
    snprintf(words, sizeof words, "(default %d: all of them)", RELABEL_DEFAULT_EVERY);
    says("relabel", words);
    snprintf(words, sizeof words, "identity\n                     (default %d)", RELABEL_DEFAULT_SEED);
    says("relabel", words);
}
