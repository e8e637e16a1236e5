"""What the Python tests share: the yinsh binary, temporary folders, the
rules cases' positions (tests/data), arrays as lists whether or not numpy
is there."""

import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("YINSH_SOURCE_DIR") or os.path.dirname(os.path.dirname(HERE))
BIN = os.environ.get("YINSH_BIN") or os.path.join(SOURCE, "build", "yinsh")

START = "4/7/8/9/10/9/10/9/8/7/4 w P standard"
MOVES = "4/7/5B2/6B2/8BW/6B2/4B1W2W/3W4W/8/7/4 w M standard"
ROW_SIX = "W2B/W5B/8/9/1wwwwww3/3W5/10/9/8/6B/WWBB w R standard"


# Under AddressSanitizer the tests run with the sanitizer's runtime
# preloaded for the library (tests/CMakeLists.txt); the yinsh binary links
# its own, and must not get a second.
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}


def engine_cmd(*args):
    """The command line of the yinsh binary as an external engine (an
    agent spec's cmd), without the preloaded runtime."""
    words = [BIN] + list(args)
    return " ".join((["env", "-u", "LD_PRELOAD"] if "LD_PRELOAD" in os.environ else []) + words)


def python_words():
    """The interpreter as the command of an engine that the yinsh binary
    starts: the binary's environment has no preloaded runtime, which the
    library in this interpreter needs, so it is given back."""
    preload = os.environ.get("LD_PRELOAD")
    return (["env", "LD_PRELOAD=" + preload] if preload else []) + [sys.executable]


def yinsh_wrapper(tmp):
    """The yinsh binary as a program that a Python tool (python -m
    yinsh.loop) may start with its own environment: under the preloaded
    runtime a script in tmp that starts the binary without it."""
    if "LD_PRELOAD" not in os.environ:
        return BIN
    path = tmp.join("yinsh-without-preload")
    with open(path, "w") as f:
        f.write('#!/bin/sh\nexec env -u LD_PRELOAD "%s" "$@"\n' % BIN)
    os.chmod(path, 0o755)
    return path


def yinsh(*args, cwd=None, check=True):
    """Runs the yinsh binary; its standard output."""
    p = subprocess.run([BIN] + [str(a) for a in args], cwd=cwd, capture_output=True, text=True, env=CHILD_ENV)
    if check and p.returncode != 0:
        raise AssertionError("yinsh %s: exit %d: %s" % (" ".join(map(str, args)), p.returncode, p.stderr))
    return p.stdout


class TempDir:
    def __init__(self):
        self.path = tempfile.mkdtemp(prefix="yinsh-py-")

    def join(self, name):
        return os.path.join(self.path, name)

    def remove(self):
        shutil.rmtree(self.path, ignore_errors=True)


def rules_positions():
    """Every YPN of tests/data/*.txt (the ypn and expect lines), with where."""
    out = []
    data = os.path.join(SOURCE, "tests", "data")
    for name in ("placement", "moves", "rows", "end", "blitz"):
        with open(os.path.join(data, name + ".txt")) as f:
            for no, line in enumerate(f, 1):
                for key in ("ypn ", "expect "):
                    if line.startswith(key):
                        out.append(("%s.txt:%d" % (name, no), line[len(key):].strip()))
    return out


def as_list(a):
    """Any array (numpy, array.array, bytearray), flattened, as a list."""
    if hasattr(a, "tolist") and hasattr(a, "reshape"):
        return a.reshape(-1).tolist()
    return list(a)


def small_db(tmp, games=6, agent="mcts:sims=20", seed=11, run="small"):
    path = tmp.join("t.db")
    yinsh("selfplay", "--games", games, "--agent", agent, "--seed", seed, "--db", path, "--run", run, "--quiet",
          "--threads", "1")
    return path
