#!/usr/bin/env bash
# Installs what Yinsh Lab needs to build, test and run, from Debian's
# packages; does nothing when everything is there.
set -euo pipefail

PACKAGES=(
  cmake make gcc              # build
  clang libomp-dev            # the default compiler and LLVM's OpenMP runtime; fuzzing, ThreadSanitizer
  llvm                        # llvm-ar: link-time optimisation with clang
  libclang-rt-14-dev          # clang's sanitizer and libFuzzer runtimes
  libsqlite3-dev sqlite3      # the database and its shell
  libcriterion-dev            # tests
  gnuplot-nox                 # report pictures
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
