#!/usr/bin/env bash
# results/ladder/reference-depths.md: the ladder's "decided at" and "lead
# changes" (reference) by three reference evaluators, the linear
# evaluation (the report's default) and fixed searchers at depths 1 and 2
# on the same weights (`yinsh report --reference`), from the committed
# games (results/ladder.games.gz) alone:
#
#   bash scripts/reference-depths.sh [OUT.md]    # default results/ladder/reference-depths.md
#
# About 5 minutes on one core (depth 2 is most of it). The reports are
# those of studies/ladder.ini (its file with the database, the folder and
# the reference changed), without pictures.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-results/ladder/reference-depths.md}
YINSH=${YINSH:-build/yinsh}
[ -x "$YINSH" ] || { echo "reference-depths.sh: no $YINSH: build first" >&2; exit 1; }
if [ -e "$out" ] && [ ! -f "$out" ] || [ -L "$out" ]; then
    echo "reference-depths.sh: $out is not a plain file: nothing written" >&2
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gzip -dc results/ladder.games.gz | "$YINSH" import --format games --db "$tmp/L.db" - >/dev/null
refs=("eval/weights/tuned3.txt" "ab:depth=1,eval=eval/weights/tuned3.txt" "ab:depth=2,eval=eval/weights/tuned3.txt")
for i in 0 1 2; do
    sed -e "s#^db = .*#db = $tmp/L.db#" -e "s#^out = .*#out = $tmp/r$i#" -e "s#^plots = .*#plots = no\nreference = ${refs[$i]}#" \
        studies/ladder.ini >"$tmp/ladder-$i.ini"
    start=$(date +%s)
    "$YINSH" study "$tmp/ladder-$i.ini" --quiet 2>"$tmp/err-$i" || { cat "$tmp/err-$i" >&2; exit 1; }
    echo "$(($(date +%s) - start))" >"$tmp/secs-$i"
done
python3 - "$tmp" "$out.tmp" "${refs[@]}" <<'EOF'
import sys, platform, datetime, subprocess
tmp, out, refs = sys.argv[1], sys.argv[2], sys.argv[3:]

def ladder_rows(path):
    """The two ladder tables (standard, then blitz): level -> (Elo, decided at, lead changes) by the reference."""
    rows, n, inside = {}, 0, False
    for line in open(path, encoding='utf-8'):
        if line.startswith("| level | Elo (95% CI) | games | White"):
            n, inside = n + 1, True
            continue
        if inside:
            if not line.startswith('|'):
                inside = False
            elif line.startswith('| `'):
                c = [x.strip() for x in line.strip().strip('|').split('|')]
                if len(c) >= 13:
                    rows[('standard' if n == 1 else 'blitz', c[0])] = (c[1].split(' (')[0], c[11], c[12])
    return rows

tables = [ladder_rows(f'{tmp}/r{i}/report.md') for i in range(len(refs))]
secs = [open(f'{tmp}/secs-{i}').read().strip() for i in range(len(refs))]
cpu = next((l.split(':', 1)[1].strip() for l in open('/proc/cpuinfo') if l.startswith('model name')), platform.machine())
commit = subprocess.run(['git', 'rev-parse', '--short=12', 'HEAD'], capture_output=True, text=True).stdout.strip()
with open(out, 'w', encoding='utf-8') as f:
    f.write('# The ladder\'s "decided at" and "lead changes" by three reference evaluators\n\n')
    f.write('Made by `bash scripts/reference-depths.sh` (%s, commit %s, %s, %d cores) from the committed '
            'games of the ladder (results/ladder.games.gz, 36,000 games; studies/ladder.ini). Each column is '
            'the report\'s "decided at (reference)" and "lead changes (reference)" (dead band 0.45-0.55, '
            'docs/json.md) with the reference evaluator named: the linear evaluation with the weights '
            'eval/weights/tuned3.txt (the report\'s default, what results/ladder/report.md shows), and fixed '
            'searchers on the same weights at depths 1 and 2 (`yinsh report --reference ab:depth=D,eval=...`, '
            'each position searched, the table cleared at each game\'s start). Seconds to write each report '
            '(one core): %s.\n\n' % (datetime.datetime.utcnow().strftime('%Y-%m-%d %H:%M UTC'), commit, cpu,
                                     __import__('os').cpu_count(), ', '.join(secs)))
    names = ['linear evaluation' if not r.startswith('ab:') else 'ab ' + r.split(',')[0][3:].replace('=', ' ')
             for r in refs]
    f.write('| variant | level | Elo | ' + ' | '.join(n + ': decided at, lead changes' for n in names) + ' |\n')
    f.write('|---|---|--:|' + '---|' * len(refs) + '\n')
    for k, v in tables[0].items():
        level = k[1].replace(',eval=eval/weights/tuned3.txt', '')
        f.write('| %s | %s | %s | %s |\n' % (k[0], level, v[0],
                ' | '.join('%s, %s' % (t[k][1], t[k][2]) if k in t else '-' for t in tables)))
EOF
mv "$out.tmp" "$out"
echo "reference-depths.sh: wrote $out" >&2
