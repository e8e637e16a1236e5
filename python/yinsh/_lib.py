"""The shared library libyinsh, found, loaded and declared (ctypes).

Where it is looked for, in this order (docs/python.md, "Finding the
library"):

1. the path in the environment variable YINSH_LIB;
2. libyinsh.so beside this file (``pip install ./python`` copies it there);
3. the build tree: build/libyinsh.so of the source tree this package sits
   in (python/yinsh/ -> ../../build), for use straight from a build;
4. the system's loader: libyinsh.so.2 on its path (``cmake --install``
   into /usr/local, or LD_LIBRARY_PATH).

Every C call goes through here: its argument and result types are declared
once, and a failing call's code and message become an exception.
"""

import ctypes
import operator
import os
from typing import Any, Iterator, List, NoReturn, Optional, Tuple, Union

API_VERSION = 2  # the include/yinsh.h this package was written for

# The one number needed before the library loads (a struct's layout, part
# of API_VERSION); checked against the library's below, with the others
# read from it (yinsh_constant).
PV_MAX = 32


class Error(Exception):
    """A call of libyinsh failed: ``code`` is its yinsh_error (negative),
    ``name`` its name ("fail", "usage", "not-found", ...), the message says
    what is wrong."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.name = {-1: "fail", -2: "usage", -3: "exists", -4: "not-found", -5: "held", -6: "repeat"}.get(code, "?")


class UsageError(Error, ValueError):
    """What was asked is malformed or illegal: a YPN, an action, a spec."""


class NotFoundError(Error, LookupError):
    """What was named does not exist: a database, a run."""


class ClosedError(Error, ValueError):
    """An Agent or a Database used after close()."""

    def __init__(self, what: str) -> None:
        super().__init__(-1, "%s is closed" % what)


def raise_for(code: int, err: Any) -> NoReturn:
    """Raises the exception of a failed call's code and err buffer."""
    message = err.value.decode("utf-8", "replace") if err is not None else ""
    cls = {-2: UsageError, -4: NotFoundError}.get(code, Error)
    raise cls(code, message or "libyinsh: %s" % code)


def _candidates() -> Iterator[Tuple[str, str]]:
    here = os.path.dirname(os.path.abspath(__file__))
    env = os.environ.get("YINSH_LIB")
    if env:
        yield "YINSH_LIB", env
        return
    yield "the package", os.path.join(here, "libyinsh.so")
    yield "the build tree", os.path.join(os.path.dirname(os.path.dirname(here)), "build", "libyinsh.so")
    yield "the system's loader", "libyinsh.so.2"


def _load() -> Tuple[ctypes.CDLL, str]:
    tried = []
    for where, path in _candidates():
        if os.sep in path and not os.path.exists(path):
            tried.append("%s: %s (no such file)" % (where, path))
            continue
        try:
            found = ctypes.CDLL(path)
        except OSError as e:
            tried.append("%s: %s (%s)" % (where, path, e))
            continue
        missing = [name for name in _PROTOTYPES if not hasattr(found, name)]
        if missing:
            tried.append("%s: %s (not libyinsh, or an older one: it has no %s)" % (where, path, missing[0]))
            continue
        return found, path
    raise ImportError("libyinsh not found; looked in:\n  " + "\n  ".join(tried) +
                      "\nBuild it (cmake --build build) or set YINSH_LIB to the path of libyinsh.so.")


c_int, c_char_p, c_void_p, c_size_t = ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_size_t
c_uint8_p = ctypes.POINTER(ctypes.c_uint8)
c_int_p = ctypes.POINTER(ctypes.c_int)
c_float_p = ctypes.POINTER(ctypes.c_float)
c_u64 = ctypes.c_uint64
c_u64_p = ctypes.POINTER(ctypes.c_uint64)


class MoveStatsC(ctypes.Structure):
    _fields_ = [("legal", c_int), ("searched", c_int), ("root_visits", ctypes.c_uint32),
                ("chosen_visits", ctypes.c_uint32), ("value", ctypes.c_double), ("sims", ctypes.c_uint32),
                ("depth", c_int), ("proven", c_int), ("npv", c_int), ("pv", c_int * PV_MAX),
                ("root_value", ctypes.c_double)]


