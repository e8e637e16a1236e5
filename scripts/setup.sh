#!/usr/bin/env bash
# Installs what Yinsh Lab needs to build, test and run, from Debian's
# packages and, for the browser test's driver, the npm registry; does
# nothing when everything is there.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  cmake make gcc              # build
  clang libomp-dev            # the default compiler and LLVM's OpenMP runtime; fuzzing, ThreadSanitizer
  llvm                        # llvm-ar: link-time optimisation with clang
  libclang-rt-14-dev          # clang's sanitizer and libFuzzer runtimes
  libsqlite3-dev sqlite3      # the database and its shell
  zlib1g-dev                  # compressed positions (yinsh positions --out FILE.gz)
  libcriterion-dev            # tests
  libopenmpi-dev openmpi-bin  # MPI: one run on many machines (optional to the build; docs/cluster.md)
  gnuplot-nox                 # report pictures
  jq time                     # scripts/loop-anchors.sh: the matches' JSON summaries, their CPU seconds
  libxml2-utils               # xmllint: the test that `yinsh svg` is valid SVG
  python3-numpy               # the Python package's numpy arrays, tested with /usr/bin/python3 (python_numpy)
  python3-torch               # the example net of python/examples/torch_net.py (python_numpy; skipped without it)
  chromium fonts-dejavu-core  # the viewer's test in a real (headless) browser
)
# node and npm drive the browser test (tests/browser); Debian's, unless a
# node is there already
command -v node >/dev/null 2>&1 || PACKAGES+=(nodejs)
command -v npm >/dev/null 2>&1 || PACKAGES+=(npm)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    SUDO=sudo
  fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# playwright-core, the browser test's driver, at the version of
# tests/browser/package-lock.json, into tests/browser/node_modules (not
# committed). It drives Debian's /usr/bin/chromium: no browser is
# downloaded.
if [ ! -d tests/browser/node_modules/playwright-core ]; then
  echo "setup: npm ci in tests/browser (playwright-core)" >&2
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --prefix tests/browser --no-audit --no-fund --loglevel=error >/dev/null
fi
