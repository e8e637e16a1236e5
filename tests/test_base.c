/* engine/base/ on its own: the bounded reader of whole files
 * (file_read): its one set of rules, each a case here (a missing path, a
 * directory, a file over its limit by its size, a stream over it as it
 * is read, a NUL byte in a text, a binary file, the limit itself, an
 * empty file, standard input's kind of stream); the error messages'
 * helpers (error.h); path identity (file_same_any: an output that is an
 * input, through a link or another spelling) and the folders a command
 * writes into (folder.h: the inputs they would overwrite, folders staged
 * and moved in whole). */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "engine/base/error.h"
#include "engine/base/number.h"
#include "engine/base/file.h"
#include "engine/base/folder.h"
#include "engine/base/text.h"

static char dir[64];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/yinsh_base_XXXXXX");
    cr_assert(mkdtemp(dir));
}

static void remove_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

/* dir/name holding len bytes of text; its path (static: one at a time). */
static const char *file_of(const char *name, const char *text, size_t len)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    cr_assert(f);
    cr_assert_eq(fwrite(text, 1, len, f), len);
    cr_assert_eq(fclose(f), 0);
    return path;
}

TestSuite(file_read, .init = make_dir, .fini = remove_dir);

Test(file_read, reads_a_whole_file_and_ends_it_with_a_nul)
{
    char *text, err[ERR_LEN];
    size_t len;
    const char *path = file_of("a.txt", "one\ntwo\n", 8);
    cr_assert_eq(file_read(path, 8, FILE_READ_TEXT, &text, &len, err), 0, "%s", err);
    cr_expect_eq(len, 8);
    cr_expect_str_eq(text, "one\ntwo\n");
    free(text);
    /* empty is not missing */
    path = file_of("empty.txt", "", 0);
    cr_assert_eq(file_read(path, 8, FILE_READ_TEXT, &text, &len, err), 0, "%s", err);
    cr_expect_eq(len, 0);
    cr_expect_str_eq(text, "");
    free(text);
}

Test(file_read, the_limit_is_bytes_at_most)
{
    char *text, err[ERR_LEN];
    size_t len;
    const char *path = file_of("nine.txt", "123456789", 9);
    cr_assert_eq(file_read(path, 9, 0, &text, &len, err), 0, "%s", err);
    free(text);
    cr_assert_eq(file_read(path, 8, 0, &text, &len, err), ERR_USAGE);
    cr_expect_null(text);
    cr_expect(strstr(err, "nine.txt: larger than its limit of 8 bytes"), "%s", err);
    /* a stream has no size to look at: refused at the byte past the limit */
    FILE *f = fopen(path, "rb");
    cr_assert(f);
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    cr_assert_eq(write(fds[1], "123456789", 9), 9);
    close(fds[1]);
    FILE *p = fdopen(fds[0], "rb");
    cr_assert_eq(file_read_stream(p, "-", 8, 0, &text, &len, err), ERR_USAGE);
    cr_expect_str_eq(err, "-: larger than its limit of 8 bytes");
    fclose(p);
    fclose(f);
}

Test(file_read, a_device_is_never_read_without_end)
{
    char *text, err[ERR_LEN];
    size_t len;
    /* a NUL at once, in a text */
    cr_assert_eq(file_read("/dev/zero", (size_t)1 << 40, FILE_READ_TEXT, &text, &len, err), ERR_USAGE);
    cr_expect_str_eq(err, "/dev/zero: not a text file (a NUL byte at offset 0)");
    /* binary: the limit */
    cr_assert_eq(file_read("/dev/zero", 100000, 0, &text, &len, err), ERR_USAGE);
    cr_expect_str_eq(err, "/dev/zero: larger than its limit of 100000 bytes");
    cr_expect_null(text);
}

Test(file_read, a_nul_byte_is_refused_in_a_text_and_kept_in_a_binary)
{
    char *text, err[ERR_LEN];
    size_t len;
    const char *path = file_of("nul.bin", "ab\0cd", 5);
    cr_assert_eq(file_read(path, 100, FILE_READ_TEXT, &text, &len, err), ERR_USAGE);
    cr_expect(strstr(err, "nul.bin: not a text file (a NUL byte at offset 2)"), "%s", err);
    cr_assert_eq(file_read(path, 100, 0, &text, &len, err), 0, "%s", err);
    cr_expect_eq(len, 5);
    cr_expect_eq(memcmp(text, "ab\0cd", 6), 0);
    free(text);
}