class ActionRowC(ctypes.Structure):
    _fields_ = [("actor", c_int), ("state", c_int), ("legal", c_int), ("searched", c_int),
                ("root_visits", ctypes.c_int64), ("chosen_visits", ctypes.c_int64), ("value", ctypes.c_double),
                ("time_us", ctypes.c_int64), ("root_value", ctypes.c_double)]


class SelectionC(ctypes.Structure):
    _fields_ = [("runs", ctypes.POINTER(c_char_p)), ("nruns", c_int), ("kind", c_char_p), ("agent", c_char_p),
                ("variant", c_char_p)]


class SampleC(ctypes.Structure):
    """yinsh_sample: 36 bytes, in the order and sizes of include/yinsh.h."""
    _fields_ = [("game", ctypes.c_uint32), ("game_index", ctypes.c_uint32), ("value", ctypes.c_float),
                ("root_visits", ctypes.c_uint32), ("chosen_visits", ctypes.c_uint32), ("ply", ctypes.c_int16),
                ("action", ctypes.c_int16), ("legal", ctypes.c_uint16), ("z", ctypes.c_int8),
                ("result", ctypes.c_int8), ("actor", ctypes.c_uint8), ("state", ctypes.c_uint8),
                ("variant", ctypes.c_uint8), ("searched", ctypes.c_uint8), ("root_value", ctypes.c_float)]


assert ctypes.sizeof(SampleC) == 36


class SampleArraysC(ctypes.Structure):
    """yinsh_sample_arrays: where a read writes each sample's arrays."""
    _fields_ = [("planes_raw", ctypes.c_void_p), ("planes", ctypes.c_void_p), ("ypn", ctypes.c_void_p),
                ("policy", ctypes.c_void_p), ("mask", ctypes.c_void_p)]


# the sizes of yinsh_run_info's texts, part of API_VERSION (checked below)
NAME_LEN_C, SPEC_LEN_C = 128, 384


class RunInfoC(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char * NAME_LEN_C), ("kind", ctypes.c_char * 16), ("variant", ctypes.c_char * 32),
                ("white", ctypes.c_char * SPEC_LEN_C), ("black", ctypes.c_char * SPEC_LEN_C),
                ("seed", ctypes.c_uint64), ("games", ctypes.c_int64), ("stored", ctypes.c_int64),
                ("finished", c_int)]

