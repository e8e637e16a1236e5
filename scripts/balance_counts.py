#!/usr/bin/env python3
"""The figures of results/balance.md that stand beside numbers from
elsewhere, recomputed from counts (issue 31): the published figures
against ours, the earlier MCTS study's exact p-values, random play's
edge, and the replication against the ladder. Standard library only:
Wilson intervals, Newcombe's hybrid interval of a difference, the exact
two-sided binomial (sign) test of White's wins among decisive games, the
same conventions as `yinsh report`; and each pooled term beside its
heterogeneity (Cochran's Q: whether the parts pooled share one value).

    python3 scripts/balance_counts.py
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

QUEUED_POOLS = []  # pooled terms, each tested for heterogeneity at the end (Cochran's Q)
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
QUEUED_POOLS.append(("both studies, standard", [ladder_std, rep_std]))
QUEUED_POOLS.append(("both studies, blitz", [ladder_blitz, rep_blitz]))
QUEUED_POOLS.append(("both studies, blitz minus standard", [(ladder_blitz, ladder_std), (rep_blitz, rep_std)]))

# White's score against strength along the ladder (results/ladder/report.md,
# 2026-12-02): each level's self-play (White wins, Black wins, draws) and
# its Elo with the 95% interval from the ladder's table, rounded as printed.
# The tests are those `yinsh report` now prints below each variant's table
# and in "Blitz against standard at matched strength" (stats_score_trend,
# report_matched): whether the levels' scores differ (chi-squared with the
# pooled variance of a game's score, draws counted), their linear trend in
# Elo (Cochran-Armitage), the four one Holm family; and each blitz level
# beside the standard level nearest it in Elo where the intervals overlap,
# blitz minus standard by the normal approximation of the permutation test
# (as the report computes it at these sizes), Holm over the rows.
LEVELS = ["random", "mcts10", "mcts30", "mcts100", "mcts300", "mcts1000", "ab1", "ab2", "ab3", "ab4", "ab5"]
LADDER = {
    "standard": [((358, 322, 420), 0, 0, 0), ((482, 498, 120), 317, 268, 366), ((553, 530, 17), 502, 439, 565),
                 ((539, 557, 4), 781, 703, 858), ((530, 567, 3), 1020, 932, 1109), ((559, 541, 0), 1268, 1170, 1366),
                 ((564, 536, 0), 1294, 1190, 1398), ((504, 550, 45), 1750, 1626, 1875),
                 ((555, 545, 0), 2155, 2017, 2293), ((542, 505, 53), 2472, 2325, 2618),
                 ((1280, 1119, 1), 2818, 2663, 2974)],
    "blitz": [((423, 429, 248), 0, 0, 0), ((516, 570, 14), 201, 162, 241), ((527, 573, 0), 292, 239, 345),
              ((561, 539, 0), 634, 560, 708), ((544, 556, 0), 851, 767, 936), ((564, 536, 0), 1015, 923, 1108),
              ((544, 556, 0), 998, 899, 1097), ((529, 567, 4), 1280, 1171, 1389), ((575, 525, 0), 1595, 1475, 1715),
              ((602, 491, 7), 1772, 1647, 1898), ((1365, 1035, 0), 2039, 1905, 2172)],
}

for _v in ("standard", "blitz"):  # "the pooled MCTS levels" (mcts10 to mcts1000)
    QUEUED_POOLS.append((f"the MCTS levels pooled, {_v}", [LADDER[_v][k][0] for k in range(1, 6)]))


def chi2_upper(x, df):
    """P(X >= x), X chi-squared on df: the regularized upper incomplete gamma."""
    a, h = df / 2, x / 2
    if h <= 0:
        return 1.0
    if h < a + 1:
        term = s = 1 / a
        for n in range(1, 10000):
            term *= h / (a + n)
            s += term
            if term < s * 1e-16:
                break
        return 1 - s * math.exp(-h + a * math.log(h) - math.lgamma(a))
    tiny = 1e-300
    b, c = h + 1 - a, 1 / tiny
    d = 1 / b
    f = d
    for i in range(1, 10000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = d if abs(d) > tiny else tiny
        c = b + an / c
        c = c if abs(c) > tiny else tiny
        d = 1 / d
        f *= d * c
        if abs(d * c - 1) < 1e-16:
            break
    return math.exp(-h + a * math.log(h) - math.lgamma(a)) * f


def holm(ps):
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    out, run = [0.0] * len(ps), 0.0
    for r, i in enumerate(order):
        run = max(run, min(1.0, (len(ps) - r) * ps[i]))
        out[i] = run
    return out


def fmt_p(p):
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def trend(rows):
    n = sum(w + b + d for (w, b, d), *_ in rows)
    mean = sum(w + d / 2 for (w, b, d), *_ in rows) / n
    var = sum(w + d / 4 for (w, b, d), *_ in rows) / n - mean * mean
    xm = sum((w + b + d) * e for (w, b, d), e, *_ in rows) / n
    chi = sxx = sxy = 0.0
    for (w, b, d), e, *_ in rows:
        ni, si = w + b + d, (w + d / 2) / (w + b + d)
        chi += ni * (si - mean) ** 2 / var
        sxx += ni * (e - xm) ** 2
        sxy += ni * (e - xm) * (si - mean)
    slope, se = sxy / sxx, math.sqrt(var / sxx)
    z = slope / se
    k = len(rows)
    return chi, chi2_upper(chi, k - 1), slope, se, math.erfc(abs(z) / math.sqrt(2)), chi - z * z, chi2_upper(chi - z * z, k - 2)


print("== White's score along the ladder (the 4 tests one Holm family)")
res = {v: trend(rows) for v, rows in LADDER.items()}
adj = holm([p for v in res for p in (res[v][1], res[v][4])])
for i, (v, (chi, p, slope, se, ps, dev, pd)) in enumerate(res.items()):
    print(f"{v}: the levels differ: chi2 {chi:.1f} on {len(LADDER[v]) - 1} df, p {fmt_p(p)} (Holm {fmt_p(adj[2 * i])}); "
          f"trend {1e5 * slope:+.1f} points per 1,000 Elo ({1e5 * (slope - Z * se):+.1f} to {1e5 * (slope + Z * se):+.1f}), "
          f"p {fmt_p(ps)} (Holm {fmt_p(adj[2 * i + 1])}); off the line: chi2 {dev:.1f} on {len(LADDER[v]) - 2} df, p {fmt_p(pd)}")


def perm_normal_p(a, b):
    """Blitz minus standard by the normal approximation of the permutation test."""
    (wa, ba, da), (wb, bb, db) = a, b
    na, nb = wa + ba + da, wb + bb + db
    n = na + nb
    mean = (wa + wb + (da + db) / 2) / n
    ss = (wa + wb) * (1 - mean) ** 2 + (da + db) * (0.5 - mean) ** 2 + (ba + bb) * mean ** 2
    var_sum = na * nb / (n * (n - 1)) * ss
    sd = (1 / na + 1 / nb) * math.sqrt(var_sum)
    d = (wa + da / 2) / na - (wb + db / 2) / nb
    return math.erfc(abs(d) / sd / math.sqrt(2))


print("== blitz against standard at matched strength (each blitz level beside the nearest standard one)")
rows = []
for kb, (cb, eb, lob, hib) in enumerate(LADDER["blitz"]):
    ks = min(range(len(LADDER["standard"])), key=lambda k: abs(LADDER["standard"][k][1] - eb))
    cs, es, los, his = LADDER["standard"][ks]
    if hib < los or his < lob:
        print(f"blitz {LEVELS[kb]} ({eb:+d}): no standard level whose interval meets its own")
        continue
    rows.append((kb, ks, cb, cs))
adj = holm([perm_normal_p(cb, cs) for kb, ks, cb, cs in rows])
for (kb, ks, cb, cs), a in zip(rows, adj):
    d, lo, hi = newcombe(cb[0] + cb[2] / 2, sum(cb), cs[0] + cs[2] / 2, sum(cs))
    print(f"blitz {LEVELS[kb]} ({LADDER['blitz'][kb][1]:+d}) {100 * score(*cb)[0]:.1f}% beside standard {LEVELS[ks]} "
          f"({LADDER['standard'][ks][1]:+d}) {100 * score(*cs)[0]:.1f}%: {pts(d)} ({pts(lo)} to {pts(hi)}), "
          f"p {fmt_p(perm_normal_p(cb, cs))}, Holm {fmt_p(a)} of {len(rows)}")


# studies/top.ini's ladder matches with the colours split (results/top/report.md,
# "Results by variant and agents": each match's two rows, White first):
# (White's level, Black's level, White wins, Black wins, draws). Levels:
# 0 ab5, 1 d5, 2 d6, 3 puct, 4 d7.
TOP_LEVELS = ["ab5", "d5", "d6", "puct", "d7"]
TOP_MATCHES = {
    "standard": [(0, 1, 43, 154, 3), (1, 0, 167, 33, 0), (1, 2, 45, 152, 3), (2, 1, 152, 45, 3),
                 (2, 3, 141, 56, 3), (3, 2, 94, 104, 2), (4, 3, 161, 36, 3), (3, 4, 36, 162, 2)],
    "blitz": [(0, 1, 78, 122, 0), (1, 0, 142, 58, 0), (1, 2, 74, 125, 1), (2, 1, 153, 46, 1),
              (2, 3, 137, 62, 1), (3, 2, 95, 104, 1), (4, 3, 154, 45, 1), (3, 4, 53, 144, 3)],
}
ELO = 400 / math.log(10)


def solve(a, b):
    """a x = b by Gaussian elimination with partial pivoting (a small, dense)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


