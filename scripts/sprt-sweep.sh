#!/bin/bash
# The SPRT on real games whose truth is known: mcts:sims=10 against itself
# (true Elo 0, so H0 of --sprt 0,50 holds), one match per seed 1..1000.
# Usage: scripts/sprt-sweep.sh YINSH_BINARY > OUT.txt
# Each line: seed, the hypothesis accepted, the pairs it took, the final LLR
# (0 where the binary's JSON has no such figure).
yinsh=${1:?usage: sprt-sweep.sh YINSH_BINARY}
for s in $(seq 1 1000); do
  "$yinsh" match --a mcts:sims=10 --b mcts:sims=10 --games 2000 --sprt 0,50,0.05,0.05 --seed "$s" --no-db --json --threads 1 2>/dev/null |
   python3 -c "import json,sys; d=json.load(sys.stdin); print($s, d['sprt']['accepted'], d['sprt']['decided_after_pairs'], d['sprt'].get('llr', 0) if 'model' in d['sprt'] else 0)"
done