P = ctypes.POINTER
_PROTOTYPES = {
    # name: (result, argument types)
    "yinsh_api_version": (c_int, []),
    "yinsh_version": (c_char_p, []),
    "yinsh_error_name": (c_char_p, [c_int]),
    "yinsh_result_name": (c_char_p, [c_int]),
    "yinsh_reason_name": (c_char_p, [c_int]),
    "yinsh_variant_name": (c_char_p, [c_int]),
    "yinsh_free": (None, [c_void_p]),
    "yinsh_action_text": (c_int, [c_int, c_char_p]),
    "yinsh_action_index": (c_int, [c_char_p, c_int_p, c_char_p]),
    "yinsh_plane_scale": (c_int, [c_int]),
    "yinsh_constant": (c_int, [c_char_p]),
    "yinsh_action_slot": (c_int, [c_int, c_int_p, c_int_p]),
    "yinsh_slot_action": (c_int, [c_int, c_int]),
    "yinsh_symmetry_cell": (c_int, [c_int, c_int]),
    "yinsh_symmetry_channel": (c_int, [c_int, c_int]),
    "yinsh_symmetry_action": (c_int, [c_int, c_int]),
    "yinsh_symmetry_inverse": (c_int, [c_int]),
    "yinsh_position_new": (c_int, [P(c_void_p), c_int, c_char_p]),
    "yinsh_position_from_ypn": (c_int, [P(c_void_p), c_char_p, c_char_p]),
    "yinsh_position_copy": (c_int, [P(c_void_p), c_void_p, c_char_p]),
    "yinsh_position_symmetric": (c_int, [P(c_void_p), c_void_p, c_int, c_char_p]),
    "yinsh_position_assign": (None, [c_void_p, c_void_p]),
    "yinsh_position_free": (None, [c_void_p]),
    "yinsh_position_ypn": (None, [c_void_p, c_char_p]),
    "yinsh_position_actor": (c_int, [c_void_p]),
    "yinsh_position_state": (c_int, [c_void_p]),
    "yinsh_position_variant": (c_int, [c_void_p]),
    "yinsh_position_removed": (c_int, [c_void_p, c_int]),
    "yinsh_position_pool": (c_int, [c_void_p]),
    "yinsh_position_key": (c_u64, [c_void_p]),
    "yinsh_position_outcome": (c_int, [c_void_p, c_int_p, c_int_p]),
    "yinsh_position_legal": (c_int, [c_void_p, c_int_p]),
    "yinsh_position_legal_mask": (c_int, [c_void_p, c_uint8_p]),
    "yinsh_position_legal_text": (c_int, [c_void_p, c_char_p, c_size_t]),
    "yinsh_position_action_index": (c_int, [c_void_p, c_char_p, c_int_p, c_char_p]),
    "yinsh_position_apply": (c_int, [c_void_p, c_int, c_char_p]),
    "yinsh_position_apply_text": (c_int, [c_void_p, c_char_p, c_char_p]),
    "yinsh_position_planes_raw": (c_int, [c_void_p, c_int, c_uint8_p]),
    "yinsh_position_planes": (c_int, [c_void_p, c_int, c_float_p]),
    "yinsh_position_svg": (c_int, [c_void_p, c_char_p, c_int, P(c_void_p), c_char_p]),
    "yinsh_agent_new": (c_int, [P(c_void_p), c_char_p, c_u64, c_char_p]),
    "yinsh_agent_free": (None, [c_void_p]),
    "yinsh_agent_spec": (None, [c_void_p, c_char_p]),
    "yinsh_agent_new_game": (c_int, [c_void_p, c_int, c_char_p]),
    "yinsh_agent_observe": (c_int, [c_void_p, c_void_p, c_int, c_char_p]),
    "yinsh_agent_choose": (c_int, [c_void_p, c_void_p, c_int_p, P(MoveStatsC), c_char_p]),
    "yinsh_db_open": (c_int, [P(c_void_p), c_char_p, c_char_p]),
    "yinsh_db_close": (None, [c_void_p]),
    "yinsh_games_open": (c_int, [P(c_void_p), c_void_p, P(SelectionC), c_char_p]),
    "yinsh_games_next": (c_int, [c_void_p, c_char_p]),
    "yinsh_games_close": (None, [c_void_p]),
    "yinsh_game_tag_count": (c_int, [c_void_p]),
    "yinsh_game_tag_key": (c_char_p, [c_void_p, c_int]),
    "yinsh_game_tag_value": (c_char_p, [c_void_p, c_int]),
    "yinsh_game_tag": (c_char_p, [c_void_p, c_char_p]),
    "yinsh_game_variant": (c_int, [c_void_p]),
    "yinsh_game_result": (c_int, [c_void_p]),
    "yinsh_game_reason": (c_int, [c_void_p]),
    "yinsh_game_length": (c_int, [c_void_p]),
    "yinsh_game_action": (c_char_p, [c_void_p, c_int]),
    "yinsh_game_action_row": (c_int, [c_void_p, c_int, P(ActionRowC)]),
    "yinsh_game_visits_stored": (c_int, [c_void_p]),
    "yinsh_game_child_count": (c_int, [c_void_p, c_int]),
    "yinsh_game_child": (c_char_p, [c_void_p, c_int, c_int, P(ctypes.c_int64)]),
    "yinsh_samples_open": (c_int, [P(c_void_p), c_void_p, P(SelectionC), c_char_p]),
    "yinsh_samples_read": (c_int, [c_void_p, c_int, c_int, P(SampleC), c_uint8_p, c_float_p, c_char_p, c_int_p,
                                   c_char_p]),
    "yinsh_samples_read_policy": (c_int, [c_void_p, c_int, c_int, P(SampleC), c_uint8_p, c_float_p, c_char_p,
                                          c_float_p, c_int_p, c_char_p]),
    "yinsh_samples_read_arrays": (c_int, [c_void_p, c_int, c_int, P(SampleC), P(SampleArraysC), c_int_p, c_char_p]),
    "yinsh_samples_close": (None, [c_void_p]),
    "yinsh_db_runs": (c_int, [c_void_p, P(SelectionC), P(P(RunInfoC)), c_int_p, c_char_p]),
    "yinsh_export_positions": (c_int, [c_void_p, P(SelectionC), c_char_p, c_int, c_char_p, c_u64_p, c_u64_p,
                                       c_char_p]),
}
lib, path = _load()
for _name, (_res, _args) in _PROTOTYPES.items():
    _fn = getattr(lib, _name)
    _fn.restype = _res
    _fn.argtypes = _args

