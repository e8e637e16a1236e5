"""One call at a time on an Agent or a PuctAgent (include/yinsh.h, "Agents
and PUCT searches in use"): a call made while another of the same object
runs (from another thread, or from a PuctAgent's own evaluate) raises
BusyError, and close() during a call closes the object to every later
call and leaves the release of its handle to the running call, which
returns as it would have. The state is the object's own, under a lock
held only while it changes, never across a call into C."""

import contextlib
import threading
from typing import Any, Callable, Iterator

from . import _lib


def init(obj: Any, h: Any) -> None:
    """The object's handle, idle."""
    obj._use = threading.Lock()
    obj._busy = False
    obj._pending = None  # (free, handle): closed during a call, released when it returns
    obj._h = h


@contextlib.contextmanager
def call(obj: Any, what: str) -> Iterator[Any]:
    """The handle for one call: ClosedError once closed, BusyError while
    another call runs."""
    with obj._use:
        h = _lib.handle(obj, what)
        if obj._busy:
            raise _lib.BusyError(-7, "%s is busy: a call of it has not returned (this one came from another thread, "
                                     "or from its search's evaluate); one call at a time" % what)
        obj._busy = True
    try:
        yield h
    finally:
        with obj._use:
            obj._busy = False
            pending, obj._pending = obj._pending, None
        if pending is not None:
            pending[0](pending[1])


def close(obj: Any, free: Callable[[Any], None]) -> None:
    """Closes obj: its handle released now, or by the call that runs."""
    lock = getattr(obj, "_use", None)
    if lock is None:  # the constructor failed before it had a handle
        return
    with lock:
        h, obj._h = obj._h, None
        if not h:
            return
        if obj._busy:
            obj._pending = (free, h)
            return
    free(h)
