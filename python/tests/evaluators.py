"""Evaluators for the tests of python -m yinsh.selfplay and yinsh.uyi,
named MODULE:FUNCTION (this folder is on the import path): pure Python,
so that they run with numpy or without, and each gives a position the
same numbers in any batch (the games then do not depend on the batches)."""

import math
import os

PLANES, CELLS = 17, 121
OWN_REMOVED, OTHER_REMOVED, OWN_MARKERS, OTHER_MARKERS = 13, 14, 2, 3
calls = 0


def _rows(planes, n):
    flat = planes.reshape(-1).tolist() if hasattr(planes, "reshape") else planes.tolist()
    if flat and isinstance(flat[0], list):  # a memoryview of shape (n, 17, 121)
        flat = [x for leaf in flat for plane in leaf for x in plane]
    return [flat[i * PLANES * CELLS:(i + 1) * PLANES * CELLS] for i in range(n)]


def _value(p):
    """The side to act's expected score from the rings taken off and the markers."""
    def plane(k):
        return sum(p[k * CELLS:(k + 1) * CELLS])
    rings = plane(OWN_REMOVED) - plane(OTHER_REMOVED)
    markers = plane(OWN_MARKERS) - plane(OTHER_MARKERS)
    return 0.5 + 0.3 * math.tanh(0.02 * rings + 0.05 * markers)


def evaluate(planes, mask):
    """Uniform priors, a value of the material."""
    global calls
    calls += 1
    return None, [_value(p) for p in _rows(planes, len(planes))]


def make(net):
    """A factory (--net FILE): the file's first byte scales the value."""
    with open(net, "rb") as f:
        scale = (f.read(1) or b"\x00")[0] / 255.0
    def ev(planes, mask):
        return None, [0.5 + scale * (_value(p) - 0.5) for p in _rows(planes, len(planes))]
    return ev


def failing(planes, mask):
    """evaluate, until the call YINSH_TEST_FAIL_AT (1, 2, ...) of this process raises."""
    global calls
    calls += 1
    if calls >= int(os.environ.get("YINSH_TEST_FAIL_AT", "1")):
        raise RuntimeError("the test's evaluator failed at call %d" % calls)
    return None, [_value(p) for p in _rows(planes, len(planes))]


def nan(planes, mask):
    """A NaN value for every leaf after the first call."""
    global calls
    calls += 1
    return None, [float("nan") if calls > 1 else 0.5] * len(planes)


def short(planes, mask):
    """One value too few."""
    return None, [0.5] * (len(planes) - 1)


def negative(planes, mask):
    """A negative prior at every legal action."""
    n = len(planes)
    return [{i: -1.0 for i in range(2142)} for _ in range(n)], [0.5] * n


def slow(planes, mask):
    """evaluate, slowly (a run to kill while it plays)."""
    import time
    time.sleep(0.004)
    return evaluate(planes, mask)


def shaped(planes, mask):
    """Priors that differ from leaf to leaf (by the leaf's own markers), a
    value of the material; refuses a call of more leaves than
    YINSH_TEST_MAX_LEAVES (when set)."""
    n = len(planes)
    most = int(os.environ.get("YINSH_TEST_MAX_LEAVES", "0"))
    if most and n > most:
        raise ValueError("a call of %d leaves, more than %d" % (n, most))
    rows = _rows(planes, n)
    legal = mask.tolist()
    priors = []
    for p, m in zip(rows, legal):
        k = 1 + int(sum(p[OWN_MARKERS * CELLS:(OWN_MARKERS + 1) * CELLS])) % 5
        priors.append({a: 1.0 + (a * k) % 7 for a, ok in enumerate(m) if ok})
    return priors, [_value(p) for p in rows]