def white_term(matches, levels):
    """Bradley-Terry with a White term: P(White scores) = 1 / (1 + exp(-(r_w - r_b + h))),
    a draw half a win, level 0 the anchor. Maximum likelihood by Newton's method;
    returns h and its standard error (both on the natural scale)."""
    k = levels  # parameters: r_1 .. r_{levels-1}, then h
    theta = [0.0] * k
    for _ in range(100):
        g = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        r = [0.0] + theta[:-1]  # the levels' ratings, the anchor's 0 first
        for wl, bl, w, b, d in matches:
            n, s = w + b + d, w + d / 2
            p = 1 / (1 + math.exp(-(r[wl] - r[bl] + theta[-1])))
            x = [0.0] * k  # the logit's gradient in the parameters
            if wl:
                x[wl - 1] += 1
            if bl:
                x[bl - 1] -= 1
            x[-1] = 1
            for i in range(k):
                g[i] += (s - n * p) * x[i]
                for j in range(k):
                    hess[i][j] += n * p * (1 - p) * x[i] * x[j]
        step = solve(hess, g)
        theta = [t + u for t, u in zip(theta, step)]
        if max(abs(u) for u in step) < 1e-12:
            break
    cov = solve(hess, [0.0] * (k - 1) + [1.0])  # the last column of the inverse information
    return theta[-1], math.sqrt(cov[-1])


