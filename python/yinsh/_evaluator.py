"""A Python evaluator as the library's yinsh_eval_fn, for the C code that
calls it on threads of its own (self-play, the UYI engine): the arrays as
PuctAgent's evaluator sees them, the answer written back, and the first
exception kept, to be raised by the call that ran the C code; and the
MODULE:FUNCTION an entry point names, imported."""

from __future__ import annotations

import ctypes
import hashlib
import importlib
import importlib.util
import os
import sys
import threading
import time
from typing import Any, Callable, Optional, Tuple

from . import _arrays, _lib
from .puct import EvalFn, _byte_view, _float_view, _write_priors


class Evaluator:
    """evaluate(planes, mask) -> (priors, values) as an EvalFn (.fn): its
    leaves, and its calls, counted; .error the first exception it raised
    (the C side stops with its message); .cpu the CPU seconds spent in
    evaluate itself (its thread's: a net with one thread of its own). With max_leaves, the leaves the
    library gathers are given to evaluate in calls of at most max_leaves
    (in order; a net on a CPU is quicker a leaf at a batch that fits its
    caches than at the hundreds of leaves that many games at once gather);
    0: all of them in one call."""

    def __init__(self, evaluate: Callable[[Any, Any], Tuple[Any, Any]], max_leaves: int = 0) -> None:
        if not callable(evaluate):
            raise TypeError("evaluate must be callable, not %s" % type(evaluate).__name__)
        self.max_leaves = _lib.integer(max_leaves, "the leaves of an evaluation (--eval-batch)", 0, 1 << 20)
        self.evaluate = evaluate
        self.calls = self.leaves = 0
        self.cpu = 0.0
        self.error: Optional[BaseException] = None
        self._lock = threading.Lock()
        self.fn = EvalFn(self._callback)  # kept: C holds only its address

    def _evaluate(self, n: int, planes: int, mask: int, priors: int, values: int) -> None:
        """One call of evaluate on the n leaves at these addresses, its answer written back."""
        p = _float_view(planes, n * _lib.OBSERVATION, (n, _lib.PLANES, _lib.CELLS))
        m = _byte_view(mask, n * _lib.ACTIONS, (n, _lib.ACTIONS))
        start = time.thread_time()
        got = self.evaluate(p, m)
        self.cpu += time.thread_time() - start
        if not isinstance(got, (tuple, list)) or len(got) != 2:
            raise TypeError("evaluate must return (priors, values), not %s" % type(got).__name__)
        _write_priors(priors, n, got[0])
        vals = got[1]
        np = _arrays.numpy
        if np is not None:
            vals = np.asarray(vals, dtype=np.float32).reshape(-1)
        if len(vals) != n:
            raise ValueError("%d values for %d leaves" % (len(vals), n))
        if np is not None:
            _float_view(values, n, (n,))[:] = vals  # one copy, not a Python loop a leaf
        else:
            out = (ctypes.c_float * n).from_address(values)
            for i in range(n):
                out[i] = float(vals[i])
        self.calls += 1
        self.leaves += n

    def _callback(self, ctx: Any, n: int, planes: int, mask: int, priors: int, values: int, err: int) -> int:
        try:
            step = self.max_leaves or n
            for first in range(0, n, step):
                k = min(step, n - first)
                self._evaluate(k, planes + 4 * first * _lib.OBSERVATION, mask + first * _lib.ACTIONS,
                               priors + 4 * first * _lib.ACTIONS, values + 4 * first)
            return 0
        except BaseException as e:  # KeyboardInterrupt too: the C side stops cleanly
            with self._lock:
                if self.error is None:
                    self.error = e
            msg = ("evaluate raised %s: %s" % (type(e).__name__, e)).encode("utf-8", "replace")[:_lib.ERR_LEN - 1]
            ctypes.memmove(err, msg + b"\0", len(msg) + 1)
            return 1


def load(name: str, net: Optional[str] = None) -> Callable[[Any, Any], Tuple[Any, Any]]:
    """The evaluator MODULE:FUNCTION names (the working folder is on the
    import path): FUNCTION itself, or with net, FUNCTION(net), a factory
    that loads the net file and returns the evaluator."""
    module, sep, attr = name.partition(":")
    if not sep or not module or not attr:
        raise _lib.UsageError(-2, "--evaluate %r: expected MODULE:FUNCTION (e.g. mynet:evaluate)" % name)
    if "," in name:
        raise _lib.UsageError(-2, "--evaluate %r: a name without ','" % name)
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        mod = importlib.import_module(module)
    except ImportError as e:
        raise _lib.UsageError(-2, "--evaluate %s: cannot import %s: %s" % (name, module, e)) from e
    fn = mod
    for part in attr.split("."):
        if not hasattr(fn, part):
            raise _lib.UsageError(-2, "--evaluate %s: module %s has no %s" % (name, module, attr))
        fn = getattr(fn, part)
    if net is not None:
        fn = fn(net)
    if not callable(fn):
        raise _lib.UsageError(-2, "--evaluate %s%s: not callable" % (name, " (with --net)" if net else ""))
    return fn


def content_hash(name: str, net: Optional[str] = None) -> int:
    """What an evaluator evaluates with, as a run stores it: the net file's
    content (SHA-256, its first 64 bits), or without one the module's
    source file's."""
    path = net
    if path is None:
        module = name.partition(":")[0]
        try:
            spec = importlib.util.find_spec(module)
            path = spec.origin if spec is not None else None
        except (ImportError, ValueError):  # a module made at run time has no spec
            path = getattr(sys.modules.get(module), "__file__", None)
    if path is None or not os.path.isfile(path):
        return 0
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return int.from_bytes(h.digest()[:8], "big")
