"""PUCT with your own net (include/yinsh.h, yinsh_puct_*; docs/python.md,
"PUCT with your own net"): the search runs in C and hands its leaves,
a batch at a time, to a Python function.

    def evaluate(planes, mask):
        # planes: n x 17 x 121 float32, the actor's view; mask: n x 2142 uint8
        return priors, values   # n x 2142 weights (only legal ones read), n values in [0, 1]

    agent = yinsh.PuctAgent(evaluate, sims=800, batch=64)
    actions, stats, final = yinsh.play(agent, agent)

With numpy, planes and mask are numpy arrays over the library's buffers
(no copy; valid during the call only); without it, memoryviews of the same
shapes. priors may be an array of shape (n, 2142), a sequence of n rows
each a sequence of 2142 weights or a dict {action index: weight}, or None
(uniform); values a sequence of n numbers."""

from __future__ import annotations

import collections
import ctypes
import numbers
from typing import Any, Callable, Dict, Optional, Tuple

from . import _arrays, _guard, _lib
from ._lib import lib
from .agent import MoveStats, move_stats
from .position import Action, Position, action_text

EvalFn = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p,
                          ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)


class PuctConfigC(ctypes.Structure):
    _fields_ = [("sims", ctypes.c_uint32), ("c", ctypes.c_double), ("batch", ctypes.c_uint32),
                ("fpu", ctypes.c_double), ("threads", ctypes.c_uint32), ("noise", ctypes.c_double),
                ("alpha", ctypes.c_double), ("temp", ctypes.c_double), ("temp_moves", ctypes.c_uint32),
                ("solver", ctypes.c_int), ("nodes", ctypes.c_uint32), ("seed", ctypes.c_uint64)]


_P = ctypes.POINTER
for _name, _res, _args in (
        ("yinsh_puct_new", ctypes.c_int, [_P(ctypes.c_void_p), _P(PuctConfigC), EvalFn, ctypes.c_void_p,
                                          ctypes.c_char_p]),
        ("yinsh_puct_free", None, [ctypes.c_void_p]),
        ("yinsh_puct_new_game", None, [ctypes.c_void_p]),
        ("yinsh_puct_search", ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p, _P(ctypes.c_int), _P(_lib.MoveStatsC),
                                             _P(ctypes.c_int), _P(ctypes.c_uint32), _P(ctypes.c_int),
                                             ctypes.c_char_p]),
        ("yinsh_puct_advance", ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p])):
    if not hasattr(lib, _name):
        raise ImportError("libyinsh at %s is older than this package: it has no %s" % (_lib.path, _name))
    getattr(lib, _name).restype = _res
    getattr(lib, _name).argtypes = _args

MAX_BATCH = _lib.lib.yinsh_constant(b"PUCT_MAX_BATCH")  # the most leaves of one evaluation
if MAX_BATCH < 1:
    raise ImportError("libyinsh at %s is older than this package: it has no PUCT_MAX_BATCH" % _lib.path)

SearchResult = collections.namedtuple("SearchResult", "action stats visits")
SearchResult.__doc__ = """One search: the chosen action's index, its
MoveStats, and the root's visit distribution as {action index: visits}
(children with a visit, ascending by index): a policy target."""


def _float_view(address: int, count: int, shape: Tuple[int, ...]) -> Any:
    """count float32 at address: a numpy array of shape, else a memoryview."""
    if _arrays.numpy is not None:
        np = _arrays.numpy
        return np.ctypeslib.as_array((ctypes.c_float * count).from_address(address)).reshape(shape)
    return memoryview((ctypes.c_char * (4 * count)).from_address(address)).cast("B").cast("f", shape)


def _byte_view(address: int, count: int, shape: Tuple[int, ...]) -> Any:
    if _arrays.numpy is not None:
        np = _arrays.numpy
        return np.ctypeslib.as_array((ctypes.c_uint8 * count).from_address(address)).reshape(shape)
    return memoryview((ctypes.c_char * count).from_address(address)).cast("B", shape)


def _number(x: Any, what: str) -> float:
    """A number the evaluator gave: TypeError for what is none (a str, None,
    a bytes: float() would read "0.5")."""
    if isinstance(x, (str, bytes)) or not isinstance(x, numbers.Real):
        raise TypeError("%s must be a number, not %s" % (what, type(x).__name__))
    return float(x)


