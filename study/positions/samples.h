/* Training positions from the database: every position of the selected
 * stored games in which an action was chosen, with what a learner is
 * taught from it: the action played (its index, encode/encode.h), the
 * game's result for the side that acted, and the search's stored figures
 * (value and visits). Read one at a time (samples_next: the C library's
 * and Python's iterators) or written whole to a file (samples_export:
 * `yinsh positions`). The formats are docs/python.md's ("Positions in
 * bulk").
 *
 * Games come as store/cursor.h hands them out (run order, then by index,
 * repeats left out); games without a result (an imported record that stops
 * before the end) are skipped, having nothing to teach. The final
 * position of a game, where nothing was chosen, is not a sample. */
#ifndef YINSH_SAMPLES_H
#define YINSH_SAMPLES_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "engine/position.h"
#include "selfplay/store/cursor.h"

typedef struct Sample {
    Position pos;                /* the position the action was chosen in */
    Action action;               /* the action played there */
    int action_index;            /* encode_action(action) */
    int ply;                     /* its ply in the game, from 0 */
    int result;                  /* the game's RESULT_* (white, black or draw) */
    int z;                       /* the result for pos's actor: 1 won, 0 drawn, -1 lost */
    uint64_t game;               /* games of this reading before this sample's game */
    const StoreCursorGame *from; /* the game (its tags and actions), valid until the next game */
    const StoreActionRow *row;   /* the action's stored row: legal, searched, visits, value */
} Sample;

typedef struct SampleReader SampleReader;

/* A reader of the samples of sel (NULL: every game) in s, which must stay
 * open while the reader is. Errors as store_cursor_open. */
int samples_open(SampleReader **out, Store *s, const StoreSelection *sel, char *err);
/* The next sample into *out (valid until the next call): 0 with *out NULL
 * after the last; else an error naming the run, game and action that did
 * not replay (or a variant this yinsh does not play), after which the
 * next call goes on with the next game, or the store's. */
int samples_next(SampleReader *r, const Sample **out, char *err);
/* The games whose samples were handed out so far. */
uint64_t samples_games(const SampleReader *r);
void samples_close(SampleReader *r);

/* The policy target of a sample: its stored root visit distribution as
 * visit shares over the action indices (out: ENCODE_ACTIONS floats, each
 * child's visits over their sum; all 0 when none is stored, and when the
 * search was a reduced one, action.full = 0: only full searches are
 * policy targets, KataGo's playout cap randomisation). The number of
 * children (0 for those), or an error naming the game when a child's
 * action is not legal in the position (a damaged row). */
int samples_policy(const Sample *s, float *out, char *err);

/* The file formats: one text line per position (ypn: tab-separated,
 * csv: with a header line), or NumPy's .npy of fixed-size records with
 * the planes (np.load reads it; docs/python.md lists the fields);
 * SAMPLES_PLANES_POLICY is the planes with the policy target too (a field
 * `policy` of ENCODE_ACTIONS float32 after the fixed ones). Every format
 * ends with the root's value (`root_value`, schema 8), after the fields
 * it had before, which keep their places. */
enum { SAMPLES_YPN, SAMPLES_CSV, SAMPLES_PLANES, SAMPLES_PLANES_POLICY, SAMPLES_FORMAT_NB };
bool samples_format_parse(const char *text, int *format);
/* The .npy record's fixed fields' size in bytes, and their dtype as
 * NumPy writes it (the extras below follow them). */
enum { SAMPLES_RECORD_LEN = 2083 };
/* Why the planes cannot go to an output written through (base/file.h). */
extern const char SAMPLES_PLANES_NEED_FILE[];
extern const char SAMPLES_NPY_DESCR[];

/* What a planes record holds after its fixed fields (docs/python.md):
 * the policy target as dense float32 (`policy`, SAMPLES_PLANES_POLICY's),
 * dense float16 (`policy`, '<f2', half the bytes), or sparse (`policy_index`,
 * '<u2', and `policy_share`, '<f2', SAMPLES_SPARSE_K each: the stored
 * children by index in ascending order with their visit shares, the rest
 * index 65535 and share 0); and the legal actions' mask (`legal_mask`,
 * ENCODE_ACTIONS bits packed big-endian into SAMPLES_MASK_BYTES bytes,
 * as np.unpackbits reads them). Then, in every record, `root_value`
 * ('<f4', NaN where none is stored). */
enum { SAMPLES_POLICY_NONE, SAMPLES_POLICY_F32, SAMPLES_POLICY_F16, SAMPLES_POLICY_SPARSE };
enum { SAMPLES_SPARSE_K = 256, SAMPLES_MASK_BYTES = 268 };
typedef struct SamplesExtras {
    int policy; /* SAMPLES_POLICY_* */
    bool mask;
} SamplesExtras;

/* A format of the library's export (yinsh_export_positions): "ypn",
 * "csv", or "planes" with options joined by '+' ("+policy", "+policy-f16",
 * "+policy-sparse", at most one; "+mask"), into *format (SAMPLES_PLANES
 * for every planes format) and *x. False for any other text. */
bool samples_format_extras_parse(const char *text, int *format, SamplesExtras *x);
/* The policy's form by name: f32, f16 or sparse (SAMPLES_POLICY_F32 ..). */
bool samples_policy_parse(const char *text, int *policy);
/* The planes' view by name: actor, white or black (ENCODE_VIEW_*). */
bool samples_view_parse(const char *text, int *view);
#define SAMPLES_FORMATS_EXPECTED \
    "ypn, csv or planes[+policy|+policy-f16|+policy-sparse][+mask] (planes+policy, planes+policy-sparse+mask, ...)"

/* Writes the samples of sel to path as planes with the extras x (view
 * and the rest as samples_export). */
int samples_export_planes(Store *s, const StoreSelection *sel, const SamplesExtras *x, int view, const char *path,
                          const atomic_bool *stop, uint64_t *positions, uint64_t *games, char *err);

/* Writes the samples of sel to path in format, the planes in view
 * (ENCODE_VIEW_*), whole or not at all, compressed when path ends in
 * ".gz" (gzip_out.h: the planes as two gzip members), (a sibling renamed
 * over path at the end; base/file.h: a link's file replaced, standard output, a FIFO or a
 * device written through, which the planes, whose header counts the
 * records, refuse). The path is never one of the database's files
 * (ERR_USAGE). When stop (may be NULL) becomes true, it stops between
 * two positions, removes the sibling and fails saying so. The counts of
 * positions and games written go to *positions and *games (either may be
 * NULL). */
int samples_export(Store *s, const StoreSelection *sel, int format, int view, const char *path,
                   const atomic_bool *stop, uint64_t *positions, uint64_t *games, char *err);

#endif
