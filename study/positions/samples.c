#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/error.h"
#include "engine/base/file.h"
#include "engine/base/number.h"
#include "engine/encode/encode.h"
#include "engine/notation.h"
#include "study/positions/gzip_out.h"
#include "study/positions/samples.h"

struct SampleReader {
    StoreCursor *cursor;
    const StoreCursorGame *game; /* the game being read; NULL before the first */
    int variant;
    uint64_t games;              /* games begun */
    Sample sample;               /* the last one handed out; its pos is the game's position */
    bool pending;                /* sample.action is handed out and not yet made on sample.pos */
    bool broken;                 /* the game failed (an action that does not replay): the next call skips it */
};

int samples_open(SampleReader **out, Store *s, const StoreSelection *sel, char *err)
{
    *out = NULL;
    SampleReader *r = calloc(1, sizeof *r);
    if (!r) return error_set(err, "out of memory for a reader of positions");
    int rc = store_cursor_open(s, sel, &r->cursor, err);
    if (rc) {
        free(r);
        return rc;
    }
    *out = r;
    return 0;
}

static int result_of(const char *name)
{
    for (int r = RESULT_WHITE; r < RESULT_NB; r++)
        if (!strcmp(name, result_name(r))) return r;
    return RESULT_NONE;
}

/* The next game that has samples: one with a result and an action. */
static int next_game(SampleReader *r, char *err)
{
    for (;;) {
        int rc = store_cursor_next(r->cursor, &r->game, err);
        if (rc || !r->game) return rc;
        const StoreGameText *g = &r->game->text;
        Sample *s = &r->sample;
        s->result = result_of(g->result);
        if (s->result == RESULT_NONE || g->nactions == 0) continue;
        if (!variant_parse(g->variant, &r->variant)) {
            r->broken = true;
            return error_set(err, "run '%s' game %" PRIu32 ": variant '%.32s' is not one this yinsh plays", g->run,
                             g->index, g->variant);
        }
        pos_start(&s->pos, r->variant);
        s->from = r->game;
        s->game = r->games++;
        s->ply = -1;
        return 0;
    }
}

/* A sample's action is made on the position only when the next one is
 * asked for (the caller reads the position it was chosen in until then),
 * and only once: after an action that does not replay, nothing stale is
 * made again, and the game is left for the next. */
int samples_next(SampleReader *r, const Sample **out, char *err)
{
    Sample *s = &r->sample;
    *out = NULL;
    int rc;
    if (r->pending) {
        /* the position after the last sample's action */
        Undo u;
        pos_make(&s->pos, s->action, &u);
        r->pending = false;
    }
    if (!r->game || r->broken || s->ply + 1 >= r->game->text.nactions) {
        r->broken = false;
        if ((rc = next_game(r, err)) || !r->game) return rc;
    }
    const StoreGameText *g = &r->game->text;
    int ply = s->ply + 1;
    char why[ERR_LEN];
    if (action_parse(&s->pos, g->actions[ply], &s->action, why)) {
        r->broken = true;
        return error_set(err, "run '%s' game %" PRIu32 ": action %d does not replay: %s", g->run, g->index, ply + 1,
                         why);
    }
    s->ply = ply;
    s->action_index = encode_action(s->action);
    s->row = &r->game->acts[ply];
    s->z = s->result == RESULT_DRAW ? 0 : (s->result == RESULT_WHITE) == (s->pos.actor == WHITE) ? 1 : -1;
    r->pending = true;
    *out = s;
    return 0;
}

uint64_t samples_games(const SampleReader *r) { return r->games; }

void samples_close(SampleReader *r)
{
    if (!r) return;
    store_cursor_close(r->cursor);
    free(r);
}

const char SAMPLES_PLANES_NEED_FILE[] = "the planes are written into a file (their header, written last, counts "
                                       "the records), not to standard output, a FIFO or a device";

bool samples_format_parse(const char *text, int *format)
{
    static const char *const NAMES[SAMPLES_FORMAT_NB] = {"ypn", "csv", "planes", "planes+policy"};
    for (int f = 0; f < SAMPLES_FORMAT_NB; f++)
        if (!strcmp(text, NAMES[f])) {
            *format = f;
            return true;
        }
    return false;
}

