#!/bin/sh
# Behaviour pinned, like a chess engine's bench node count: the counts of
# `yinsh bench --quick` (perft nodes, and the totals of 2000 random games of
# seed 1 on one and on two threads), the hash of `bench --mcts` (every
# search's chosen action and visit counts), and the play hashes of small
# seeded runs that replay the first games of the runs in results/ (their
# seeds, agents and variants). A change that alters one action or one visit
# count of any of them fails here. Speeds are printed but never checked.
# Usage: bench_quick.sh YINSH_BINARY SOURCE_DIR
set -eu
yinsh=$1
src=${2:-.}
fail=0
expect() { # expect LABEL PATTERN OUTPUT
    if printf '%s\n' "$3" | grep -qF -- "$2"; then
        echo "ok: $1"
    else
        echo "PINNED VALUE CHANGED: $1: expected '$2' in:"; printf '%s\n' "$3"; fail=1
    fi
}

out=$("$yinsh" bench --quick --threads 2)
echo "$out"
expect "perft" "perft: nodes 18886483 (expected 18886483, ok)" "$out"
expect "playouts" "playouts: 2000 random games, seed 1: actions 143807, white 641, black 622, draws 737; ends: three-rings 342, pool-empty 1658, no-moves 0" "$out"
expect "playouts on 2 threads" "(totals identical)" "$out"

out=$("$yinsh" bench --mcts --sims 200 --positions 10 --seed 1)
expect "bench --mcts" "2000 simulations, hash 0595c67039825e7e" "$out"

# alpha-beta at a fixed depth over the middle-game positions of bench --ab:
# the search of 8f70ac8 (no tech), and best's search (the deep search's
# techniques); their positions and hash pin every search's action, score
# and count
out=$("$yinsh" bench --ab --agent ab:eval=eval/weights/tuned3.txt --depth 5 --positions 8)
expect "bench --ab, the 8f70ac8 search, depth 5" "fixed depth: 975526 positions, hash bc9bc60ded956f61" "$out"
# the deep search on tuned3 (`best` of issue 29, by its text: stored runs
# of it replay so), the same search on the net with a linear part
# (`best` of issue 30 before the pattern part, eval/nets/hybrid32.nnue, by
# its text), and `best` now (the same search on the net with a linear and
# a line-pattern part, eval/nets/patterns32.nnue)
best29=ab:depth=5,maxdepth=64,tech=killers+asp+lmr+nmp+fut+qs,tempo=-100,eval=eval/weights/tuned3.txt
best30=ab:depth=5,maxdepth=64,tech=killers+asp+lmr+nmp+fut+qs,eval=net:eval/nets/hybrid32.nnue
out=$("$yinsh" bench --ab --agent "$best29" --depth 7 --positions 8)
expect "bench --ab, best of issue 29, depth 7" "fixed depth: 328131 positions, hash ba111a0982385f33" "$out"
out=$("$yinsh" bench --ab --agent "$best30" --depth 7 --positions 8)
expect "bench --ab, hybrid32's best, depth 7" "fixed depth: 280849 positions, hash 478367b0c31663f4" "$out"
out=$("$yinsh" bench --ab --agent best --depth 7 --positions 8)
expect "bench --ab, best, depth 7" "fixed depth: 263108 positions, hash bbe2f436758425aa" "$out"
# the placement set (bench --ab --placement): the agent of studies/top.ini
# placing its own rings, where its games spend most of their time
top=ab:depth=7,tech=killers+asp+lmr+nmp+fut+qs,eval=net:eval/nets/patterns32.nnue
out=$("$yinsh" bench --ab --placement --agent "$top" --depth 5 --positions 7)
expect "bench --ab --placement, top.ini's search, depth 5" "fixed depth: 2323310 positions, hash b65054ad053f1986" "$out"

