"""python -m yinsh.uyi: a researcher's evaluator as a UYI engine, the lab's
own server around the lab's PUCT: the protocol tests `yinsh uyi` passes
(tests/test_uyi.c: the handshake, isready during a search, stop, go
limits, bad commands refused and the engine kept, no legal action, quit
during a search, the seed), its choice the same as PuctAgent's search
over the same evaluator, its visits given when asked and stored by
`yinsh match --store-visits`, a failing evaluator ending the engine with
its reason (issue 56, item 2)."""

import os
import subprocess
import sys
import queue
import threading
import time
import unittest

import yinsh
from helpers import BIN, CHILD_ENV, HERE, TempDir, yinsh as run_yinsh

ENGINE = [sys.executable, "-m", "yinsh.uyi", "--evaluate", "evaluators:evaluate", "--sims", "48", "--batch", "8"]


def engine_env():
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join([HERE, os.path.dirname(os.path.dirname(yinsh.__file__))] +
                                      [p for p in [e.get("PYTHONPATH")] if p])
    return e


class Engine:
    """The engine as a child process, its lines read on a thread."""

    def __init__(self, *extra):
        self.p = subprocess.Popen(ENGINE + list(extra), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, env=engine_env(), cwd=HERE)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, *lines):
        for l in lines:
            self.p.stdin.write(l + "\n")
        self.p.stdin.flush()

    def expect(self, prefix, timeout=60):
        """The lines up to the first starting with prefix (it last)."""
        got, end = [], time.time() + timeout
        while True:
            line = self.lines.get(timeout=max(0.01, end - time.time()))
            if line is None:
                raise AssertionError("the engine ended; it said: %s" % got)
            got.append(line)
            if line.startswith(prefix):
                return got

    def quit(self):
        self.send("quit")
        try:
            return self.p.wait(30)
        finally:
            for f in (self.p.stdin, self.p.stdout, self.p.stderr):
                f.close()


