#!/bin/sh
# libyinsh as its users get it: `cmake --install` of the build into a
# temporary prefix (the library, include/yinsh.h, lib/pkgconfig/yinsh.pc),
# tests/lib_example.c compiled against that copy with
# `pkg-config --cflags --libs yinsh` (nothing of the source tree on the
# include path) and run, its output checked; and the library's dynamic
# symbol table: every symbol it defines is a yinsh_ function.
# Usage: lib_install_check.sh BUILD_DIR SOURCE_DIR CC [SANITIZERS]
# (SANITIZERS: the build's YINSH_SANITIZE, for compiling the example alike).
# Exit status 77 (skipped) without pkg-config.
set -eu
build=$1
src=$(cd "$2" && pwd)
cc=$3
san=${4:-}
command -v pkg-config >/dev/null || { echo "lib_install_check: skipped: no pkg-config"; exit 77; }
tmp=$(mktemp -d /tmp/yinsh-install-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" || { cat "$tmp/install.log"; exit 1; }
pc=$(find "$tmp/prefix" -name yinsh.pc)
[ -n "$pc" ] || { echo "lib_install_check: no yinsh.pc installed"; cat "$tmp/install.log"; exit 1; }
[ -f "$tmp/prefix/include/yinsh.h" ] || { echo "lib_install_check: no include/yinsh.h installed"; exit 1; }
export PKG_CONFIG_PATH
PKG_CONFIG_PATH=$(dirname "$pc")
flags=$(pkg-config --cflags --libs yinsh)
libdir=$(pkg-config --variable=libdir yinsh)
echo "pkg-config --cflags --libs yinsh: $flags"
case "$flags" in *"$src"*) echo "lib_install_check: the flags name the source tree"; exit 1 ;; esac

sanflags=""
[ -n "$san" ] && sanflags="-fsanitize=$san"
# shellcheck disable=SC2086
"$cc" -std=c11 -Wall -Wextra -Werror $sanflags "$src/tests/lib_example.c" -o "$tmp/example" $flags \
    -Wl,-rpath,"$libdir"
out=$(cd "$tmp" && ./example)
echo "$out"
expected="api 2
after e5: 4/7/8/9/4W5/9/10/9/8/7/4 b P standard
legal 54: e10-b7 e10-c8 e10-d9 ...
own rings 5, pool 51
ab:depth=2 chooses a legal action: yes, depth 2"
if [ "$out" != "$expected" ]; then
    echo "lib_install_check: the example printed other lines; expected:"
    echo "$expected"
    exit 1
fi

lib=$(find "$libdir" -name 'libyinsh.so.*.*' | head -n 1)
others=$(nm -D --defined-only "$lib" | awk '{print $3}' | grep -v '^yinsh_' || true)
if [ -n "$others" ]; then
    echo "lib_install_check: $lib exports symbols other than yinsh_*:"
    echo "$others"
    exit 1
fi
echo "lib_install_check: $(nm -D --defined-only "$lib" | wc -l) symbols exported, each yinsh_*"
