"""Training data for a researcher's net (docs/python.md, "A loader"): a
window over the last runs of a database, or the last shards exported by
`yinsh positions`, held in memory compactly, and served in shuffled
batches as the evaluator of PuctAgent sees positions, each sample turned
by a random symmetry of the board, its planes, legal mask, policy and
action together.

    loader = yinsh.data.Loader("az.db", window=4, batch_size=256, value_blend=0.5, seed=1)
    for epoch in range(3):
        for b in loader.batches(epoch):
            b["planes"]   # (B, 17, 11, 11) float32 in [0, 1]: the actor's view, as evaluate() gets it
            b["mask"]     # (B, 2142) uint8, 1 where legal
            b["policy"]   # (B, 2142) float32: the root's visit shares (0 where none is stored)
            b["value_target"]  # (B,) float32 in [0, 1]: the result and root value blended as declared
            b["has_policy"], b["symmetry"], b["action"], b["z"], b["root_value"], b["index"]

numpy is required here (and only here in the package); torch is not:
to_torch(batch) turns a batch into tensors where torch is installed.
"""

from __future__ import annotations

import fnmatch
import glob
import os
from typing import Any, Dict, Iterator, List, Optional, Sequence, Union

try:
    import numpy as np
except ImportError as e:  # the rest of the package works without numpy; this module cannot
    raise ImportError("yinsh.data needs numpy (Debian: apt-get install python3-numpy; docs/python.md)") from e

from . import _lib
from .db import Database, load_positions
from .symmetry import symmetries as _symmetries

#: The padding of a sparse policy's indices (`yinsh positions --policy-format sparse`).
NO_INDEX = 65535

Source = Union[str, "os.PathLike[str]", Database, Sequence[Union[str, "os.PathLike[str]"]]]


def _is_database(path: str) -> bool:
    with open(path, "rb") as f:
        return f.read(16) == b"SQLite format 3\0"


def _shard_files(source: Any) -> List[str]:
    """The shards named: a list of paths in its order, or one path or glob
    pattern (sorted by name)."""
    if isinstance(source, (str, os.PathLike)):
        text = os.fspath(source)
        names = sorted(glob.glob(text)) if glob.has_magic(text) else [text]
        if not names:
            raise _lib.NotFoundError(-4, "no shard matches %r" % text)
        return names
    return [os.fspath(p) for p in source]


