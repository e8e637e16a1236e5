"""Arrays: numpy's when numpy can be imported, else the standard library's
(array.array, bytearray), so that nothing but Python is needed. Each
function returns the buffer and a ctypes pointer into it for a C call to
fill."""

import array
import ctypes
from typing import Any, Optional, Sequence, Tuple

try:
    import numpy
except ImportError:
    numpy = None


def have_numpy() -> bool:
    return numpy is not None


def uint8(n: int, shape: Optional[Tuple[int, ...]] = None, fill: bool = True) -> Tuple[Any, Any]:
    """n bytes: a numpy uint8 array (of shape, if given) or a bytearray;
    without fill, numpy's is left as it comes (for a call that writes it)."""
    if numpy is not None:
        a = (numpy.zeros if fill else numpy.empty)(shape or (n,), dtype=numpy.uint8)
        return a, a.ctypes.data_as(ctypes.POINTER(ctypes.c_uint8))
    a = bytearray(n)
    return a, (ctypes.c_uint8 * n).from_buffer(a)


def float32(n: int, shape: Optional[Tuple[int, ...]] = None, fill: bool = True) -> Tuple[Any, Any]:
    """n floats: a numpy float32 array (of shape, if given) or an array('f')."""
    if numpy is not None:
        a = (numpy.zeros if fill else numpy.empty)(shape or (n,), dtype=numpy.float32)
        return a, a.ctypes.data_as(ctypes.POINTER(ctypes.c_float))
    a = array.array("f", bytes(4 * n))
    address, _ = a.buffer_info()
    return a, ctypes.cast(address, ctypes.POINTER(ctypes.c_float))


def column(values: Sequence[float], typecode: str, dtype: Any) -> Any:
    """A list of numbers as one array: numpy's of dtype, or array(typecode)."""
    if numpy is not None:
        return numpy.asarray(values, dtype=dtype)
    return array.array(typecode, values)
