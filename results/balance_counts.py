#!/usr/bin/env python3
"""The figures of results/balance.md that stand beside numbers from
elsewhere, recomputed from counts (issue 31): the published figures
against ours, the earlier MCTS study's exact p-values, random play's
edge, and the replication against the ladder. Standard library only:
Wilson intervals, Newcombe's hybrid interval of a difference, the exact
two-sided binomial (sign) test of White's wins among decisive games, the
same conventions as `yinsh report`.

    python3 results/balance_counts.py
"""
import math

Z = 1.959963984540054


def wilson(x, n):
    p = x / n
    d = 1 + Z * Z / n
    c = (p + Z * Z / (2 * n)) / d
    h = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / d
    return c - h, c + h


def newcombe(x1, n1, x2, n2):
    """(p1 - p2) and its 95% interval from the two Wilson intervals."""
    p1, p2 = x1 / n1, x2 / n2
    l1, u1 = wilson(x1, n1)
    l2, u2 = wilson(x2, n2)
    d = p1 - p2
    return d, d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)


def log_pmf(k, n):
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) - n * math.log(2)


def sign_p(wins, losses):
    """Exact two-sided p of wins among wins + losses against one half."""
    n = wins + losses
    k = min(wins, losses)
    if 2 * k == n:
        return 1.0
    tail = sum(math.exp(log_pmf(i, n)) for i in range(k + 1))
    return min(1.0, 2 * tail)


def score(w, b, d):
    return (w + d / 2) / (w + b + d), w + b + d


def pts(x):
    return f"{100 * x:+.1f}"


def line(label, w, b, d):
    s, n = score(w, b, d)
    lo, hi = wilson(w + d / 2, n)
    print(f"{label}: W {w} B {b} D {d}: {100 * s:.2f}% ({100 * lo:.1f}-{100 * hi:.1f}), "
          f"exact p {sign_p(w, b):.3g}")


def diff(label, a, b):
    (wa, ba, da), (wb, bb, db) = a, b
    d, lo, hi = newcombe(wa + da / 2, wa + ba + da, wb + db / 2, wb + bb + db)
    print(f"{label}: {pts(d)} points ({pts(lo)} to {pts(hi)})")


# The published figures: shares of White's wins, as the balance issue
# (#23) gives them, with no date or selection; the counts are the
# nearest whole numbers of wins to the published shares.
print("== the published figures (wins as counts) against ours")
ladder_std = (1280, 1119, 1)  # results/ladder/report.md, ab depth 5, standard
ladder_blitz = (1365, 1035, 0)
boardspace = (441, 747 - 441, 0)  # 59.0% of 747
bga = (353, 705 - 353, 0)  # 50.1% of 705
engine = (105100, 200000 - 105100, 0)  # 52.55% of 200,000
for name, c in (("boardspace.net", boardspace), ("Board Game Arena top 10", bga), ("an engine, 1,000 MCTS sims", engine)):
    line(name, *c)
    diff(f"  ours (ab depth 5, standard) minus {name}", ladder_std, c)

print("== the earlier study (MCTS 1,000 simulations), exact tests")
mcts_std, mcts_blitz = (833, 764, 3), (844, 756, 0)
line("standard", *mcts_std)
line("blitz", *mcts_blitz)
line("pooled", mcts_std[0] + mcts_blitz[0], mcts_std[1] + mcts_blitz[1], mcts_std[2] + mcts_blitz[2])

print("== random play (results/bench.md: 200,000 random games of seed 1)")
line("random", 63631, 62287, 74082)

print("== the replication (studies/replication.ini) and both studies together")
rep_std, rep_blitz = (1562, 1436, 2), (1682, 1318, 0)  # results/replication/report.md
line("replication, standard", *rep_std)
line("replication, blitz", *rep_blitz)
diff("replication, blitz minus standard", rep_blitz, rep_std)
diff("ladder, blitz minus standard", ladder_blitz, ladder_std)
both_std = tuple(a + b for a, b in zip(ladder_std, rep_std))
both_blitz = tuple(a + b for a, b in zip(ladder_blitz, rep_blitz))
line("both, standard", *both_std)
line("both, blitz", *both_blitz)
diff("both, blitz minus standard", both_blitz, both_std)
diff("standard, replication minus ladder", rep_std, ladder_std)
diff("blitz, replication minus ladder", rep_blitz, ladder_blitz)
