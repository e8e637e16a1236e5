"""python/examples/play_and_load.py runs: a game played and drawn, a
database loaded into arrays."""

import os
import subprocess
import sys
import unittest

from helpers import HERE, TempDir, small_db


class Example(unittest.TestCase):
    def test_play_and_load(self):
        tmp = TempDir()
        try:
            db = small_db(tmp, games=3)
            out = tmp.join("pictures")
            script = os.path.join(os.path.dirname(HERE), "examples", "play_and_load.py")
            env = dict(os.environ)  # the example loads the library: LD_PRELOAD stays
            if sys.modules.get("numpy", 0) is None:  # the run without numpy: the example's process too
                env["PYTHONPATH"] = os.pathsep.join(filter(None, [tmp.join("no-numpy"), env.get("PYTHONPATH")]))
                os.makedirs(tmp.join("no-numpy/numpy"))
                with open(tmp.join("no-numpy/numpy/__init__.py"), "w") as f:
                    f.write("raise ImportError('numpy hidden by the tests')\n")
            p = subprocess.run([sys.executable, script, "--db", db, "--out", out], capture_output=True, text=True,
                               env=env)
            self.assertEqual(p.returncode, 0, p.stderr)
            lines = p.stdout.splitlines()
            self.assertIn("(White) against", lines[0])
            self.assertTrue(os.path.exists(os.path.join(out, "final.svg")))
            self.assertTrue(os.path.exists(os.path.join(out, "ply-001.svg")))
            self.assertIn("replayed as a State", p.stdout)
            self.assertTrue(lines[-1].startswith(db + ": "), lines[-1])
            self.assertIn("positions of 3 games", lines[-1])
        finally:
            tmp.remove()


if __name__ == "__main__":
    unittest.main()


class Readme(unittest.TestCase):
    """README.md's Python lines run as they are, with numpy or without
    (a pyenv Python), in a folder with yinsh.db (the default database)."""

    def test_the_readme_lines_run(self):
        source = os.path.dirname(os.path.dirname(HERE))
        with open(os.path.join(source, "README.md")) as f:
            text = f.read()
        block = text.split("```python\n", 1)[1].split("```", 1)[0]
        tmp = TempDir()
        cwd = os.getcwd()
        try:
            os.rename(small_db(tmp, games=2), tmp.join("yinsh.db"))
            os.chdir(tmp.path)
            scope = {}
            exec(compile(block, "README.md", "exec"), scope)
            self.assertGreater(len(scope["data"]["action"]), 0)
        finally:
            os.chdir(cwd)
            tmp.remove()


class ReadmeVenv(unittest.TestCase):
    """README.md's virtual environment line gives a Python that imports
    Debian's numpy: it names Debian's /usr/bin/python3, since the
    python3 first on PATH may be another (pyenv's, without numpy), whose
    --system-site-packages are not Debian's (issue 56)."""

    def test_the_venv_line_sees_debians_numpy(self):
        source = os.path.dirname(os.path.dirname(HERE))
        with open(os.path.join(source, "README.md")) as f:
            line = next(l for l in f if "-m venv" in l)
        command = line.split("&&", 1)[0].split()
        self.assertEqual(command[0], "/usr/bin/python3", line)
        have = subprocess.run([command[0], "-c", "import numpy"], capture_output=True).returncode == 0
        if not have:
            self.skipTest("Debian's python3-numpy is not installed")
        tmp = TempDir()
        try:
            venv = tmp.join("venv")
            env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LD_PRELOAD")}
            subprocess.run(command[:-1] + [venv], check=True, capture_output=True, env=env)
            p = subprocess.run([os.path.join(venv, "bin", "python3"), "-c", "import numpy"], capture_output=True,
                               text=True, env=env)
            self.assertEqual(p.returncode, 0, p.stderr)
        finally:
            tmp.remove()


try:
    import torch  # noqa: F401
    HAVE_TORCH = sys.modules.get("numpy", 0) is not None
except ImportError:
    HAVE_TORCH = False


@unittest.skipUnless(HAVE_TORCH, "python/examples/torch_net.py needs torch and numpy (Debian: python3-torch; "
                                 "run.py --numpy with /usr/bin/python3)")
class TorchNet(unittest.TestCase):
    """python/examples/torch_net.py, the loop's example net: a fresh net's
    evaluator gives priors over the legal actions and values in [0, 1],
    it trains on a database's positions, and it plays the lab's
    self-play into the database (issue 56)."""

    def test_new_load_train_and_selfplay(self):
        import numpy as np
        sys.path.insert(0, os.path.join(os.path.dirname(HERE), "examples"))
        import torch_net
        import yinsh
        import yinsh.selfplay
        tmp = TempDir()
        try:
            net = tmp.join("net0.pt")
            torch_net.new(net, seed=1)
            ev = torch_net.load(net)
            p = yinsh.Position()
            planes = p.planes("actor").reshape(1, yinsh.PLANES, yinsh.CELLS)
            mask = p.legal_mask().reshape(1, yinsh.ACTIONS)
            priors, values = ev(np.ascontiguousarray(planes), np.ascontiguousarray(mask))
            self.assertAlmostEqual(float(priors[0][mask[0] == 1].sum()), 1.0, places=4)
            self.assertEqual(float(priors[0][mask[0] == 0].sum()), 0.0)
            self.assertTrue(0 <= float(values[0]) <= 1)
            db = tmp.join("t.db")
            cwd = os.getcwd()
            os.chdir(os.path.join(os.path.dirname(HERE), "examples"))
            try:
                out = yinsh.selfplay.run("torch_net:load", db, "r0", net=net, games=2, seed=3,
                                         agent=yinsh.selfplay.agent_spec("torch_net:load", 16, batch=8),
                                         games_at_once=2)
            finally:
                os.chdir(cwd)
            self.assertTrue(out["complete"])
            losses = torch_net.train(db, ["r0"], net, tmp.join("net1.pt"), epochs=1)
            self.assertGreater(losses["positions"], 0)
            self.assertTrue(np.isfinite(losses["policy"]) and np.isfinite(losses["value"]))
            self.assertTrue(os.path.exists(tmp.join("net1.pt")))
        finally:
            tmp.remove()
