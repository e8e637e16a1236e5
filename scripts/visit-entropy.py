#!/usr/bin/env python3
"""The stored root visit distributions of a run, by phase: for every
searched action with two legal actions or more whose run stored its
visits (`yinsh selfplay --store-visits`), the entropy H of the visit
shares (nats), ln(legal) (uniform's), H / ln(legal) and the most visited
child's share, averaged over the positions of each phase: ring
placements (state P), moves (M), removals (R, X, r, x); and the opening
diversity: distinct games and distinct first 10, 20 and 30 actions.
Standard library only (sqlite3).

    python3 scripts/visit-entropy.py DB [RUN]
"""
import math
import sqlite3
import sys

PHASES = (("placements", "P"), ("moves", "M"), ("removals", "RXrx"))


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit("usage: visit-entropy.py DB [RUN]")
    con = sqlite3.connect("file:%s?mode=ro" % argv[1], uri=True)
    where, args = "", ()
    if len(argv) == 3:
        where, args = " AND g.run_id = (SELECT id FROM run WHERE name = ?)", (argv[2],)
    rows = con.execute(
        "SELECT a.game_id, a.ply, a.state, a.legal, v.visits FROM action a "
        "JOIN game g ON g.id = a.game_id JOIN action_visits v ON v.game_id = a.game_id AND v.ply = a.ply "
        "WHERE a.legal >= 2" + where + " ORDER BY a.game_id, a.ply", args)
    stats = {name: [0, 0.0, 0.0, 0.0, 0.0, 0.0] for name, _ in PHASES}
    current, visits, state, legal = None, [], None, 0

    def flush():
        if not visits:
            return
        total = float(sum(visits))
        h = -sum(v / total * math.log(v / total) for v in visits if v)
        u = math.log(legal)
        for name, states in PHASES:
            if state in states:
                s = stats[name]
                s[0] += 1
                s[1] += legal
                s[2] += h
                s[3] += u
                s[4] += h / u
                s[5] += max(visits) / total

    for game, ply, st, lg, v in rows:
        if (game, ply) != current:
            flush()
            current, visits, state, legal = (game, ply), [], st, lg
        visits.append(v)
    flush()
    # opening diversity: distinct games, and distinct first 10 and 20 actions
    seqs = {}
    for game, ply, action in con.execute(
            "SELECT a.game_id, a.ply, a.action FROM action a JOIN game g ON g.id = a.game_id WHERE 1" + where +
            " ORDER BY a.game_id, a.ply", args):
        seqs.setdefault(game, []).append(action)
    if seqs:
        games = list(seqs.values())
        print("games %d: distinct %d; distinct first 10 actions %d, first 20 %d, first 30 %d" % (
            len(games), len(set(map(tuple, games))), len(set(tuple(g[:10]) for g in games)),
            len(set(tuple(g[:20]) for g in games)), len(set(tuple(g[:30]) for g in games))))
    print("| phase | positions | legal (mean) | H | ln(legal) | H / ln(legal) | top share |")
    print("|---|--:|--:|--:|--:|--:|--:|")
    for name, _ in PHASES:
        n, lg, h, u, r, top = stats[name]
        if n:
            print("| %s | %d | %.1f | %.3f | %.3f | %.3f | %.3f |" % (name, n, lg / n, h / n, u / n, r / n, top / n))


if __name__ == "__main__":
    main(sys.argv)
