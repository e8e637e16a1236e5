"""Runs the Python tests of the yinsh package (unittest, standard library).

    python3 python/tests/run.py [--no-numpy | --numpy] [unittest arguments...]

--no-numpy hides numpy (import numpy fails), so the plain-buffer path is
the one tested even where numpy is installed; --numpy requires it, and
exits 77 (ctest's "skipped") saying so where it is not installed. The
package and the yinsh binary are found as the tests' helper says
(python/tests/helpers.py): PYTHONPATH, YINSH_LIB and YINSH_BIN, by
default those of the source tree's build/."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    args = sys.argv[1:]
    if "--no-numpy" in args:
        args.remove("--no-numpy")
        sys.modules["numpy"] = None  # import numpy raises ImportError
    if "--numpy" in args:
        args.remove("--numpy")
        try:
            import numpy  # noqa: F401
        except ImportError:
            print("python tests: skipped: numpy is not installed for %s (Debian: apt-get install python3-numpy)"
                  % sys.executable)
            sys.exit(77)
    sys.path.insert(0, HERE)
    sys.path.insert(0, os.path.dirname(HERE))
    import yinsh
    print("yinsh %s from %s, library %s, numpy %s" % (yinsh.__version__, os.path.dirname(yinsh.__file__),
                                                      yinsh.library_path,
                                                      "yes" if sys.modules.get("numpy") else "no"))
    suite = unittest.defaultTestLoader.discover(HERE, pattern="test_*.py", top_level_dir=HERE)
    result = unittest.TextTestRunner(verbosity=1 if "-q" in args else 2).run(suite)
    sys.exit(0 if result.wasSuccessful() else 1)


if __name__ == "__main__":
    main()