bool samples_format_extras_parse(const char *text, int *format, SamplesExtras *x)
{
    *x = (SamplesExtras){0};
    if (!strcmp(text, "ypn") || !strcmp(text, "csv")) return samples_format_parse(text, format);
    if (strncmp(text, "planes", 6)) return false;
    *format = SAMPLES_PLANES;
    static const char *const POLICY[] = {"policy", "policy-f16", "policy-sparse"};
    for (const char *p = text + 6; *p;) {
        if (*p++ != '+') return false;
        size_t len = strcspn(p, "+");
        bool known = false;
        for (int k = 0; k < 3; k++)
            if (len == strlen(POLICY[k]) && !strncmp(p, POLICY[k], len)) {
                if (x->policy != SAMPLES_POLICY_NONE) return false; /* one policy */
                x->policy = SAMPLES_POLICY_F32 + k;
                known = true;
            }
        if (len == 4 && !strncmp(p, "mask", 4)) {
            if (x->mask) return false;
            x->mask = known = true;
        }
        if (!known) return false;
        p += len;
    }
    return true;
}

bool samples_policy_parse(const char *text, int *policy)
{
    static const char *const NAMES[] = {"f32", "f16", "sparse"};
    for (int k = 0; k < 3; k++)
        if (!strcmp(text, NAMES[k])) {
            *policy = SAMPLES_POLICY_F32 + k;
            return true;
        }
    return false;
}

bool samples_view_parse(const char *text, int *view)
{
    static const char *const NAMES[] = {"actor", "white", "black"};
    static const int VIEWS[] = {ENCODE_VIEW_ACTOR, ENCODE_VIEW_WHITE, ENCODE_VIEW_BLACK};
    for (int k = 0; k < 3; k++)
        if (!strcmp(text, NAMES[k])) {
            *view = VIEWS[k];
            return true;
        }
    return false;
}

/* ---- the .npy file ------------------------------------------------------
 *
 * NumPy's format 1.0: the magic, a 2-byte header length, then the header
 * (a Python dict literal: dtype, order, shape) padded with spaces to a
 * multiple of 64 bytes with a final '\n', then the records. The count is
 * known only at the end, so the header is written twice at the same fixed
 * length: first with 0 records, then with the count. Fields little-endian
 * and packed, in the order of the dtype. */

const char SAMPLES_NPY_DESCR[] = "[('planes', '|u1', (17, 11, 11)), ('action', '<i2'), ('z', '|i1'), "
                                 "('actor', '|u1'), ('state', '|u1'), ('searched', '|u1'), ('legal', '<u2'), "
                                 "('value', '<f4'), ('root_visits', '<u4'), ('chosen_visits', '<u4'), "
                                 "('game', '<u4'), ('ply', '<u2')]";
enum { NPY_HEADER_MAX = 640, NPY_POLICY_HEADER_LEN = 448 };
_Static_assert(ENCODE_ACTIONS == 2142, "the policy field's shape");
_Static_assert(SAMPLES_MASK_BYTES == (ENCODE_ACTIONS + 7) / 8, "the mask's bytes");
_Static_assert((int)SAMPLES_SPARSE_K >= (int)MAX_ACTIONS, "every legal action fits a sparse policy");
_Static_assert(SAMPLES_RECORD_LEN == ENCODE_SIZE + 2 + 1 + 1 + 1 + 1 + 2 + 4 + 4 + 4 + 4 + 2, "the record's fields");

