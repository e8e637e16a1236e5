"""Training data: the legal mask of Database.batches, the runs of a
database, the export's sparse, masked and compressed formats (read back,
and the same bytes as `yinsh positions`), and the loader yinsh.data (numpy
only): its window, its shuffle, its value target, and its symmetries
mapping planes, mask, policy and action together."""

import gzip
import math
import os
import unittest

import yinsh
from helpers import TempDir, as_list, yinsh as run_yinsh

try:
    import numpy as np
except ImportError:
    np = None

AGENT = "mcts:sims=24"


def visits_db(tmp, runs=("r1", "r2", "r3"), games=2):
    """A database of small runs that stored their root visits."""
    path = tmp.join("v.db")
    for k, run in enumerate(runs):
        run_yinsh("selfplay", "--games", games, "--agent", AGENT, "--seed", 40 + k, "--db", path, "--run", run,
                  "--store-visits", "--quiet", "--threads", "1")
    return path


class Exports(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = TempDir()
        cls.path = visits_db(cls.tmp)
        cls.db = yinsh.Database(cls.path)

    @classmethod
    def tearDownClass(cls):
        cls.db.close()
        cls.tmp.remove()

    def test_the_mask_of_each_batch_is_its_positions(self):
        samples = list(self.db.positions(runs="r1"))
        rows = [b for b in self.db.batches(batch_size=7, runs="r1", mask=True, policy=True)]
        masks = []
        for b in rows:
            masks += [as_list(b["mask"])[i:i + yinsh.ACTIONS] for i in range(0, len(as_list(b["mask"])),
                                                                                   yinsh.ACTIONS)]
        self.assertEqual(len(masks), len(samples))
        for s, m in zip(samples, masks):
            self.assertEqual(m, as_list(s.position.legal_mask()))
            self.assertEqual(sum(m), s.legal)
        whole = self.db.load(runs="r1", mask=True)
        self.assertEqual(len(as_list(whole["mask"])), len(samples) * yinsh.ACTIONS)
        empty = self.db.load(runs="r1", variant="blitz", mask=True)
        self.assertEqual(len(as_list(empty["mask"])), 0)

    def test_runs_in_the_order_they_were_made(self):
        runs = self.db.runs()
        self.assertEqual([r.name for r in runs], ["r1", "r2", "r3"])
        self.assertEqual([(r.kind, r.games, r.stored, r.finished, r.seed) for r in runs],
                         [("selfplay", 2, 2, True, 40 + k) for k in range(3)])
        self.assertEqual(runs[0].white, "mcts:sims=24,c=1,rollout=random")
        self.assertEqual([r.name for r in self.db.runs(runs=["r3", "r1"])], ["r1", "r3"])
        self.assertEqual(self.db.runs(kind="match"), [])
        with self.assertRaises(yinsh.NotFoundError) as e:
            self.db.runs(runs="nope")
        self.assertIn("nope", str(e.exception))

    def test_sparse_masked_and_compressed_exports(self):
        plain, packed = self.tmp.join("p.npy"), self.tmp.join("p.npy.gz")
        counts = self.db.export_positions(plain, policy="sparse", mask=True)
        self.assertEqual(self.db.export_positions(packed, "planes+policy-sparse+mask"), counts)
        # the compressed file is the plain one, gzip'ed: gzip -d (two members, read as one) gives its bytes
        with open(plain, "rb") as f, gzip.open(packed, "rb") as g:
            self.assertEqual(g.read(), f.read())
        self.assertLess(os.path.getsize(packed) * 5, os.path.getsize(plain))
        # the command writes the same bytes
        cli = self.tmp.join("cli.npy.gz")
        run_yinsh("positions", "--db", self.path, "--out", cli, "--format", "planes", "--policy-format", "sparse",
                  "--mask", "--quiet")
        with open(packed, "rb") as f, open(cli, "rb") as g:
            self.assertEqual(f.read(), g.read())
        a, b = yinsh.load_positions(plain), yinsh.load_positions(packed)
        self.assertEqual(len(a), counts[0])
        samples = list(self.db.positions())
        for k in (0, len(samples) // 2, len(samples) - 1):
            ra, rb = a[k], b[k]
            self.assertEqual(bytes(as_list(ra["legal_mask"])), bytes(as_list(rb["legal_mask"])))
            bits = bytes(as_list(ra["legal_mask"]))
            mask = [(bits[i >> 3] >> (7 - (i & 7))) & 1 for i in range(yinsh.ACTIONS)]
            self.assertEqual(mask, as_list(samples[k].position.legal_mask()))
            index = [i for i in as_list(ra["policy_index"]) if i != 65535]
            self.assertEqual(index, sorted(index))
            self.assertEqual(as_list(ra["policy_share"]), as_list(rb["policy_share"]))
        # text formats compress too
        text = self.tmp.join("p.tsv.gz")
        self.db.export_positions(text, "ypn")
        with gzip.open(text, "rt") as g:
            self.assertEqual(g.read(), run_yinsh("positions", "--db", self.path, "--out", "-", "--quiet"))

    def test_bad_formats_are_refused(self):
        for fmt in ("planes+policy+policy-f16", "planes+mask+mask", "planes+nope", "planes+", "ypn+mask", "planesx"):
            with self.assertRaises(yinsh.UsageError, msg=fmt) as e:
                self.db.export_positions(self.tmp.join("x.npy"), fmt)
            self.assertIn("format", str(e.exception))
        self.assertRaises(yinsh.UsageError, self.db.export_positions, self.tmp.join("x.npy"), policy="f8")
        self.assertFalse(os.path.exists(self.tmp.join("x.npy")))


@unittest.skipIf(np is None, "yinsh.data needs numpy (Debian: python3-numpy; run.py --numpy)")
class Loader(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        import yinsh.data
        cls.data = yinsh.data
        cls.tmp = TempDir()
        cls.path = visits_db(cls.tmp)
        with yinsh.Database(cls.path) as db:
            cls.samples = {run: list(db.positions(runs=run)) for run in ("r1", "r2", "r3")}
            cls.policy = {run: db.load(runs=run, policy=True)["policy"] for run in ("r1", "r2", "r3")}
            cls.shards = []
            for run in ("r1", "r2", "r3"):
                shard = cls.tmp.join("%s.npy.gz" % run)
                db.export_positions(shard, policy="sparse", mask=True, runs=run)
                cls.shards.append(shard)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.remove()

    def check_batch(self, batch, samples, policy):
        sym = yinsh.symmetries()
        self.assertEqual(batch["planes"].dtype, np.float32)
        for k, i in enumerate(batch["index"]):
            s = int(batch["symmetry"][k])
            sample, image = samples[i], samples[i].position.symmetric(s)
            np.testing.assert_allclose(batch["planes"][k], image.planes(), rtol=0, atol=1e-6)
            self.assertEqual(batch["mask"][k].tolist(), as_list(image.legal_mask()))
            self.assertEqual(int(batch["action"][k]), int(sym.action[s][sample.action_index]))
            self.assertIn(int(batch["action"][k]), image.legal_indices())
            want = np.zeros(yinsh.ACTIONS, np.float32)
            want[sym.action[s]] = policy[i]
            np.testing.assert_allclose(batch["policy"][k], want, rtol=1e-3, atol=1e-4)
            self.assertEqual(bool(batch["has_policy"][k]), bool(policy[i].sum() > 0))
            self.assertTrue(np.all(batch["policy"][k][batch["mask"][k] == 0] == 0))

    def test_symmetries_map_planes_mask_policy_and_action_together(self):
        loader = self.data.Loader(self.path, runs="r2", batch_size=16, seed=5)
        self.assertEqual(len(loader), len(self.samples["r2"]))
        seen = set()
        for batch in loader.batches(0):
            self.check_batch(batch, self.samples["r2"], self.policy["r2"])
            seen.update(batch["symmetry"].tolist())
        self.assertGreater(len(seen), 6)  # random symmetries, not one
        # from the exported shards (sparse, f16 shares, compressed) the same
        shard = self.data.Loader(self.shards[1], batch_size=16, seed=5)
        for batch in shard.batches(0):
            self.check_batch(batch, self.samples["r2"], self.policy["r2"])

    def test_the_window_is_the_last_runs_or_shards(self):
        loader = self.data.Loader(self.path, window=2)
        self.assertEqual(loader.sources, ["r2", "r3"])
        self.assertEqual(len(loader), len(self.samples["r2"]) + len(self.samples["r3"]))
        self.assertEqual(self.data.Loader(self.path, window=1, runs="r[12]").sources, ["r2"])
        self.assertEqual(self.data.Loader(self.shards, window=2).sources, self.shards[1:])
        pattern = self.tmp.join("r*.npy.gz")
        self.assertEqual(self.data.Loader(pattern).sources, self.shards)
        with yinsh.Database(self.path) as db:
            self.assertEqual(len(self.data.Loader(db, window=3)), sum(len(v) for v in self.samples.values()))
            self.assertTrue(db.runs())  # the database given stays open
        self.assertRaises(yinsh.NotFoundError, self.data.Loader, self.path, runs="nope*")
        self.assertRaises(yinsh.NotFoundError, self.data.Loader, self.tmp.join("none*.npy"))

    def test_shuffled_by_seed_and_epoch_every_position_once(self):
        loader = self.data.Loader(self.path, batch_size=10, seed=3)
        order = lambda lo, e: np.concatenate([b["index"] for b in lo.batches(e)]).tolist()
        first = order(loader, 0)
        self.assertEqual(sorted(first), list(range(len(loader))))
        self.assertNotEqual(first, list(range(len(loader))))
        self.assertEqual(first, order(self.data.Loader(self.path, batch_size=10, seed=3), 0))
        self.assertNotEqual(first, order(loader, 1))
        self.assertNotEqual(first, order(self.data.Loader(self.path, batch_size=10, seed=4), 0))
        dropped = self.data.Loader(self.path, batch_size=10, drop_last=True)
        self.assertTrue(all(len(b["index"]) == 10 for b in dropped.batches()))
        plain = self.data.Loader(self.path, symmetries=False)
        self.assertTrue(all((b["symmetry"] == 0).all() for b in plain.batches()))
        some = self.data.Loader(self.path, symmetries=[0, 6])
        self.assertEqual(set(np.concatenate([b["symmetry"] for b in some.batches()]).tolist()), {0, 6})

    def test_the_value_target_blends_result_and_root_value(self):
        for blend in (0.0, 0.25, 1.0):
            loader = self.data.Loader(self.path, runs="r1", value_blend=blend, symmetries=False)
            b = loader.batch(np.arange(len(loader)))
            for k, s in enumerate(self.samples["r1"]):
                score = (s.z + 1) / 2
                want = score if s.root_value is None else (1 - blend) * score + blend * s.root_value
                self.assertAlmostEqual(float(b["value_target"][k]), want, places=5)
        unsearched = [s for s in self.samples["r1"] if s.root_value is None]
        self.assertTrue(unsearched)  # forced actions: the result alone

    def test_bad_input_is_named(self):
        plain = self.tmp.join("nomask.npy")
        with yinsh.Database(self.path) as db:
            db.export_positions(plain, policy="sparse")
        with self.assertRaises(yinsh.UsageError) as e:
            self.data.Loader(plain)
        self.assertIn("nomask.npy", str(e.exception))
        self.assertIn("--mask", str(e.exception))
        self.assertEqual(len(self.data.Loader(plain, mask=False)), len(yinsh.load_positions(plain)))
        for bad in (dict(value_blend=1.5), dict(window=0), dict(symmetries=[12]), dict(symmetries=[]),
                    dict(batch_size=0)):
            self.assertRaises(ValueError, self.data.Loader, self.path, **bad)
        self.assertRaises(yinsh.UsageError, self.data.Loader, self.shards, runs="r1")


if __name__ == "__main__":
    unittest.main()