class Loader:
    """A window of training positions in memory, served in shuffled,
    augmented batches (the module's docstring has an example).

    source: a database (a path, or an open yinsh.Database), or exported
    shards (`yinsh positions --format planes --policy-format sparse --mask
    --out shard.npy.gz`, or Database.export_positions): a list of paths
    oldest first, or a path or glob pattern (sorted by name). The shards
    are in the actor's view (the export's default).

    window: the last K runs of the database that runs and kind select (in
    the order they were created: a loop's rounds), or the last K shards;
    None for all of them. runs: run names or fnmatch patterns
    ('loop.*/selfplay'), None for any; kind: the runs' kind ('selfplay'
    by default; None for any).

    policy, mask: load the policy target (the root's visit shares, stored
    with --store-visits) and the legal mask; a shard without them is
    refused by name when they are asked for.

    value_blend: the value target is (1 - value_blend) * (z + 1) / 2 +
    value_blend * root_value, the game's result as a score in [0, 1]
    mixed with the search's value of the position for the actor
    (KataGo's and Leela's blend; 0: the result alone), the result alone
    where no root value is stored (an action not searched).

    symmetries: True (each sample turned by one of the 12, drawn), False
    (none), or the symmetries to draw from (0 the identity). batch_size,
    drop_last: the batches; seed: the shuffle and the symmetries, so that
    batches(epoch) is the same for the same seed and epoch."""

    def __init__(self, source: Source, window: Optional[int] = None, runs: Union[str, Sequence[str], None] = None,
                 kind: Optional[str] = "selfplay", policy: bool = True, mask: bool = True, value_blend: float = 0.0,
                 symmetries: Union[bool, Sequence[int]] = True, batch_size: int = 256, drop_last: bool = False,
                 seed: int = 0, quiet: bool = True) -> None:
        if window is not None:
            window = _lib.integer(window, "window", 1, 2 ** 31 - 1)
        if not 0.0 <= float(value_blend) <= 1.0:
            raise _lib.UsageError(-2, "value_blend %r: expected a number in [0, 1]" % (value_blend,))
        self.value_blend = float(value_blend)
        self.batch_size = _lib.count_of(batch_size, "batch_size")
        self.drop_last = bool(drop_last)
        self.seed = _lib.integer(seed, "seed", 0, 2 ** 64 - 1)
        self.policy, self.mask = bool(policy), bool(mask)
        if symmetries is True:
            self.symmetry_choices = np.arange(_lib.SYMMETRIES)
        elif symmetries is False:
            self.symmetry_choices = np.zeros(1, np.int64)
        else:
            self.symmetry_choices = np.array([_lib.integer(s, "symmetry", 0, _lib.SYMMETRIES - 1)
                                              for s in symmetries], np.int64)
            if not len(self.symmetry_choices):
                raise _lib.UsageError(-2, "symmetries: an empty list (False is none)")
        self.quiet = quiet
        self.sources: List[str] = []  # the runs or shards in the window, oldest first
        parts = []
        if isinstance(source, Database) or (isinstance(source, (str, os.PathLike)) and
                                            not glob.has_magic(os.fspath(source)) and
                                            os.path.isfile(source) and _is_database(os.fspath(source))):
            db = source if isinstance(source, Database) else Database(source)
            try:
                names = self._window_runs(db, window, runs, kind)
                for name in names:
                    parts.extend(self._from_database(db, name))
                self.sources = names
            finally:
                if db is not source:
                    db.close()
        else:
            if runs is not None:
                raise _lib.UsageError(-2, "runs select a database's runs, not shards")
            files = _shard_files(source)
            files = files[-window:] if window else files
            for path in files:
                parts.append(self._from_shard(path))
            self.sources = files
        self._data = _join(parts, self.policy, self.mask)
        self._sym = _symmetries()

    # ---- loading ----------------------------------------------------------

    @staticmethod
    def _window_runs(db: Database, window: Optional[int], runs: Any, kind: Optional[str]) -> List[str]:
        listed = db.runs(kind=kind)
        if runs is not None:
            patterns = [runs] if isinstance(runs, str) else list(runs)
            listed = [r for r in listed if any(fnmatch.fnmatchcase(r.name, p) for p in patterns)]
            if not listed:
                raise _lib.NotFoundError(-4, "%s: no run%s matches %s" % (
                    db.path, " of kind %s" % kind if kind else "", ", ".join(patterns)))
        names = [r.name for r in listed]
        return names[-window:] if window else names

    def _say(self, text: str) -> None:
        if not self.quiet:
            import sys
            print("yinsh.data: " + text, file=sys.stderr)

    def _from_database(self, db: Database, run: str) -> Iterator[Dict[str, Any]]:
        count = 0
        for b in db.batches(4096, raw=True, runs=run, policy=self.policy, mask=self.mask):
            part = {"planes": b["planes"].reshape(-1, _lib.PLANES, _lib.CELLS), "action": b["action"],
                    "z": b["z"], "root_value": b["root_value"]}
            if self.policy:
                part["policy_index"], part["policy_share"] = _sparse(b["policy"])
            if self.mask:
                part["mask_bits"] = np.packbits(b["mask"], axis=1)
            count += len(part["z"])
            yield part
        self._say("run %s: %d positions" % (run, count))

    def _from_shard(self, path: str) -> Dict[str, Any]:
        rec = load_positions(path)
        names = rec.dtype.names or ()
        n = len(rec)
        part = {"planes": rec["planes"].reshape(n, _lib.PLANES, _lib.CELLS), "action": rec["action"],
                "z": rec["z"],
                "root_value": rec["root_value"] if "root_value" in names else np.full(n, np.nan, np.float32)}
        if self.policy:
            if "policy_index" in names:
                idx = rec["policy_index"]
                share = rec["policy_share"].astype(np.float32)
                k = int((idx != NO_INDEX).sum(1).max()) if n else 0
                part["policy_index"], part["policy_share"] = idx[:, :k], share[:, :k]
            elif "policy" in names:
                part["policy_index"], part["policy_share"] = _sparse(rec["policy"].astype(np.float32))
            else:
                raise _lib.UsageError(-2, "%s holds no policy target: export it with --policy-format sparse "
                                      "(or policy=False)" % path)
        if self.mask:
            if "legal_mask" not in names:
                raise _lib.UsageError(-2, "%s holds no legal mask: export it with --mask (or mask=False)" % path)
            part["mask_bits"] = rec["legal_mask"]
        self._say("%s: %d positions" % (path, n))
        return part

    # ---- serving ------------------------------------------------------------

    def __len__(self) -> int:
        """The positions in the window."""
        return len(self._data["z"])

    def batches(self, epoch: int = 0) -> Iterator[Dict[str, Any]]:
        """One pass over the window in an order and with symmetries drawn
        from (seed, epoch): dicts of arrays (the module's docstring)."""
        epoch = _lib.integer(epoch, "epoch", 0, 2 ** 63 - 1)
        rng = np.random.default_rng([self.seed, epoch])
        order = rng.permutation(len(self))
        syms = self.symmetry_choices[rng.integers(0, len(self.symmetry_choices), len(self))]
        stop = len(self) - (len(self) % self.batch_size if self.drop_last else 0)
        for at in range(0, stop, self.batch_size):
            yield self.batch(order[at:at + self.batch_size], syms[at:at + self.batch_size])

    __iter__ = batches

    def batch(self, index: Any, symmetry: Any = None) -> Dict[str, Any]:
        """The positions at index (an array of positions in the window)
        turned by symmetry (one a position; None: the identity), as
        batches() serves them."""
        d = self._data
        index = np.asarray(index, np.int64)
        b = len(index)
        s = np.zeros(b, np.int64) if symmetry is None else np.asarray(symmetry, np.int64)
        sym = self._sym
        inv = sym.inverse[s]
        # planes: the image's cell c holds the position's cell cell[inverse][c]
        cells = sym.cell[inv]
        raw = np.take_along_axis(d["planes"][index], cells[:, None, :].repeat(_lib.PLANES, 1), axis=2)
        planes = raw.astype(np.float32) * _SCALE[None, :, None]
        out = {"planes": planes.reshape(b, _lib.PLANES, _lib.GRID, _lib.GRID), "symmetry": s, "index": index,
               "action": sym.action[s, d["action"][index].astype(np.int64)], "z": d["z"][index],
               "root_value": d["root_value"][index]}
        score = (out["z"].astype(np.float32) + 1) / 2
        rv = out["root_value"]
        out["value_target"] = np.where(np.isnan(rv), score, (1 - self.value_blend) * score + self.value_blend * rv
                                ).astype(np.float32)
        if self.mask:
            legal = np.unpackbits(d["mask_bits"][index], axis=1)[:, :_lib.ACTIONS]
            out["mask"] = np.take_along_axis(legal, sym.action[inv], axis=1)
        if self.policy:
            idx = d["policy_index"][index].astype(np.int64)
            share = d["policy_share"][index]
            # each stored child's share scattered to its image; the padding to a spare column
            images = np.concatenate([sym.action[s], np.full((b, 1), _lib.ACTIONS, np.int64)], axis=1)
            target = np.take_along_axis(images, np.where(idx == NO_INDEX, _lib.ACTIONS, idx), axis=1)
            dense = np.zeros((b, _lib.ACTIONS + 1), np.float32)
            np.put_along_axis(dense, target, share, axis=1)
            out["policy"] = dense[:, :_lib.ACTIONS]
            out["has_policy"] = (idx != NO_INDEX).any(axis=1) if idx.shape[1] else np.zeros(b, bool)
        return out

    def __repr__(self) -> str:
        return "<yinsh.data.Loader: %d positions from %d %s>" % (len(self), len(self.sources), "sources")


