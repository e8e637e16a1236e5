"""python -m yinsh.selfplay: a researcher's evaluator plays the lab's PUCT
into the lab's database: the games the same however many are played at
once and in how many processes, and the same after a kill and a resume;
the run read by `yinsh report`, `positions` and `export` with its visits
and its evaluator's hash; bad evaluators stop it naming the fault, and
keep every game stored (issue 56, items 1 and 2)."""

import os
import re
import signal
import subprocess
import sys
import time
import unittest

import yinsh
from helpers import BIN, CHILD_ENV, HERE, TempDir, yinsh as run_yinsh

AGENT = ["--sims", "16", "--batch", "8", "--temp", "1", "--temp-moves", "8", "--opening", "random:2"]


def selfplay(tmp, *args, check=True, env=None):
    """Runs python -m yinsh.selfplay in tmp: (status, stderr)."""
    e = dict(os.environ)  # the package and the library as these tests found them
    e["PYTHONPATH"] = os.pathsep.join([HERE, os.path.dirname(os.path.dirname(yinsh.__file__))] +
                                      [p for p in [e.get("PYTHONPATH")] if p])
    if sys.modules.get("numpy", 0) is None:  # the run without numpy: its processes too
        hidden = os.path.join(tmp.path, "no-numpy")
        if not os.path.exists(hidden):
            os.makedirs(os.path.join(hidden, "numpy"))
            with open(os.path.join(hidden, "numpy", "__init__.py"), "w") as f:
                f.write("raise ImportError('numpy hidden by the tests')\n")
        e["PYTHONPATH"] = hidden + os.pathsep + e["PYTHONPATH"]
    e.update(env or {})
    p = subprocess.run([sys.executable, "-m", "yinsh.selfplay"] + [str(a) for a in args], cwd=tmp.path,
                       capture_output=True, text=True, env=e, timeout=600)
    if check and p.returncode != 0:
        raise AssertionError("yinsh.selfplay %s: exit %d: %s" % (" ".join(map(str, args)), p.returncode, p.stderr))
    return p.returncode, p.stderr


def games_of(path, run, agents=True):
    """The run's games as `yinsh export` writes them, less what names the
    time, the build and the run's identity (and the agents' names)."""
    skip = ("[Date ", "[Version ", "[Commit ", "[RunUid ") + (() if agents else ("[White ", "[Black "))
    text = run_yinsh("export", "--db", path, "--run", run)
    return "\n".join(l for l in text.splitlines() if not l.startswith(skip))


