#!/usr/bin/env bash
# Self-play's scaling table (results/scale.md, issue 57): games a second
# for four agents at 1 and 2 game threads and at 1 to 4 MPI ranks of one
# thread, each layout's wall clock and CPU time (user + system of the
# whole process tree, mpirun's included), and its efficiency against one
# rank of one thread. Every layout of an agent plays the same games (the
# same seed): the play hash of each is checked to be the same.
#
#   bash scripts/scale.sh [--rounds R] [--bin PATH] [--cores C] [--quick]
#
# --rounds R  rounds of every layout, alternating (default 3); the median
#             of each is printed
# --bin PATH  the yinsh binary (default build/yinsh)
# --cores C   the cores the machine gives the runs (default: nproc); a
#             layout of more processes or threads than C is marked
#             oversubscribed, and its wall-clock efficiency is against
#             C cores
# --quick     a tenth of the games (a rehearsal; the figures are rough)
#
# Writes the table (markdown) to stdout, each run's line to stderr. The
# databases are made in a temporary folder, removed at the end. MPI
# layouts need a build with MPI and mpirun (docs/cluster.md); without
# them only the one-process layouts are measured, and the script says so.
set -euo pipefail

rounds=3 bin=build/yinsh cores=$(nproc) scale=1
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=${2:?--rounds needs a number}; shift 2 ;;
    --bin) bin=${2:?--bin needs a path}; shift 2 ;;
    --cores) cores=${2:?--cores needs a number}; shift 2 ;;
    --quick) scale=10; shift ;;
    -h|--help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "scale.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case "$rounds" in ''|*[!0-9]*|0) echo "scale.sh: --rounds must be a positive integer, not '$rounds'" >&2; exit 2 ;; esac
case "$cores" in ''|*[!0-9]*|0) echo "scale.sh: --cores must be a positive integer, not '$cores'" >&2; exit 2 ;; esac
[ -x "$bin" ] || { echo "scale.sh: no yinsh binary at '$bin' (build first, or --bin PATH)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "scale.sh: /usr/bin/time is needed (Debian package time)" >&2; exit 2; }

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpi=0
if command -v mpirun >/dev/null && ldd "$bin" 2>/dev/null | grep -q libmpi; then mpi=1; fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# agent | games | seed
agents=(
  "random|20000|31"
  "mcts:sims=200|200|32"
  "best|40|33"
  "mcts:puct=1,sims=400,eval=net:eval/nets/leaf-loop9.nnue|100|34"
)
# layout: ranks x threads
layouts=("1 1" "1 2" "2 1" "3 1" "4 1")
[ $mpi = 1 ] || { layouts=("1 1" "1 2"); echo "scale.sh: no MPI build or no mpirun: the ranks' layouts are left out" >&2; }

# run AGENT GAMES SEED RANKS THREADS -> "wall cpu hash"
run() {
  local agent=$1 games=$2 seed=$3 ranks=$4 threads=$5 db="$tmp/r.db"
  rm -f "$db" "$db"-wal "$db"-shm
  local cmd=("$bin" selfplay --games "$games" --agent "$agent" --seed "$seed" --threads "$threads" --db "$db" --run s
             --quiet)
  [ "$ranks" -gt 1 ] && cmd=(mpirun --oversubscribe -np "$ranks" "${cmd[@]}")
  local t0 t1
  t0=$(date +%s.%N)
  /usr/bin/time -f '%U %S' -o "$tmp/time" "${cmd[@]}" > "$tmp/out" 2> "$tmp/err" ||
    { echo "scale.sh: failed: ${cmd[*]}" >&2; cat "$tmp/err" >&2; exit 1; }
  t1=$(date +%s.%N)
  local hash
  hash=$(awk '$1 == "hash" {print $2}' "$tmp/out" | head -1)
  echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}') $(awk '{print $1 + $2}' "$tmp/time") ${hash:-none}"
}

plural() { if [ "$1" -gt 1 ]; then echo s; fi; }
median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

echo "| agent | layout | games | wall s | games/s | CPU s | games per CPU-s | speed-up (wall) | efficiency (wall, per core used) | efficiency (CPU) |"
echo "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|"
for spec in "${agents[@]}"; do
  IFS='|' read -r agent games seed <<< "$spec"
  games=$(( games / scale )); [ $(( games % 2 )) = 0 ] || games=$(( games + 1 ))
  declare -A walls=() cpus=()
  first_hash=""
  for r in $(seq "$rounds"); do
    for lay in "${layouts[@]}"; do
      read -r ranks threads <<< "$lay"
      read -r wall cpu hash <<< "$(run "$agent" "$games" "$seed" "$ranks" "$threads")"
      echo "round $r: $agent, $ranks rank(s) x $threads thread(s): $games games, wall $wall s, CPU $cpu s, hash $hash" >&2
      [ -z "$first_hash" ] && first_hash=$hash
      [ "$hash" = "$first_hash" ] ||
        { echo "scale.sh: $agent: $ranks x $threads played other games (hash $hash, not $first_hash)" >&2; exit 1; }
      walls[$lay]+="$wall "
      cpus[$lay]+="$cpu "
    done
  done
  base_rate="" base_cpu_rate=""
  for lay in "${layouts[@]}"; do
    read -r ranks threads <<< "$lay"
    wall=$(tr ' ' '\n' <<< "${walls[$lay]}" | grep . | median)
    cpu=$(tr ' ' '\n' <<< "${cpus[$lay]}" | grep . | median)
    [ -z "$base_rate" ] && base_rate=$(awk -v g="$games" -v w="$wall" 'BEGIN {print g / w}') &&
      base_cpu_rate=$(awk -v g="$games" -v c="$cpu" 'BEGIN {print g / c}')
    want=$(( ranks * threads ))
    used=$(( want < cores ? want : cores ))
    label="$ranks rank$(plural "$ranks") x $threads thread$(plural "$threads")"
    [ $want -gt "$cores" ] && label="$label (oversubscribed: $want on $cores cores)"
    awk -v a="$agent" -v l="$label" -v g="$games" -v w="$wall" -v c="$cpu" -v br="$base_rate" -v bc="$base_cpu_rate" \
        -v u="$used" 'BEGIN {
      r = g / w; cr = g / c
      printf "| `%s` | %s | %d | %.2f | %.1f | %.2f | %.2f | %.2fx | %.0f%% | %.0f%% |\n", a, l, g, w, r, c, cr, r / br,
             100 * r / (br * u), 100 * cr / bc }'
  done
  unset walls cpus
done
echo
echo "Median of $rounds rounds, the layouts alternating; play hash of every layout of an agent the same; $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(date -u +%Y-%m-%dT%H:%MZ)."
