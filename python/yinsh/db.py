"""A Yinsh Lab database, read-only: its games and its training positions
(docs/schema.md; docs/python.md, "Databases")."""

from __future__ import annotations

import array
import ast
import collections
import ctypes
import math
import os
import struct
import weakref
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from . import _arrays, _lib
from ._lib import lib
from .position import Position, action_text

#: A selection's runs: a name, several, or None for any.
Runs = Union[str, Sequence[str], None]
#: A path: str, bytes or os.PathLike.
Path = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

ActionRow = collections.namedtuple("ActionRow",
                                   "actor state legal searched root_visits chosen_visits value time_us children "
                                   "root_value")
ActionRow.__doc__ = """One stored action's row (docs/schema.md, table action):
the actor (0 White, 1 Black), the state acted in ('P'...), the legal
actions, whether it was searched, and then (0 when not) the root's and
the chosen action's visits and the value for the actor; the time taken;
children: the root visit distribution (table action_visits), a dict of
action text to visits, when the game's run stored distributions
(selfplay/match --store-visits; {} for an action that no MCTS search
chose), else None; root_value: the position's value for the actor
(action.root_value), None where none is stored (not searched, or stored
before schema version 8)."""


RunInfo = collections.namedtuple("RunInfo", "name kind variant white black seed games stored finished")
RunInfo.__doc__ = """A stored run (Database.runs): its name, kind ('selfplay',
'match', 'import'), variant, agents (a match: A and B), seed, planned
games, games stored (repeats included) and whether it is finished."""


class StoredGame:
    """A stored game: its record's tags (a dict, in `yinsh export`'s order),
    run, index, variant, result ('white', 'black', 'draw' or 'none'),
    reason, actions (texts, in ply order) and rows (ActionRow each)."""

    __slots__ = ("tags", "actions", "rows")

    def __init__(self, tags: Dict[str, str], actions: List[str], rows: List[ActionRow]) -> None:
        self.tags, self.actions, self.rows = tags, actions, rows

    run = property(lambda self: self.tags["Run"])
    index = property(lambda self: int(self.tags["Index"]))
    variant = property(lambda self: self.tags["Variant"])
    result = property(lambda self: self.tags["Result"])
    reason = property(lambda self: self.tags["Reason"])
    white = property(lambda self: self.tags["White"])
    black = property(lambda self: self.tags["Black"])

    def __repr__(self) -> str:
        return "<StoredGame %s #%d: %s, %d actions>" % (self.run, self.index, self.result, len(self.actions))

    def positions(self) -> Iterator[Position]:
        """Each position of the game from the start, the final one included."""
        pos = Position(variant=self.variant)
        yield pos.copy()
        for a in self.actions:
            pos.apply(a)
            yield pos.copy()

    def record(self) -> str:
        """The game as `yinsh export` writes it (docs/records.md)."""
        lines = ['[%s "%s"]' % (k, v.replace("\\", "\\\\").replace('"', '\\"')) for k, v in self.tags.items()]
        lines.append(Position(variant=self.variant).ypn)
        for k in range(0, len(self.actions), 10):
            lines.append(" ".join(self.actions[k:k + 10]))
        return "\n".join(lines) + "\n"


class Sample(collections.namedtuple(
        "Sample", "ypn action action_index z value root_visits chosen_visits legal searched actor state ply game "
        "game_index result root_value")):
    """A training position: its YPN, the action played there (text and
    index), z (the game's result for the side that acted: 1, 0, -1), the
    stored value (None when not searched) and visits, the legal actions,
    the actor (0, 1) and state, its ply, the game's number in this reading
    and its index in its run, the game's result, and the stored value of
    the position itself for the actor (root_value: None where none is
    stored)."""

    __slots__ = ()

    @property
    def position(self) -> Position:
        return Position(self.ypn)


_RESULTS = ("none", "white", "black", "draw")
_FIELDS = ("game", "game_index", "value", "root_visits", "chosen_visits", "ply", "action", "legal", "z", "result",
           "actor", "state", "variant", "searched", "root_value")
