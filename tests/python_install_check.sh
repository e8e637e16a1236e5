#!/bin/sh
# The Python package as its users install it: `pip install` of python/
# offline (no index is reached: the package's own build backend needs
# nothing) into a temporary folder, the library copied in from YINSH_LIB,
# then imported from there with YINSH_LIB unset and away from the source
# tree: it must load the copy beside itself and play.
# Usage: python_install_check.sh PYTHON SOURCE_DIR LIBRARY
# Exit status 77 (skipped) when PYTHON has no pip.
set -eu
py=$1
src=$2
lib=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
"$py" -m pip --version >/dev/null 2>&1 || { echo "python_install: skipped: $py has no pip"; exit 77; }
tmp=$(mktemp -d /tmp/yinsh-pip-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# a copy: the build writes nothing into the source tree, and two builds'
# tests may install at once
cp -R "$src/python" "$tmp/python"
if ! YINSH_LIB=$lib PIP_ROOT_USER_ACTION=ignore "$py" -m pip install --no-index --no-cache-dir \
        --disable-pip-version-check --target "$tmp/site" "$tmp/python" >"$tmp/pip.log" 2>&1; then
    cat "$tmp/pip.log"
    echo "python_install: pip install failed"
    exit 1
fi
cd "$tmp"
env -u YINSH_LIB -u PYTHONPATH PYTHONPATH="$tmp/site" "$py" -c '
import os, sys, yinsh
here = os.path.dirname(yinsh.__file__)
assert yinsh.library_path == os.path.join(here, "libyinsh.so"), yinsh.library_path
p = yinsh.Position()
assert len(p.legal_actions()) == 85
assert os.path.isfile(os.path.join(here, "py.typed")), "no py.typed in " + here
print("python_install: yinsh %s installed in %s, library %s" % (yinsh.__version__, here, yinsh.library_path))
'
