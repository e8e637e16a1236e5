#!/usr/bin/env python3
# scripts/strength_curve.py LABEL0 MATCH_OUTPUT LABEL1 [MATCH_OUTPUT LABEL2 ...]:
# a strength curve from a ladder of neighbour matches, each A (the longer
# time) against B (the time below it), printed as `yinsh match` prints.
# Each match's Elo and its standard error come from its pentanomial counts
# as `match` computes them (mean pair score, its standard error; the Elo
# error by the delta method, so that errors of independent matches add in
# quadrature). Prints each step, the curve relative to LABEL0 with 95%
# intervals, and the mean Elo per step (a doubling of time when the labels
# double).
import math, sys

def penta(path):
    for line in open(path):
        if line.startswith('pentanomial'):
            return [int(v) for v in line.split()[1:6]]
    sys.exit(f"{path}: no pentanomial line (not a `yinsh match` output?)")

def elo(p):
    return -400 * math.log10(1 / p - 1)

def step(counts):
    n = sum(counts)
    scores = [0, 0.25, 0.5, 0.75, 1.0]
    mean = sum(c * s for c, s in zip(counts, scores)) / n
    var = sum(c * (s - mean) ** 2 for c, s in zip(counts, scores)) / n
    se = math.sqrt(var / n)
    if not 0 < mean < 1:
        sys.exit(f"a match scored {mean}: no finite Elo")
    d = 400 / (math.log(10) * mean * (1 - mean))  # dElo/dscore
    return n, mean, elo(mean), d * se

args = sys.argv[1:]
if len(args) < 3 or len(args) % 2 == 0:
    sys.exit("usage: strength_curve.py LABEL0 MATCH_OUTPUT LABEL1 [MATCH_OUTPUT LABEL2 ...]")
labels, files = args[0::2], args[1::2]
total, var, games = 0.0, 0.0, 0
print(f"{'step':<16} {'games':>5} {'score':>6} {'Elo (95%)':>24}   {'curve vs ' + labels[0]:>28}")
print(f"{labels[0]:<16} {'':>5} {'':>6} {'':>24}   {0:+10.1f}")
for i, f in enumerate(files):
    n, mean, e, se = step(penta(f))
    total += e
    var += se * se
    games += 2 * n
    s = math.sqrt(var)
    print(f"{labels[i] + ' -> ' + labels[i + 1]:<16} {2 * n:>5} {mean:6.3f} {e:+8.1f} ({e - 1.96 * se:+7.1f} to {e + 1.96 * se:+7.1f})"
          f"   {labels[i + 1]:>6} {total:+8.1f} ({total - 1.96 * s:+7.1f} to {total + 1.96 * s:+7.1f})")
k = len(files)
m, ms = total / k, math.sqrt(var) / k
print(f"mean per step over {k} steps ({games} games): {m:+.1f} Elo (95% {m - 1.96 * ms:+.1f} to {m + 1.96 * ms:+.1f})")