/* The fields after the fixed ones, as the dtype lists them, and their bytes. */
static size_t extras_descr(const SamplesExtras *x, char *out, size_t len)
{
    size_t bytes = 0;
    out[0] = '\0';
    if (x->policy == SAMPLES_POLICY_F32 || x->policy == SAMPLES_POLICY_F16) {
        bool half = x->policy == SAMPLES_POLICY_F16;
        snprintf(out, len, ", ('policy', '%s', (%d,))", half ? "<f2" : "<f4", ENCODE_ACTIONS);
        bytes += (half ? 2u : 4u) * ENCODE_ACTIONS;
    } else if (x->policy == SAMPLES_POLICY_SPARSE) {
        snprintf(out, len, ", ('policy_index', '<u2', (%d,)), ('policy_share', '<f2', (%d,))", SAMPLES_SPARSE_K,
                 SAMPLES_SPARSE_K);
        bytes += 4u * SAMPLES_SPARSE_K;
    }
    if (x->mask) {
        size_t at = strlen(out);
        snprintf(out + at, len - at, ", ('legal_mask', '|u1', (%d,))", SAMPLES_MASK_BYTES);
        bytes += SAMPLES_MASK_BYTES;
    }
    size_t at = strlen(out);
    snprintf(out + at, len - at, ", ('root_value', '<f4')");
    return bytes + 4;
}

/* The header's length: the dict with the largest count, padded to 64. */
static int npy_header_len(const char *extra)
{
    int n = snprintf(NULL, 0, "{'descr': %s%s, 'fortran_order': False, 'shape': (%" PRIu64 ",), }",
                     SAMPLES_NPY_DESCR, extra, UINT64_MAX);
    int len = (10 + n + 1 + 63) / 64 * 64;
    assert(len <= NPY_HEADER_MAX);
    return len;
}

/* The header, len bytes (npy_header_len), with the extra fields. */
static void npy_header(uint64_t count, const char *extra, unsigned char *out, int len)
{
    memset(out, ' ', (size_t)len);
    memcpy(out, "\x93NUMPY\x01\x00", 8);
    out[8] = (len - 10) & 0xff;
    out[9] = (len - 10) >> 8;
    char dict[NPY_HEADER_MAX];
    /* the descr without its closing bracket, then the extra fields */
    int n = snprintf(dict, sizeof dict, "{'descr': %.*s%s], 'fortran_order': False, 'shape': (%" PRIu64 ",), }",
                     (int)strlen(SAMPLES_NPY_DESCR) - 1, SAMPLES_NPY_DESCR, extra, count);
    assert(n > 0 && n < len - 11);
    memcpy(out + 10, dict, (size_t)n);
    out[len - 1] = '\n';
}

/* IEEE binary16 of a float in [0, 1] (a visit share), rounded to the
 * nearest, ties to even; subnormals kept. */
static uint16_t half_of(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    uint32_t sign = (b >> 16) & 0x8000, e = (b >> 23) & 0xff, m = b & 0x7fffff;
    if (e == 0xff) return (uint16_t)(sign | 0x7c00 | (m ? 0x200 : 0));
    int he = (int)e - 127 + 15;
    if (he >= 31) return (uint16_t)(sign | 0x7c00);
    if (he <= 0) {
        if (he < -10) return (uint16_t)sign;
        m |= 0x800000;
        int shift = 14 - he;
        uint32_t h = m >> shift, rest = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rest > half || (rest == half && (h & 1))) h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)he << 10) | (m >> 13), rest = m & 0x1fff;
    if (rest > 0x1000 || (rest == 0x1000 && (h & 1))) h++; /* a carry into the exponent is right */
    return (uint16_t)(sign | h);
}

int samples_policy(const Sample *s, float *out, char *err)
{
    const StoreActionRow *row = s->row;
    memset(out, 0, ENCODE_ACTIONS * sizeof *out);
    if (row->budget == SEARCH_BUDGET_REDUCED) return 0; /* a reduced search teaches no policy */
    double sum = 0;
    for (int i = 0; i < row->nchildren; i++) sum += (double)row->children[i].visits;
    for (int i = 0; i < row->nchildren; i++) {
        Action a;
        char why[ERR_LEN];
        if (action_parse(&s->pos, row->children[i].action, &a, why))
            return error_set(err, "run '%s' game %" PRIu32 ": a root child '%.32s' of action %d is not legal there: %s",
                             s->from->text.run, s->from->text.index, row->children[i].action, s->ply + 1, why);
        out[encode_action(a)] = (float)(row->children[i].visits / sum);
    }
    return row->nchildren;
}

static unsigned char *put16(unsigned char *p, uint16_t v)
{
    p[0] = v & 0xff;
    p[1] = v >> 8;
    return p + 2;
}