_TYPECODES = {"game": ("I", "uint32"), "game_index": ("I", "uint32"), "value": ("f", "float32"),
              "root_visits": ("I", "uint32"), "chosen_visits": ("I", "uint32"), "ply": ("h", "int16"),
              "action": ("h", "int16"), "legal": ("H", "uint16"), "z": ("b", "int8"), "result": ("b", "int8"),
              "actor": ("B", "uint8"), "state": ("B", "uint8"), "variant": ("B", "uint8"),
              "searched": ("B", "uint8"), "root_value": ("f", "float32")}


def _stored(x):
    """A stored real as C hands it over: None for NaN (nothing stored)."""
    return None if math.isnan(x) else x


class Database:
    """A database opened read-only: Database("results/yinsh.db"). A
    selection (runs, kind, agent, variant; each None for any) picks the
    games of games(), positions(), batches(), load() and
    export_positions(): repeats (games stored again) are left out, games
    come in run order, then by index."""

    def __init__(self, path: Path) -> None:
        h = ctypes.c_void_p()
        _lib.call(lib.yinsh_db_open, ctypes.byref(h), _lib.encode_path(path, "the database's path"))
        self._h = h
        self.path = os.fsdecode(path)
        self._readers = weakref.WeakSet()  # iterators still open: closed before the database

    def close(self, _close=lib.yinsh_db_close) -> None:  # bound now: at exit the module's globals may be gone
        if getattr(self, "_h", None):
            for reader in list(self._readers):
                reader.close()
            _close(self._h)
            self._h = None

    def _open(self, generator):
        """An iterator of this database, which close() ends first (its C
        reader must not outlive the connection)."""
        self._handle()
        self._readers.add(generator)
        return generator

    def _handle(self):
        return _lib.handle(self, "database %s" % getattr(self, "path", "?"))

    __del__ = close

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return "yinsh.Database(%r)" % self.path

    def games(self, runs: Runs = None, kind: Optional[str] = None, agent: Optional[str] = None,
              variant: Optional[str] = None) -> Iterator[StoredGame]:
        """The stored games of the selection, one StoredGame at a time."""
        return self._open(self._games(runs, kind, agent, variant))

    def _games(self, runs=None, kind=None, agent=None, variant=None):
        sel, keep = _lib.selection(runs, kind, agent, variant)
        h = ctypes.c_void_p()
        _lib.call(lib.yinsh_games_open, ctypes.byref(h), self._handle(), ctypes.byref(sel))
        try:
            row = _lib.ActionRowC()
            while _lib.call(lib.yinsh_games_next, h) == 1:
                tags = {}
                for t in range(lib.yinsh_game_tag_count(h)):
                    tags[_lib.text(lib.yinsh_game_tag_key(h, t))] = _lib.text(lib.yinsh_game_tag_value(h, t))
                n = lib.yinsh_game_length(h)
                actions = [lib.yinsh_game_action(h, k).decode() for k in range(n)]
                rows = []
                stored = lib.yinsh_game_visits_stored(h) == 1
                visits = ctypes.c_int64()
                for k in range(n):
                    lib.yinsh_game_action_row(h, k, ctypes.byref(row))
                    children = None
                    if stored:
                        children = {}
                        for i in range(lib.yinsh_game_child_count(h, k)):
                            text = lib.yinsh_game_child(h, k, i, ctypes.byref(visits)).decode()
                            children[text] = visits.value
                    if not 0 <= row.state < len(_lib.STATES):
                        raise _lib.Error(-1, "run %s game %s: action %d: its stored state is none this yinsh knows"
                                         % (tags.get("Run"), tags.get("Index"), k + 1))
                    rows.append(ActionRow(row.actor, _lib.STATES[row.state], row.legal, bool(row.searched),
                                          row.root_visits, row.chosen_visits, row.value, row.time_us, children,
                                          _stored(row.root_value)))
                yield StoredGame(tags, actions, rows)
        finally:
            lib.yinsh_games_close(h)
            del keep

    def _samples(self, runs, kind, agent, variant):
        sel, keep = _lib.selection(runs, kind, agent, variant)
        h = ctypes.c_void_p()
        _lib.call(lib.yinsh_samples_open, ctypes.byref(h), self._handle(), ctypes.byref(sel))
        return h, keep

    def positions(self, runs: Runs = None, kind: Optional[str] = None, agent: Optional[str] = None,
                  variant: Optional[str] = None, chunk: int = 4096) -> Iterator[Sample]:
        """Every position in which an action was chosen, one Sample at a time
        (games without a result are skipped; a game's final position is no
        sample)."""
        chunk = _lib.count_of(chunk, "chunk")
        return self._open(self._positions(runs, kind, agent, variant, chunk))

    def _positions(self, runs=None, kind=None, agent=None, variant=None, chunk=4096):
        h, keep = self._samples(runs, kind, agent, variant)
        try:
            rows = (_lib.SampleC * chunk)()
            ypn = ctypes.create_string_buffer(chunk * _lib.YPN_LEN)
            n = ctypes.c_int()
            while True:
                _lib.call(lib.yinsh_samples_read, h, chunk, 2, rows, None, None, ypn, ctypes.byref(n))
                if n.value == 0:
                    return
                raw = ypn.raw
                for k in range(n.value):
                    r = rows[k]
                    text = raw[k * _lib.YPN_LEN:(k + 1) * _lib.YPN_LEN].split(b"\0", 1)[0].decode()
                    yield Sample(text, action_text(r.action), r.action, r.z, r.value if r.searched else None,
                                 r.root_visits, r.chosen_visits, r.legal, bool(r.searched), r.actor,
                                 _lib.STATES[r.state], r.ply, r.game, r.game_index, _RESULTS[r.result],
                                 _stored(r.root_value))
        finally:
            lib.yinsh_samples_close(h)
            del keep

    def batches(self, batch_size: int = 4096, view: str = "actor", raw: bool = False, runs: Runs = None,
                kind: Optional[str] = None, agent: Optional[str] = None, variant: Optional[str] = None,
                policy: bool = False, mask: bool = False) -> Iterator[Dict[str, Any]]:
        """The same positions in batches for training, each a dict of arrays
        of one length (batch_size, the last one shorter): 'planes' (N, 17,
        11, 11) float32 in [0, 1], or uint8 raw values with raw=True, seen
        by view ('actor', 'white', 'black'); and one value a position:
        'action' (the index played), 'z', 'value' (NaN when not searched),
        'root_visits', 'chosen_visits', 'legal', 'searched', 'actor',
        'state' (0..5 for P M R X r x), 'ply', 'game', 'game_index',
        'result', 'variant', 'root_value' (the position's value, NaN
        where none is stored). With policy=True also 'policy' (N, 2142)
        float32: the stored root visits as shares by action index (all 0
        where no distribution was stored: --store-visits); with mask=True
        'mask' (N, 2142) uint8, 1 at each legal action's index. numpy
        arrays; without numpy, flat array.array / bytearray buffers."""
        batch_size = _lib.count_of(batch_size, "batch_size")
        _lib.view_of(view)
        return self._open(self._batches(batch_size, view, raw, runs, kind, agent, variant, policy, mask))

    def _batches(self, batch_size=4096, view="actor", raw=False, runs=None, kind=None, agent=None, variant=None,
                 policy=False, mask=False):
        v = _lib.view_of(view)
        h, keep = self._samples(runs, kind, agent, variant)
        try:
            rows = (_lib.SampleC * batch_size)()
            n = ctypes.c_int()
            while True:
                # fresh buffers each batch (a batch handed out is the caller's), not zeroed: C fills them
                out = _lib.SampleArraysC()
                if raw:
                    planes, ptr = _arrays.uint8(batch_size * _lib.OBSERVATION, fill=False)
                    out.planes_raw = ctypes.cast(ptr, ctypes.c_void_p)
                else:
                    planes, ptr = _arrays.float32(batch_size * _lib.OBSERVATION, fill=False)
                    out.planes = ctypes.cast(ptr, ctypes.c_void_p)
                if policy:
                    target, tptr = _arrays.float32(batch_size * _lib.ACTIONS, fill=False)
                    out.policy = ctypes.cast(tptr, ctypes.c_void_p)
                if mask:
                    legal, mptr = _arrays.uint8(batch_size * _lib.ACTIONS, fill=False)
                    out.mask = ctypes.cast(mptr, ctypes.c_void_p)
                _lib.call(lib.yinsh_samples_read_arrays, h, batch_size, v, rows, ctypes.byref(out), ctypes.byref(n))
                count = n.value
                if count == 0:
                    return
                batch = _batch(rows, count, planes)
                for key, on, arr in (("policy", policy, target if policy else None),
                                     ("mask", mask, legal if mask else None)):
                    if not on:
                        continue
                    if _arrays.have_numpy():
                        batch[key] = arr.reshape((-1, _lib.ACTIONS))[:count]
                    else:
                        batch[key] = arr[:count * _lib.ACTIONS]
                yield batch
        finally:
            lib.yinsh_samples_close(h)
            del keep

    def load(self, view: str = "actor", raw: bool = False, runs: Runs = None, kind: Optional[str] = None,
             agent: Optional[str] = None, variant: Optional[str] = None, batch_size: int = 65536,
             policy: bool = False, mask: bool = False) -> Dict[str, Any]:
        """Every position of the selection in one dict of arrays, as batches()
        gives them (numpy needed for more than a few: without it the
        buffers are joined in memory as well)."""
        parts = list(self.batches(batch_size, view, raw, runs, kind, agent, variant, policy, mask))
        if not parts:
            out = _batch((_lib.SampleC * 1)(), 0, _arrays.uint8(0)[0] if raw else _arrays.float32(0)[0])
            for key, on, make in (("policy", policy, _arrays.float32), ("mask", mask, _arrays.uint8)):
                if on:
                    empty = make(0)[0]
                    out[key] = empty.reshape((0, _lib.ACTIONS)) if _arrays.have_numpy() else empty
            return out
        if _arrays.have_numpy():
            np = _arrays.numpy
            return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
        out = {}
        for k in parts[0]:
            first = parts[0][k]
            joined = first[:0] if isinstance(first, (array.array, bytearray)) else []
            for p in parts:
                joined += p[k]
            out[k] = joined
        return out

    def runs(self, runs: Runs = None, kind: Optional[str] = None, agent: Optional[str] = None,
             variant: Optional[str] = None) -> List[RunInfo]:
        """The runs of the selection in the order they were created, a
        RunInfo each (name, kind, variant, white, black, seed, games,
        stored, finished): what a window over the last runs picks from."""
        sel, keep = _lib.selection(runs, kind, agent, variant)
        out = ctypes.POINTER(_lib.RunInfoC)()
        n = ctypes.c_int()
        _lib.call(lib.yinsh_db_runs, self._handle(), ctypes.byref(sel), ctypes.byref(out), ctypes.byref(n))
        del keep
        try:
            return [RunInfo(_lib.text(r.name), _lib.text(r.kind), _lib.text(r.variant), _lib.text(r.white),
                            _lib.text(r.black), r.seed, r.games, r.stored, bool(r.finished))
                    for r in (out[i] for i in range(n.value))]
        finally:
            lib.yinsh_free(out)

    def export_positions(self, path: Path, format: str = "planes", view: str = "actor", runs: Runs = None,
                         kind: Optional[str] = None, agent: Optional[str] = None,
                         variant: Optional[str] = None, policy: Optional[str] = None,
                         mask: bool = False) -> Tuple[int, int]:
        """Writes the positions to a file as `yinsh positions` does, whole or
        not at all; returns (positions, games) written. format 'ypn',
        'csv' or 'planes' (a .npy that load_positions and np.load read);
        with planes, policy 'f32', 'f16' or 'sparse' adds the policy
        target as `yinsh positions --policy-format` writes it, and
        mask=True the legal actions' bits (`--mask`); the library's
        spelling ('planes+policy-sparse+mask') is taken as well. A path
        ending in '.gz' is written compressed (gzip; load_positions
        reads it)."""
        h = self._handle()
        fmt = _lib.encode(format, "format").decode()
        if policy is not None:
            names = {"f32": "policy", "f16": "policy-f16", "sparse": "policy-sparse"}
            if policy not in names:
                raise _lib.UsageError(-2, "policy %r: expected 'f32', 'f16' or 'sparse'" % (policy,))
            fmt += "+" + names[policy]
        if mask:
            fmt += "+mask"
        sel, keep = _lib.selection(runs, kind, agent, variant)
        positions, games = ctypes.c_uint64(), ctypes.c_uint64()
        _lib.call(lib.yinsh_export_positions, h, ctypes.byref(sel), fmt.encode(),
                  _lib.view_of(view), _lib.encode_path(path), ctypes.byref(positions), ctypes.byref(games))
        del keep
        return positions.value, games.value


