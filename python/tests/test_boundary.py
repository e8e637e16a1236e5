"""The ctypes boundary: what Python hands the C library is checked first.
A closed object, None or a value of the wrong type raises (TypeError,
ValueError, yinsh.ClosedError) and never reaches C as a NULL or a wrapped
integer; each call that once crashed the interpreter runs in a process
of its own."""

import os
import struct
import subprocess
import sys
import unittest

import yinsh
from helpers import CHILD_ENV, SOURCE, TempDir, small_db

HERE = os.path.dirname(os.path.abspath(__file__))


def run_python(code, db=None):
    """Runs code after `import yinsh` (and `db = yinsh.Database(DB)` when
    given) in a fresh interpreter with the tests' environment: (exit
    status, the last line of its output)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(HERE), env.get("PYTHONPATH", "")])
    prelude = "import sys; sys.modules['numpy'] = None\n" if "numpy" in sys.modules and sys.modules["numpy"] is None \
        else ""
    prelude += "import yinsh\n"
    if db:
        prelude += "db = yinsh.Database(%r)\n" % db
    p = subprocess.run([sys.executable, "-c", prelude + code], capture_output=True, text=True, env=env, timeout=60)
    lines = (p.stdout + p.stderr).strip().splitlines()
    return p.returncode, lines[-1] if lines else ""


RAISES = """
try:
    {expr}
except {exc} as e:
    print("raised", type(e).__name__, e)
else:
    print("no exception")
"""


class WithSmallDb(unittest.TestCase):
    """A database of two games in a folder of its own, for the class."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = TempDir()
        cls.db = small_db(cls.tmp, games=2)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.remove()


class ClosedObjects(WithSmallDb):
    """Every use of a closed Agent or Database raises ClosedError."""

    def expect_raises(self, setup, expr, exc="yinsh.ClosedError", db=None):
        rc, last = run_python(setup + RAISES.format(expr=expr, exc=exc), db)
        self.assertEqual(rc, 0, "%s: exit %d (%s)" % (expr, rc, last))
        self.assertTrue(last.startswith("raised"), "%s: %s" % (expr, last))
        return last

    def test_an_agent_after_close(self):
        setup = "a = yinsh.Agent('random'); a.close(); p = yinsh.Position()\n"
        for expr in ("a.spec", "a.choose(p)", "a.choose_index(p)", "a.new_game()", "a.observe(p, 'e5')"):
            last = self.expect_raises(setup, expr)
            self.assertIn("closed", last)
        self.assertEqual(run_python(setup + "print(repr(a))")[1], "<yinsh.Agent, closed>")
        self.assertTrue(issubclass(yinsh.ClosedError, ValueError))
        self.assertTrue(issubclass(yinsh.ClosedError, yinsh.Error))

    def test_a_database_after_close(self):
        setup = "db.close()\n"
        for expr in ("db.export_positions(%r)" % self.tmp.join("x.tsv"), "list(db.games())",
                     "list(db.positions())", "list(db.batches())", "db.load()"):
            self.expect_raises(setup, expr, db=self.db)
        self.assertFalse(os.path.exists(self.tmp.join("x.tsv")))


class NoneAndTypes(WithSmallDb):
    """None, a number for a text, a text for a number: a TypeError, never
    a NULL in C."""

    def test_none_where_a_text_is_needed(self):
        for expr in ("yinsh.Agent(None)", "yinsh.action_index(None)", "yinsh.Position().index(None)",
                     "yinsh.Position().apply(None)", "yinsh.Position(5)", "yinsh.Agent(b'random')",
                     "db.export_positions(%r, format=None)" % self.tmp.join("y.tsv"),
                     "db.export_positions(None)", "yinsh.Database(None)"):
            rc, last = run_python(RAISES.format(expr=expr, exc="TypeError"), db=self.db)
            self.assertEqual(rc, 0, "%s: exit %d (%s)" % (expr, rc, last))
            self.assertTrue(last.startswith("raised TypeError"), "%s: %s" % (expr, last))

    def test_a_nul_inside_a_text(self):
        p = yinsh.Position()
        for call in (lambda: p.apply("e5\0e6"), lambda: p.index("e5\0"), lambda: yinsh.action_index("e5\0x"),
                     lambda: yinsh.Agent("random\0junk"), lambda: yinsh.Position(str(p) + "\0")):
            self.assertRaises(ValueError, call)
        self.assertEqual(p, yinsh.Position())


