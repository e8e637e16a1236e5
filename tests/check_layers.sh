#!/bin/sh
# The layering of the concept folders, checked on the #include lines.
#
# The layer graph is CMakeLists.txt's `yinsh_concept(NAME FOLDER BELOW...)`
# lines: each concept folder is one library, and BELOW are the concepts it
# builds on. A source of concept C may include, by path, the headers of C
# and of every concept below C (transitively); cli/ (the binary) may
# include any. The check fails on:
#   - an #include "..." that is not the header's path from the repository's
#     top, the one include root ("mcts.h", "search/mcts.h" for
#     selfplay/search/mcts.h), or a header that does not exist;
#   - an include of a concept that is not below the includer's (a layer
#     going up, or sideways between concepts that do not build on each
#     other);
#   - a circle in the layer graph itself;
#   - a circle of includes between files: x.c and x.h are one module, and
#     module A uses B when a file of A includes B's header; no module may
#     use itself through others (engine/position.c including
#     engine/movegen.h while movegen.c includes position.h was one);
#   - a circle of calls between the .c files of one folder: files that
#     share one header (an internal.h) call each other's functions with no
#     include between them, which the include check cannot see
#     (study/report/figures.c and ladder.c called each other so). A
#     function defined in two files (alternative builds) is left out.
# Only the top-level .c and .h files of each concept folder are read.
# Usage: check_layers.sh [SOURCE_DIR]; exit status 1 on any error.
set -eu
cd "${1:-.}"

# "NAME FOLDER BELOW..." per concept, from CMakeLists.txt
concepts=$(sed -n 's/^yinsh_concept(\([^)]*\)).*/\1/p' CMakeLists.txt)
if [ -z "$concepts" ]; then
    echo "check_layers: no yinsh_concept(...) lines in CMakeLists.txt" >&2
    exit 1
fi
concepts=$(printf '%s\ncli cli\n' "$concepts")

