"""Finding the library: a YINSH_LIB that names another file or another
library is refused at import, and `pip install` never packs such a file
as libyinsh (python/backend). The package's numbers are the library's,
and its wheel carries the py.typed marker."""

import os
import subprocess
import sys
import tempfile
import unittest
import zipfile

import yinsh

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.dirname(HERE)


def import_with(lib):
    env = dict(os.environ, YINSH_LIB=lib, PYTHONPATH=PACKAGE)
    p = subprocess.run([sys.executable, "-c", "import yinsh"], capture_output=True, text=True, env=env, timeout=60)
    return p.returncode, p.stderr


class Library(unittest.TestCase):
    def test_another_library_is_no_libyinsh(self):
        rc, err = import_with("libm.so.6")
        self.assertNotEqual(rc, 0)
        self.assertIn("ImportError", err)
        self.assertNotIn("AttributeError", err)
        self.assertIn("not libyinsh", err)

    def test_a_file_that_is_no_library(self):
        rc, err = import_with("/etc/passwd")
        self.assertNotEqual(rc, 0)
        self.assertIn("ImportError", err)
        self.assertIn("/etc/passwd", err)

    def test_the_build_backend_packs_only_libyinsh(self):
        sys.path.insert(0, os.path.join(PACKAGE, "backend"))
        try:
            import yinsh_backend
        finally:
            sys.path.pop(0)
        saved = os.environ.get("YINSH_LIB")
        try:
            for bad, why in (("/etc/passwd", "not a shared library"),):
                os.environ["YINSH_LIB"] = bad
                with self.assertRaises(ValueError) as e:
                    yinsh_backend._library()
                self.assertIn(why, str(e.exception))
            if saved:
                os.environ["YINSH_LIB"] = saved
                self.assertTrue(yinsh_backend._library().endswith(".so") or "libyinsh" in yinsh_backend._library())
        finally:
            if saved is None:
                os.environ.pop("YINSH_LIB", None)
            else:
                os.environ["YINSH_LIB"] = saved

    def test_the_numbers_are_the_librarys(self):
        c = yinsh._c
        for name in ("ACTIONS", "PLANES", "GRID", "CELLS", "OBSERVATION", "PLACE0", "MOVE0", "PASS", "ROW0", "RING0",
                     "GAME_MAX"):
            self.assertEqual(getattr(yinsh, name), c.yinsh_constant(name.encode()), name)
        for name in ("ERR_LEN", "YPN_LEN", "ACTION_LEN", "SPEC_LEN", "MAX_ACTIONS", "LEGAL_TEXT_LEN", "PV_MAX"):
            self.assertEqual(getattr(yinsh._lib, name), c.yinsh_constant(name.encode()), name)
        self.assertEqual(c.yinsh_constant(b"NO_SUCH"), -1)
        self.assertEqual((yinsh.ACTIONS, yinsh.PLANES, yinsh.OBSERVATION), (2142, 17, 2057))

    def test_the_wheel_is_typed(self):
        self.assertTrue(os.path.isfile(os.path.join(PACKAGE, "yinsh", "py.typed")))
        sys.path.insert(0, os.path.join(PACKAGE, "backend"))
        try:
            import yinsh_backend
        finally:
            sys.path.pop(0)
        with tempfile.TemporaryDirectory() as d:
            with zipfile.ZipFile(os.path.join(d, yinsh_backend.build_wheel(d))) as z:
                names = z.namelist()
        self.assertIn("yinsh/py.typed", names)
        self.assertIn("yinsh/position.py", names)


if __name__ == "__main__":
    unittest.main()