static unsigned char *put32(unsigned char *p, uint32_t v)
{
    for (int k = 0; k < 4; k++) p[k] = (v >> (8 * k)) & 0xff;
    return p + 4;
}

static void npy_record(const Sample *s, int view, unsigned char out[SAMPLES_RECORD_LEN])
{
    const StoreActionRow *row = s->row;
    encode_planes_raw(&s->pos, view, out);
    unsigned char *p = put16(out + ENCODE_SIZE, (uint16_t)s->action_index);
    *p++ = (unsigned char)(int8_t)s->z;
    *p++ = s->pos.actor;
    *p++ = s->pos.state;
    *p++ = row->searched;
    p = put16(p, (uint16_t)row->legal);
    float value = row->searched ? (float)row->value : NAN;
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    p = put32(p, bits);
    p = put32(p, row->searched ? (uint32_t)row->root_visits : 0);
    p = put32(p, row->searched ? (uint32_t)row->chosen_visits : 0);
    p = put32(p, (uint32_t)s->game);
    put16(p, (uint16_t)s->ply);
}

/* A line's text, appended to (cut short never: TEXT_LINE_MAX holds the
 * longest, MAX_ACTIONS root children of at most 24 characters each). */
enum { TEXT_LINE_MAX = 1024 + MAX_ACTIONS * 24 };
typedef struct Line {
    char text[TEXT_LINE_MAX];
    size_t n;
} Line;

__attribute__((format(printf, 2, 3))) static void line_add(Line *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(l->text + l->n, sizeof l->text - l->n, fmt, ap);
    va_end(ap);
    assert(k >= 0 && (size_t)k < sizeof l->text - l->n);
    l->n += (size_t)k;
}

/* One text line: ypn (tab-separated) or csv. */
static void text_line(Line *l, const Sample *s, int format)
{
    const StoreActionRow *row = s->row;
    char ypn[YPN_MAX_LEN], action[ACTION_MAX_LEN], value[NUMBER_REAL_LEN] = "", root[16] = "", chosen[16] = "",
        root_value[NUMBER_REAL_LEN] = "";
    l->n = 0;
    ypn_format(&s->pos, ypn);
    action_format(s->action, action);
    if (row->searched) {
        number_real_text(row->value, value);
        snprintf(root, sizeof root, "%" PRId64, row->root_visits);
        snprintf(chosen, sizeof chosen, "%" PRId64, row->chosen_visits);
    }
    if (!isnan(row->root_value)) number_real_text(row->root_value, root_value);
    if (format == SAMPLES_YPN) {
        line_add(l, "%s\t%s\t%d\t%s\t%s\t%s\t", ypn, action, s->z, value, root, chosen);
    } else {
        /* run names are checked to hold no comma or quote where written */
        line_add(l, "%s,%" PRIu32 ",%d,%s,%c,%c,%s,%d,%" PRId64 ",%d,%s,%s,%s,%s,%d,", s->from->text.run,
                 s->from->text.index, s->ply, ypn, "wb"[s->pos.actor], STATE_CHARS[s->pos.state], action,
                 s->action_index, row->legal, row->searched, value, root, chosen, result_name(s->result), s->z);
    }
    /* the root visit distribution: ACTION:VISITS;... (empty: none stored) */
    for (int i = 0; i < row->nchildren; i++)
        line_add(l, "%s%.16s:%" PRId64, i ? ";" : "", row->children[i].action, row->children[i].visits);
    /* the root's value last, after every field of the formats before it */
    line_add(l, "%c%s\n", format == SAMPLES_YPN ? '\t' : ',', root_value);
}

