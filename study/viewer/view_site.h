/* The game viewer (`yinsh view`): stored games as a static web site that
 * opens from disk (file://), with no server and no network.
 *
 *   index.html        the selected runs, and their games in a table that
 *                     sorts and filters (variant, agents, result, reason,
 *                     length)
 *   games/ID.html     one page per game (ID: the game's row id): the board,
 *                     stepping through the actions, the search's win
 *                     probability, visits and time per action
 *   board.js          the board drawing's tables (study/viewer/board_svg.c)
 *   viewer.js, viewer.css   the pages' script and style
 *                     (study/viewer/, embedded in the binary)
 *
 * The data of each page sits in the page, as JSON: the game's actions with
 * their search figures, and for every position the YPN, the marks of the
 * action that led to it and its status line, all computed here with the
 * engine, so the page only draws (docs/viewer.md). */
#ifndef YINSH_VIEW_SITE_H
#define YINSH_VIEW_SITE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "selfplay/store/store.h"

typedef struct ViewRun {
    char *name, *command, *variant, *white, *black, *started_at;
    uint64_t seed;
    int64_t games, stored;
} ViewRun;

typedef struct ViewGame {
    int64_t id, index, actions;
    int run; /* index into View.runs */
    uint64_t seed;
    char *variant, *white, *black, *result, *reason;
    double duration_ms;
} ViewGame;

typedef struct View {
    Store *store;        /* open (for reading) from view_load to view_free */
    char *db;
    const char *const *names; /* the selection as given (not owned) */
    int nnames;
    ViewRun *runs;
    int nruns;
    ViewGame *games;     /* in the order of the runs, then of the indices */
    int64_t ngames;
    /* what view_write wrote */
    uint64_t files, bytes, largest;
    int64_t actions;
} View;

/* A site replaces only what a site wrote. Each of its folders (DIR and
 * DIR/games) holds the marker VIEW_MARKER, written with it; a later site
 * replaces DIR's index.html, board.js, viewer.js and viewer.css where DIR
 * holds the marker, and DIR/games (whole, every page in it) where that
 * holds the marker. A site of a yinsh that wrote no marker is known by
 * its games folder holding game pages (NUMBER.html) and nothing else. */
#define VIEW_MARKER ".yinsh-view"
#define VIEW_GAMES "games"
/* Whether the site writes a file of that name into its folder (not the
 * games folder, which it replaces whole). */
bool view_writes(const char *name, const void *ctx);
/* Whether a site may be written into dir (which need not exist): 0, or
 * ERR_EXISTS with the folder or file that it would replace but did not
 * write, and why, in err. */
int view_check_dir(const char *dir, char *err);
/* Writes dir's marker (before the site moves in): 0, or -1 with err. */
int view_mark(const char *dir, char *err);

/* Reads the selected runs (nnames 0: every run) and their games, not yet
 * their actions, waiting busy_ms for another process's lock. 0, or non-zero with why in err: no database, an unknown
 * run name. A selection without games loads (ngames 0). */
int view_load(View *v, const char *db, int busy_ms, const char *const *names, int nnames, char *err);
/* Writes the site into dir, an existing folder (the caller's staging
 * folder): every game replayed with the engine, each action checked. 0,
 * or non-zero with why in err (a file that cannot be written, a stored
 * action that is not legal where it stands). */
int view_write(View *v, const char *dir, char *err);
/* Writes the site into out whole or not at all: into a staging folder
 * inside it first (view_write), the marker, then moved in with the index
 * last, so that it never links a page that is not there yet and a full
 * disk leaves out as it was. 0, or non-zero with why in err. */
int view_publish(View *v, const char *out, char *err);
void view_free(View *v);
/* What view_publish wrote into out, one line on f: the games, actions,
 * runs, files and megabytes, the largest page, and the page to open
 * ("yinsh view: ... open OUT/index.html"). */
void view_summary_write(FILE *f, const View *v, const char *out);

#endif
