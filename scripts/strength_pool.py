#!/usr/bin/env python3
# scripts/strength_pool.py MATCH_OUTPUT...: pooled Elo of colour-swapped matches from their pentanomial counts
# (pairs scoring 0, 1/2, 1, 3/2, 2): mean pair score and its standard error,
# a normal 95% interval, turned to Elo -- the method `match` prints as "elo"
import math, sys
counts = [0] * 5
for f in sys.argv[1:]:
    for line in open(f):
        if line.startswith('pentanomial'):
            for i, v in enumerate(line.split()[1:6]): counts[i] += int(v)
n = sum(counts)
scores = [0, 0.25, 0.5, 0.75, 1.0]
mean = sum(c * s for c, s in zip(counts, scores)) / n
var = sum(c * (s - mean) ** 2 for c, s in zip(counts, scores)) / n
se = math.sqrt(var / n)
elo = lambda p: -400 * math.log10(1 / p - 1)
print(f"pairs {n} games {2*n} pentanomial {counts} score {mean:.4f} elo {elo(mean):+.1f} (95% {elo(mean-1.96*se):+.1f} to {elo(mean+1.96*se):+.1f})")