/* The extras of a record after its fixed fields, at out. */
static int put_extras(const Sample *s, const SamplesExtras *x, float *target, unsigned char *out, char *err)
{
    if (x->policy != SAMPLES_POLICY_NONE) {
        int rc = samples_policy(s, target, err);
        if (rc < 0) return rc;
    }
    if (x->policy == SAMPLES_POLICY_F32) {
        for (int i = 0; i < ENCODE_ACTIONS; i++) {
            uint32_t bits;
            memcpy(&bits, &target[i], sizeof bits);
            out = put32(out, bits);
        }
    } else if (x->policy == SAMPLES_POLICY_F16) {
        for (int i = 0; i < ENCODE_ACTIONS; i++) out = put16(out, half_of(target[i]));
    } else if (x->policy == SAMPLES_POLICY_SPARSE) {
        /* the children in index order: a scan of the dense target */
        int k = 0;
        unsigned char *share = out + 2 * SAMPLES_SPARSE_K;
        for (int i = 0; i < ENCODE_ACTIONS; i++)
            if (target[i] > 0) {
                put16(out + 2 * k, (uint16_t)i);
                put16(share + 2 * k, half_of(target[i]));
                k++;
            }
        for (; k < SAMPLES_SPARSE_K; k++) {
            put16(out + 2 * k, 0xffff);
            put16(share + 2 * k, 0);
        }
        out += 4 * SAMPLES_SPARSE_K;
    }
    if (x->mask) {
        uint8_t mask[ENCODE_ACTIONS];
        encode_mask(&s->pos, mask);
        memset(out, 0, SAMPLES_MASK_BYTES);
        for (int i = 0; i < ENCODE_ACTIONS; i++)
            if (mask[i]) out[i >> 3] |= (unsigned char)(0x80 >> (i & 7));
        out += SAMPLES_MASK_BYTES;
    }
    /* last, so that every field before it kept its offset (schema 8) */
    float root = (float)s->row->root_value; /* NAN where none is stored */
    uint32_t bits;
    memcpy(&bits, &root, sizeof bits);
    put32(out, bits);
    return 0;
}

/* The files of the database a path must not be: the database itself
 * and the journal files beside it. */
static int check_not_database(const Store *store, const char *path, char *err)
{
    static const char *const SUFFIX[] = {"", "-wal", "-shm", "-journal"};
    char name[4200];
    for (size_t i = 0; i < sizeof SUFFIX / sizeof *SUFFIX; i++) {
        snprintf(name, sizeof name, "%s%s", store_path(store), SUFFIX[i]);
        if (file_same(path, name))
            return error_code(err, ERR_USAGE, "the output '%.200s' is the database's file '%.200s': it would be "
                              "overwritten", path, name);
    }
    return 0;
}

/* Where the export's bytes go: the file, or gzip into it. */
typedef struct Writer {
    FILE *f;
    bool gzip;
    GzipOut gz;
} Writer;

static int put(Writer *w, const void *data, size_t n, char *err)
{
    if (w->gzip) return gzip_out_write(&w->gz, data, n, err);
    fwrite(data, 1, n, w->f); /* a failure is the stream's, found at the commit */
    return 0;
}

/* The .npy header (count records), as it is written: itself, or a
 * stored gzip member holding it (gzip_out.h); its bytes into *len. */
static const unsigned char *header_out(const Writer *w, uint64_t count, const char *extra, int header_len,
                                       unsigned char *header, unsigned char *member, size_t *len)
{
    npy_header(count, extra, header, header_len);
    if (!w->gzip) {
        *len = (size_t)header_len;
        return header;
    }
    gzip_stored_member(header, (size_t)header_len, member);
    *len = gzip_stored_len((size_t)header_len);
    return member;
}

/* One routine for every format: text lines, or planes with the extras x;
 * stop (NULL: none), set by a signal, ends it with path as it was. A path
 * ending in ".gz" is written compressed (gzip_out.h). */
