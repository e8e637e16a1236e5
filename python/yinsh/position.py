"""Positions and actions (docs/notation.md, docs/python.md)."""

from __future__ import annotations

import ctypes
from typing import Any, List, Optional, Tuple, Union

from . import _arrays, _lib
from ._lib import lib

WHITE, BLACK = 0, 1

#: An action: its text ('e5-e8') or its index (0..2141).
Action = Union[str, int]
#: What planes and masks come as: numpy arrays with numpy, else flat
#: bytearray / array('f') buffers.
Buffer = Any


class FrozenError(_lib.Error, TypeError):
    """apply() on a position that was hashed (a dict key, a set member):
    its hash is its contents, so it may not change any more."""

    def __init__(self) -> None:
        super().__init__(-2, "this position was hashed (a dict key, a set member?) and cannot change: "
                             "apply to a copy(), or take child(action)")


def action_text(index: int, position: "Optional[Position]" = None) -> str:
    """The text of an action index: 'e5', 'e5-e8', 'pass', 'xe2-e6', 'xe5'.
    Pass and swap share an index (docs/python.md): given the position it
    is played in, the index of pass reads 'swap' in state P. Every text of
    an action played in a known position comes through here with it."""
    return action_text_in(index, position.state if position is not None else None)


def action_text_in(index: int, state: Optional[str]) -> str:
    """action_text in a position of state ('P', 'M', ...; None: unknown):
    the index of pass is 'swap' in state P, the only state a swap is
    played in."""
    if index == _lib.PASS and state == "P":
        return "swap"
    out = ctypes.create_string_buffer(_lib.ACTION_LEN)
    if lib.yinsh_action_text(_lib.action_of(index), out) < 0:
        raise _lib.UsageError(-2, "action index %r: outside 0..%d" % (index, _lib.ACTIONS - 1))
    return out.value.decode()


def action_index(action: str) -> int:
    """The index of an action's text by its form alone (a row's ends in
    either order); Position.index checks that it is legal there."""
    i = ctypes.c_int()
    _lib.call(lib.yinsh_action_index, _lib.encode(action, "the action"), ctypes.byref(i))
    return i.value