def _numeric(np: Any, x: Any, what: str) -> Any:
    """x as a numpy array of numbers: TypeError for None, a str or an array
    of anything else (numpy would read "0.5", and None as NaN)."""
    if x is None or isinstance(x, (str, bytes)):
        raise TypeError("%s must be numbers, not %s" % (what, type(x).__name__))
    a = np.asarray(x)
    if a.dtype.kind not in "biuf":
        raise TypeError("%s must be numbers, not an array of %s" % (what, a.dtype))
    return a.astype(np.float32)


def _write_priors(address: int, n: int, priors: Any) -> None:
    """The evaluator's priors into the library's n x ACTIONS floats (0 on entry)."""
    a = _lib.ACTIONS
    if priors is None:
        return
    np = _arrays.numpy
    rows_are_dicts = isinstance(priors, (list, tuple)) and any(isinstance(r, dict) for r in priors)
    if np is not None and not rows_are_dicts:
        got = _numeric(np, priors, "priors")
        if got.size != n * a:
            raise ValueError("priors of shape %s for %d leaves: expected (%d, %d)" % (got.shape, n, n, a))
        _float_view(address, n * a, (n, a))[...] = got.reshape(n, a)
        return
    if len(priors) != n:
        raise ValueError("%d rows of priors for %d leaves" % (len(priors), n))
    flat = memoryview((ctypes.c_char * (4 * n * a)).from_address(address)).cast("B").cast("f")
    for leaf, row in enumerate(priors):
        base = leaf * a
        if row is None:
            continue
        if isinstance(row, dict):
            for i, w in row.items():
                flat[base + _lib.action_of(i)] = _number(w, "a prior")
            continue
        if isinstance(row, (str, bytes)):
            raise TypeError("a row of priors must be numbers, not %s" % type(row).__name__)
        if len(row) != a:
            raise ValueError("a row of %d priors: expected %d (one per action index)" % (len(row), a))
        for i, w in enumerate(row):
            if w:
                flat[base + i] = _number(w, "a prior")