static int export_samples(Store *store, const StoreSelection *sel, int format, const SamplesExtras *x, int view,
                          const char *path, const atomic_bool *stop, uint64_t *positions, uint64_t *games,
                          char *err)
{
    SampleReader *r = NULL;
    FileOut out = {0};
    Writer w = {.gzip = gzip_path(path)};
    uint64_t n = 0;
    bool planes = format == SAMPLES_PLANES;
    char extra[256];
    size_t record_len = SAMPLES_RECORD_LEN + extras_descr(x, extra, sizeof extra), hlen;
    int header_len = npy_header_len(extra);
    /* planes+policy's header had 448 bytes from the start: kept, so that
     * the same export gives the same file, byte for byte */
    if (x->policy == SAMPLES_POLICY_F32 && !x->mask) header_len = NPY_POLICY_HEADER_LEN;
    unsigned char header[NPY_HEADER_MAX], member[NPY_HEADER_MAX + 32], *record = malloc(record_len);
    const unsigned char *head;
    float *target = malloc(ENCODE_ACTIONS * sizeof *target);
    Line *line = malloc(sizeof *line);
    if (!record || !target || !line) {
        free(record);
        free(target);
        free(line);
        return error_set(err, "out of memory");
    }
    int rc = check_not_database(store, path, err);
    if (!rc) rc = samples_open(&r, store, sel, err);
    if (rc) goto done;
    if (planes && (rc = file_out_check(path, err)) != 0) {
        /* the header, written first and again at the end, counts the records */
        if (rc > 0)
            rc = error_code(err, ERR_USAGE, "'%.200s': %s", path, SAMPLES_PLANES_NEED_FILE);
        goto done;
    }
    if ((rc = file_out_open(&out, path, err))) goto done;
    w.f = out.f;
    if (planes) {
        head = header_out(&w, 0, extra, header_len, header, member, &hlen);
        fwrite(head, 1, hlen, out.f);
    }
    if (w.gzip && (rc = gzip_out_begin(&w.gz, out.f, err))) goto done;
    if (format == SAMPLES_CSV) {
        static const char HEAD[] = "run,index,ply,ypn,actor,state,action,action_index,legal,searched,value,"
                                   "root_visits,chosen_visits,result,z,visits,root_value\n";
        rc = put(&w, HEAD, sizeof HEAD - 1, err);
    }
    const Sample *s;
    const StoreCursorGame *last = NULL;
    while (!rc && !(rc = samples_next(r, &s, err)) && s) {
        if (stop && atomic_load(stop)) {
            rc = error_set(err, "stopped by a signal: '%.200s' is left as it was", path);
            break;
        }
        if (format == SAMPLES_CSV && s->from != last && strpbrk(s->from->text.run, ",\"\n")) {
            rc = error_code(err, ERR_USAGE, "run '%s': a name with a comma or a quote cannot be written as CSV",
                            s->from->text.run);
            break;
        }
        last = s->from;
        if (planes) {
            npy_record(s, view, record);
            if ((rc = put_extras(s, x, target, record + SAMPLES_RECORD_LEN, err))) break;
            rc = put(&w, record, record_len, err);
        } else {
            text_line(line, s, format);
            rc = put(&w, line->text, line->n, err);
        }
        n++;
    }
    if (!rc && w.gzip) rc = gzip_out_end(&w.gz, err);
    if (!rc && planes) {
        head = header_out(&w, n, extra, header_len, header, member, &hlen);
        if (fseek(out.f, 0, SEEK_SET) != 0 || fwrite(head, 1, hlen, out.f) != hlen)
            rc = error_set(err, "cannot write '%.200s'", path);
    }
    if (!rc) {
        rc = file_out_commit(&out, err);
        out.f = NULL;
    }
    if (!rc && positions) *positions = n;
    if (!rc && games) *games = samples_games(r);
done:
    gzip_out_abandon(&w.gz);
    file_out_abandon(&out); /* after a failure: the sibling goes, the path stays as it was */
    samples_close(r);
    free(record);
    free(target);
    free(line);
    return rc;
}

int samples_export(Store *store, const StoreSelection *sel, int format, int view, const char *path,
                   const atomic_bool *stop, uint64_t *positions, uint64_t *games, char *err)
{
    SamplesExtras x = {.policy = format == SAMPLES_PLANES_POLICY ? SAMPLES_POLICY_F32 : SAMPLES_POLICY_NONE};
    if (format == SAMPLES_PLANES_POLICY) format = SAMPLES_PLANES;
    return export_samples(store, sel, format, &x, view, path, stop, positions, games, err);
}

int samples_export_planes(Store *store, const StoreSelection *sel, const SamplesExtras *x, int view,
                          const char *path, const atomic_bool *stop, uint64_t *positions, uint64_t *games,
                          char *err)
{
    return export_samples(store, sel, SAMPLES_PLANES, x, view, path, stop, positions, games, err);
}