class Selfplay(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = TempDir()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.remove()

    def new(self, db, run, *extra, games=6, seed=5, check=True, evaluate="evaluators:evaluate", env=None):
        return selfplay(self.tmp, "--evaluate", evaluate, "--db", db, "--run", run, "--games", games, "--seed", seed,
                        "--quiet", *(AGENT + list(extra)), check=check, env=env)

    def test_the_same_games_at_once_one_at_a_time_and_in_workers(self):
        self.new("a.db", "r", "--games-at-once", "1")
        self.new("b.db", "r", "--games-at-once", "4")
        self.new("c.db", "r", "--games-at-once", "3", "--workers", "2")
        one = games_of(self.tmp.join("a.db"), "r")
        self.assertEqual(one.count("[Index "), 6)
        self.assertEqual(games_of(self.tmp.join("b.db"), "r"), one)
        self.assertEqual(games_of(self.tmp.join("c.db"), "r"), one)
        # and they differ from one another (the temperature, the openings)
        records = one.split("[Run ")
        self.assertEqual(len(set(r.split("\n", 3)[-1] for r in records[1:])), 6)

    def test_the_evaluator_in_calls_of_at_most_eval_batch_leaves_plays_the_same_games(self):
        shaped = ("--evaluate", "evaluators:shaped")
        selfplay(self.tmp, *shaped, "--db", "whole.db", "--run", "r", "--games", 6, "--seed", 9, "--quiet",
                 "--games-at-once", 4, *AGENT)
        # the calls hold more than 3 leaves when left whole: the evaluator refuses them
        status, err = selfplay(self.tmp, *shaped, "--db", "refused.db", "--run", "r", "--games", 6, "--seed", 9,
                               "--quiet", "--games-at-once", 4, *AGENT, check=False,
                               env={"YINSH_TEST_MAX_LEAVES": "3"})
        self.assertEqual(status, 1, err)
        self.assertIn("more than 3", err)
        for at_most, workers in ((3, 1), (5, 2)):
            db = "chunks-%d-%d.db" % (at_most, workers)
            selfplay(self.tmp, *shaped, "--db", db, "--run", "r", "--games", 6, "--seed", 9, "--quiet",
                     "--games-at-once", 4, "--workers", workers, "--eval-batch", at_most, *AGENT,
                     env={"YINSH_TEST_MAX_LEAVES": str(at_most)})
            self.assertEqual(games_of(self.tmp.join(db), "r"), games_of(self.tmp.join("whole.db"), "r"),
                             "--eval-batch %d, %d workers" % (at_most, workers))
        # the summary says the evaluator's share of the play's CPU time
        _, err = selfplay(self.tmp, *shaped, "--db", "said.db", "--run", "r", "--games", 2, "--seed", 9,
                          "--games-at-once", 2, "--eval-batch", 4, *AGENT)
        said = re.search(r"the evaluator took ([\d.]+)% of the CPU time of the play \(([\d.]+) of ([\d.]+) CPU s\)",
                         err)
        self.assertIsNotNone(said, err)
        self.assertLessEqual(float(said.group(2)), float(said.group(3)))
        self.assertGreater(float(said.group(2)), 0)
        self.assertIn("in calls of at most 4 leaves", err)
        status, err = selfplay(self.tmp, *shaped, "--db", "bad.db", "--run", "r", "--games", 6, "--seed", 9,
                               "--eval-batch", -1, *AGENT, check=False)
        self.assertEqual(status, 2, err)
        self.assertIn("--eval-batch", err)
        self.assertFalse(os.path.exists(self.tmp.join("bad.db")))

    def test_the_lab_reads_the_run(self):
        self.new("lab.db", "mine", "--games-at-once", "3")
        db = self.tmp.join("lab.db")
        text = run_yinsh("export", "--db", db)
        self.assertIn('[White "mcts:sims=16,c=1.5,eval=fn:evaluators:evaluate,temp=1,tempmoves=8,puct=1,batch=8"]',
                      text)
        self.assertRegex(text, r'\[WhiteWeights "[0-9a-f]{16}"\]')
        report = run_yinsh("report", "--db", db, "--out", self.tmp.join("report"))
        self.assertIn("mine", report)
        with yinsh.Database(db) as d:
            runs = d.runs()
            self.assertEqual([(r.name, r.games, r.stored, r.finished) for r in runs], [("mine", 6, 6, True)])
            rows = [row for g in d.games() for row in g.rows]
            searched = [r for r in rows if r.searched]
            self.assertTrue(searched)
            self.assertTrue(all(r.children for r in searched), "every search's visits stored")
            self.assertTrue(all(r.root_value is not None for r in searched), "and its root value")
            self.assertTrue(all(sum(r.children.values()) >= 15 for r in searched))
        out = self.tmp.join("pos.npy")
        run_yinsh("positions", "--db", db, "--out", out, "--format", "planes", "--policy-format", "sparse",
                  "--mask", "--quiet")
        self.assertEqual(len(yinsh.load_positions(out)), sum(1 for _ in yinsh.Database(db).positions()))
        run_yinsh("view", "--db", db, "--out", self.tmp.join("view"))
        self.assertTrue(os.path.exists(self.tmp.join("view/index.html")))
        # the lab's own command cannot play it, and says who can
        out = subprocess.run([BIN, "selfplay", "--resume", "mine", "--db", db],
                             capture_output=True, text=True, env=CHILD_ENV)
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("yinsh.selfplay", out.stderr)

    def test_a_killed_run_resumes_to_the_same_games(self):
        self.new("whole.db", "k", "--games-at-once", "2", games=8, evaluate="evaluators:slow")
        p = subprocess.Popen([sys.executable, "-m", "yinsh.selfplay", "--evaluate", "evaluators:slow", "--db",
                              "killed.db", "--run", "k", "--games", "8", "--seed", "5", "--quiet",
                              "--games-at-once", "2"] + AGENT, cwd=self.tmp.path,
                             env=dict(os.environ, PYTHONPATH=os.pathsep.join(
                                 [HERE, os.path.dirname(os.path.dirname(yinsh.__file__))])),
                             stderr=subprocess.DEVNULL)
        db = self.tmp.join("killed.db")
        deadline = time.time() + 300
        stored = 0
        while time.time() < deadline and stored < 2:
            time.sleep(0.2)
            if os.path.exists(db):
                try:
                    with yinsh.Database(db) as d:
                        stored = sum(r.stored for r in d.runs())
                except yinsh.Error:
                    pass
        p.send_signal(signal.SIGKILL)
        p.wait()
        with yinsh.Database(db) as d:
            (info,) = d.runs()
        self.assertGreaterEqual(info.stored, 2)
        self.assertLess(info.stored, 8, "killed before the end")
        self.assertFalse(info.finished)
        selfplay(self.tmp, "--evaluate", "evaluators:slow", "--db", "killed.db", "--run", "k", "--resume", "--quiet",
                 "--games-at-once", "3")
        self.assertEqual(games_of(db, "k"), games_of(self.tmp.join("whole.db"), "k"))
        with yinsh.Database(db) as d:
            self.assertTrue(d.runs()[0].finished)

    def test_a_resume_needs_the_same_net(self):
        net = self.tmp.join("net.bin")
        with open(net, "wb") as f:
            f.write(b"\x80")
        self.new("net.db", "n", "--net", net, "--games-at-once", "2", evaluate="evaluators:make", games=2)
        with open(net, "wb") as f:
            f.write(b"\x81")
        rc, err = selfplay(self.tmp, "--evaluate", "evaluators:make", "--net", net, "--db", "net.db", "--run", "n",
                           "--resume", "--quiet", check=False)
        self.assertEqual(rc, 1, err)
        self.assertIn("not the one the run was played with", err)
        # the same name again is another run's: refused, nothing changed
        rc, err = self.new("net.db", "n", "--net", net, evaluate="evaluators:make", games=2, check=False)
        self.assertNotEqual(rc, 0)
        self.assertIn("n", err)

    def test_bad_evaluators_stop_naming_the_fault_and_keep_the_stored_games(self):
        cases = [("evaluators:nan", {}, "value nan"), ("evaluators:short", {}, "values for"),
                 ("evaluators:negative", {}, "prior -1"), ("evaluators:nope", {}, "has no nope"),
                 ("nomodule:evaluate", {}, "cannot import"),
                 ("evaluators:failing", {"YINSH_TEST_FAIL_AT": "1"}, "the test's evaluator failed at call 1")]
        for k, (name, env, says) in enumerate(cases):
            rc, err = self.new("bad%d.db" % k, "b", evaluate=name, env=env, check=False, games=2)
            self.assertIn(rc, (1, 2), "%s: %s" % (name, err))
            self.assertIn(says, err, name)
        # a fault after games were stored: they stay, the run unfinished, a resume finishes it
        whole = self.tmp.join("ok.db")
        self.new("ok.db", "f", "--games-at-once", "1", games=4)
        rc, err = self.new("late.db", "f", "--games-at-once", "1", games=4, evaluate="evaluators:failing",
                           env={"YINSH_TEST_FAIL_AT": "300"}, check=False)
        self.assertEqual(rc, 1, err)
        self.assertIn("failed at call 300", err)
        late = self.tmp.join("late.db")
        with yinsh.Database(late) as d:
            (info,) = d.runs()
        self.assertFalse(info.finished)
        self.assertLess(info.stored, 4)
        stored = games_of(late, "f", agents=False)
        self.assertGreaterEqual(stored.count("[Index "), 1)
        self.assertTrue(games_of(whole, "f", agents=False).startswith(stored), "the run's first games, whole")
        selfplay(self.tmp, "--evaluate", "evaluators:failing", "--db", "late.db", "--run", "f", "--resume",
                 "--quiet", env={"YINSH_TEST_FAIL_AT": "100000"})
        self.assertEqual(games_of(late, "f", agents=False), games_of(whole, "f", agents=False))

    def test_usage_errors(self):
        for args, says in ((["--evaluate", "evaluators:evaluate", "--db", "u.db", "--run", "u", "--quiet"],
                            "--games and --seed"),
                           (["--evaluate", "evaluators:evaluate", "--db", "u.db", "--run", "u", "--resume",
                             "--games", "3"], "--resume"),
                           (["--evaluate", "evaluators", "--db", "u.db", "--run", "u", "--games", "2", "--seed",
                             "1"], "MODULE:FUNCTION"),
                           (["--evaluate", "evaluators:evaluate", "--db", "u.db", "--run", "u", "--games", "2",
                             "--seed", "1", "--temp", "1"], "temp_moves"),
                           (["--evaluate", "evaluators:evaluate", "--db", "u.db", "--run", "u", "--resume"],
                            "u.db")):
            rc, err = selfplay(self.tmp, *args, check=False)
            self.assertNotEqual(rc, 0, args)
            self.assertIn(says, err, args)
        self.assertFalse(os.path.exists(self.tmp.join("u.db")) and
                         yinsh.Database(self.tmp.join("u.db")).runs(), "nothing stored")


if __name__ == "__main__":
    unittest.main()
