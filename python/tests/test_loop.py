"""python -m yinsh.loop: rounds of self-play, training, a gate by SPRT
and matches against anchors, with their table, checkpoint and picture;
the same command again resumes and plays nothing new (issue 56, item 4)."""

import json
import os
import subprocess
import sys
import unittest

import yinsh
from helpers import BIN, HERE, TempDir


class Loop(unittest.TestCase):
    def test_two_rounds_then_nothing_more(self):
        tmp = TempDir()
        try:
            env = dict(os.environ)
            env["PYTHONPATH"] = os.pathsep.join([HERE, os.path.dirname(os.path.dirname(yinsh.__file__))] +
                                                [p for p in [env.get("PYTHONPATH")] if p])
            cmd = [sys.executable, "-m", "yinsh.loop", "--net-module", "loopnet", "--dir", tmp.join("loop"),
                   "--rounds", "2", "--games", "4", "--sims", "8", "--batch", "4", "--gate-games", "4",
                   "--anchor", "random", "--anchor-games", "2", "--workers", "1", "--games-at-once", "2",
                   "--threads", "1", "--yinsh", BIN, "--quiet"]
            p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=HERE, timeout=900)
            self.assertEqual(p.returncode, 0, p.stderr)
            d = tmp.join("loop")
            with open(os.path.join(d, "loop.json")) as f:
                state = json.load(f)
            self.assertEqual([r["round"] for r in state["rounds"]], [0, 1])
            for r in state["rounds"]:
                self.assertIn(r["gate"]["accepted"], ("H0", "H1", None))
                self.assertEqual(r["gate"]["games"], 4)
                self.assertIn("random", r["anchors"])
                self.assertGreater(r["losses"]["positions"], 0)
            with yinsh.Database(os.path.join(d, "loop.db")) as db:
                self.assertEqual([(r.name, r.stored, r.finished) for r in db.runs()], [("r0", 4, True), ("r1", 4, True)])
            with open(os.path.join(d, "loop.md")) as f:
                table = f.read().splitlines()
            self.assertEqual(len(table), 4, table)
            self.assertTrue(os.path.exists(os.path.join(d, "elo.dat")))
            mtimes = {n: os.path.getmtime(os.path.join(d, n)) for n in os.listdir(d) if n.endswith((".json", ".pt"))}
            p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=HERE, timeout=900)
            self.assertEqual(p.returncode, 0, p.stderr)
            again = {n: os.path.getmtime(os.path.join(d, n)) for n in mtimes if n != "loop.json"}
            self.assertEqual(again, {n: t for n, t in mtimes.items() if n != "loop.json"}, "nothing played again")
        finally:
            tmp.remove()


if __name__ == "__main__":
    unittest.main()