if lib.yinsh_api_version() != API_VERSION:
    raise ImportError("libyinsh at %s has API version %d; this package needs %d" %
                      (path, lib.yinsh_api_version(), API_VERSION))



def _constant(name: str) -> int:
    """A constant of include/yinsh.h as the loaded library knows it."""
    value = lib.yinsh_constant(name.encode())
    if value < 0:
        raise ImportError("libyinsh at %s does not know the constant %s" % (path, name))
    return value


# the buffers' sizes, the planes and the action index space (docs/python.md
# §4, §5): the library's numbers, never typed in twice
ERR_LEN = _constant("ERR_LEN")
YPN_LEN = _constant("YPN_LEN")
ACTION_LEN = _constant("ACTION_LEN")
SPEC_LEN = _constant("SPEC_LEN")
MAX_ACTIONS = _constant("MAX_ACTIONS")
LEGAL_TEXT_LEN = _constant("LEGAL_TEXT_LEN")
ACTIONS = _constant("ACTIONS")
PLANES = _constant("PLANES")
GRID = _constant("GRID")
CELLS = _constant("CELLS")
OBSERVATION = _constant("OBSERVATION")
PLACE0, MOVE0, PASS, ROW0, RING0 = (_constant(n) for n in ("PLACE0", "MOVE0", "PASS", "ROW0", "RING0"))
GAME_MAX = _constant("GAME_MAX")
# the board-shaped action layout and the symmetries (docs/python.md §5)
CHANNELS = _constant("CHANNELS")
CHANNEL_PLACE, CHANNEL_MOVE0, CHANNEL_PASS, CHANNEL_ROW0, CHANNEL_RING = (
    _constant(n) for n in ("CHANNEL_PLACE", "CHANNEL_MOVE0", "CHANNEL_PASS", "CHANNEL_ROW0", "CHANNEL_RING"))
MOVE_SPAN = _constant("MOVE_SPAN")
SYMMETRIES = _constant("SYMMETRIES")
if (_constant("NAME_LEN"), _constant("SPEC_LEN")) != (NAME_LEN_C, SPEC_LEN_C):
    raise ImportError("libyinsh at %s has other text sizes in yinsh_run_info than this package" % path)
if _constant("PV_MAX") != PV_MAX:
    raise ImportError("libyinsh at %s keeps %d actions of a principal variation; this package %d" %
                      (path, _constant("PV_MAX"), PV_MAX))
PLANE_SCALE = tuple(lib.yinsh_plane_scale(p) for p in range(PLANES))

STATES = "PMRXrx-"
VIEWS = {"white": 0, "black": 1, "actor": 2}
VARIANTS = {"standard": 0, "blitz": 1, "standard+swap": 2, "blitz+swap": 3, "standard+draw-odds": 4,
            "blitz+draw-odds": 5, "standard+swap+draw-odds": 6, "blitz+swap+draw-odds": 7}


