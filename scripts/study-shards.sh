#!/usr/bin/env bash
# A study larger than one machine's session, played shard by shard across
# sessions (docs/study.md, "A study across sessions"). Each shard's games
# are kept in the repository as a checkpoint in the compact form
# (results/NAME.shards/shard-K-of-N.games.gz, docs/records.md), so that
# the next session, on a fresh machine, picks up where the last stopped:
#
#   bash scripts/study-shards.sh status STUDY N       each shard: complete, partial (games) or not started
#   bash scripts/study-shards.sh play STUDY N [K...]  plays shards K (default: each one not complete, in order),
#                                                     checkpointing each as it ends or is stopped (SIGTERM, Ctrl-C)
#   bash scripts/study-shards.sh save STUDY N         checkpoints every shard database now (while `play` runs too)
#   bash scripts/study-shards.sh gather STUDY N       merges every shard's checkpoint into the study's database;
#                                                     then `yinsh study STUDY` writes the report
#
# Game i of a run belongs to shard K when i mod N = K - 1 (a match's by
# pairs), whoever plays it and wherever: the shards merged are the games
# of the study played whole (docs/study.md, `--shard K/N`). N is fixed for
# a study's checkpoints: the script refuses checkpoints of another N.
#
# Environment: YINSH (default build/yinsh), THREADS (default: all cores),
# NICE (default 19), SAVE_EVERY (seconds between checkpoints while a
# shard plays, default 900; 0: at its end only), WORK (the shards' working databases, default
# results/shards-NAME-of-N, not committed; the Slurm scripts' are
# results/shards-NAME), CKPT (the checkpoints, default results/NAME.shards).
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
    sed -n '8,14p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}
die() { echo "study-shards.sh: $*" >&2; exit 1; }

[ $# -ge 3 ] || usage
cmd=$1 STUDY=$2 N=$3
shift 3
case "$cmd" in status | play | save | gather) ;; *) usage ;; esac
[ -f "$STUDY" ] || { echo "study-shards.sh: no study file '$STUDY'" >&2; exit 2; }
case "$N" in '' | *[!0-9]* | 0*) echo "study-shards.sh: N must be a number of shards from 1, not '$N'" >&2; exit 2 ;; esac
YINSH=${YINSH:-build/yinsh}
[ -x "$YINSH" ] || die "no $YINSH: build first (cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build -j)"
name=$(basename "$STUDY" .ini)
WORK=${WORK:-results/shards-$name-of-$N}
CKPT=${CKPT:-results/$name.shards}
THREADS=${THREADS:-$(nproc)}
NICE=${NICE:-19}
SAVE_EVERY=${SAVE_EVERY:-900}
case "$SAVE_EVERY" in '' | *[!0-9]*) echo "study-shards.sh: SAVE_EVERY is seconds, not '$SAVE_EVERY'" >&2; exit 2 ;; esac
width=${#N}

ckpt_of() { printf '%s/shard-%0*d-of-%d.games.gz' "$CKPT" "$width" "$1" "$N"; }
db_of() { printf '%s/shard-%d-of-%d.db' "$WORK" "$1" "$N"; }

# checkpoints of another N would overlap these: refuse them
if [ -d "$CKPT" ]; then
    for f in "$CKPT"/shard-*.games.gz; do
        [ -e "$f" ] || continue
        case "$f" in *-of-"$N".games.gz) ;; *) die "$f is a checkpoint of another number of shards than $N: use that N" ;; esac
    done
fi

# A path the script writes must be a plain file or nothing: a folder, a
# link or a device in its place is never written over.
plain() {
    if [ -L "$1" ] || { [ -e "$1" ] && [ ! -f "$1" ]; }; then
        die "$1 is not a plain file: move it away (nothing was written)"
    fi
}

# The shard's working database: made from its checkpoint when it is
# missing (a fresh machine has only the checkpoints; the import checks
# every action and hash). A database already here is at least as far as
# its checkpoint, which `save` writes from it.
ready() {
    local k=$1 db ck
    db=$(db_of "$k")
    ck=$(ckpt_of "$k")
    mkdir -p "$WORK"
    plain "$db"
    plain "$ck"
    if [ ! -f "$db" ] && [ -f "$ck" ]; then
        gzip -dc "$ck" | "$YINSH" import --format games --db "$db.tmp" - >/dev/null 2>"$db.err" || {
            cat "$db.err" >&2
            rm -f "$db.tmp" "$db.tmp-wal" "$db.tmp-shm" "$db.err"
            die "the checkpoint $ck does not import"
        }
        mv "$db.tmp" "$db"
        rm -f "$db.err" "$db.tmp-wal" "$db.tmp-shm"
    fi
}

# "STORED SHARE": the shard's games stored and its share, from --check's
# total line (a shard not begun: 0 and its share).
counts() {
    local k=$1 db line stored
    db=$(db_of "$k")
    [ -f "$db" ] || db=$WORK/none-$k.db # read only: a missing database is not created
    line=$("$YINSH" study "$STUDY" --shard "$k/$N" --db "$db" --check | tail -n 1)
    case "$line" in "shard $k/$N: "*) ;; *) die "unexpected --check line for shard $k: $line" ;; esac
    stored=${line##*complete, }
    stored=${stored% games}
    echo "${stored%/*} ${stored#*/}"
}

# "complete", "partial STORED/SHARE" or "not started".
state() {
    local stored share
    read -r stored share <<<"$(counts "$1")"
    if [ "$stored" = "$share" ]; then echo complete
    elif [ "$stored" = 0 ]; then echo "not started"
    else echo "partial $stored/$share"; fi
}