def _batch(rows, count, planes):
    """A batch's dict of arrays from count sample rows and their planes."""
    shape = (count, _lib.PLANES, _lib.GRID, _lib.GRID)
    if _arrays.have_numpy():
        np = _arrays.numpy
        table = np.ctypeslib.as_array(rows)[:count]
        out = {"planes": planes.reshape((-1,) + shape[1:])[:count]}  # a view: only the last batch is shorter
        for f in _FIELDS:
            out[f] = np.array(table[f], dtype=_TYPECODES[f][1])
        return out
    out = {"planes": planes[:count * _lib.OBSERVATION]}
    for f in _FIELDS:
        typecode = _TYPECODES[f][0]
        out[f] = array.array(typecode, (getattr(rows[k], f) for k in range(count)))
    return out


# ---- the .npy of `yinsh positions --format planes` -------------------------

# NumPy's type codes of the fields `yinsh positions` writes, as struct's
_NPY_TYPES = {"|u1": "B", "|i1": "b", "<i2": "h", "<u2": "H", "<u4": "I", "<f4": "f", "<f2": "e"}


def _open_positions(path: Path) -> Any:
    """The file, read through gzip when it is compressed (its first two
    bytes are gzip's magic, whatever its name)."""
    f = open(path, "rb")
    if f.peek(2)[:2] == b"\x1f\x8b":
        import gzip
        return gzip.GzipFile(fileobj=f, mode="rb")
    return f