class PuctAgent:
    """PUCT whose leaves evaluate(planes, mask) -> (priors, values)
    scores, in batches of up to batch leaves (the module's docstring has
    the arrays). It plays as a yinsh.Agent does (new_game, observe,
    choose; yinsh.play), and search(position) gives the root's visits too.

    sims: simulations per search; c: the exploration constant; fpu: an
    unvisited child's Q is its parent's less fpu; threads: search threads
    sharing the tree (evaluate is then called from each, one at a time
    under the GIL unless it releases it, as torch does); noise, alpha:
    the root's Dirichlet noise; temp, temp_moves: the choice drawn from
    visits^(1/temp) while fewer than temp_moves actions were played;
    solver: prove wins and losses; nodes: the tree's bound (0: enough for
    sims); seed: the random stream of noise and temp. An exception in
    evaluate stops the search and is raised from the call that searched.

    One call at a time: a call while a search runs (from evaluate itself,
    or from another thread) raises BusyError, and evaluate may not search,
    observe or start a new game; close() during a search closes the agent
    at once and releases it when the search returns."""

    def __init__(self, evaluate: Callable[[Any, Any], Tuple[Any, Any]], sims: int = 800, c: float = 1.5,
                 batch: int = 64, fpu: float = 0.0, threads: int = 1, noise: float = 0.0, alpha: float = 0.0,
                 temp: float = 0.0, temp_moves: int = 0, solver: bool = False, nodes: int = 0,
                 seed: int = 0) -> None:
        if not callable(evaluate):
            raise TypeError("evaluate must be callable, not %s" % type(evaluate).__name__)
        self.evaluate = evaluate
        self.leaves = 0  # leaves evaluated so far
        self._exc: Optional[BaseException] = None
        cfg = PuctConfigC(_lib.integer(sims, "sims", 1, 10000000), float(c),
                          _lib.integer(batch, "batch", 1, MAX_BATCH), float(fpu),
                          _lib.integer(threads, "threads", 1, 64), float(noise), float(alpha), float(temp),
                          _lib.integer(temp_moves, "temp_moves", 0, 2 ** 32 - 1), int(bool(solver)),
                          _lib.integer(nodes, "nodes", 0, 2 ** 28), _lib.integer(seed, "seed", 0, 2 ** 64 - 1))
        self._fn = EvalFn(self._callback)  # kept: C holds only its address
        h = ctypes.c_void_p()
        _lib.call(lib.yinsh_puct_new, ctypes.byref(h), ctypes.byref(cfg), self._fn, None)
        _guard.init(self, h)
        self.settings = {"sims": sims, "c": c, "batch": batch, "fpu": fpu, "threads": threads, "noise": noise,
                         "alpha": alpha, "temp": temp, "temp_moves": temp_moves, "solver": bool(solver),
                         "nodes": nodes, "seed": seed}

    def _callback(self, ctx: Any, n: int, planes: int, mask: int, priors: int, values: int, err: int) -> int:
        # Runs inside the C search: nothing may escape (ctypes would print
        # it and return 0); the exception is kept and raised by search().
        try:
            p = _float_view(planes, n * _lib.OBSERVATION, (n, _lib.PLANES, _lib.CELLS))
            m = _byte_view(mask, n * _lib.ACTIONS, (n, _lib.ACTIONS))
            got = self.evaluate(p, m)
            if not isinstance(got, (tuple, list)) or len(got) != 2:
                raise TypeError("evaluate must return (priors, values), not %s" % type(got).__name__)
            _write_priors(priors, n, got[0])
            vals = got[1]
            if vals is None or isinstance(vals, (str, bytes)) or not hasattr(vals, "__len__"):
                raise TypeError("evaluate must return values, a sequence of %d numbers, not %s"
                                % (n, type(vals).__name__))
            if _arrays.numpy is not None:
                vals = _numeric(_arrays.numpy, vals, "values").reshape(-1)
            if len(vals) != n:
                raise ValueError("%d values for %d leaves" % (len(vals), n))
            out = (ctypes.c_float * n).from_address(values)
            for i in range(n):
                out[i] = _number(vals[i], "a value")
            self.leaves += n
            return 0
        except BaseException as e:  # KeyboardInterrupt too: the search stops cleanly
            if self._exc is None:
                self._exc = e
            msg = ("evaluate raised %s: %s" % (type(e).__name__, e)).encode("utf-8", "replace")[:_lib.ERR_LEN - 1]
            ctypes.memmove(err, msg + b"\0", len(msg) + 1)
            return 1

    # bound now: at exit the module's globals may be gone
    def close(self, _free=lib.yinsh_puct_free, _close=_guard.close) -> None:
        _close(self, _free)

    __del__ = close

    def __enter__(self) -> PuctAgent:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return "yinsh.PuctAgent(%s)" % ", ".join("%s=%r" % kv for kv in self.settings.items())

    def _handle(self) -> Any:
        return _lib.handle(self, "the PUCT agent")

    def new_game(self, variant: str = "standard") -> None:
        """A new game: the tree and the count of actions played are forgotten."""
        _lib.variant_of(variant)
        with _guard.call(self, "the PUCT agent") as h:
            lib.yinsh_puct_new_game(h)

    def observe(self, before: Position, action: Action) -> None:
        """An action (text or index) was played from the position before:
        the subtree under it is kept."""
        self._handle()
        i = before.index(action) if isinstance(action, str) else _lib.action_of(action)
        with _guard.call(self, "the PUCT agent") as h:
            _lib.call(lib.yinsh_puct_advance, h, before._h, i)

    def search(self, position: Position) -> SearchResult:
        """Searches position (not over): SearchResult(action index,
        MoveStats, {action index: root visits})."""
        i, k = ctypes.c_int(), ctypes.c_int()
        st = _lib.MoveStatsC()
        children = (ctypes.c_int * _lib.MAX_ACTIONS)()
        visits = (ctypes.c_uint32 * _lib.MAX_ACTIONS)()
        err = _lib.err_buffer()
        with _guard.call(self, "the PUCT agent") as h:
            self._exc = None
            rc = lib.yinsh_puct_search(h, position._h, ctypes.byref(i), ctypes.byref(st), children, visits,
                                       ctypes.byref(k), err)
            exc, self._exc = self._exc, None
        if exc is not None:
            raise exc
        if rc < 0:
            _lib.raise_for(rc, err)
        return SearchResult(i.value, move_stats(st, position), {children[j]: visits[j] for j in range(k.value)})

    def choose_index(self, position: Position) -> Tuple[int, MoveStats]:
        """(the chosen action's index, MoveStats)."""
        r = self.search(position)
        return r.action, r.stats

    def choose(self, position: Position) -> Tuple[str, MoveStats]:
        """(the chosen action's text, MoveStats)."""
        r = self.search(position)
        return action_text(r.action, position), r.stats


def visit_policy(visits: Dict[int, int]) -> Dict[int, float]:
    """A root's visits as shares summing to 1 (a policy target)."""
    total = sum(visits.values())
    return {i: v / total for i, v in visits.items()} if total else {}
