#!/bin/sh
# The layering of the libraries, checked on the #include lines:
#   engine (0) <- eval (1) <- selfplay (2) <- study (3) <- cli (4)
# A file may include headers of its own folder and of lower layers, never
# of a higher one. Headers are included by bare name ("mcts.h") with every
# folder on the include path, so each name is first resolved to the one
# folder that holds it: a name held by two folders, or by none, is an error
# too (the include path would pick one silently, or the name is a typo).
# Only the top-level .c and .h files of each folder are read.
# Usage: check_layers.sh [SOURCE_DIR]; exit status 1 on any error.
set -eu
cd "${1:-.}"
layers="engine eval selfplay study cli"

# The manifest, one "folder header" line per header; then the sources.
manifest=$(
    for dir in $layers; do
        for h in "$dir"/*.h; do
            if [ -f "$h" ]; then printf '%s %s\n' "$dir" "${h#"$dir"/}"; fi
        done
    done
)
set --
for dir in $layers; do
    for f in "$dir"/*.c "$dir"/*.h; do
        if [ -f "$f" ]; then set -- "$@" "$f"; fi
    done
done

printf '%s\n' "$manifest" | awk -v layers="$layers" '
BEGIN {
    n = split(layers, name, " ")
    for (i = 1; i <= n; i++) rank[name[i]] = i - 1
}
NR == FNR {
    if ($2 in home) {
        printf "check_layers: header \"%s\" is in both %s/ and %s/\n", $2, home[$2], $1
        twice[$2] = bad = 1
    }
    home[$2] = $1
    next
}
FNR == 1 { files++ }
/^[ \t]*#[ \t]*include[ \t]*"/ {
    split($0, q, "\"")
    h = q[2]
    dir = FILENAME
    sub(/\/.*/, "", dir)
    edges++
    if (h in twice)
        next # reported above: it has no one layer to compare with
    if (!(h in home)) {
        printf "%s:%d: includes \"%s\", which no folder of %s holds\n", FILENAME, FNR, h, layers
        bad = 1
    } else if (rank[home[h]] > rank[dir]) {
        printf "%s:%d: includes \"%s\": %s (layer %d) -> %s (layer %d) goes up\n",
            FILENAME, FNR, h, dir, rank[dir], home[h], rank[home[h]]
        bad = 1
    }
}
END {
    if (bad) exit 1
    printf "check_layers: %d includes in %d files, none upward\n", edges, files
}
' - "$@"