class Position:
    """A YINSH position: Position() is the empty standard start,
    Position(ypn) the position of a YPN, Position(variant="blitz") the
    blitz start. Actions are text ('e5-e8') or indices (0..2141); apply
    plays one in place, child returns the position after it. In a notebook
    a position shows as its SVG board, the last action applied marked.

    Positions are equal when their YPNs are, and hash by their key. hash()
    freezes a position: one that was hashed (a dict key, a set member)
    never changes, so it is never lost in its dict; apply() on it raises
    FrozenError (child() and copy() still work, and a copy is not
    frozen)."""

    __slots__ = ("_h", "_last", "_frozen", "__weakref__")

    def __init__(self, ypn: Optional[str] = None, variant: str = "standard") -> None:
        h = ctypes.c_void_p()
        if ypn is None:
            _lib.call(lib.yinsh_position_new, ctypes.byref(h), _lib.variant_of(variant))
        else:
            _lib.call(lib.yinsh_position_from_ypn, ctypes.byref(h), _lib.encode(ypn, "the YPN"))
        self._h = h
        self._last: Optional[str] = None
        self._frozen = False

    def __del__(self, _free=lib.yinsh_position_free):  # bound now: at exit the module's globals may be gone
        h = getattr(self, "_h", None)
        if h:
            _free(h)
            self._h = None

    def copy(self) -> Position:
        """An independent copy (not frozen, whether or not this one is)."""
        h = ctypes.c_void_p()
        _lib.call(lib.yinsh_position_copy, ctypes.byref(h), self._h)
        p = Position.__new__(Position)
        p._h, p._last, p._frozen = h, self._last, False
        return p

    __copy__ = copy

    def symmetric(self, s: int) -> Position:
        """The position's image under symmetry s (0..11, yinsh.symmetries()):
        each piece moved to the image of its point, all else the same."""
        s = _lib.integer(s, "symmetry", 0, _lib.SYMMETRIES - 1)
        h = ctypes.c_void_p()
        _lib.call(lib.yinsh_position_symmetric, ctypes.byref(h), self._h, s)
        p = Position.__new__(Position)
        p._h, p._last, p._frozen = h, None, False
        return p

    # ---- what the position is -----------------------------------------

    @property
    def ypn(self) -> str:
        out = ctypes.create_string_buffer(_lib.YPN_LEN)
        lib.yinsh_position_ypn(self._h, out)
        return out.value.decode()

    def __str__(self) -> str:
        return self.ypn

    def __repr__(self) -> str:
        return "Position(%r)" % self.ypn

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self.ypn == other.ypn

    def __hash__(self) -> int:
        # a hash that could change would lose the position in its dict
        self._frozen = True
        return hash(self.key)

    @property
    def frozen(self) -> bool:
        """Whether this position was hashed, and so never changes."""
        return self._frozen

    @property
    def actor(self) -> int:
        """WHITE (0) or BLACK (1): who acts (in state '-': who acted last)."""
        return lib.yinsh_position_actor(self._h)

    @property
    def state(self) -> str:
        """'P', 'M', 'R', 'X', 'r', 'x', or '-' (docs/rules.md §3)."""
        return _lib.STATES[lib.yinsh_position_state(self._h)]

    @property
    def variant(self) -> str:
        """'standard' or 'blitz', then '+swap', '+draw-odds' where they apply."""
        return lib.yinsh_variant_name(lib.yinsh_position_variant(self._h)).decode()

    @property
    def removed(self) -> Tuple[int, int]:
        """Rings taken off: (White's, Black's)."""
        return lib.yinsh_position_removed(self._h, WHITE), lib.yinsh_position_removed(self._h, BLACK)

    @property
    def pool(self) -> int:
        """Markers left in the pool, 0..51."""
        return lib.yinsh_position_pool(self._h)

    @property
    def key(self) -> int:
        """The 64-bit Zobrist key (equal positions, equal keys)."""
        return lib.yinsh_position_key(self._h)

    @property
    def outcome(self) -> Optional[Tuple[str, str]]:
        """None while the game goes on; else (result, reason): ('white',
        'three-rings'), ('draw', 'pool-empty'), ..."""
        result, reason = ctypes.c_int(), ctypes.c_int()
        if not lib.yinsh_position_outcome(self._h, ctypes.byref(result), ctypes.byref(reason)):
            return None
        return _lib.text(lib.yinsh_result_name(result.value)), _lib.text(lib.yinsh_reason_name(reason.value))

    @property
    def is_over(self) -> bool:
        return bool(lib.yinsh_position_outcome(self._h, None, None))

    # ---- actions --------------------------------------------------------

    def legal_actions(self) -> List[str]:
        """The legal actions as text, in canonical order (`yinsh legal`'s)."""
        out = ctypes.create_string_buffer(_lib.LEGAL_TEXT_LEN)
        n = lib.yinsh_position_legal_text(self._h, out, _lib.LEGAL_TEXT_LEN)
        return out.value.decode().split() if n > 0 else []

    def legal_indices(self) -> List[int]:
        """The legal actions' indices, ascending (the same order)."""
        out = (ctypes.c_int * _lib.MAX_ACTIONS)()
        n = lib.yinsh_position_legal(self._h, out)
        return list(out[:n])

    def legal_mask(self) -> Buffer:
        """2142 bytes, 1 for each legal action: numpy uint8, or a bytearray."""
        mask, ptr = _arrays.uint8(_lib.ACTIONS)
        lib.yinsh_position_legal_mask(self._h, ptr)
        return mask

    def index(self, action: str) -> int:
        """The index of an action (text) that is legal here; UsageError
        saying why when it is not."""
        i = ctypes.c_int()
        _lib.call(lib.yinsh_position_action_index, self._h, _lib.encode(action, "the action"), ctypes.byref(i))
        return i.value

    def apply(self, action: Action) -> None:
        """Plays an action (text or index) in place; UsageError, the
        position unchanged, when it is not legal here; FrozenError when
        this position was hashed."""
        if self._frozen:
            raise FrozenError()
        if isinstance(action, str):
            _lib.call(lib.yinsh_position_apply_text, self._h, _lib.encode(action, "the action"))
            self._last = action
        else:
            i = _lib.action_of(action)
            text = action_text(i, self)  # its name where it is played: swap, not pass, in state P
            _lib.call(lib.yinsh_position_apply, self._h, i)
            self._last = text

    def child(self, action: Action) -> Position:
        """The position after an action; this one stays as it is."""
        p = self.copy()
        p.apply(action)
        return p

    # ---- for learning and for pictures ----------------------------------

    def planes(self, view: str = "actor", raw: bool = False) -> Buffer:
        """The observation planes (docs/python.md): shape (17, 11, 11),
        indexed [plane][column][row - 1]. view: whose pieces are 'own'
        ('actor', 'white' or 'black'); raw: the integer values (uint8)
        instead of values in [0, 1] (float32). Without numpy a flat
        bytearray or array('f') of 2057 values."""
        v = _lib.view_of(view)
        shape = (_lib.PLANES, _lib.GRID, _lib.GRID)
        if raw:
            out, ptr = _arrays.uint8(_lib.OBSERVATION, shape)
            lib.yinsh_position_planes_raw(self._h, v, ptr)
        else:
            out, ptr = _arrays.float32(_lib.OBSERVATION, shape)
            lib.yinsh_position_planes(self._h, v, ptr)
        return out

    def svg(self, last: Optional[str] = None, size: int = 450) -> str:
        """The board as an SVG document (`yinsh svg`'s drawing): last, the
        action that led here, is marked (default: the last one applied)."""
        if last is None:
            last = self._last
        last, size = _lib.encode_opt(last, "the last action"), _lib.c_int(size, "size")
        out = ctypes.c_void_p()
        _lib.call(lib.yinsh_position_svg, self._h, last, size, ctypes.byref(out))
        try:
            return ctypes.string_at(out).decode()
        finally:
            lib.yinsh_free(out)

    def _repr_svg_(self) -> str:
        return self.svg()
