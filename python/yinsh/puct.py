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
import random
from typing import Any, Callable, Dict, Optional, Tuple

from . import _arrays, _lib
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
        ("yinsh_puct_advance", ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p]),
        ("yinsh_puct_set_pcr", ctypes.c_int, [ctypes.c_void_p, ctypes.c_double, ctypes.c_uint32, ctypes.c_char_p])):
    if not hasattr(lib, _name):
        raise ImportError("libyinsh at %s is older than this package: it has no %s" % (_lib.path, _name))
    getattr(lib, _name).restype = _res
    getattr(lib, _name).argtypes = _args

MAX_BATCH = _lib.lib.yinsh_constant(b"PUCT_MAX_BATCH")  # the most leaves of one evaluation
if MAX_BATCH < 1:
    raise ImportError("libyinsh at %s is older than this package: it has no PUCT_MAX_BATCH" % _lib.path)

SearchResult = collections.namedtuple("SearchResult", "action stats visits full", defaults=(True,))
SearchResult.__doc__ = """One search: the chosen action's index, its
MoveStats, the root's visit distribution as {action index: visits}
(children with a visit, ascending by index): a policy target; and full,
whether it ran the full sims (False only for a search that playout cap
randomisation, pcr, cut short)."""


def _check_exploration(sims: Any, noise: Any, alpha: Any, temp: Any, temp_moves: Any, pcr: Any, resign: Any,
                       resign_moves: Any, resign_check: Any) -> None:
    """What the search would otherwise take silently (issue 56): alpha 0
    meaning 0.3, a temperature that draws nothing, a cap above sims."""
    if not float(alpha) > 0:
        raise _lib.UsageError(-2, "alpha %r: the noise's concentration must be > 0 (AlphaZero's 0.3 is the "
                              "default)" % (alpha,))
    if not 0 <= float(noise) <= 1:
        raise _lib.UsageError(-2, "noise %r: expected a weight in [0, 1] (0: none)" % (noise,))
    if float(temp) < 0:
        raise _lib.UsageError(-2, "temp %r: expected >= 0" % (temp,))
    if float(temp) > 0 and not temp_moves:
        raise _lib.UsageError(-2, "temp %r with temp_moves 0 draws nothing: give temp_moves, the actions of a "
                              "game while the choice is drawn (e.g. 20)" % (temp,))
    if temp_moves and not float(temp) > 0:
        raise _lib.UsageError(-2, "temp_moves %r without temp draws nothing: give temp (1: in proportion to the "
                              "visits)" % (temp_moves,))
    if pcr is not None:
        if not (isinstance(pcr, (tuple, list)) and len(pcr) == 2):
            raise TypeError("pcr must be (P, S): the probability of a full search and the cap of the others")
        if not 0 <= float(pcr[0]) <= 1:
            raise _lib.UsageError(-2, "pcr probability %r: expected 0..1" % (pcr[0],))
        _lib.integer(pcr[1], "pcr sims", 1, max(1, int(sims) - 1))
    if not 0 <= float(resign) < 1:
        raise _lib.UsageError(-2, "resign %r: expected a value in [0, 1) (0: never)" % (resign,))
    _lib.integer(resign_moves, "resign_moves", 1, 1000)
    if not 0 <= float(resign_check) <= 1:
        raise _lib.UsageError(-2, "resign_check %r: expected a fraction in [0, 1]" % (resign_check,))


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


def _write_priors(address: int, n: int, priors: Any) -> None:
    """The evaluator's priors into the library's n x ACTIONS floats (0 on entry)."""
    a = _lib.ACTIONS
    if priors is None:
        return
    np = _arrays.numpy
    rows_are_dicts = isinstance(priors, (list, tuple)) and any(isinstance(r, dict) for r in priors)
    if np is not None and not rows_are_dicts:
        # an array is cast while it is copied (a mask of uint8 as priors: one pass)
        got = priors if isinstance(priors, np.ndarray) and priors.dtype.kind in "fiub" else \
            np.asarray(priors, dtype=np.float32)
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
                flat[base + _lib.action_of(i)] = float(w)
            continue
        if len(row) != a:
            raise ValueError("a row of %d priors: expected %d (one per action index)" % (len(row), a))
        for i, w in enumerate(row):
            if w:
                flat[base + i] = float(w)


