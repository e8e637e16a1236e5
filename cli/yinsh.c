/* yinsh: the one binary. `yinsh --help` lists the subcommands (commands.c),
 * `yinsh CMD --help` explains one, `yinsh CMD ...` runs it. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "engine/base/file.h"
#include "engine/base/parallel.h"
#include "cli/cli.h"
#include "cli/commands.h"

/* Standard output, through a stream that keeps why a write to it failed:
 * a report's last write to a full disk is noticed at the end, when errno
 * says something else. */
static FileStream out = {.fd = STDOUT_FILENO};

int main(int argc, char **argv)
{
    /* A file grown past `ulimit -f` would end the process by SIGXFSZ,
     * without a word; ignored, the write fails with EFBIG, which the
     * command reports as any write error. */
    signal(SIGXFSZ, SIG_IGN);
    /* (done before main too; named here so that the linker keeps it) */
    parallel_clear_stale_registration();
    FILE *f = file_stream(&out);
    if (f) {
        setvbuf(f, NULL, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, BUFSIZ);
        stdout = f;
    }
    if (argc < 2) {
        cli_usage(stderr);
        return EXIT_USAGE;
    }
    /* `yinsh help CMD` is `yinsh CMD --help` */
    if (!strcmp(argv[1], "help") && argc > 2) {
        const Command *c = cli_find(argv[2]);
        if (!c) {
            fprintf(stderr, "yinsh: unknown command '%s'\n\n", argv[2]);
            cli_usage(stderr);
            return EXIT_USAGE;
        }
        return cli_help(c->name);
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        cli_usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("yinsh " YINSH_VERSION "\n");
        return 0;
    }
    const Command *c = cli_find(argv[1]);
    if (!c) {
        fprintf(stderr, "yinsh: unknown command '%s'\n\n", argv[1]);
        cli_usage(stderr);
        return EXIT_USAGE;
    }
    int rc = cli_wants_help(argc - 1, argv + 1) ? cli_help(c->name) : c->run(argc - 1, argv + 1);
    /* output that did not reach its file (a full disk, /dev/full) is a failure */
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "yinsh %s: cannot write the output: %s\n", c->name, strerror(out.error ? out.error : errno));
        return rc ? rc : 1;
    }
    return rc;
}