class Integers(unittest.TestCase):
    """An integer that C's int cannot hold, a float, a bool: refused, not
    wrapped or truncated."""

    def test_action_indices(self):
        p = yinsh.Position()
        for bad in (2 ** 32 + 5, 2 ** 32, -2 ** 32 + 1, 2 ** 64):
            self.assertRaises(ValueError, p.apply, bad)
            self.assertRaises(ValueError, yinsh.action_text, bad)
        for bad in (1.5, 1.0, True, False, None):
            self.assertRaises(TypeError, p.apply, bad)
            self.assertRaises(TypeError, yinsh.action_text, bad)
        self.assertEqual(p, yinsh.Position(), "an action was played")
        p.apply(1)
        self.assertEqual(p.child(2).ypn, yinsh.Position().child(1).child(2).ypn)

    def test_a_state_records_only_what_it_played(self):
        s = yinsh.Game().new_initial_state()
        for bad in (2 ** 32, 2 ** 32 + 1, -1):
            self.assertRaises(ValueError, s.apply_action, bad)
        for bad in (1.5, True):
            self.assertRaises(TypeError, s.apply_action, bad)
        self.assertEqual(s.history(), [])
        self.assertEqual(str(s), str(yinsh.Position()))
        s.apply_action(0)
        self.assertEqual(s.history(), [0])
        self.assertEqual(yinsh.Game().new_initial_state().action_to_string(0, 0), "a2")
        self.assertRaises(ValueError, s.action_to_string, 0, 2 ** 32 + 5)

    def test_sizes_seeds_and_counts(self):
        p = yinsh.Position()
        self.assertRaises(ValueError, p.svg, size=2 ** 32 + 100)
        self.assertRaises(TypeError, p.svg, size=450.5)
        self.assertRaises(yinsh.UsageError, p.svg, size=20)
        self.assertIn("<svg", p.svg(size=100))
        self.assertRaises(ValueError, yinsh.Agent, "random", seed=-1)
        self.assertRaises(ValueError, yinsh.Agent, "random", seed=2 ** 64)
        self.assertRaises(TypeError, yinsh.Agent, "random", seed=1.5)
        with yinsh.Agent("random", seed=2 ** 64 - 1) as a:
            self.assertEqual(a.spec, "random")
        a = yinsh.Agent("random")
        self.assertRaises(ValueError, a.observe, p, 2 ** 32 + 5)
        a.close()


def fnv_rehash(b):
    """A net file's content hash put right (docs/nnue.md: FNV-1a 64 over
    bytes 0..47 and every byte after the 56 of the header)."""
    h = 14695981039346656037
    for x in bytes(b[:48]) + bytes(b[56:]):
        h = ((h ^ x) * 1099511628211) & (2 ** 64 - 1)
    b[48:56] = struct.pack("<Q", h)


def b2_at(b):
    """Where the output's bias of a net of one output (l2 = 0) begins:
    after the header, the description, w1, b1 and w2."""
    hidden, dlen = struct.unpack_from("<I", b, 20)[0], struct.unpack_from("<I", b, 36)[0]
    return 56 + dlen + 413 * hidden * 2 + hidden * 2 + 2 * hidden * 2


class CraftedNets(unittest.TestCase):
    """A net whose hash is right but whose biases would overflow the
    search's sums is refused by name when an agent is made of it (issue
    59): not searched with undefined arithmetic, not an abort."""

    def test_policy_biases_and_output_biases(self):
        tmp = TempDir()
        try:
            src = os.path.join(SOURCE, "eval", "nets")
            with open(os.path.join(src, "pv32.nnue"), "rb") as f:
                b = bytearray(f.read())
            pb = b2_at(b) + 4 + 4 * 8 + 4 * 1625 + 4
            for k in range(yinsh.ACTIONS):
                struct.pack_into("<i", b, pb + 4 * k, 0x7ffffff0)
            fnv_rehash(b)
            path = tmp.join("pb.nnue")
            with open(path, "wb") as f:
                f.write(b)
            with self.assertRaises(yinsh.Error) as e:
                yinsh.Agent("mcts:sims=50,puct=1,eval=net:%s" % path)
            self.assertIn("the policy bias of action 0 is 2147483632", str(e.exception))
            with open(os.path.join(src, "patterns32.nnue"), "rb") as f:
                b = bytearray(f.read())
            struct.pack_into("<i", b, b2_at(b), 2 ** 31 - 1)
            fnv_rehash(b)
            path = tmp.join("b2.nnue")
            with open(path, "wb") as f:
                f.write(b)
            for spec in ("ab:depth=2,eval=net:%s", "mcts:sims=50,rollout=0,eval=net:%s"):
                with self.assertRaises(yinsh.Error) as e:
                    yinsh.Agent(spec % path)
                self.assertIn("the output's bias b2 0 is 2147483647", str(e.exception))
        finally:
            tmp.remove()


if __name__ == "__main__":
    unittest.main()
