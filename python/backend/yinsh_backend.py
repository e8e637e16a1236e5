"""The build backend of the yinsh package (PEP 517), standard library only.

A wheel holds python/yinsh/*.py, the py.typed marker (PEP 561: the
package's type hints are for type checkers) and, when it is found, the shared library
that CMake built, copied in as yinsh/libyinsh.so, where the package looks
first after YINSH_LIB (yinsh/_lib.py): the file YINSH_LIB names, else
build/libyinsh.so of the source tree. Without either the wheel is pure
Python, and the package then finds the library through YINSH_LIB, the
build tree or the system's loader at import. Nothing is compiled.
"""

import base64
import hashlib
import io
import os
import re
import sysconfig
import tarfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)  # python/
NAME = "yinsh"


def _version():
    with open(os.path.join(ROOT, "pyproject.toml")) as f:
        return re.search(r'^version\s*=\s*"([^"]+)"', f.read(), re.M).group(1)


def _check(path, where):
    """path is a shared library that is libyinsh: loaded (ctypes), with
    yinsh_api_version. A wheel never carries another file under its name."""
    import ctypes
    try:
        found = ctypes.CDLL(path)
    except OSError as e:
        raise ValueError("%s=%s is not a shared library that loads here: %s" % (where, path, e)) from None
    if not hasattr(found, "yinsh_api_version"):
        raise ValueError("%s=%s is a shared library but not libyinsh (it has no yinsh_api_version)" % (where, path))
    return path


def _library():
    """The shared library to copy in, or None. A YINSH_LIB that names no
    file, or a file that is not libyinsh, is an error, not a wheel without
    the library asked for (or with another file in its place)."""
    path = os.environ.get("YINSH_LIB")
    if path:
        if not os.path.isfile(path):
            raise FileNotFoundError("YINSH_LIB=%s: no such file (the build runs in %s)" % (path, os.getcwd()))
        return _check(os.path.realpath(path), "YINSH_LIB")
    path = os.path.join(os.path.dirname(ROOT), "build", "libyinsh.so")
    return _check(os.path.realpath(path), "the build tree's library") if os.path.isfile(path) else None


def _metadata():
    return ("Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: YINSH positions, agents and self-play databases "
            "from Python: Yinsh Lab's engine through ctypes\nRequires-Python: >=3.8\n" % (NAME, _version()))


def _tag():
    if _library() is None:
        return "py3-none-any", True
    return "py3-none-" + sysconfig.get_platform().replace("-", "_").replace(".", "_"), False


def _wheel_text(tag, pure):
    return "Wheel-Version: 1.0\nGenerator: yinsh_backend\nRoot-Is-Purelib: %s\nTag: %s\n" % (
        "true" if pure else "false", tag)


def _dist_info():
    return "%s-%s.dist-info" % (NAME, _version())


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    tag, pure = _tag()
    d = os.path.join(metadata_directory, _dist_info())
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "METADATA"), "w") as f:
        f.write(_metadata())
    with open(os.path.join(d, "WHEEL"), "w") as f:
        f.write(_wheel_text(tag, pure))
    return _dist_info()


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d" % (name, digest, len(data))


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    tag, pure = _tag()
    files = []
    package = os.path.join(ROOT, NAME)
    for name in sorted(os.listdir(package)):
        if name.endswith(".py") or name == "py.typed":
            with open(os.path.join(package, name), "rb") as f:
                files.append(("%s/%s" % (NAME, name), f.read()))
    lib = _library()
    if lib:
        with open(lib, "rb") as f:
            files.append(("%s/libyinsh.so" % NAME, f.read()))
    info = _dist_info()
    files.append(("%s/METADATA" % info, _metadata().encode()))
    files.append(("%s/WHEEL" % info, _wheel_text(tag, pure).encode()))
    files.append(("%s/top_level.txt" % info, (NAME + "\n").encode()))
    record = [_record_line(n, d) for n, d in files] + ["%s/RECORD,," % info]
    files.append(("%s/RECORD" % info, ("\n".join(record) + "\n").encode()))
    filename = "%s-%s-%s.whl" % (NAME, _version(), tag)
    with zipfile.ZipFile(os.path.join(wheel_directory, filename), "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files:
            zi = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            zi.external_attr = (0o755 if name.endswith(".so") else 0o644) << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, data)
    return filename


def build_sdist(sdist_directory, config_settings=None):
    """The package's sources (no library: a wheel built from them takes
    YINSH_LIB's)."""
    base = "%s-%s" % (NAME, _version())
    filename = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz") as t:
        for sub in ("pyproject.toml", "backend", NAME):
            t.add(os.path.join(ROOT, sub), arcname="%s/%s" % (base, sub),
                  filter=lambda ti: None if ti.name.endswith((".pyc", ".so")) or "__pycache__" in ti.name else ti)
        info = tarfile.TarInfo("%s/PKG-INFO" % base)
        data = _metadata().encode()
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
    return filename