_SCALE = 1.0 / np.array(_lib.PLANE_SCALE, np.float32)


def _sparse(policy: Any) -> Any:
    """Dense (N, 2142) shares as (index, share) of the stored children,
    ascending, padded with NO_INDEX and 0 to the most children of a row."""
    nz = policy > 0
    counts = nz.sum(1)
    k = int(counts.max()) if len(policy) else 0
    idx = np.full((len(policy), k), NO_INDEX, np.uint16)
    share = np.zeros((len(policy), k), np.float32)
    rows, cols = np.nonzero(nz)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    slot = np.arange(len(rows)) - starts[rows]
    idx[rows, slot] = cols
    share[rows, slot] = policy[rows, cols]
    return idx, share


def _join(parts: List[Dict[str, Any]], policy: bool, mask: bool) -> Dict[str, Any]:
    """The parts as one set of arrays, the sparse policies padded to the widest."""
    keys = ["planes", "action", "z", "root_value"] + (["mask_bits"] if mask else [])
    if not parts:
        out = {"planes": np.zeros((0, _lib.PLANES, _lib.CELLS), np.uint8), "action": np.zeros(0, np.int16),
               "z": np.zeros(0, np.int8), "root_value": np.zeros(0, np.float32)}
        if mask:
            out["mask_bits"] = np.zeros((0, (_lib.ACTIONS + 7) // 8), np.uint8)
        if policy:
            out["policy_index"] = np.zeros((0, 0), np.uint16)
            out["policy_share"] = np.zeros((0, 0), np.float32)
        return out
    out = {k: np.concatenate([p[k] for p in parts]) for k in keys}
    if policy:
        k = max(p["policy_index"].shape[1] for p in parts)
        out["policy_index"] = np.concatenate([np.pad(p["policy_index"], ((0, 0), (0, k - p["policy_index"].shape[1])),
                                                     constant_values=NO_INDEX) for p in parts])
        out["policy_share"] = np.concatenate([np.pad(p["policy_share"], ((0, 0), (0, k - p["policy_share"].shape[1])))
                                              for p in parts])
    return out


def to_torch(batch: Dict[str, Any], device: Any = None) -> Dict[str, Any]:
    """A batch's arrays as torch tensors (on device, if given); torch is
    imported here, so that the rest needs none."""
    try:
        import torch
    except ImportError as e:
        raise ImportError("to_torch needs torch (Debian: apt-get install python3-torch)") from e
    out = {}
    for k, v in batch.items():
        t = torch.from_numpy(np.ascontiguousarray(v))
        out[k] = t.to(device) if device is not None else t
    return out
