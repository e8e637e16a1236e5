#!/bin/sh
# Each command's usage text is documentation in a plain text file,
# cli/usage/CMD.txt, built into yinsh (cmake/embed_dir.cmake): `yinsh CMD
# --help` and `yinsh help CMD` print exactly its bytes, every command that
# `yinsh --help` lists has one, and every file is a listed command's. It
# fails when the embedding breaks (a text missing, cut or changed).
#   sh tests/usage_check.sh YINSH SOURCE_DIR
set -u
yinsh=$1
src=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
"$yinsh" --help > "$tmp/list" || { echo "usage_check: yinsh --help failed"; exit 1; }
commands=$(awk '/^commands:/ {on = 1; next} on && /^$/ {exit} on {print $1}' "$tmp/list")
n=0
for c in $commands; do
    n=$((n + 1))
    text="$src/cli/usage/$c.txt"
    if [ ! -s "$text" ]; then
        echo "usage_check: command $c has no usage text $text"
        fail=1
        continue
    fi
    if ! awk -v dir="$src/cli/usage" '
        /^@include [a-z0-9_]+$/ {
            f = dir "/_" $2 ".txt"
            n = 0
            while ((getline l < f) > 0) { print l; n++ }
            close(f)
            if (n == 0) { print FILENAME ":" FNR ": no block " f > "/dev/stderr"; exit 1 }
            next
        }
        /^@/ { print FILENAME ":" FNR ": not an include: " $0 > "/dev/stderr"; exit 1 }
        { print }' "$text" > "$tmp/want"; then
        echo "usage_check: $text does not expand"
        fail=1
        continue
    fi
    for how in "$c --help" "help $c"; do
        # shellcheck disable=SC2086
        "$yinsh" $how > "$tmp/out"
        rc=$?
        if [ $rc -ne 0 ]; then
            echo "usage_check: yinsh $how exited with $rc"
            fail=1
        elif ! cmp -s "$tmp/out" "$tmp/want"; then
            echo "usage_check: yinsh $how differs from $text (its blocks put in):"
            diff "$tmp/want" "$tmp/out" | head -20
            fail=1
        fi
    done
done
if [ "$n" -lt 20 ]; then
    echo "usage_check: yinsh --help lists $n commands: the list was not read"
    fail=1
fi
for f in "$src"/cli/usage/_*.txt; do
    b=$(basename "$f" .txt)
    if ! grep -qx "@include ${b#_}" "$src"/cli/usage/[!_]*.txt; then
        echo "usage_check: the block $f is included by no usage text"
        fail=1
    fi
done
for f in "$src"/cli/usage/[!_]*.txt; do
    c=$(basename "$f" .txt)
    case " $(echo $commands) " in
        *" $c "*) ;;
        *) echo "usage_check: $f is the usage of no command that yinsh --help lists"; fail=1 ;;
    esac
done
[ $fail -eq 0 ] && echo "usage_check: the usage texts of $n commands are printed byte for byte"
exit $fail