Test(file_read, missing_and_directory_and_unreadable)
{
    char *text, err[ERR_LEN], path[128];
    size_t len;
    snprintf(path, sizeof path, "%s/missing.txt", dir);
    cr_assert_eq(file_read(path, 100, 0, &text, &len, err), ERR_NOT_FOUND);
    cr_expect(strstr(err, "missing.txt: cannot open: No such file or directory"), "%s", err);
    cr_expect_str_eq(file_read_reason(err, path), "cannot open: No such file or directory");
    snprintf(path, sizeof path, "%s/missing/below.txt", dir);
    cr_assert_eq(file_read(path, 100, 0, &text, &len, err), ERR_NOT_FOUND);
    cr_assert_eq(file_read(dir, 100, 0, &text, &len, err), ERR_FAIL);
    cr_expect(strstr(err, ": a directory, not a file"), "%s", err);
    cr_expect_null(text);
    if (geteuid() != 0) {
        const char *locked = file_of("locked.txt", "x", 1);
        cr_assert_eq(chmod(locked, 0), 0);
        cr_assert_eq(file_read(locked, 100, 0, &text, &len, err), ERR_FAIL);
        cr_expect(strstr(err, "locked.txt: cannot open: Permission denied"), "%s", err);
    }
}

Test(file_read, a_message_names_a_long_path_cut)
{
    char path[400], err[ERR_LEN], *text;
    memset(path, 'a', sizeof path - 1);
    path[sizeof path - 1] = '\0';
    path[0] = '/';
    cr_assert_neq(file_read(path, 100, 0, &text, NULL, err), 0);
    cr_expect_eq(strncmp(err, path, 200), 0);
    cr_expect_str_eq(file_read_reason(err, path), strchr(err, ':') + 2);
    /* a message that is not the reader's is kept whole */
    cr_expect_str_eq(file_read_reason("other", path), "other");
}

/* error_append: a caller's word after a callee's message, cut at ERR_LEN
 * like the message itself, and nothing written to a NULL buffer. */
Test(error, append_adds_to_the_message_and_cuts_at_its_length)
{
    char err[ERR_LEN];
    cr_expect_eq(error_code(err, ERR_EXISTS, "run '%s' exists", "r1"), ERR_EXISTS);
    error_append(err, "; %s asks for another run", "the plan");
    cr_expect_str_eq(err, "run 'r1' exists; the plan asks for another run");
    char full[ERR_LEN + 10];
    memset(full, 'x', sizeof full - 1);
    full[sizeof full - 1] = '\0';
    cr_expect_eq(error_set(err, "%s", full), ERR_FAIL);
    cr_expect_eq(strlen(err), ERR_LEN - 1);
    error_append(err, "; more");
    cr_expect_eq(strlen(err), ERR_LEN - 1);
    cr_expect_eq(err[ERR_LEN - 2], 'x');
    error_append(NULL, "; nothing");
    cr_expect_eq(error_set(NULL, "nothing"), ERR_FAIL);
}

TestSuite(path, .init = make_dir, .fini = remove_dir);

/* dir/name (static: one at a time per slot). */
static const char *in_dir(int slot, const char *name)
{
    static char paths[4][256];
    snprintf(paths[slot], sizeof paths[slot], "%s/%s", dir, name);
    return paths[slot];
}

Test(path, an_output_is_found_among_the_inputs_by_any_spelling)
{
    file_of("a.db", "x", 1);
    cr_assert_eq(symlink(in_dir(0, "a.db"), in_dir(1, "link.db")), 0);
    const char *inputs[] = {NULL, in_dir(2, "b.db"), in_dir(3, "./link.db")};
    cr_expect_eq(file_same_any(in_dir(0, "a.db"), inputs, 3), 2, "through a link");
    char other[256];
    snprintf(other, sizeof other, "%s/../%s/a.db", dir, strrchr(dir, '/') + 1);
    cr_expect_eq(file_same_any(other, inputs, 3), 2, "another spelling");
    /* b.db does not exist yet: met by where it would be */
    cr_expect_eq(file_same_any(in_dir(0, "./b.db"), inputs, 3), 1);
    cr_expect_eq(file_same_any(in_dir(0, "c.db"), inputs, 3), -1);
    cr_expect_eq(file_same_any(in_dir(0, "c.db"), inputs, 0), -1);
}

static bool writes_md(const char *name, const void *ctx)
{
    (void)ctx;
    return strlen(name) > 3 && !strcmp(name + strlen(name) - 3, ".md");
}

Test(path, the_files_written_into_a_folder_and_its_sub_folder_overwrite_inputs)
{
    cr_assert_eq(folder_make(in_dir(0, "out/games/deep")), 0);
    FolderWrites w = {.dir = in_dir(1, "out"), .writes = writes_md, .sub = "games"};
    const char *inputs[] = {in_dir(2, "out/x.db"), NULL, in_dir(3, "out/r.md")};
    cr_expect_eq(folder_overwrites(&w, inputs, 3), 2, "a file it writes, not there yet");
    inputs[2] = in_dir(3, "out/games/deep/g.db");
    cr_expect_eq(folder_overwrites(&w, inputs, 3), 2, "inside the folder replaced whole");
    inputs[2] = in_dir(3, "r.md");
    cr_expect_eq(folder_overwrites(&w, inputs, 3), -1, "the same name in another folder");
    w.sub = NULL;
    inputs[2] = in_dir(3, "out/games/g.db");
    cr_expect_eq(folder_overwrites(&w, inputs, 3), -1);
    file_of("plain", "x", 1);
    cr_assert_eq(folder_make(in_dir(0, "plain")), -1);
    cr_expect_eq(errno, ENOTDIR);
}