set --
for folder in $(printf '%s\n' "$concepts" | awk '{print $2}'); do
    for f in "$folder"/*.c "$folder"/*.h; do
        if [ -f "$f" ]; then set -- "$@" "$f"; fi
    done
done

printf '%s\n' "$concepts" | awk '
function below(c, d,    i, n, parts) {
    # whether concept d is below c (transitively), memoised
    if ((c, d) in memo) return memo[c, d]
    memo[c, d] = 0
    n = split(deps[c], parts, " ")
    for (i = 1; i <= n; i++)
        if (parts[i] == d || below(parts[i], d)) { memo[c, d] = 1; break }
    return memo[c, d]
}
function visit(c,    i, n, parts) {
    # depth-first search of the layer graph for a circle
    if (state[c] == 1) { printf "check_layers: the layer graph has a circle through %s\n", c; bad = 1; return }
    if (state[c] == 2) return
    state[c] = 1
    n = split(deps[c], parts, " ")
    for (i = 1; i <= n; i++) visit(parts[i])
    state[c] = 2
}
function circle(m, edges, st, what, via,    j, k, n, parts, line, nx) {
    # depth-first search of a graph of files (edges[m]: the files m uses)
    # for a circle; path[what, k] holds the way down, via[a, b] what a
    # uses of b, where the message shows it
    if (st[m] == 2) return
    if (st[m] == 1) {
        for (j = dep[what]; j >= 1 && path[what, j] != m; j--) {}
        line = m
        for (k = j; k <= dep[what]; k++) {
            nx = k == dep[what] ? m : path[what, k + 1]
            line = line ((path[what, k], nx) in via ? " -(" via[path[what, k], nx] ")-> " : " -> ") nx
        }
        printf "check_layers: a circle of %s: %s\n", what, line
        bad = 1
        return
    }
    st[m] = 1
    path[what, ++dep[what]] = m
    n = split(edges[m], parts, " ")
    for (k = 1; k <= n; k++) circle(parts[k], edges, st, what, via)
    dep[what]--
    st[m] = 2
}
NR == FNR {
    name = $1
    folder[name] = $2
    concept_of[$2] = name
    deps[name] = ""
    for (i = 3; i <= NF; i++) deps[name] = deps[name] " " $i
    if (name != "cli") order[++nconcepts] = name
    next
}
FNR == 1 {
    incomment = 0
    files++
    dir = FILENAME
    sub(/\/[^\/]*$/, "", dir)
    me = concept_of[dir]
    mod = FILENAME
    sub(/\.[ch]$/, "", mod)
    modules[mod] = 1
}
{
    # the functions a .c defines (not static) and the names it calls,
    # outside comments, for the circles of files inside a folder
    line = $0
    if (incomment) {
        if (index(line, "*/") == 0) next
        sub(/^.*\*\//, "", line)
        incomment = 0
    }
    gsub(/\/\*([^*]|\*+[^*\/])*\*+\//, "", line)
    if (match(line, /\/\*/)) { line = substr(line, 1, RSTART - 1); incomment = 1 }
    sub(/\/\/.*/, "", line)
    gsub(/"([^"\\]|\\.)*"/, "\"\"", line)
    if (FILENAME ~ /\.c$/) {
        if (line ~ /^[A-Za-z_]/ && line !~ /^(static|typedef|extern|struct|enum|union)[ \t]/ && line !~ /;[ \t]*$/ &&
            match(line, /[A-Za-z_][A-Za-z0-9_]*\(/)) {
            fn = substr(line, RSTART, RLENGTH - 1)
            if ((dir, fn) in defined_in && defined_in[dir, fn] != mod) twice[dir, fn] = 1
            defined_in[dir, fn] = mod
        }
        rest = line
        while (match(rest, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
            fn = substr(rest, RSTART, RLENGTH)
            sub(/[ \t]*\($/, "", fn)
            calls[mod] = calls[mod] " " fn
            rest = substr(rest, RSTART + RLENGTH)
        }
        moddir[mod] = dir
    }
}
/^[ \t]*#[ \t]*include[ \t]*"/ {
    split($0, q, "\"")
    h = q[2]
    edges++
    if (h !~ /\//) {
        printf "%s:%d: includes \"%s\" without its path from the top (FOLDER/NAME.h)\n", FILENAME, FNR, h
        bad = 1
        next
    }
    hdir = h
    sub(/\/[^\/]*$/, "", hdir)
    if (!(hdir in concept_of)) {
        printf "%s:%d: includes \"%s\": %s is no concept folder (the include line is the path from the top)\n", FILENAME, FNR, h, hdir
        bad = 1
        next
    }
    c = concept_of[hdir]
    path_h = h
    if ((getline junk < path_h) < 0) {
        printf "%s:%d: includes \"%s\": there is no such file\n", FILENAME, FNR, h
        bad = 1
        next
    }
    close(path_h)
    if (c != me && me != "cli" && !below(me, c)) {
        printf "%s:%d: includes \"%s\": %s is not below %s in the layer graph (CMakeLists.txt)\n",
            FILENAME, FNR, h, c, me
        bad = 1
    }
    used = path_h
    sub(/\.h$/, "", used)
    if (used != mod && index(" " uses[mod] " ", " " used " ") == 0) uses[mod] = uses[mod] " " used
}
END {
    # calls between the .c files of one folder
    for (m in calls) {
        n = split(calls[m], parts, " ")
        for (k = 1; k <= n; k++) {
            key = moddir[m] SUBSEP parts[k]
            if (!(key in defined_in) || (key in twice)) continue
            used = defined_in[key]
            if (used != m && index(" " calls_to[m] " ", " " used " ") == 0) {
                calls_to[m] = calls_to[m] " " used
                via[m, used] = parts[k]
                calls_between++
            }
        }
    }
    for (m in calls_to) circle(m, calls_to, cstate, "calls between files", via)
    for (i = 1; i <= nconcepts; i++) visit(order[i])
    for (m in modules) circle(m, uses, mstate, "includes", no_via)
    if (bad) exit 1
    printf "check_layers: %d includes in %d files of %d concepts, each by its path and down the layer graph; %d calls between files of one folder; no circle\n",
        edges, files, nconcepts + 1, calls_between
}
' - "$@"
