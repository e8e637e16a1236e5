#!/bin/sh
# tests/check_layers.sh on small made-up trees: it passes a clean one and
# refuses, each with its message, a shortened include path, an include up
# the layer graph, a circle of includes, and a circle of calls between two
# files of one folder that share an internal.h.
# Usage: check_layers_refuses.sh SOURCE_DIR
set -eu
check=$1/tests/check_layers.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# tree NAME: a clean tree, low/ below top/, low/ with two files sharing internal.h
tree() {
    d=$tmp/$1
    mkdir -p "$d/top/low"
    printf 'yinsh_concept(low top/low)\nyinsh_concept(top top low)\n' >"$d/CMakeLists.txt"
    printf '#include "top/low/internal.h"\nint a_one(void) { return 1; }\n' >"$d/top/low/a.c"
    printf '#include "top/low/internal.h"\nint b_two(void) { return a_one() + 1; }\n' >"$d/top/low/b.c"
    printf 'int a_one(void);\nint b_two(void);\n' >"$d/top/low/internal.h"
    printf '#include "top/low/internal.h"\nint main(void) { return b_two(); }\n' >"$d/top/main.c"
    echo "$d"
}
# expect NAME PATTERN: check_layers on tree NAME fails and says PATTERN
expect() {
    if out=$(sh "$check" "$tmp/$1" 2>&1); then
        echo "FAIL: $1: check_layers passed:"; echo "$out"; fail=1
    elif printf '%s\n' "$out" | grep -q -- "$2"; then
        echo "ok: $1 refused: $(printf '%s\n' "$out" | grep -- "$2" | head -1)"
    else
        echo "FAIL: $1: expected '$2' in:"; echo "$out"; fail=1
    fi
}

d=$(tree clean)
if out=$(sh "$check" "$d" 2>&1); then echo "ok: clean: $out"; else echo "FAIL: clean tree refused:"; echo "$out"; fail=1; fi

d=$(tree short)
printf '#include "low/internal.h"\nint c(void) { return 0; }\n' >"$d/top/c.c"
expect short 'is no concept folder'

d=$(tree up)
printf '#include "top/top.h"\nint d(void) { return 0; }\n' >"$d/top/low/d.c"
printf 'int main(void);\n' >"$d/top/top.h"
expect up 'top is not below low'

d=$(tree includes)
printf '#include "top/low/y.h"\n' >"$d/top/low/x.h"
printf '#include "top/low/x.h"\n' >"$d/top/low/y.h"
expect includes 'a circle of includes'

d=$(tree calls)
printf '#include "top/low/internal.h"\nint a_one(void) { return b_two(); }\n' >"$d/top/low/a.c"
expect calls 'a circle of calls between files: top/low/a -(b_two)-> top/low/b -(a_one)-> top/low/a'

exit $fail