class PuctAgent:
    """PUCT whose leaves evaluate(planes, mask) -> (priors, values)
    scores, in batches of up to batch leaves (the module's docstring has
    the arrays). It plays as a yinsh.Agent does (new_game, observe,
    choose; yinsh.play), and search(position) gives the root's visits too.

    sims: simulations per search; c: the exploration constant; fpu: an
    unvisited child's Q is its parent's less fpu; threads: search threads
    sharing the tree (evaluate is then called from each, one at a time
    under the GIL unless it releases it, as torch does); noise, alpha:
    the root's Dirichlet noise, weight noise (0: none) and concentration
    alpha (> 0; AlphaZero's 0.3 by default); temp, temp_moves: the choice
    drawn from visits^(1/temp) while fewer than temp_moves actions of the
    game were played (observe counts them), then the most visited (both
    or neither: temp without temp_moves would draw nothing, and is
    refused); solver: prove wins and losses; nodes: the tree's bound (0:
    enough for sims); seed: the random stream of noise, temp and pcr.

    pcr=(P, S): playout cap randomisation (KataGo): a search runs the full
    sims with probability P, else S simulations; SearchResult.full says
    which (the policy target of the full ones only, KataGo's rule).

    resign=V, resign_moves=N: the lab's resignation (`yinsh selfplay
    --resign V:N`): a player resigns when its search's value for itself
    (root_value) was below V at N consecutive searched decisions of its
    own (a position with one legal action does not count); the search
    that fires it sets .resigning, and yinsh.play ends the game there,
    the other side winning. resign_check=F: a fraction F of games (drawn
    at new_game from the seed) is played out whatever the values say,
    and .resign_fired then holds the ply at which the rule would have
    fired (None if it never did): a false resignation is one whose player
    went on to win or draw.

    An exception in evaluate stops the search and is raised from the call
    that searched."""

    def __init__(self, evaluate: Callable[[Any, Any], Tuple[Any, Any]], sims: int = 800, c: float = 1.5,
                 batch: int = 64, fpu: float = 0.0, threads: int = 1, noise: float = 0.0, alpha: float = 0.3,
                 temp: float = 0.0, temp_moves: int = 0, solver: bool = False, nodes: int = 0,
                 seed: int = 0, pcr: Optional[Tuple[float, int]] = None, resign: float = 0.0,
                 resign_moves: int = 1, resign_check: float = 0.0) -> None:
        if not callable(evaluate):
            raise TypeError("evaluate must be callable, not %s" % type(evaluate).__name__)
        _check_exploration(sims, noise, alpha, temp, temp_moves, pcr, resign, resign_moves, resign_check)
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
        self._h = h
        self.settings = {"sims": sims, "c": c, "batch": batch, "fpu": fpu, "threads": threads, "noise": noise,
                         "alpha": alpha, "temp": temp, "temp_moves": temp_moves, "solver": bool(solver),
                         "nodes": nodes, "seed": seed}
        if pcr is not None:
            _lib.call(lib.yinsh_puct_set_pcr, h, float(pcr[0]), int(pcr[1]))
            self.settings["pcr"] = (float(pcr[0]), int(pcr[1]))
        if resign:
            self.settings.update(resign=float(resign), resign_moves=resign_moves, resign_check=float(resign_check))
        self._resign = (float(resign), int(resign_moves), float(resign_check))
        self._checks = random.Random(seed)  # the games played out (resign_check), a stream of its own
        self.resigning = False  # the last search fired the resignation rule
        self.resign_fired: Optional[int] = None  # a checked game: the ply the rule fired at
        self._low = [0, 0]  # consecutive searched decisions below resign, by colour
        self._checked = False
        self._ply = 0  # actions observed in this game

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
            if _arrays.numpy is not None:
                vals = _arrays.numpy.asarray(vals, dtype=_arrays.numpy.float32).reshape(-1)
            if len(vals) != n:
                raise ValueError("%d values for %d leaves" % (len(vals), n))
            out = (ctypes.c_float * n).from_address(values)
            for i in range(n):
                out[i] = float(vals[i])
            self.leaves += n
            return 0
        except BaseException as e:  # KeyboardInterrupt too: the search stops cleanly
            if self._exc is None:
                self._exc = e
            msg = ("evaluate raised %s: %s" % (type(e).__name__, e)).encode("utf-8", "replace")[:_lib.ERR_LEN - 1]
            ctypes.memmove(err, msg + b"\0", len(msg) + 1)
            return 1

    def close(self, _free=lib.yinsh_puct_free) -> None:  # bound now: at exit the module's globals may be gone
        if getattr(self, "_h", None):
            _free(self._h)
            self._h = None

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
        """A new game: the tree and the count of actions played are forgotten
        (and, with resign_check, whether this game is played out is drawn)."""
        _lib.variant_of(variant)
        lib.yinsh_puct_new_game(self._handle())
        self._low, self.resigning, self.resign_fired, self._ply = [0, 0], False, None, 0
        self._checked = self._resign[0] > 0 and self._checks.random() < self._resign[2]

    def _watch_resign(self, position: Position, stats: MoveStats) -> None:
        """The resignation rule after a search of position (the class's docstring)."""
        value, moves, _ = self._resign
        self.resigning = False
        if value <= 0 or stats.legal < 2 or not stats.searched:
            return
        actor = position.actor
        self._low[actor] = self._low[actor] + 1 if stats.root_value < value else 0
        if self._low[actor] < moves:
            return
        if not self._checked:
            self.resigning = True
        elif self.resign_fired is None:
            self.resign_fired = self._ply

    def observe(self, before: Position, action: Action) -> None:
        """An action (text or index) was played from the position before:
        the subtree under it is kept."""
        h = self._handle()
        i = before.index(action) if isinstance(action, str) else _lib.action_of(action)
        _lib.call(lib.yinsh_puct_advance, h, before._h, i)
        self._ply += 1

    def search(self, position: Position) -> SearchResult:
        """Searches position (not over): SearchResult(action index,
        MoveStats, {action index: root visits})."""
        h = self._handle()
        i, k = ctypes.c_int(), ctypes.c_int()
        st = _lib.MoveStatsC()
        children = (ctypes.c_int * _lib.MAX_ACTIONS)()
        visits = (ctypes.c_uint32 * _lib.MAX_ACTIONS)()
        self._exc = None
        err = _lib.err_buffer()
        rc = lib.yinsh_puct_search(h, position._h, ctypes.byref(i), ctypes.byref(st), children, visits,
                                   ctypes.byref(k), err)
        exc, self._exc = self._exc, None
        if exc is not None:
            raise exc
        if rc < 0:
            _lib.raise_for(rc, err)
        stats = move_stats(st)
        self._watch_resign(position, stats)
        # a full search ran the configured sims (pcr: else its cap), a solver's proof may end one sooner
        full = "pcr" not in self.settings or stats.sims > self.settings["pcr"][1]
        return SearchResult(i.value, stats, {children[j]: visits[j] for j in range(k.value)}, full)

    def choose_index(self, position: Position) -> Tuple[int, MoveStats]:
        """(the chosen action's index, MoveStats)."""
        r = self.search(position)
        return r.action, r.stats

    def choose(self, position: Position) -> Tuple[str, MoveStats]:
        """(the chosen action's text, MoveStats)."""
        r = self.search(position)
        return action_text(r.action), r.stats


def visit_policy(visits: Dict[int, int]) -> Dict[int, float]:
    """A root's visits as shares summing to 1 (a policy target)."""
    total = sum(visits.values())
    return {i: v / total for i, v in visits.items()} if total else {}
