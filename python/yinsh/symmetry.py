"""The board-shaped action layout and the board's 12 symmetries
(docs/python.md, "The board-shaped layout and the symmetries"), read from
libyinsh: no number of them is typed in here.

    layout = yinsh.action_layout()
    layout.channel[i], layout.cell[i]   # action i's slot: a plane of the
                                        # policy head and a cell of its grid
    layout.slot[i]                      # channel * CELLS + cell
    sym = yinsh.symmetries()
    sym.cell[s][c], sym.action[s][i]    # the images of a cell, an action under s

With numpy the tables are numpy arrays (int32), else lists of ints."""

from __future__ import annotations

import ctypes
import functools
from typing import Any, List, NamedTuple, Tuple

from . import _arrays, _lib
from ._lib import lib

#: A table: a numpy int32 array when numpy can be imported, else a list
#: of ints (a list of lists for the symmetries' tables).
Table = Any


class ActionLayout(NamedTuple):
    """Each action index's slot in the board-shaped layout, and back."""

    channels: int  #: the layout's channels (60)
    channel: Table  #: [ACTIONS]: the action's channel
    cell: Table  #: [ACTIONS]: the action's cell (column * 11 + row - 1)
    slot: Table  #: [ACTIONS]: channel * CELLS + cell, in a flat [channels * CELLS] policy
    index: Table  #: [channels * CELLS]: the action of each slot, -1 for a slot without one


class Symmetries(NamedTuple):
    """The board's 12 symmetries: the image of each cell, action and
    layout channel under symmetry s (0 the identity, 1..5 the rotations by
    60 s degrees, 6..11 a reflection then the rotation of s - 6)."""

    cell: Table  #: [12][CELLS]
    action: Table  #: [12][ACTIONS]
    channel: Table  #: [12][CHANNELS]
    inverse: Table  #: [12]: the symmetry that undoes s


@functools.lru_cache(maxsize=None)
def _layout() -> Tuple[Tuple[int, ...], Tuple[int, ...], Tuple[int, ...]]:
    channel, cell = ctypes.c_int(), ctypes.c_int()
    channels, cells = [], []
    for i in range(_lib.ACTIONS):
        if lib.yinsh_action_slot(i, ctypes.byref(channel), ctypes.byref(cell)) < 0:
            raise _lib.Error(-1, "libyinsh has no slot for action %d" % i)
        channels.append(channel.value)
        cells.append(cell.value)
    index = tuple(lib.yinsh_slot_action(ch, c) for ch in range(_lib.CHANNELS) for c in range(_lib.CELLS))
    return tuple(channels), tuple(cells), index


@functools.lru_cache(maxsize=None)
def _symmetries() -> Tuple[Tuple[Tuple[int, ...], ...], ...]:
    n = range(_lib.SYMMETRIES)
    cell = tuple(tuple(lib.yinsh_symmetry_cell(s, c) for c in range(_lib.CELLS)) for s in n)
    action = tuple(tuple(lib.yinsh_symmetry_action(s, i) for i in range(_lib.ACTIONS)) for s in n)
    channel = tuple(tuple(lib.yinsh_symmetry_channel(s, ch) for ch in range(_lib.CHANNELS)) for s in n)
    inverse = (tuple(lib.yinsh_symmetry_inverse(s) for s in n),)
    return cell, action, channel, inverse


def _table(rows):
    numpy = _arrays.numpy
    if numpy is not None:
        return numpy.array(rows, dtype=numpy.int32)
    return [list(r) for r in rows] if rows and isinstance(rows[0], tuple) else list(rows)


def action_layout() -> ActionLayout:
    """Every action index's slot (channel, cell) in the board-shaped
    layout, its flat slot, and each slot's action (-1: none): a policy
    head's output of shape (CHANNELS, 11, 11), flattened, gives the
    actions' logits as ``out.reshape(-1)[layout.slot]`` (numpy)."""
    channel, cell, index = _layout()
    slot = [ch * _lib.CELLS + c for ch, c in zip(channel, cell)]
    return ActionLayout(_lib.CHANNELS, _table(channel), _table(cell), _table(slot), _table(index))


def symmetries() -> Symmetries:
    """The 12 symmetries as tables of images: a position's image under s
    has the legal actions ``sym.action[s][i]`` of its legal actions i, and
    its planes moved cell by cell, ``image[:, sym.cell[s]] = planes``
    (numpy, planes of shape (PLANES, CELLS))."""
    cell, action, channel, inverse = _symmetries()
    return Symmetries(_table(cell), _table(action), _table(channel), _table(inverse[0]))


def symmetric_indices(indices: List[int], s: int) -> List[int]:
    """The images of action indices under symmetry s, ascending (the
    legal indices of a position's image, from the position's)."""
    s = _lib.integer(s, "symmetry", 0, _lib.SYMMETRIES - 1)
    action = _symmetries()[1][s]
    return sorted(action[_lib.action_of(i)] for i in indices)
