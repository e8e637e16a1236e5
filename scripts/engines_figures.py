#!/usr/bin/env python3
"""The figures of results/engines.md from the match databases.

    python3 scripts/engines_figures.py overhead DB...   time per action, A and B
    python3 scripts/engines_figures.py tc BASE_MS INC_MS DB...
                                                        time against budget, forfeits

A is the run's agent A (White in even games), B agent B. Only actions an
agent decided are counted: not the harness's ring placements, not forced
actions (one legal action). The budget of an action on a clock is the
policy of `yinsh uyi` (docs/uyi.md): remaining/20 + 0.8 x increment, at most
remaining - 50 ms, at least 1 ms, with `remaining` the clock before the
action (clock_us is stored after it, increment added).
"""
import sqlite3
import statistics as S
import sys

SIDE = "CASE WHEN (g.idx % 2 = 0) = (a.actor = 'w') THEN 'A' ELSE 'B' END"


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def rows(dbs, sql):
    out = []
    for db in dbs:
        out += sqlite3.connect(db).execute(sql).fetchall()
    return out


def overhead(dbs):
    r = rows(dbs, f"SELECT {SIDE}, a.time_us FROM action a JOIN game g ON g.id = a.game_id "
                  "WHERE a.state <> 'P' AND a.legal > 1")
    games = rows(dbs, "SELECT reason FROM game")
    print(f"games {len(games)}, reasons {sorted(set(x for (x,) in games))}")
    for side in "AB":
        xs = [t / 1000 for s, t in r if s == side]
        print(f"  {side}: n={len(xs)} mean={S.mean(xs):.2f} ms median={S.median(xs):.2f} "
              f"p99={pct(xs, .99):.2f} max={max(xs):.2f}")


def tc(base_ms, inc_ms, dbs):
    r = rows(dbs, f"SELECT {SIDE}, a.time_us, a.clock_us FROM action a JOIN game g ON g.id = a.game_id "
                  "WHERE a.state <> 'P' AND a.legal > 1 AND a.clock_us IS NOT NULL")
    games = rows(dbs, "SELECT count(*) FROM game")
    print(f"games {sum(n for (n,) in games)} at {base_ms / 1000:g}+{inc_ms / 1000:g}")
    for side in "AB":
        over, ratio = [], []
        for s, t, c in r:
            if s != side:
                continue
            before_ms = (c - inc_ms * 1000 + t) // 1000
            share = max(1, min(before_ms // 20 + inc_ms * 4 // 5, before_ms - 50))
            over.append(t / 1000 - share)
            ratio.append(t / 1000 / share)
        print(f"  {side}: n={len(over)} time - budget: mean={S.mean(over):+.2f} ms median={S.median(over):+.2f} "
              f"p99={pct(over, .99):+.2f} max={max(over):+.2f}; time/budget median={S.median(ratio):.3f} "
              f"p99={pct(ratio, .99):.2f}")
    f = rows(dbs, f"SELECT CASE WHEN (g.idx % 2 = 0) = (g.result = 'black') THEN 'A' ELSE 'B' END FROM game g "
                  "WHERE g.reason = 'time-forfeit'")
    print(f"  time forfeits: A {sum(1 for (x,) in f if x == 'A')}, B {sum(1 for (x,) in f if x == 'B')}")


if __name__ == "__main__":
    if sys.argv[1] == "overhead":
        overhead(sys.argv[2:])
    else:
        tc(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:])