def err_buffer() -> Any:
    return ctypes.create_string_buffer(ERR_LEN)


def call(fn: Any, *args: Any) -> int:
    """Calls fn(*args, err); raises on a negative code, returns the code."""
    err = err_buffer()
    rc = fn(*args, err)
    if rc < 0:
        raise_for(rc, err)
    return rc


def text(b: Optional[bytes]) -> Optional[str]:
    return b.decode("utf-8", "replace") if b is not None else None


# ---- what crosses into C, checked: C sees no NULL for a text, no text cut
# ---- at a NUL, no integer wrapped to fit its type

def encode(s: object, what: str = "the text") -> bytes:
    """A str as C's NUL-terminated UTF-8: TypeError for anything else
    (None included), UsageError for a NUL inside (C would stop there)."""
    if not isinstance(s, str):
        raise TypeError("%s must be a str, not %s" % (what, type(s).__name__))
    if "\0" in s:
        raise UsageError(-2, "%s %r holds a NUL character" % (what, s))
    return s.encode("utf-8")


def encode_opt(s: Optional[str], what: str = "the text") -> Optional[bytes]:
    """encode, with None for C's NULL (an option left out)."""
    return None if s is None else encode(s, what)


def encode_path(path: "Union[str, bytes, os.PathLike[Any]]", what: str = "the path") -> bytes:
    """A path (str, bytes or os.PathLike) for C."""
    p = os.fspath(path)  # TypeError for None and for what is no path
    if isinstance(p, bytes):
        if b"\0" in p:
            raise UsageError(-2, "%s %r holds a NUL character" % (what, p))
        return p
    return encode(p, what)


def integer(x: object, what: str, lo: int, hi: int) -> int:
    """x as a Python int in [lo, hi]: TypeError for what is not an integer
    (a float, a bool, a str), UsageError (a ValueError) outside."""
    if isinstance(x, bool) or not hasattr(type(x), "__index__"):
        raise TypeError("%s must be an integer, not %s" % (what, type(x).__name__))
    x = operator.index(x)
    if not lo <= x <= hi:
        raise UsageError(-2, "%s %d: outside %d..%d" % (what, x, lo, hi))
    return x


INT_MIN, INT_MAX = -2 ** 31, 2 ** 31 - 1


def c_int(x: object, what: str) -> int:
    """An integer that C's int holds."""
    return integer(x, what, INT_MIN, INT_MAX)


def action_of(x: object) -> int:
    """An action index, 0..ACTIONS - 1."""
    return integer(x, "action index", 0, ACTIONS - 1)


def count_of(x: object, what: str) -> int:
    """A positive count (a chunk's, a batch's size)."""
    return integer(x, what, 1, INT_MAX)


def handle(obj: object, what: str) -> Any:
    """obj's C handle; ClosedError once it is closed."""
    h = getattr(obj, "_h", None)
    if not h:
        raise ClosedError(what)
    return h


def view_of(view: str) -> int:
    try:
        return VIEWS[view]
    except KeyError:
        raise UsageError(-2, "view %r: expected 'actor', 'white' or 'black'" % (view,)) from None


def variant_of(variant: str) -> int:
    try:
        return VARIANTS[variant]
    except KeyError:
        raise UsageError(-2, "variant %r: expected 'standard' or 'blitz', optionally with '+swap' and/or '+draw-odds'"
                         % (variant,)) from None


def selection(runs: Union[str, List[str], None] = None, kind: Optional[str] = None, agent: Optional[str] = None,
              variant: Optional[str] = None) -> Tuple[Any, Any]:
    """A yinsh_selection and what keeps its strings alive."""
    if isinstance(runs, str):
        runs = [runs]
    names = [encode(r, "a run's name") for r in (runs or [])]
    array = (c_char_p * max(len(names), 1))(*names)
    sel = SelectionC(ctypes.cast(array, P(c_char_p)) if names else None, len(names), encode_opt(kind, "kind"),
                     encode_opt(agent, "agent"), encode_opt(variant, "variant"))
    return sel, (array, names)