# selfplay ARGS... -> its hash line, on 2 threads and on 1
sp() { "$yinsh" selfplay "$@" --no-db --quiet --threads 2; }
cd "$src"
expect "balance-standard-random, first 6 games" "hash         e424488cb010e4cb" \
    "$(sp --games 6 --variant standard --agent random --seed 5101)"
expect "balance-blitz-sims50, first 6 games" "hash         57faa629e97de093" \
    "$(sp --games 6 --variant blitz --agent mcts:sims=50 --seed 5104)"
expect "balance-standard-sims200, first 4 games" "hash         ae5bfd0e6d60ce66" \
    "$(sp --games 4 --variant standard --agent mcts:sims=200 --seed 5105)"
expect "same on 1 thread" "hash         ae5bfd0e6d60ce66" \
    "$("$yinsh" selfplay --games 4 --variant standard --agent mcts:sims=200 --seed 5105 --no-db --quiet --threads 1)"
expect "tuned-evaluation self-play, first 4 games" "hash         ec73b1d0e43092d7" \
    "$(sp --games 4 --agent mcts:sims=100,rollout=4,eval=eval/weights/tuned.txt --seed 20261130)"
expect "tuning match, 3 pairs" "hash         e0b91a0f70e7adfc" \
    "$("$yinsh" match --a mcts:sims=60,rollout=4,eval=eval/weights/tuned.txt --b mcts:sims=60 --games 6 --seed 1001 --no-db --quiet)"
expect "alpha-beta match, 3 pairs" "hash         fe3b4a3f36d815d4" \
    "$("$yinsh" match --a ab:depth=2,tt=1,eval=eval/weights/tuned.txt --b mcts:sims=60,rollout=4,eval=eval/weights/tuned.txt --games 6 --seed 1013 --no-db --quiet)"
# The balance study's strongest level (studies/ladder.ini, run
# ladder-standard-ab5: `best` at its untimed depth from random:4 openings),
# its first 2 games: the same actions as the 2 stored in results/ladder.db
expect "ladder-standard-ab5, first 2 games" "hash         25a25f4819443c9d" \
    "$(sp --games 2 --variant standard --agent ab:depth=5,eval=eval/weights/tuned3.txt --opening random:4 --seed 23021)"
# best of issue 29 and hybrid32's (by their texts) and best now at their
# untimed depth: the same games whichever number of game threads plays them
expect "best of issue 29, first 4 games, 2 threads" "hash         28bb992d2e9af919" \
    "$(sp --games 4 --agent "$best29" --seed 2950)"
expect "best of issue 29, first 4 games, 1 thread" "hash         28bb992d2e9af919" \
    "$("$yinsh" selfplay --games 4 --agent "$best29" --seed 2950 --no-db --quiet --threads 1)"
expect "hybrid32's best, first 4 games, 2 threads" "hash         22579c6bec2015b3" \
    "$(sp --games 4 --agent "$best30" --seed 2950)"
expect "best, first 4 games, 2 threads" "hash         78c795f6f17925c3" "$(sp --games 4 --agent best --seed 2950)"
expect "best, first 4 games, 1 thread" "hash         78c795f6f17925c3" \
    "$("$yinsh" selfplay --games 4 --agent best --seed 2950 --no-db --quiet --threads 1)"
# PUCT on the shipped policy net (issue 34) with its exploration keys, a
# batch of 4: the same games on 1 and 2 game threads
puct=mcts:sims=100,c=1,eval=net:eval/nets/pv32.nnue,puct=1,batch=4,temp=1,tempmoves=10,noise=0.25
expect "PUCT self-play, first 4 games, 2 threads" "hash         fbd237156f2d88ab" "$(sp --games 4 --agent "$puct" --seed 3410)"
expect "PUCT self-play, first 4 games, 1 thread" "hash         fbd237156f2d88ab" \
    "$("$yinsh" selfplay --games 4 --agent "$puct" --seed 3410 --no-db --quiet --threads 1)"
exit $fail