class Uyi(unittest.TestCase):
    def test_handshake_isready_and_a_search(self):
        e = Engine()
        e.send("uyi")
        lines = e.expect("uyiok")
        self.assertTrue(lines[0].startswith("id name Yinsh Lab "), lines[0])
        self.assertIn("eval=fn:evaluators:evaluate", lines[0])
        self.assertIn("option name seed type spin default 0 min 0 max 18446744073709551615", lines)
        self.assertIn("option name sims type spin default 48 min 1 max 10000000", lines)
        self.assertIn("option name visits type check default false", lines)
        e.send("isready")
        self.assertEqual(e.expect("readyok"), ["readyok"])
        e.send("newgame", "position startpos moves e5 f6", "go sims 40")
        lines = e.expect("bestmove")
        self.assertIn("info sims 40 ", " ".join(lines))
        best = lines[-1].split()[1]
        self.assertIn(best, yinsh.Position("4/7/8/9/10/9/10/9/8/7/4 w P standard").child("e5").child("f6")
                      .legal_actions())
        self.assertEqual(e.quit(), 0)

    def test_its_choice_is_puctagents(self):
        import evaluators
        p = yinsh.Position().child("e5").child("f6")
        agent = yinsh.PuctAgent(evaluators.evaluate, sims=40, batch=8, c=1.5)
        want = yinsh.action_text(agent.search(p).action)
        e = Engine()
        e.send("uyi", "setoption name seed value 3", "newgame", "position startpos moves e5 f6", "go sims 40")
        self.assertEqual(e.expect("bestmove")[-1], "bestmove " + want)
        # the same seed and positions, the same answers (a fresh engine)
        e2 = Engine()
        e2.send("uyi", "setoption name seed value 3", "newgame", "position startpos moves e5 f6", "go sims 40")
        self.assertEqual(e2.expect("bestmove")[-1], "bestmove " + want)
        self.assertEqual(e.quit(), 0)
        self.assertEqual(e2.quit(), 0)

    def test_bad_commands_stop_infinite_and_quit(self):
        e = Engine()
        e.send("uyi")
        e.expect("uyiok")
        for bad in ("frobnicate", "position", "position startpos moves zz", "position ypn 1/2/3 w P standard",
                    "setoption name nonsense value 3", "setoption name sims value -4", "setoption sims",
                    "isready now", "position startpos variant huge", "setoption name visits value 7"):
            e.send(bad)
            self.assertTrue(e.expect("info string error")[-1].startswith("info string error"), bad)
        e.send("isready")
        e.expect("readyok")
        e.send("position startpos", "go infinite")
        time.sleep(0.5)
        e.send("isready")
        e.expect("readyok")
        e.send("stop")
        self.assertTrue(e.expect("bestmove")[-1].split()[1])
        # no legal action: bestmove none
        e.send("position ypn W2B/W5B/8/9/wwwww5/3W5/10/9/8/6B/WWBB w - blitz", "go sims 10")
        self.assertEqual(e.expect("bestmove")[-1], "bestmove none")
        # quit during a search ends it, status 0
        e.send("position startpos", "go infinite")
        time.sleep(0.3)
        self.assertEqual(e.quit(), 0)

    def test_visits_when_asked(self):
        e = Engine()
        e.send("uyi", "setoption name visits value true", "position startpos moves e5 f6", "go sims 40")
        lines = e.expect("bestmove")
        visits = [l for l in lines if l.startswith("info visits ")]
        self.assertEqual(len(visits), 1, lines)
        pairs = dict(w.split(":") for w in visits[0].split()[2:])
        self.assertEqual(sum(map(int, pairs.values())), 39, "the root's visits less its own")
        self.assertEqual(max(pairs, key=lambda a: int(pairs[a])), lines[-1].split()[1])
        self.assertEqual(e.quit(), 0)

    def test_the_lab_plays_it_and_stores_its_visits(self):
        tmp = TempDir()
        try:
            cmd = " ".join(ENGINE)
            spec = "uyi:name=mine;cmd=%s;dir=%s" % (cmd, HERE)
            db = tmp.join("m.db")
            p = subprocess.run([BIN, "match", "--a", spec, "--b", "mcts:sims=40", "--games", "2", "--seed", "1",
                                "--threads", "1", "--store-visits", "--db", db, "--engine-logs", tmp.join("logs")],
                               capture_output=True, text=True, env=dict(CHILD_ENV, **{"PYTHONPATH": engine_env()["PYTHONPATH"]}),
                               timeout=600)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("faults a     0", p.stdout)
            with yinsh.Database(db) as d:
                games = list(d.games())
            self.assertEqual(len(games), 2)
            mine = [r for g in games for r in g.rows if r.actor == (0 if g.white.startswith("uyi:") else 1)]
            searched = [r for r in mine if r.searched]
            self.assertTrue(searched, "the engine's actions stored as searches")
            self.assertTrue(all(r.children and sum(r.children.values()) == r.root_visits for r in searched))
            self.assertTrue(os.path.isdir(tmp.join("logs")))
        finally:
            tmp.remove()

    def test_a_failing_evaluator_ends_the_engine(self):
        p = subprocess.Popen([sys.executable, "-m", "yinsh.uyi", "--evaluate", "evaluators:nan", "--sims", "20",
                              "--batch", "4"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=engine_env(), cwd=HERE)
        p.stdin.write("uyi\nposition startpos\ngo sims 20\n")
        p.stdin.flush()
        out, err = p.communicate(timeout=60) if p.wait(timeout=60) is not None else ("", "")
        self.assertEqual(p.returncode, 1, err)
        self.assertIn("the evaluator failed", err)
        self.assertIn("value nan", err)
        self.assertNotIn("bestmove", out)
        p = subprocess.run([sys.executable, "-m", "yinsh.uyi", "--evaluate", "evaluators:nope"], input="uyi\n",
                           capture_output=True, text=True, env=engine_env(), cwd=HERE, timeout=60)
        self.assertEqual(p.returncode, 2)
        self.assertIn("has no nope", p.stderr)


if __name__ == "__main__":
    unittest.main()