print("== the top's ladder matches, colours split: a White term in the joint fit "
      "(studies/top.ini; both variants one Holm family)")
fits = {v: white_term(m, len(TOP_LEVELS)) for v, m in TOP_MATCHES.items()}
ps = [math.erfc(abs(h / se) / math.sqrt(2)) for h, se in fits.values()]
for (v, (h, se)), p, a in zip(fits.items(), ps, holm(ps)):
    w = sum(m[2] for m in TOP_MATCHES[v])
    b = sum(m[3] for m in TOP_MATCHES[v])
    d = sum(m[4] for m in TOP_MATCHES[v])
    s, n = score(w, b, d)
    lo, hi = wilson(w + d / 2, n)
    print(f"{v}: White's term {ELO * h:+.0f} Elo ({ELO * (h - Z * se):+.0f} to {ELO * (h + Z * se):+.0f}), "
          f"Wald p {fmt_p(p)} (Holm {fmt_p(a)}); White's score over the {w + b + d} match games "
          f"{100 * s:.1f}% ({100 * lo:.1f}-{100 * hi:.1f})")


def pooled(est, se):
    """Inverse-variance pooling and Cochran's Q (stats_pool in C)."""
    w = [1 / s ** 2 for s in se]
    mean = sum(wi * e for wi, e in zip(w, est)) / sum(w)
    q = sum(wi * (e - mean) ** 2 for wi, e in zip(w, est))
    return mean, 1 / math.sqrt(sum(w)), q, chi2_upper(q, len(est) - 1)


def logit_se(w, b, d):
    """A score's logit and its standard error (delta method, a game's own variance, draws counted)."""
    s, n = score(w, b, d)
    v = (w + d / 4) / n - s * s
    return math.log(s / (1 - s)), math.sqrt(v / n) / (s * (1 - s))


print("== the White term match by match (each match's two colour halves: h = (logit s1 + logit s2) / 2), "
      "and whether the matches share one (Cochran's Q)")
