/* A UYI engine that misbehaves on purpose, for tests/test_engines.c:
 *
 *   fake_engine MODE [TAG]
 *
 * It answers the handshake and isready, follows `position` (with the
 * project's own UYI reader) and answers `go` with the first legal action,
 * except as MODE says:
 *
 *   ok           plays well (the first legal action)
 *   crash        exits at the first go (engine-died)
 *   illegal      answers the first go with an action that is not legal
 *   hang         never answers a go, and ignores SIGTERM (no-answer, or
 *                time-forfeit on a clock; the harness must SIGKILL it)
 *   garbage      answers a go with a line that is not UYI (engine-error)
 *   nohandshake  never says uyiok (no-answer)
 *   slow         sleeps 300 ms before every bestmove (time-forfeit at a
 *                short clock)
 *   slowok       sleeps 20 ms before every bestmove (for interrupting a
 *                match while engines run)
 *   illegalmore  answers every go with an illegal action twice (what an
 *                engine kept after its fault would leave unread)
 *   chatty       writes 3 MB to its standard error at the first go, then
 *                plays well (a log that must be capped)
 *   closeout     closes its standard output at the first go and goes on
 *                reading its input (engine-died, not no-answer)
 *   setsid-MODE  first starts a child in a session of its own (it calls
 *                setsid and sleeps, as `fake_engine sleeper TAG`), then
 *                plays as MODE: the child must die with the engine
 *   sleeper      sleeps until killed
 *   talkative    writes 3 MB of `info string` lines at the first go, then
 *                plays well (a transcript that must be capped)
 *   seedbound    announces `option name seed type spin default 0 min 0 max
 *                1000`, refuses a seed outside it (as an engine that checks
 *                its bounds: `info string error`), writes `seed V` to its
 *                standard error for one it takes, and plays well
 *
 * TAG is ignored: it marks the process's command line, so that a test can
 * find its engines in the process table. */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "engine/movegen.h"
#include "engine/notation.h"
#include "selfplay/uyi/command.h"

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "ok";
    if (!strcmp(mode, "sleeper"))
        for (;;) pause();
    if (!strncmp(mode, "setsid-", 7)) {
        mode += 7;
        pid_t pid = fork();
        if (pid == 0) {
            setsid();
            execl(argv[0], argv[0], "sleeper", argc > 2 ? argv[2] : "", (char *)NULL);
            _exit(127);
        }
    }
    bool quiet_err = false; /* chatty: the noise is written once */
    static char line[UYI_LINE_MAX + 2];
    static UyiCommand cmd;
    char err[ERR_LEN];
    Position pos;
    pos_start(&pos, VARIANT_STANDARD);
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (!strcmp(mode, "hang")) signal(SIGTERM, SIG_IGN);
    while (fgets(line, sizeof line, stdin)) {
        if (uyi_parse(line, &cmd, err)) {
            printf("info string error %s\n", err);
            continue;
        }
        switch (cmd.kind) {
        case UYI_UYI:
            printf("id name fake %s\nid author tests\n", mode);
            if (!strcmp(mode, "seedbound")) printf("option name seed type spin default 0 min 0 max 1000\n");
            if (strcmp(mode, "nohandshake")) printf("uyiok\n");
            break;
        case UYI_ISREADY:
            printf("readyok\n");
            break;
        case UYI_SETOPTION:
            if (!strcmp(mode, "seedbound") && !strcmp(cmd.name, "seed")) {
                char *end;
                errno = 0;
                long long v = strtoll(cmd.value, &end, 10);
                if (errno || *end || v < 0 || v > 1000) printf("info string error seed %s is not in 0 .. 1000\n", cmd.value);
                else fprintf(stderr, "seed %lld\n", v);
            }
            break;
        case UYI_NEWGAME:
            pos_start(&pos, VARIANT_STANDARD);
            break;
        case UYI_POSITION:
            pos = cmd.pos;
            break;
        case UYI_GO: {
            if (!strcmp(mode, "crash")) _exit(3);
            if (!strcmp(mode, "hang"))
                for (;;) pause();
            if (!strcmp(mode, "garbage")) {
                printf("hello, this is not UYI\n");
                break;
            }
            if (!strcmp(mode, "illegal")) {
                printf("bestmove k1\n"); /* no point k1 on the board */
                break;
            }
            if (!strcmp(mode, "illegalmore")) {
                printf("bestmove k1\nbestmove k1\n");
                break;
            }
            if (!strcmp(mode, "closeout")) {
                close(1); /* its output only: its input stays open */
                break;
            }
            if (!strcmp(mode, "chatty") && !quiet_err) {
                static char noise[4096];
                memset(noise, 'n', sizeof noise - 1);
                for (int i = 0; i < 768; i++) fprintf(stderr, "%s\n", noise);
                fflush(stderr);
                quiet_err = true;
            }
            if (!strcmp(mode, "talkative") && !quiet_err) {
                static char noise[300];
                memset(noise, 't', sizeof noise - 1);
                for (int i = 0; i < 10000; i++) printf("info string %s\n", noise);
                quiet_err = true;
            }
            if (!strcmp(mode, "slow")) sleep_ms(300);
            if (!strcmp(mode, "slowok")) sleep_ms(20);
            Action list[MAX_ACTIONS];
            char text[ACTION_MAX_LEN];
            int n = movegen_all(&pos, list);
            printf("bestmove %s\n", n ? action_format(list[0], text) : "none");
            break;
        }
        case UYI_QUIT:
            return 0;
        default:
            break;
        }
    }
    return 0;
}
