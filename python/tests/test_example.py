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
    (a pyenv Python), in a folder with results/yinsh.db."""

    def test_the_readme_lines_run(self):
        source = os.path.dirname(os.path.dirname(HERE))
        with open(os.path.join(source, "README.md")) as f:
            text = f.read()
        block = text.split("```python\n", 1)[1].split("```", 1)[0]
        tmp = TempDir()
        cwd = os.getcwd()
        try:
            os.makedirs(tmp.join("results"))
            os.rename(small_db(tmp, games=2), tmp.join("results/yinsh.db"))
            os.chdir(tmp.path)
            scope = {}
            exec(compile(block, "README.md", "exec"), scope)
            self.assertGreater(len(scope["data"]["action"]), 0)
        finally:
            os.chdir(cwd)
            tmp.remove()