def load_positions(path: Path) -> Any:
    """The positions of a .npy file that `yinsh positions --format planes`
    (or Database.export_positions) wrote, compressed (.gz) or not:
    numpy.load's structured array when numpy is there (fields planes (17,
    11, 11) uint8 raw values, action, z, actor, state, searched, legal,
    value, root_visits, chosen_visits, game, ply, then those of the
    options (policy; policy_index and policy_share; legal_mask) when
    written, and root_value, each record's last); without numpy a list of
    dicts of the same fields (planes a bytes of 2057, the options' fields
    array.array or bytes). A file written before root_value has none."""
    with _open_positions(path) as f:
        if _arrays.have_numpy():
            return _arrays.numpy.load(f)
        return _read_npy(f, path)


def _read_npy(f: Any, path: Path) -> List[Dict[str, Any]]:
    magic = f.read(8)
    if magic[:6] != b"\x93NUMPY":
        raise _lib.UsageError(-2, "%s: not a .npy file" % os.fsdecode(path))
    (hlen,) = struct.unpack("<H", f.read(2))
    header = ast.literal_eval(f.read(hlen).decode("latin1"))
    (count,) = header["shape"]
    fields = []
    for field in header["descr"]:
        name, code = field[0], field[1]
        n = 1
        for d in (field[2] if len(field) > 2 else ()):
            n *= d
        if code not in _NPY_TYPES:
            raise _lib.UsageError(-2, "%s: field %s of type %s is none `yinsh positions` writes"
                                  % (os.fsdecode(path), name, code))
        fields.append((name, _NPY_TYPES[code], n))
    record = struct.Struct("<" + "".join("%d%s" % (n, c) if n > 1 else c for _, c, n in fields))
    out = []
    for _ in range(count):
        data = f.read(record.size)
        if len(data) != record.size:
            raise _lib.UsageError(-2, "%s: cut short after %d of %d records" % (os.fsdecode(path), len(out), count))
        values = record.unpack(data)
        rec, at = {}, 0
        for name, code, n in fields:
            if n == 1:
                rec[name] = values[at]
            elif code == "B":
                rec[name] = bytes(values[at:at + n])
            else:
                rec[name] = array.array("f" if code == "e" else code, values[at:at + n])
            at += n
        if not rec.get("searched", 1):
            rec["value"] = math.nan
        out.append(rec)
    return out