Test(path, a_stage_moves_in_whole_and_last_comes_last)
{
    char stage[256], err[ERR_LEN];
    cr_assert_eq(folder_stage_open(in_dir(0, "site"), "view", stage, sizeof stage, err), 0, "%s", err);
    cr_expect(strstr(stage, "/site/.view-"), "%s", stage);
    /* an old folder of that name is replaced at once, and a file by rename */
    cr_assert_eq(folder_make(in_dir(1, "site/games")), 0);
    file_of("site/games/old.html", "old", 3);
    char sub[300];
    snprintf(sub, sizeof sub, "%s/games", stage);
    cr_assert_eq(mkdir(sub, 0777), 0);
    snprintf(sub, sizeof sub, "%s/games/new.html", stage + strlen(dir) + 1);
    file_of(sub, "new", 3);
    snprintf(sub, sizeof sub, "%s/index.html", stage + strlen(dir) + 1);
    file_of(sub, "index", 5);
    cr_assert_eq(folder_stage_commit(stage, in_dir(0, "site"), "index.html", NULL, NULL), 0);
    struct stat sb;
    cr_expect_eq(stat(in_dir(0, "site/games/new.html"), &sb), 0);
    cr_expect_neq(stat(in_dir(0, "site/games/old.html"), &sb), 0);
    cr_expect_eq(stat(in_dir(0, "site/index.html"), &sb), 0);
    folder_stage_remove(stage);
    cr_expect_neq(stat(stage, &sb), 0, "the stage is gone");
    /* a folder that cannot be made */
    file_of("file", "x", 1);
    cr_expect_eq(folder_stage_open(in_dir(0, "file/sub"), "view", stage, sizeof stage, err), ERR_FAIL);
    cr_expect(strstr(err, "cannot create the directory"), "%s", err);
    cr_expect_str_eq(stage, "");
}

/* The one escaping of records' tags and the compact games format: every
 * byte but NUL reads back as itself, with a quote byte or none; a
 * control character and the quote never appear bare; an escape that is
 * never written is refused. */
Test(text, every_byte_escaped_reads_back_as_itself)
{
    for (int quote = 0; quote <= '"'; quote += '"') {
        for (int c = 1; c < 256; c++) {
            char esc[TEXT_ESCAPE_LEN];
            int n = text_escape((unsigned char)c, (unsigned char)quote, esc);
            cr_assert(n >= 1 && n < TEXT_ESCAPE_LEN && esc[n] == '\0', "byte %d", c);
            cr_assert_eq((int)strlen(esc), n);
            if (n == 1) {
                cr_assert(!text_control((unsigned char)c) && c != '\\' && c != quote, "byte %d bare", c);
                cr_assert_eq((unsigned char)esc[0], c);
                continue;
            }
            cr_assert_eq(esc[0], '\\');
            int used, back = text_unescape(esc + 1, (size_t)n - 1, (unsigned char)quote, &used);
            cr_assert_eq(back, c, "byte %d: '%s' reads back as %d", c, esc, back);
            cr_assert_eq(used, n - 1, "byte %d", c);
        }
    }
    char esc[TEXT_ESCAPE_LEN];
    cr_assert_str_eq((text_escape('\n', 0, esc), esc), "\\n");
    cr_assert_str_eq((text_escape(0x1b, 0, esc), esc), "\\x1b");
    cr_assert_str_eq((text_escape('"', 0, esc), esc), "\"");
    cr_assert_str_eq((text_escape('"', '"', esc), esc), "\\\"");
    int used;
    const char *bad[] = {"q", "x0", "xg1", "x00", "\"", ""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        cr_assert_eq(text_unescape(bad[i], strlen(bad[i]), 0, &used), -1, "'\\%s' was read", bad[i]);
    cr_assert_eq(text_unescape("\"", 1, '"', &used), '"');
    cr_assert_eq(text_unescape("x7Fz", 4, 0, &used), 0x7f);
    cr_assert_eq(used, 3);
}

/* number_round is lround, value for value: halves away from zero, the
 * doubles next to the halves, negative zero, large values, and a sweep. */
Test(number, round_is_lround)
{
    const double v[] = {0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994,
                        0.5000000000000001, -0.5000000000000001, 1e15 + 0.5, -1e15 - 0.5, 4503599627370495.5,
                        -4503599627370495.5, 123456.49999999999, 7.0, -7.0, 1e-300, -1e-300};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        cr_expect_eq(number_round(v[i]), lround(v[i]), "%.17g: %ld, lround %ld", v[i], number_round(v[i]), lround(v[i]));
    for (int i = -200000; i <= 200000; i++) {
        double x = i / 64.0 + i * 1e-7;
        cr_expect_eq(number_round(x), lround(x), "%.17g", x);
        cr_expect_eq(number_round(nextafter(i / 2.0, 1e9)), lround(nextafter(i / 2.0, 1e9)), "%d/2 up", i);
        cr_expect_eq(number_round(nextafter(i / 2.0, -1e9)), lround(nextafter(i / 2.0, -1e9)), "%d/2 down", i);
    }
}
