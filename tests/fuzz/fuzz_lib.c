/* libFuzzer target for the C side of the Python package's boundary
 * (python/yinsh over include/yinsh.h through ctypes): whatever a caller
 * hands the library (a YPN or an action as any bytes, any int for an
 * index, a view, a plane, a size, a colour, a buffer's size), each call
 * answers with a code and a message or a value, never a crash, and a
 * refused call leaves the position as it was.
 *
 * The input: a text up to the first NUL (tried as a YPN, an action and a
 * last action), then 4-byte little-endian ints that drive a sequence of
 * calls on the start position or the YPN's. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <yinsh.h>

static int next_int(const uint8_t **p, const uint8_t *end)
{
    uint32_t v = 0;
    for (int k = 0; k < 4 && *p < end; k++, (*p)++) v |= (uint32_t)**p << (8 * k);
    return (int)v;
}

static void check_err(const char *err)
{
    /* a message, NUL-terminated within its buffer */
    if (!memchr(err, '\0', YINSH_ERR_LEN) || !err[0]) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), err[YINSH_ERR_LEN], ypn[YINSH_YPN_LEN], before[YINSH_YPN_LEN];
    if (!text) return 0;
    size_t len = strnlen((const char *)data, size);
    memcpy(text, data, len);
    text[len] = '\0';
    const uint8_t *p = data + (len < size ? len + 1 : size), *end = data + size;

    int index, rc;
    if ((rc = yinsh_action_index(text, &index, err)) == 0) {
        char back[YINSH_ACTION_LEN];
        if (index < 0 || index >= YINSH_ACTIONS || yinsh_action_text(index, back)) abort();
    } else {
        check_err(err);
    }
    yinsh_position *pos = NULL;
    if (yinsh_position_from_ypn(&pos, text, err)) {
        check_err(err);
        if (pos || yinsh_position_new(&pos, YINSH_STANDARD, err)) abort();
    }
    yinsh_position_ypn(pos, before);
    if ((rc = yinsh_position_apply_text(pos, text, err))) {
        check_err(err);
        yinsh_position_ypn(pos, ypn);
        if (strcmp(ypn, before)) abort(); /* a refused action changed the position */
    }
    for (int step = 0; p < end && step < 64; step++) {
        int op = next_int(&p, end) & 15, v = next_int(&p, end);
        char action[YINSH_ACTION_LEN];
        yinsh_position_ypn(pos, before);
        switch (op) {
        case 0:
            if (yinsh_action_text(v, action) != (v >= 0 && v < YINSH_ACTIONS ? 0 : YINSH_ERR_USAGE)) abort();
            break;
        case 1:
            if (yinsh_position_apply(pos, v, err)) {
                check_err(err);
                yinsh_position_ypn(pos, ypn);
                if (strcmp(ypn, before)) abort();
            }
            break;
        case 2: {
            uint8_t raw[YINSH_OBSERVATION];
            float planes[YINSH_OBSERVATION];
            int a = yinsh_position_planes_raw(pos, v, raw), b = yinsh_position_planes(pos, v, planes);
            if (a != b || (a && (v >= 0 && v <= 2)) || (!a && (v < 0 || v > 2))) abort();
            break;
        }
        case 3: {
            char *svg = NULL;
            if (yinsh_position_svg(pos, (v & 1) ? text : NULL, v >> 1, &svg, err) == 0) {
                if (!svg || !strstr(svg, "<svg")) abort();
                yinsh_free(svg);
            } else {
                check_err(err);
                if (svg) abort();
            }
            break;
        }
        case 4: {
            size_t n = (size_t)(unsigned)v % (YINSH_LEGAL_TEXT_LEN + 8);
            char *buf = malloc(n + 1);
            if (!buf) break;
            rc = yinsh_position_legal_text(pos, buf, n);
            if (rc >= 0 && !memchr(buf, '\0', n)) abort();
            free(buf);
            break;
        }
        case 5:
            (void)yinsh_plane_scale(v);
            (void)yinsh_position_removed(pos, v);
            (void)yinsh_result_name(v);
            (void)yinsh_reason_name(v);
            (void)yinsh_variant_name(v);
            (void)yinsh_error_name(v);
            break;
        case 6: {
            int legal[YINSH_MAX_ACTIONS], n = yinsh_position_legal(pos, legal);
            if (n > 0 && yinsh_position_apply(pos, legal[(unsigned)v % (unsigned)n], err)) abort();
            break;
        }
        case 7: {
            yinsh_position *other = NULL;
            if (yinsh_position_new(&other, v, err) == 0) {
                /* a variant: the base game with any rule options or'ed in */
                if (v < 0 || v > (YINSH_BLITZ | YINSH_SWAP | YINSH_DRAW_ODDS)) abort();
                yinsh_position_free(other);
            } else if (other) {
                abort();
            }
            break;
        }
        default: {
            int i;
            if (yinsh_position_action_index(pos, text, &i, err) == 0) {
                uint8_t mask[YINSH_ACTIONS];
                yinsh_position_legal_mask(pos, mask);
                if (i < 0 || i >= YINSH_ACTIONS || !mask[i]) abort();
            }
            break;
        }
        }
    }
    yinsh_position_free(pos);
    free(text);
    return 0;
}
