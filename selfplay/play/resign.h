/* Resignation in self-play (AlphaZero, KataGo): a game whose loser is
 * clear need not be played out, and the actions it would have taken are
 * saved; a fixed fraction of the games is played out anyway, to measure
 * how often resigning would have been wrong.
 *
 * The rule (`yinsh selfplay --resign V:N --resign-check F`, stored in the
 * run's controls, play/scheduler.h): a player resigns when its search's
 * value for itself (MoveStats.root_value: MCTS's root mean, alpha-beta's
 * score as a probability) has been below V at N consecutive decisions of
 * its own. Only searched decisions count (MoveStats.searched): a forced
 * action, a harness or book opening action, a random agent's or an
 * external engine's action neither adds to the streak nor ends it. A
 * player resigns instead of playing the action of the decision that
 * fires the rule: the game ends with the actions played so far, its
 * result the other side's win and its reason REASON_RESIGN, a valid
 * record whose actions replay (the store's merge accepts it).
 *
 * In a checked game (resign_checked: a draw from the game's seed, with
 * probability F, that touches none of the game's streams) nobody
 * resigns: the game is played out, and resign_scan finds, from its
 * record alone, the decision that would have fired the rule. When the
 * player it fired for went on to win or draw, resigning would have been
 * a false resignation. A run without the rule (V = 0) plays exactly the
 * games it played before the rule existed. */
#ifndef YINSH_RESIGN_H
#define YINSH_RESIGN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "selfplay/stats/stats.h"
#include "selfplay/records/record.h"

typedef struct ResignRule {
    double value;       /* V, 0 < V < 1: resign below it; 0: no resignation */
    uint32_t decisions; /* N >= 1: ... at this many consecutive own decisions */
    double check;       /* F, 0..1: the fraction of games played out and checked */
} ResignRule;

/* The defaults of `--resign V` and of the rule without --resign-check:
 * one decision (AlphaZero's rule) and AlphaZero's 10% checked games. */
#define RESIGN_DEFAULT_DECISIONS 1
#define RESIGN_DEFAULT_CHECK 0.1
enum { RESIGN_MAX_DECISIONS = 1000 };

/* "V" or "V:N" (--resign) into rule's value and decisions: 0, or ERR_USAGE
 * with what is wrong in err (V must lie strictly between 0 and 1, N from
 * 1 to RESIGN_MAX_DECISIONS). */
int resign_parse(const char *text, ResignRule *rule, char *err);
/* F (--resign-check) into rule's check: 0, or ERR_USAGE (F from 0 to 1). */
int resign_parse_check(const char *text, ResignRule *rule, char *err);

/* The rule as the run's controls store it (play/scheduler.h),
 * "resign=V:N,resigncheck=F" with each number in the shortest text that
 * reads back as it, into out (len bytes); "" when the rule is off.
 * Returns out. */
char *resign_format(const ResignRule *rule, char *out, size_t len);

/* Whether the game of stream seed `game_seed` (GameRecord.seed) is played
 * out and checked: a uniform draw from rng_mix(game_seed, salt) below the
 * rule's check (F = 1: every game; F = 0: none). */
bool resign_checked(const ResignRule *rule, uint64_t game_seed);

/* One game's streaks, by colour: zero it at the game's start. */
typedef struct ResignWatch {
    uint32_t low[2]; /* WHITE's, BLACK's consecutive searched decisions below V */
} ResignWatch;

/* A decision of `actor` seen: whether it fires the rule (its N-th
 * consecutive searched decision below V). An unsearched decision changes
 * nothing; a searched one at V or above ends the streak. */
bool resign_watch(ResignWatch *w, const ResignRule *rule, int actor, bool searched, double root_value);

/* The ply of the decision at which the rule fires in a played game
 * (that action would not have been played: the game would have ended
 * with `ply` actions), and the player it fires for into *actor; -1 when
 * it never fires. */
int resign_scan(const GameRecord *g, const ResignRule *rule, int *actor);

/* A run's resignations, from its games' records. */
typedef struct ResignSummary {
    uint64_t resigned;   /* games a player resigned */
    uint64_t checked;    /* games played out under the check */
    uint64_t fired;      /* checked games in which the rule fired */
    uint64_t wrong;      /* ... and the player it fired for won or drew: false resignations */
    uint64_t wrong_draw; /* ... of them draws */
    uint64_t left;       /* actions played after the rule fired, summed over the fired games */
} ResignSummary;

void resign_summary_add(ResignSummary *s, const ResignRule *rule, const GameRecord *g);
/* The false-resignation rate, wrong / fired, with its exact 95%
 * (Clopper-Pearson) interval: of the checked games the rule would have
 * ended, the share its player did not lose. */
Interval resign_false_rate(const ResignSummary *s);
/* The actions resignation saved, estimated: the resigned games times the
 * mean actions left after the rule fired in checked games (0 without a
 * fired checked game). */
double resign_saved_actions(const ResignSummary *s);

#endif
