/* Time controls and the other run-wide limits of a run's agents: their
 * canonical text, stored with the run (scheduler.h plays under them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/error.h"
#include "engine/base/number.h"
#include "selfplay/play/controls.h"

char *controls_format(const PlayControls *c, char out[CONTROLS_TEXT_LEN])
{
    size_t n = 0;
    out[0] = '\0';
    /* a text that would not fit stops where it fills the buffer */
#define PUT(...)                                                                          \
    do {                                                                                  \
        if (n < CONTROLS_TEXT_LEN) n += (size_t)snprintf(out + n, CONTROLS_TEXT_LEN - n, __VA_ARGS__); \
    } while (0)
    if (c->sims) PUT("%ssims=%u", n ? "," : "", (unsigned)c->sims);
    if (c->movetime_ms) PUT("%smovetime=%lld", n ? "," : "", (long long)c->movetime_ms);
    if (c->base_ms) PUT("%stc=%g+%g", n ? "," : "", (double)c->base_ms / 1e3, (double)c->inc_ms / 1e3);
    if (c->movetime_ms || c->base_ms) PUT(",margin=%lld", (long long)c->margin_ms);
    if (c->agent_streams) PUT("%sstreams=agent", n ? "," : "");
    if (c->uncapped) {
        static const char *const SIDES[] = {"", "white", "black", "both"};
        PUT("%suncapped=%s", n ? "," : "", SIDES[c->uncapped & 3]);
    }
    char resign[96];
    if (c->resign.value > 0) PUT("%s%s", n ? "," : "", resign_format(&c->resign, resign, sizeof resign));
#undef PUT
    return out;
}

/* Seconds as a count of milliseconds, from 0 to a day. */
static bool seconds_ms(const char *s, int64_t *ms)
{
    double v;
    if (!number_real(s, 0, 86400, &v)) return false;
    *ms = (int64_t)(v * 1e3 + 0.5);
    return true;
}

int controls_parse_tc(const char *text, PlayControls *c, char *err)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s", text);
    char *plus = strchr(buf, '+');
    if (plus) *plus++ = '\0';
    int64_t base, inc = 0;
    if (strlen(text) >= sizeof buf || !seconds_ms(buf, &base) || base <= 0 || (plus && !seconds_ms(plus, &inc))) {
        return error_set(err, "'%.64s' is not BASE+INC in seconds (e.g. 10+0.1, or 60) with BASE above 0", text);
    }
    c->base_ms = base;
    c->inc_ms = inc;
    return 0;
}

int controls_parse(const char *text, PlayControls *c, char *err)
{
    char buf[CONTROLS_TEXT_LEN];
    *c = (PlayControls){.margin_ms = CONTROLS_MARGIN_MS};
    if (strlen(text) >= sizeof buf) goto bad;
    strcpy(buf, text);
    for (char *save = NULL, *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        long v;
        if (!eq) goto bad;
        *eq++ = '\0';
        if (!strcmp(kv, "sims") && number_long(eq, 1, 10000000, &v)) c->sims = (uint32_t)v;
        else if (!strcmp(kv, "movetime") && number_long(eq, 1, 86400000, &v)) c->movetime_ms = v;
        else if (!strcmp(kv, "margin") && number_long(eq, 0, 86400000, &v)) c->margin_ms = v;
        else if (!strcmp(kv, "tc") && !controls_parse_tc(eq, c, err)) continue;
        else if (!strcmp(kv, "streams") && !strcmp(eq, "agent")) c->agent_streams = true;
        else if (!strcmp(kv, "resign") && !resign_parse(eq, &c->resign, err)) continue;
        else if (!strcmp(kv, "resigncheck") && !resign_parse_check(eq, &c->resign, err)) continue;
        else if (!strcmp(kv, "uncapped") && !strcmp(eq, "white")) c->uncapped = CONTROLS_UNCAPPED_WHITE;
        else if (!strcmp(kv, "uncapped") && !strcmp(eq, "black")) c->uncapped = CONTROLS_UNCAPPED_BLACK;
        else if (!strcmp(kv, "uncapped") && !strcmp(eq, "both"))
            c->uncapped = CONTROLS_UNCAPPED_WHITE | CONTROLS_UNCAPPED_BLACK;
        else goto bad;
    }
    return 0;
bad:
    return error_set(err, "bad controls '%.64s' (sims=N,movetime=MS,tc=BASE+INC,margin=MS,streams=agent,"
                          "uncapped=white|black|both,resign=V:N,resigncheck=F)", text);
}
