"""A database read from Python: its games are those `yinsh export` writes,
its training positions those `yinsh positions` writes, in every form
(one at a time, in batches, loaded whole, exported and read back)."""

import math
import os
import subprocess
import unittest

import yinsh
from helpers import BIN, CHILD_ENV, SOURCE, TempDir, as_list, small_db, yinsh as run_yinsh


class Databases(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = TempDir()
        cls.path = small_db(cls.tmp)
        run_yinsh("selfplay", "--games", 3, "--agent", "random", "--variant", "blitz", "--seed", 3, "--db", cls.path,
                  "--run", "blitz", "--quiet", "--threads", "1")
        cls.db = yinsh.Database(cls.path)

    @classmethod
    def tearDownClass(cls):
        cls.db.close()
        cls.tmp.remove()

    def test_an_imported_game_is_the_exported_one(self):
        # the Date of an imported game is its record's (records/record_text.h's one tag list), as `yinsh export` says
        path = os.path.join(self.tmp.path, "imported.db")
        sgf = os.path.join(SOURCE, "tests", "data", "Y-DrMih-Dumbot-2026-02-20-0858.sgf")
        run_yinsh("import", "--format", "boardspace", sgf, "--db", path)
        with yinsh.Database(path) as db:
            games = list(db.games())
        self.assertEqual(len(games), 1)
        self.assertEqual(games[0].record(), run_yinsh("export", "--db", path))
        self.assertEqual(games[0].tags["Date"], "Fri Feb 20 11:58:00 MSK 2026")

    def test_games_are_the_exported_ones(self):
        games = list(self.db.games())
        self.assertEqual(len(games), 9)
        exported = run_yinsh("export", "--db", self.path)
        self.assertEqual("\n".join(g.record() for g in games), exported)
        g = games[0]
        self.assertEqual((g.run, g.index, g.variant), ("small", 0, "standard"))
        self.assertEqual(g.tags["White"], "mcts:sims=20,c=1,rollout=random")
        self.assertEqual(len(g.rows), len(g.actions))
        final = list(g.positions())[-1]
        self.assertEqual(final.outcome, (g.result, g.reason))
        for pos, a, row in zip(g.positions(), g.actions, g.rows):
            self.assertEqual(row.legal, len(pos.legal_actions()))
            self.assertEqual(row.actor, pos.actor)
            self.assertEqual(row.state, pos.state)
            self.assertIn(a, pos.legal_actions())
            self.assertEqual(row.searched, row.legal > 1)
            if row.searched:
                self.assertGreaterEqual(row.root_visits, 20)

    def test_selections(self):
        self.assertEqual(len(list(self.db.games(runs="small"))), 6)
        self.assertEqual(len(list(self.db.games(runs=["small", "blitz"]))), 9)
        self.assertEqual([g.variant for g in self.db.games(variant="blitz")], ["blitz"] * 3)
        self.assertEqual(len(list(self.db.games(agent="mcts:sims=20,c=1.0"))), 6)
        self.assertEqual(len(list(self.db.games(kind="match"))), 0)
        with self.assertRaises(yinsh.NotFoundError) as e:
            list(self.db.games(runs="nope"))
        self.assertIn("nope", str(e.exception))
        self.assertRaises(yinsh.NotFoundError, yinsh.Database, self.tmp.join("none.db"))

    def test_closing_ends_its_iterators(self):
        db = yinsh.Database(self.path)
        games, positions = db.games(), db.positions()
        next(games)
        next(positions)
        db.close()
        self.assertRaises(StopIteration, next, games)
        self.assertRaises(StopIteration, next, positions)
        self.assertRaises(yinsh.Error, db.games)
        db.close()

    def tsv(self, *args):
        out = self.tmp.join("p.tsv")
        run_yinsh("positions", "--db", self.path, "--out", out, "--quiet", *args)
        with open(out) as f:
            return [line.rstrip("\n").split("\t") for line in f]

    def test_positions_are_the_binarys(self):
        lines = self.tsv()
        samples = list(self.db.positions())
        self.assertEqual(len(samples), len(lines))
        self.assertEqual(len(samples), sum(len(g.actions) for g in self.db.games()))
        for s, line in zip(samples, lines):
            ypn, action, z, value, root, chosen, visits, root_value = line
            self.assertEqual(visits, "")  # these runs stored no root visits
            self.assertEqual((s.ypn, s.action, s.z), (ypn, action, int(z)))
            self.assertEqual(s.action_index, s.position.index(action))
            if s.searched:
                self.assertAlmostEqual(s.value, float(value), places=6)
                self.assertEqual((s.root_visits, s.chosen_visits), (int(root), int(chosen)))
                self.assertAlmostEqual(s.root_value, float(root_value), places=6)
            else:
                self.assertIsNone(s.value)
                self.assertIsNone(s.root_value)
                self.assertEqual((value, root, chosen, root_value), ("", "", "", ""))
        blitz = list(self.db.positions(variant="blitz"))
        self.assertEqual(len(blitz), len(self.tsv("--variant", "blitz")))
        self.assertTrue(all(not s.searched for s in blitz))  # random agents
        # z: the game's result for the side that acted
        for s in samples:
            want = 0 if s.result == "draw" else (1 if (s.result == "white") == (s.actor == yinsh.WHITE) else -1)
            self.assertEqual(s.z, want)

    def test_root_visit_distributions(self):
        # a run with --store-visits: each MCTS action's children and their
        # visits, as the database holds them; None for a run without
        path = self.tmp.join("visits.db")
        run_yinsh("selfplay", "--games", 1, "--agent", "mcts:sims=30", "--seed", 2, "--db", path, "--run", "v",
                  "--quiet", "--threads", "1", "--store-visits")
        with yinsh.Database(path) as db:
            (g,) = list(db.games())
            searched = [(a, r) for a, r in zip(g.actions, g.rows) if r.searched]
            self.assertTrue(searched)
            for a, r in searched:
                self.assertEqual(r.children[a], r.chosen_visits)
                self.assertIn(sum(r.children.values()), (r.root_visits, r.root_visits - 1))
            self.assertTrue(all(r.children == {} for r in g.rows if not r.searched))
            (batch,) = list(db.batches(batch_size=1000, policy=True))
            policy, n = batch["policy"], len(batch["action"])
            if hasattr(policy, "reshape"):  # numpy: (n, 2142)
                self.assertEqual(policy.shape, (n, 2142))
                policy = policy.reshape(-1)
            self.assertEqual(len(policy), n * 2142)
            for k in range(n):
                row = policy[k * 2142:(k + 1) * 2142]
                if batch["searched"][k]:
                    self.assertAlmostEqual(sum(row), 1.0, places=4)
                    self.assertGreater(row[batch["action"][k]], 0)
                else:
                    self.assertEqual(sum(row), 0)
        self.assertTrue(all(r.children is None for g in self.db.games() for r in g.rows))

    def test_root_values(self):
        # the position's value (action.root_value), beside the chosen
        # action's: the same in every form; None (NaN in arrays) where
        # none is stored (random play, forced actions)
        rows = [r for g in self.db.games() for r in g.rows]
        searched = [r for r in rows if r.searched]
        self.assertTrue(searched)
        for r in rows:
            if r.searched:
                self.assertTrue(0 <= r.root_value <= 1, r)
            else:
                self.assertIsNone(r.root_value)
        self.assertTrue(any(r.root_value != r.value for r in searched))
        samples = list(self.db.positions())  # float32, as value
        self.assertEqual(len(samples), len(rows))
        for s, r in zip(samples, rows):
            if r.root_value is None:
                self.assertIsNone(s.root_value)
            else:
                self.assertAlmostEqual(s.root_value, r.root_value, places=6)
        data = self.db.load()
        for k, s in enumerate(samples):
            if s.root_value is None:
                self.assertTrue(math.isnan(data["root_value"][k]))
            else:
                self.assertAlmostEqual(float(data["root_value"][k]), s.root_value, places=6)
        out = self.tmp.join("root.npy")
        self.db.export_positions(out)
        records = yinsh.load_positions(out)
        for k, s in enumerate(samples):
            got = float(records[k]["root_value"])
            if s.root_value is None:
                self.assertTrue(math.isnan(got))
            else:
                self.assertAlmostEqual(got, s.root_value, places=6)

    def test_batches_and_load(self):
        samples = list(self.db.positions())
        seen = 0
        for batch in self.db.batches(batch_size=100, raw=True):
            n = len(batch["action"])
            self.assertLessEqual(n, 100)
            planes = as_list(batch["planes"])
            self.assertEqual(len(planes), n * 2057)
            for k in range(0, n, 17):
                s = samples[seen + k]
                self.assertEqual(planes[k * 2057:(k + 1) * 2057], as_list(s.position.planes(raw=True)))
                self.assertEqual(batch["action"][k], s.action_index)
                self.assertEqual(batch["z"][k], s.z)
                self.assertEqual(batch["ply"][k], s.ply)
                self.assertEqual(batch["legal"][k], s.legal)
                self.assertEqual(bool(batch["searched"][k]), s.searched)
                if s.searched:
                    self.assertAlmostEqual(float(batch["value"][k]), s.value, places=6)
                else:
                    self.assertTrue(math.isnan(batch["value"][k]))
            seen += n
        self.assertEqual(seen, len(samples))
        data = self.db.load()
        self.assertEqual(len(data["z"]), len(samples))
        self.assertEqual(len(as_list(data["planes"])), 2057 * len(samples))
        if hasattr(data["planes"], "shape"):
            self.assertEqual(data["planes"].shape, (len(samples), 17, 11, 11))
            self.assertEqual(str(data["planes"].dtype), "float32")
        first = as_list(data["planes"])[:2057]
        self.assertEqual(first, as_list(samples[0].position.planes()))

    def test_the_commands_mistakes(self):
        def status(*args):
            p = subprocess.run([BIN, "positions"] + list(args), capture_output=True, text=True, env=CHILD_ENV)
            return p.returncode, p.stderr

        out = self.tmp.join("x.tsv")
        self.assertEqual(status("--out", out)[0], 2)  # no --db
        self.assertEqual(status("--db", self.path)[0], 2)  # no --out
        code, err = status("--db", self.path, "--out", out, "--format", "json")
        self.assertEqual(code, 2)
        self.assertIn("--format", err)
        self.assertEqual(status("--db", self.path, "--out", out, "--view", "grey")[0], 2)
        self.assertEqual(status("--db", self.path, "--out", self.path)[0], 2)  # the database itself
        code, err = status("--db", self.path, "--out", out, "--runs", "nope")
        self.assertEqual(code, 1)
        self.assertIn("nope", err)
        code, err = status("--db", self.tmp.join("none.db"), "--out", out)
        self.assertEqual(code, 1)
        self.assertFalse(os.path.exists(out))  # nothing written

    def test_export_and_read_back(self):
        out = self.tmp.join("lib.npy")
        positions, games = self.db.export_positions(out)
        self.assertEqual(games, 9)
        binary = self.tmp.join("bin.npy")
        run_yinsh("positions", "--db", self.path, "--out", binary, "--format", "planes", "--quiet")
        with open(out, "rb") as a, open(binary, "rb") as b:
            self.assertEqual(a.read(), b.read())
        records = yinsh.load_positions(out)
        self.assertEqual(len(records), positions)
        samples = list(self.db.positions())
        for k in (0, 1, positions // 2, positions - 1):
            r, s = records[k], samples[k]
            self.assertEqual(as_list(r["planes"]), as_list(s.position.planes(raw=True)))
            self.assertEqual((int(r["action"]), int(r["z"]), int(r["ply"]), int(r["legal"])),
                             (s.action_index, s.z, s.ply, s.legal))
        csv = self.tmp.join("p.csv")
        self.assertEqual(self.db.export_positions(csv, format="csv", runs="small")[1], 6)
        with open(csv) as f:
            header = f.readline().strip().split(",")
            rows = [dict(zip(header, line.rstrip("\n").split(","))) for line in f]
        self.assertEqual(header[:4], ["run", "index", "ply", "ypn"])
        self.assertEqual([r["ypn"] for r in rows], [s.ypn for s in samples if s.game < 6])
        self.assertRaises(yinsh.UsageError, self.db.export_positions, out, format="json")


if __name__ == "__main__":
    unittest.main()


class Refusals(unittest.TestCase):
    """A selection or a size that can select nothing by a slip is an
    error; an empty result has the shape of a full one."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = TempDir()
        cls.path = small_db(cls.tmp, games=2)
        cls.db = yinsh.Database(cls.path)

    @classmethod
    def tearDownClass(cls):
        cls.db.close()
        cls.tmp.remove()

    def test_a_misspelt_kind_or_variant(self):
        for call in (lambda: list(self.db.games(kind="selfpaly")), lambda: self.db.load(variant="Standard"),
                     lambda: list(self.db.positions(kind="Match")), lambda: list(self.db.batches(variant="blits"))):
            with self.assertRaises(yinsh.UsageError) as e:
                call()
            self.assertRegex(str(e.exception), "expected (selfplay|standard)")
        self.assertEqual(len(list(self.db.games(kind="selfplay", variant="standard"))), 2)
        self.assertEqual(len(list(self.db.games(kind="import"))), 0)

    def test_sizes_of_nothing(self):
        for call in (lambda: self.db.positions(chunk=0), lambda: self.db.batches(batch_size=0),
                     lambda: self.db.load(batch_size=0), lambda: self.db.positions(chunk=-3)):
            self.assertRaises(ValueError, call)
        self.assertRaises(TypeError, self.db.positions, chunk=2.5)
        self.assertEqual(len(list(self.db.positions(chunk=1))), len(list(self.db.positions())))

    def test_an_empty_load_has_every_key(self):
        full = self.db.load(policy=True)
        empty = self.db.load(policy=True, variant="blitz")
        self.assertEqual(sorted(empty), sorted(full))
        self.assertIn("policy", empty)
        self.assertEqual(len(as_list(empty["policy"])), 0)

    def test_the_formats_are_named(self):
        with self.assertRaises(yinsh.UsageError) as e:
            self.db.export_positions(self.tmp.join("x"), format="json")
        self.assertIn("planes+policy", str(e.exception))

    def test_an_unknown_stored_state_is_an_error(self):
        import sqlite3
        path = self.tmp.join("state.db")
        small_db_copy = sqlite3.connect(self.path)
        with sqlite3.connect(path) as out:
            small_db_copy.backup(out)
        small_db_copy.close()
        with sqlite3.connect(path) as h:
            h.execute("UPDATE action SET state = 'Q' WHERE ply = 3")
        h.close()
        with yinsh.Database(path) as db:
            with self.assertRaises(yinsh.Error) as e:
                list(db.games())
            self.assertIn("action 4", str(e.exception))
            self.assertIn("state", str(e.exception))
