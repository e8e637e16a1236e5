/* engine/base/ on its own: the bounded reader of whole files
 * (file_read): its one set of rules, each a case here (a missing path, a
 * directory, a file over its limit by its size, a stream over it as it
 * is read, a NUL byte in a text, a binary file, the limit itself, an
 * empty file, standard input's kind of stream); and the error messages'
 * helpers (error.h). */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "engine/base/error.h"
#include "engine/base/file.h"

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