# The shard's database as its checkpoint: written beside it, then moved
# over it, so that a stop midway leaves the old checkpoint whole.
save() {
    local k=$1 db ck tmp
    db=$(db_of "$k")
    ck=$(ckpt_of "$k")
    [ -f "$db" ] || return 0
    plain "$ck"
    mkdir -p "$CKPT"
    tmp=$(mktemp "$WORK/export.XXXXXX")
    if ! "$YINSH" export --format games --db "$db" --out "$tmp.games" 2>"$tmp.err"; then
        # a shard that has stored nothing yet has nothing to keep
        if grep -q "holds no games" "$tmp.err"; then rm -f "$tmp" "$tmp.games" "$tmp.err"; return 0; fi
        cat "$tmp.err" >&2
        rm -f "$tmp" "$tmp.games" "$tmp.err"
        die "could not export $db"
    fi
    gzip -n -9 <"$tmp.games" >"$tmp"
    chmod 644 "$tmp"
    # what the checkpoint holds, counted in it: the database may have
    # stored another game since the export while `play` runs
    local games share
    games=$(grep -c '^game ' "$tmp.games" || true)
    read -r _ share <<<"$(counts "$k")"
    mv "$tmp" "$ck"
    rm -f "$tmp.games" "$tmp.err"
    if [ "$games" = "$share" ]; then games=complete; else games="partial $games/$share"; fi
    echo "study-shards.sh: shard $k/$N: $games -> $ck ($(du -k "$ck" | cut -f1) KB)" >&2
}

"$YINSH" study "$STUDY" --check >/dev/null # the file itself, before anything

case "$cmd" in
status)
    done=0 all=0 planned=0
    for k in $(seq 1 "$N"); do
        ready "$k"
        read -r stored share <<<"$(counts "$k")"
        all=$((all + stored)) planned=$((planned + share))
        s=$(state "$k")
        [ "$s" = complete ] && done=$((done + 1))
        printf 'shard %*d/%d  %s\n' "$width" "$k" "$N" "$s"
    done
    echo "$done of $N shards complete; $all of $planned games ($((100 * all / planned))%)"
    ;;
save)
    for k in $(seq 1 "$N"); do save "$k"; done
    ;;
play)
    shards=("$@")
    if [ ${#shards[@]} -eq 0 ]; then
        for k in $(seq 1 "$N"); do shards+=("$k"); done
    fi
    for k in "${shards[@]}"; do
        case "$k" in '' | *[!0-9]* | 0*) echo "study-shards.sh: a shard is a number from 1 to $N, not '$k'" >&2; exit 2 ;; esac
        [ "$k" -le "$N" ] || { echo "study-shards.sh: shard $k of $N does not exist" >&2; exit 2; }
    done
    child= saver=
    # the checkpoint written every SAVE_EVERY seconds while a shard plays
    # too: a session that ends without `save` still has its last one
    quit_saver() {
        if [ -n "$saver" ]; then kill "$saver" 2>/dev/null || true; wait "$saver" 2>/dev/null || true; fi
        saver=
    }
    stop() {
        quit_saver
        [ -n "$child" ] && kill -TERM "$child" 2>/dev/null
        wait "$child" 2>/dev/null || true
        save "$k"
        exit 143
    }
    trap stop TERM INT
    for k in "${shards[@]}"; do
        ready "$k"
        [ "$(state "$k")" = complete ] && { save "$k"; continue; }
        echo "study-shards.sh: playing shard $k/$N of $STUDY into $(db_of "$k")" >&2
        nice -n "$NICE" "$YINSH" study "$STUDY" --shard "$k/$N" --db "$(db_of "$k")" --threads "$THREADS" &
        child=$!
        if [ "$SAVE_EVERY" -gt 0 ]; then
            # its sleep is a process of its own, which held the script's
            # output open up to SAVE_EVERY seconds after the script ended
            # (`play ... | tail` waited): it holds none of the script's
            # streams, and the saver ends it when it is told to end
            (
                nap=
                trap '[ -z "$nap" ] || kill "$nap" 2>/dev/null; exit 0' TERM
                while :; do
                    sleep "$SAVE_EVERY" </dev/null >/dev/null 2>&1 &
                    nap=$!
                    wait "$nap" || exit 0
                    nap=
                    save "$k" 2>/dev/null || true
                done
            ) &
            saver=$!
        fi
        rc=0
        wait "$child" || rc=$?
        child=
        quit_saver
        save "$k"
        [ "$rc" -eq 0 ] || die "shard $k/$N stopped with status $rc; its games are kept in $(ckpt_of "$k")"
    done
    ;;
gather)
    DB=$(awk '/^\[/ { s = ($0 ~ /^\[study\]/) } s && /^[ \t]*db[ \t]*=/ { sub(/^[^=]*=[ \t]*/, ""); sub(/[ \t]+[#;].*$/, ""); sub(/[ \t]+$/, ""); print; exit }' "$STUDY")
    DB=${DB:-results/yinsh.db}
    dbs=()
    missing=
    for k in $(seq 1 "$N"); do
        ready "$k"
        s=$(state "$k")
        [ "$s" = complete ] || missing="$missing $k ($s)"
        dbs+=("$(db_of "$k")")
    done
    [ -z "$missing" ] || die "not every shard is complete:$missing; play them first (play $STUDY $N)"
    "$YINSH" merge --db "$DB" "${dbs[@]}"
    echo "study-shards.sh: every shard is in $DB; \`$YINSH study $STUDY\` writes the report" >&2
    ;;
esac
