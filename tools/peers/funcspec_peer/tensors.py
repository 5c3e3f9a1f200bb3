"""Tensors as the protocol carries them (docs/case-format.md, *Tensors*), in NumPy.

Both peers read case tensors through NumPy: the logical values, plus the strided layout an input
asks for (a buffer, element strides and an offset), which a peer with strided tensors (PyTorch)
reproduces and a peer without them (JAX) ignores, since a layout never changes logical values.
"""

from __future__ import annotations

import base64
import math
from dataclasses import dataclass
from typing import Any, Optional, Sequence

import numpy as np

# The case format's dtypes and their little-endian NumPy spellings (protocol: C order, LE bytes).
NUMPY_DTYPES = {
    "bool": np.dtype("|b1"),
    "int64": np.dtype("<i8"),
    "float32": np.dtype("<f4"),
    "float64": np.dtype("<f8"),
}


class CaseFormatError(ValueError):
    """A request whose case this peer cannot read: answered as a rejection (no error kind)."""


@dataclass
class Layout:
    """Where the logical elements of an input sit in a buffer (docs/case-format.md, layouts)."""

    buffer_size: int
    strides: tuple[int, ...]
    offset: int


@dataclass
class CaseTensor:
    dtype: str
    shape: tuple[int, ...]
    values: Optional[np.ndarray]  # logical values in C order; None when a meta input omits them
    layout: Optional[Layout]  # None: contiguous

    @property
    def is_floating(self) -> bool:
        return self.dtype in ("float32", "float64")

    def strided_buffer(self) -> tuple[np.ndarray, tuple[int, ...], int]:
        """A 1-D buffer holding the values at the layout's positions, with gaps filled loudly.

        Gap elements hold NaN, INT64_MIN or True (as the reference does), so a peer that reads
        outside the view produces garbage a test notices.
        """
        values = self.values if self.values is not None else np.zeros(self.shape, NUMPY_DTYPES[self.dtype])
        layout = self.layout or contiguous_layout(self.shape)
        gap = {"bool": True, "int64": np.iinfo(np.int64).min}.get(self.dtype, np.nan)
        buffer = np.full(max(layout.buffer_size, 1), gap, dtype=NUMPY_DTYPES[self.dtype])
        itemsize = buffer.itemsize
        view = np.lib.stride_tricks.as_strided(
            buffer[layout.offset:], shape=self.shape, strides=tuple(s * itemsize for s in layout.strides)
        )
        # Several logical elements may share one buffer element (stride 0); the case reader has
        # checked that they hold equal values, so repeated writes are harmless.
        view[...] = values
        return buffer, layout.strides, layout.offset


def contiguous_strides(shape: Sequence[int]) -> tuple[int, ...]:
    strides = []
    running = 1
    for size in reversed(shape):
        strides.append(running)
        running *= max(size, 1)
    return tuple(reversed(strides))


def contiguous_layout(shape: Sequence[int]) -> Layout:
    return Layout(int(math.prod(shape)), contiguous_strides(shape), 0)


def layout_of(spec: dict[str, Any], shape: tuple[int, ...]) -> Layout:
    """The buffer geometry of a layout object, computed as the case format defines it."""
    rank = len(shape)
    if "strides" in spec:
        strides = tuple(int(s) for s in spec["strides"])
        offset = int(spec.get("offset", 0))
        extent = offset + sum((n - 1) * s for n, s in zip(shape, strides)) + 1 if all(shape) else offset + 1
        return Layout(extent, strides, offset)
    permute = [int(p) for p in spec.get("permute", range(rank))]
    sliced = spec.get("slice", {})
    start = [int(s) for s in sliced.get("start", [0] * rank)]
    step = [int(s) for s in sliced.get("step", [1] * rank)]
    # The (permuted) buffer is just large enough for each dim's last element; an empty dim keeps
    # one element so that the view's offset stays inside it.
    buffer_shape = [0] * rank
    for d in range(rank):
        extent = start[d] + 1 if shape[d] == 0 else start[d] + (shape[d] - 1) * step[d] + 1
        buffer_shape[permute[d]] = extent
    buffer_strides = contiguous_strides(buffer_shape)
    strides = tuple(buffer_strides[permute[d]] * step[d] for d in range(rank))
    offset = sum(start[d] * buffer_strides[permute[d]] for d in range(rank))
    return Layout(int(math.prod(buffer_shape)), strides, offset)


def _element(value: Any, dtype: str) -> Any:
    if dtype in ("float32", "float64") and isinstance(value, str):
        text = value.strip().lower()
        if text in ("nan", "inf", "+inf", "-inf"):
            return float(text)
        return float.fromhex(value)
    return value


def _flatten(data: Any) -> list[Any]:
    if isinstance(data, list):
        return [leaf for item in data for leaf in _flatten(item)]
    return [data]


def decode_tensor(spec: dict[str, Any], where: str, allow_omitted: bool = False) -> CaseTensor:
    """A tensor object of a request: `base64` (what the suite sends), `data`, or dtype and shape alone."""
    try:
        dtype = spec["dtype"]
        shape = tuple(int(n) for n in spec["shape"])
    except (KeyError, TypeError, ValueError) as e:
        raise CaseFormatError(f"{where}: a tensor needs 'dtype' and 'shape' ({e})") from None
    if dtype not in NUMPY_DTYPES:
        raise CaseFormatError(f"{where}: unknown dtype {dtype!r}")
    np_dtype = NUMPY_DTYPES[dtype]
    values: Optional[np.ndarray]
    if "base64" in spec:
        raw = base64.b64decode(spec["base64"], validate=True)
        if len(raw) != math.prod(shape) * np_dtype.itemsize:
            if allow_omitted and not raw:
                values = None
            else:
                raise CaseFormatError(f"{where}: {len(raw)} bytes do not fill {dtype}{list(shape)}")
        else:
            values = np.frombuffer(raw, dtype=np_dtype).reshape(shape).copy()
    elif "data" in spec:
        flat = [_element(v, dtype) for v in _flatten(spec["data"])]
        values = np.array(flat, dtype=np_dtype).reshape(shape)
    elif allow_omitted:
        values = None
    else:
        raise CaseFormatError(f"{where}: a tensor without values")
    layout = layout_of(spec["layout"], shape) if "layout" in spec else None
    return CaseTensor(dtype, shape, values, layout)


def encode_values(array: np.ndarray) -> str:
    """Standard padded base64 of the C-order little-endian elements (bool as one byte 0/1)."""
    little = np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<"), copy=False)
    return base64.b64encode(little.tobytes()).decode("ascii")


def dtype_name_of_numpy(dtype: np.dtype) -> Optional[str]:
    for name, np_dtype in NUMPY_DTYPES.items():
        if np.dtype(dtype) == np_dtype:
            return name
    return None