for v, ms in TOP_MATCHES.items():
    est, err, names = [], [], []
    for i in range(0, len(ms), 2):
        (wa, ba, w1, b1, d1), (_, _, w2, b2, d2) = ms[i], ms[i + 1]
        l1, e1 = logit_se(w1, b1, d1)
        l2, e2 = logit_se(w2, b2, d2)
        est.append((l1 + l2) / 2)
        err.append(math.sqrt(e1 ** 2 + e2 ** 2) / 2)
        names.append(f"{TOP_LEVELS[max(wa, ba)]}-{TOP_LEVELS[min(wa, ba)]}")
    mean, se, q, p = pooled(est, err)
    per = ", ".join(f"{nm} {ELO * e:+.0f} ({ELO * (e - Z * s):+.0f} to {ELO * (e + Z * s):+.0f})"
                    for nm, e, s in zip(names, est, err))
    print(f"{v}: {per}; pooled {ELO * mean:+.0f} Elo ({ELO * (mean - Z * se):+.0f} to {ELO * (mean + Z * se):+.0f}); "
          f"Cochran's Q {q:.1f} on {len(est) - 1} df, p {fmt_p(p)}, I^2 {100 * max(0, (q - len(est) + 1) / q):.0f}%")


def score_se(c):
    s, n = score(*c)
    w, b, d = c
    return s, math.sqrt(((w + d / 4) / n - s * s) / n)


print("== every pooled term above beside its heterogeneity (Cochran's Q: do the pooled parts share one value?)")
for label, parts in QUEUED_POOLS:
    est, err = [], []
    for part in parts:
        if isinstance(part[0], tuple):  # a difference of two scores
            (sa, ea), (sb, eb) = score_se(part[0]), score_se(part[1])
            est.append(sa - sb)
            err.append(math.sqrt(ea ** 2 + eb ** 2))
        else:
            s, e = score_se(part)
            est.append(s)
            err.append(e)
    mean, se, q, p = pooled(est, err)
    f = pts if isinstance(parts[0][0], tuple) else (lambda x: f"{100 * x:.1f}%")
    print(f"{label}: parts {', '.join(f(e) for e in est)}; pooled {f(mean)} ({f(mean - Z * se)} to "
          f"{f(mean + Z * se)}); Cochran's Q {q:.2f} on {len(est) - 1} df, p {fmt_p(p)}")


def lchoose(n, k):
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def perm_exact_p(a, b):
    """The exact permutation test of two samples' scores (stats_p_scores_differ), a and b as (W, B, D)."""
    (wa, ba, da), (wb, bb, db) = a, b
    c = (ba + bb, da + db, wa + wb)  # losses, draws, wins pooled
    na, n = wa + ba + da, wa + ba + da + wb + bb + db
    total, obs = c[1] + 2 * c[2], da + 2 * wa
    far, whole, p = abs(n * obs - na * total), lchoose(n, na), 0.0
    for x2 in range(max(0, na - c[0] - c[1]), min(c[2], na) + 1):
        rest = na - x2
        for x1 in range(max(0, rest - c[0]), min(c[1], rest) + 1):
            if abs(n * (x1 + 2 * x2) - na * total) >= far:
                p += math.exp(lchoose(c[2], x2) + lchoose(c[1], x1) + lchoose(c[0], rest - x1) - whole)
    return min(1.0, p)


# H4 assumed PUCT at d7's strength; it is not (d7 beats it by +256 and +191
# Elo). What its games can say is a description beside the alpha-beta
# levels rated just below and above it (results/top/report.md, "Results by
# variant and agents": self-play, White wins, Black wins, draws).
TOP_SELF = {
    "standard": {"d5": (1266, 1068, 66), "puct": (1179, 1120, 101), "d6": (1264, 1095, 41)},
    "blitz": {"d5": (1319, 1073, 8), "puct": (1181, 1197, 22), "d6": (1399, 978, 23)},
}
print("== PUCT's White's score beside its Elo neighbours d5 and d6 (a description, not a declared test)")
for v, t in TOP_SELF.items():
    for other in ("d5", "d6"):
        a, b = t["puct"], t[other]
        d, lo, hi = newcombe(a[0] + a[2] / 2, sum(a), b[0] + b[2] / 2, sum(b))
        print(f"{v}: puct {100 * score(*a)[0]:.1f}% minus {other} {100 * score(*b)[0]:.1f}%: {pts(d)} "
              f"({pts(lo)} to {pts(hi)}), exact permutation p {fmt_p(perm_exact_p(a, b))}")
