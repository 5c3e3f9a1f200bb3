"""The op catalogue (`funcspec ops`) as JAX calls.

Each catalogue op maps to the jax.numpy / jax.nn / jax.lax / jax.scipy call a JAX user would
write, with PyTorch's argument conventions translated (a `dim` becomes an `axis`, torch's
`split(split_size)` becomes jnp.split at the matching indices). What JAX does not have is left
out of the table, so the driver does not declare it and the suite reports those cases
unsupported: in-place ops and out= variants (JAX arrays are immutable), and the losses and layers
that live in libraries built on JAX (Flax, Optax) rather than in JAX. Values follow JAX's own
semantics, type promotion included (its weak-typed Python scalars, float64 defaults under x64);
where they differ from the spec the conformance matrix says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional

import jax
import jax.numpy as jnp
import jax.scipy.linalg
import jax.scipy.linalg as jsl
import jax.scipy.special as jsp
import numpy as np

from funcspec_peer.orders import matrix_ord, number_or_name
from funcspec_peer.wire import SpecError, Unsupported

JAX_DTYPES = {
    "bool": jnp.bool_,
    "int64": jnp.int64,
    "float32": jnp.float32,
    "float64": jnp.float64,
}

_NUMERIC_ATTRS = frozenset(
    {"alpha", "value", "fill_value", "p", "beta", "threshold", "mean", "std", "from", "to", "start", "end", "step",
     "eps", "label_smoothing", "correction", "ord", "maxnorm", "lambd"}
)

Impl = Callable[..., Any]


class KeyState:
    """The case's PRNG key, split for every draw: JAX's explicit-key model as a program sees it.

    Random ops take a fresh subkey from here in program order. A vmap with randomness='different'
    replaces `key` by a per-example key (mapped over the batch) while its function runs, so each
    example draws from its own key, and 'same' leaves the closed-over key, so every example draws
    the same values: the two ways JAX code expresses the two behaviours.
    """

    def __init__(self, seed: int) -> None:
        self.key = jax.random.PRNGKey(seed % (1 << 32))

    def next(self) -> Any:
        self.key, sub = jax.random.split(self.key)
        return sub


@dataclass
class Context:
    keys: KeyState
    meta: bool


def jax_dtype(name: Optional[str]) -> Any:
    if name is None:
        return None
    if name == "oracle":
        raise Unsupported("the oracle dtype is the reference's own; JAX has no such dtype")
    return JAX_DTYPES[name]


def attrs_for_jax(attrs: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for name, value in attrs.items():
        if name == "dtype":
            value = jax_dtype(value)
        elif name in _NUMERIC_ATTRS and isinstance(value, str):
            value = number_or_name(value)
        out["from_" if name == "from" else name] = value
    return out


def _axes(dim: Any) -> Optional[tuple[int, ...]]:
    if dim is None:
        return None
    return (dim,) if isinstance(dim, int) else tuple(dim)


def _ndim(x: Any) -> int:
    return jnp.ndim(x)


def _size(size: Any) -> tuple[int, ...]:
    return (size,) if isinstance(size, int) else tuple(size)


def _device(ctx: "Context", device: str) -> None:
    # Under jax.eval_shape (a meta case) every array is abstract, so a meta creation op is one.
    if device != "cpu" and not (device == "meta" and ctx.meta):
        raise Unsupported(f"JAX has no {device} device for a creation op (jax.eval_shape stands for meta cases)")


def _piece_bounds(n: int, size: int) -> list[int]:
    """jnp.split indices giving pieces of `size` along a dim of `n` (PyTorch's split)."""
    return list(range(size, n, size)) if size > 0 else []


def build_ops() -> dict[str, Impl]:
    ops: dict[str, Impl] = {}

    def op(name: str) -> Callable[[Impl], Impl]:
        def register(fn: Impl) -> Impl:
            ops[name] = fn
            return fn

        return register

    # Unary elementwise.
    for name, fn in {
        "neg": jnp.negative, "abs": jnp.abs, "sign": jnp.sign, "square": jnp.square, "floor": jnp.floor,
        "ceil": jnp.ceil, "round": jnp.round, "exp": jnp.exp, "expm1": jnp.expm1, "log": jnp.log,
        "log1p": jnp.log1p, "sqrt": jnp.sqrt, "rsqrt": jax.lax.rsqrt, "reciprocal": jnp.reciprocal,
        "sin": jnp.sin, "cos": jnp.cos, "tan": jnp.tan, "tanh": jnp.tanh, "sigmoid": jax.nn.sigmoid,
        "erf": jsp.erf, "relu": jax.nn.relu, "logical_not": jnp.logical_not,
    }.items():
        ops[name] = lambda ctx, x, fn=fn: fn(x)

    # Catalogue arguments JAX's functions do not take (gelu's approximate, div's rounding_mode) are
    # translated here, so a value the catalogue refuses is refused here as the catalogue's error.
    @op("gelu")
    def gelu(ctx, x, approximate="none"):
        if approximate not in ("none", "tanh"):
            raise SpecError("invalid_argument", f"gelu has no approximation {approximate!r}")
        return jax.nn.gelu(x, approximate=approximate == "tanh")

    @op("softplus")
    def softplus(ctx, x, beta=1.0, threshold=20.0):
        # jax.nn.softplus has neither beta nor PyTorch's linear threshold; beta scales the input.
        return jax.nn.softplus(x) if beta == 1.0 else jax.nn.softplus(beta * x) / beta

    # Activation functions (docs/ops/activation.md) that jax.nn has; softmin, tanhshrink, the
    # shrinks, threshold and prelu it lacks, and it has no in-place or out= forms.
    ops["elu"] = lambda ctx, x, alpha=1.0: jax.nn.elu(x, alpha)
    ops["selu"] = lambda ctx, x: jax.nn.selu(x)
    ops["celu"] = lambda ctx, x, alpha=1.0: jax.nn.celu(x, alpha)
    ops["leaky_relu"] = lambda ctx, x, negative_slope=0.01: jax.nn.leaky_relu(x, negative_slope)
    ops["relu6"] = lambda ctx, x: jax.nn.relu6(x)
    ops["hardsigmoid"] = lambda ctx, x: jax.nn.hard_sigmoid(x)
    ops["hardswish"] = lambda ctx, x: jax.nn.hard_swish(x)
    ops["silu"] = lambda ctx, x: jax.nn.silu(x)
    ops["mish"] = lambda ctx, x: jax.nn.mish(x)
    ops["glu"] = lambda ctx, x, dim=-1: jax.nn.glu(x, axis=dim)
    ops["logsigmoid"] = lambda ctx, x: jax.nn.log_sigmoid(x)
    ops["softsign"] = lambda ctx, x: jax.nn.soft_sign(x)

    @op("hardtanh")
    def hardtanh(ctx, x, min_val=-1, max_val=1):
        if (min_val, max_val) != (-1, 1):
            raise Unsupported("jax.nn.hard_tanh has fixed bounds -1 and 1")
        return jax.nn.hard_tanh(x)

    # Binary elementwise.
    @op("add")
    def add(ctx, a, b, alpha=1):
        return jnp.add(a, b) if alpha == 1 else jnp.add(a, jnp.multiply(alpha, b))

    @op("sub")
    def sub(ctx, a, b, alpha=1):
        return jnp.subtract(a, b) if alpha == 1 else jnp.subtract(a, jnp.multiply(alpha, b))

    @op("div")
    def div(ctx, a, b, rounding_mode=None):
        if rounding_mode is None:
            return jnp.true_divide(a, b)
        if rounding_mode == "floor":
            return jnp.floor_divide(a, b)
        if rounding_mode == "trunc":
            if jnp.issubdtype(jnp.result_type(a, b), jnp.integer):
                dtype = jnp.result_type(a, b)
                return jax.lax.div(*jnp.broadcast_arrays(jnp.asarray(a, dtype), jnp.asarray(b, dtype)))
            return jnp.trunc(jnp.true_divide(a, b))
        raise SpecError("invalid_argument", f"div has no rounding mode {rounding_mode!r}")

    for name, fn in {
        "mul": jnp.multiply, "pow": jnp.power, "maximum": jnp.maximum, "minimum": jnp.minimum,
        "atan2": jnp.arctan2, "remainder": jnp.remainder, "eq": jnp.equal, "ne": jnp.not_equal,
        "lt": jnp.less, "le": jnp.less_equal, "gt": jnp.greater, "ge": jnp.greater_equal,
        "logical_and": jnp.logical_and, "logical_or": jnp.logical_or,
    }.items():
        ops[name] = lambda ctx, a, b, fn=fn: fn(a, b)
    ops["where"] = lambda ctx, c, a, b: jnp.where(c, a, b)
    ops["clamp"] = lambda ctx, x, min=None, max=None: jnp.clip(x, min, max)

    # Special functions (docs/ops/special.md) that jnp and jax.scipy.special have; lerp, addcmul and
    # addcdiv they lack, and jax.scipy.special.logit has no eps.
    for name, fn in {"xlogy": jsp.xlogy, "special_xlog1py": jsp.xlog1py, "hypot": jnp.hypot,
                     "copysign": jnp.copysign, "logaddexp": jnp.logaddexp, "logaddexp2": jnp.logaddexp2}.items():
        ops[name] = lambda ctx, a, b, fn=fn: fn(a, b)
    ops["special_entr"] = lambda ctx, x: jsp.entr(x)
    # JAX has no frac (jnp.modf's fractional part is 0 at infinities, frac's NaN).
    for name, fn in {"asin": jnp.arcsin, "acos": jnp.arccos, "atan": jnp.arctan, "sinh": jnp.sinh, "cosh": jnp.cosh,
                     "asinh": jnp.arcsinh, "acosh": jnp.arccosh, "atanh": jnp.arctanh, "exp2": jnp.exp2,
                     "log2": jnp.log2, "log10": jnp.log10, "erfc": jsp.erfc, "trunc": jnp.trunc,
                     "deg2rad": jnp.deg2rad, "isnan": jnp.isnan, "isinf": jnp.isinf, "isfinite": jnp.isfinite}.items():
        ops[name] = lambda ctx, x, fn=fn: fn(x)
    ops["sinc"] = lambda ctx, x: jnp.sinc(x)
    ops["clamp_min"] = lambda ctx, x, min: jnp.clip(x, min, None)
    ops["clamp_max"] = lambda ctx, x, max: jnp.clip(x, None, max)

    @op("logit")
    def logit(ctx, x, eps=None):
        if eps is not None:
            raise Unsupported("jax.scipy.special.logit has no eps")
        return jsp.logit(x)

    # Reductions.
    def reduction(fn: Impl, with_dtype: bool) -> Impl:
        def impl(ctx, x, dim=None, keepdim=False, dtype=None):
            axes = _axes(dim)
            kw = {"dtype": dtype} if with_dtype and dtype is not None else {}
            return fn(x, axis=None if not axes else axes, keepdims=keepdim, **kw)

        return impl

    ops["sum"] = reduction(jnp.sum, True)
    ops["prod"] = reduction(jnp.prod, True)
    ops["mean"] = reduction(jnp.mean, True)
    ops["amax"] = reduction(jnp.max, False)
    ops["amin"] = reduction(jnp.min, False)
    ops["all"] = reduction(jnp.all, False)
    ops["any"] = reduction(jnp.any, False)
    ops["argmax"] = lambda ctx, x, dim=None, keepdim=False: jnp.argmax(x, axis=dim, keepdims=keepdim)
    ops["argmin"] = lambda ctx, x, dim=None, keepdim=False: jnp.argmin(x, axis=dim, keepdims=keepdim)
    # max.dim / min.dim: the value and its index (jnp.argmax: the first of ties, the first NaN).
    # median, nanmedian, kthvalue and cummax/cummin's indices have no JAX function: unmapped.
    # The value is taken at the index, as a JAX user selects it, so that its derivative goes there.
    def extreme_along(arg: Callable[..., Any]) -> Impl:
        def impl(ctx, x, dim, keepdim=False):
            if _ndim(x) == 0:
                return x, jnp.zeros((), jnp.int64)
            indices = arg(x, axis=dim, keepdims=True)
            values = jnp.take_along_axis(x, indices, axis=dim)
            if not keepdim:
                values, indices = jnp.squeeze(values, dim), jnp.squeeze(indices, dim)
            return values, indices.astype(jnp.int64)

        return impl

    ops["max.dim"] = extreme_along(jnp.argmax)
    ops["nansum"] = reduction(jnp.nansum, True)
    ops["nanmean"] = reduction(jnp.nanmean, True)
    ops["count_nonzero"] = lambda ctx, x, dim=None: jnp.count_nonzero(x, axis=dim).astype(jnp.int64)
    ops["argsort"] = lambda ctx, x, dim=-1, descending=False: jnp.argsort(
        x, axis=dim, stable=True, descending=descending).astype(jnp.int64)
    ops["argsort.stable"] = lambda ctx, x, stable, dim=-1, descending=False: jnp.argsort(
        x, axis=dim, stable=stable, descending=descending).astype(jnp.int64)
    ops["msort"] = lambda ctx, x: jnp.sort(x, axis=0)
    ops["min.dim"] = extreme_along(jnp.argmin)
    ops["norm"] = lambda ctx, x, p=2, dim=None, keepdim=False: jnp.linalg.vector_norm(
        x, axis=_axes(dim) or None, keepdims=keepdim, ord=p)
    ops["var"] = lambda ctx, x, dim=None, correction=None, keepdim=False: jnp.var(
        x, axis=_axes(dim) or None, ddof=1 if correction is None else correction, keepdims=keepdim)
    ops["std"] = lambda ctx, x, dim=None, correction=None, keepdim=False: jnp.std(
        x, axis=_axes(dim) or None, ddof=1 if correction is None else correction, keepdims=keepdim)
    ops["logsumexp"] = lambda ctx, x, dim, keepdim=False: jsp.logsumexp(x, axis=_axes(dim) or None,
                                                                       keepdims=keepdim)

    # Scans and reorderings.
    ops["cumsum"] = lambda ctx, x, dim, dtype=None: jnp.cumsum(x, axis=dim, dtype=dtype)
    ops["cumprod"] = lambda ctx, x, dim, dtype=None: jnp.cumprod(x, axis=dim, dtype=dtype)
    # Issue 23's second batch: jax.lax.cumlogsumexp, jnp.diff, jnp.trapezoid; JAX has no
    # cumulative_trapezoid (jax.scipy.integrate holds trapezoid only): unmapped.
    # jax.lax.cumlogsumexp takes a non-negative axis; a dim out of range is left for it to refuse.
    ops["logcumsumexp"] = lambda ctx, x, dim: x if _ndim(x) == 0 else jax.lax.cumlogsumexp(
        x, axis=dim + _ndim(x) if -_ndim(x) <= dim < 0 else dim)
    ops["diff"] = lambda ctx, x, prepend=None, append=None, n=1, dim=-1: jnp.diff(
        x, n=n, axis=dim, prepend=prepend, append=append)
    ops["trapezoid.x"] = lambda ctx, y, x, dim=-1: jnp.trapezoid(y, x=x, axis=dim)
    ops["trapezoid.dx"] = lambda ctx, y, dx=1, dim=-1: jnp.trapezoid(y, dx=dx, axis=dim)
    # aminmax: the pair a JAX user writes, jnp.min and jnp.max over the same axes.
    ops["aminmax"] = lambda ctx, x, dim=None, keepdim=False: (jnp.min(x, axis=dim, keepdims=keepdim),
                                                             jnp.max(x, axis=dim, keepdims=keepdim))
    ops["flip"] = lambda ctx, x, dims: jnp.flip(x, axis=_axes(dims))
    ops["roll"] = lambda ctx, x, shifts, dims=(): jnp.roll(x, _axes(shifts), axis=_axes(dims) or None)

    @op("sort")
    def sort(ctx, x, dim=-1, descending=False, stable=True):
        indices = jnp.argsort(x, axis=dim, stable=stable, descending=descending)
        return jnp.take_along_axis(x, indices, axis=dim), indices

    @op("topk")
    def topk(ctx, x, k, dim=-1, largest=True, sorted=True):
        if largest and (dim == -1 or dim == _ndim(x) - 1):
            values, indices = jax.lax.top_k(x, k)
            return values, indices.astype(jnp.int64)
        indices = jnp.argsort(x, axis=dim, stable=True, descending=largest)
        indices = jax.lax.slice_in_dim(indices, 0, k, axis=dim)
        return jnp.take_along_axis(x, indices, axis=dim), indices

    # Shape ops (JAX has no views: these are values).
    @op("expand")
    def expand(ctx, x, size):
        size = _size(size)
        lead = len(size) - _ndim(x)
        target = [n if n != -1 else jnp.shape(x)[d - lead] for d, n in enumerate(size)]
        return jnp.broadcast_to(x, target)

    ops["view"] = lambda ctx, x, size: jnp.reshape(x, _size(size))
    ops["reshape"] = lambda ctx, x, shape: jnp.reshape(x, _size(shape))
    ops["permute"] = lambda ctx, x, dims: jnp.transpose(x, _axes(dims))
    @op("squeeze")
    def squeeze(ctx, x, dim=None):
        # The catalogue squeezes those listed dims that have size 1 (PyTorch 2); jnp.squeeze insists
        # that every listed axis has size 1, so the others are left out of the call.
        axes = _axes(dim)
        if axes is None:
            return jnp.squeeze(x)
        shape = jnp.shape(x)
        return jnp.squeeze(x, axis=tuple(a for a in axes if -len(shape) <= a < len(shape) and shape[a] == 1)
                           if shape else axes)
    ops["unsqueeze"] = lambda ctx, x, dim: jnp.expand_dims(x, dim)

    @op("select")
    def select(ctx, x, dim, index):
        if _ndim(x) == 0:
            raise SpecError("dim_out_of_range", "select of a 0-dim array")
        return x[(slice(None),) * (dim % _ndim(x)) + (index,)]

    @op("slice")
    def slice_(ctx, x, dim=0, start=None, end=None, step=1):
        return x[(slice(None),) * (dim % max(_ndim(x), 1)) + (slice(start, end, step),)]

    ops["diagonal"] = lambda ctx, x, offset=0, dim1=0, dim2=1: jnp.diagonal(x, offset, dim1, dim2)
    ops["transpose"] = lambda ctx, x, dim0, dim1: jnp.swapaxes(x, dim0, dim1)
    ops["movedim"] = lambda ctx, x, source, destination: jnp.moveaxis(x, _axes(source), _axes(destination))
    ops["broadcast_to"] = lambda ctx, x, size: jnp.broadcast_to(x, _size(size))

    @op("flatten")
    def flatten(ctx, x, start_dim=0, end_dim=-1):
        shape = jnp.shape(x)
        if not shape:
            return jnp.reshape(x, (1,))
        s, e = start_dim % len(shape), end_dim % len(shape)
        return jnp.reshape(x, shape[:s] + (-1,) + shape[e + 1:])

    @op("unflatten")
    def unflatten(ctx, x, dim, sizes):
        shape = jnp.shape(x)
        d = dim % len(shape)
        return jnp.reshape(x, shape[:d] + _size(sizes) + shape[d + 1:])

    @op("narrow")
    def narrow(ctx, x, dim, start, length):
        axis = dim % max(_ndim(x), 1)
        begin = start + jnp.shape(x)[axis] if start < 0 else start  # a negative start wraps once
        return jax.lax.slice_in_dim(x, begin, begin + length, axis=axis)
    ops["unbind"] = lambda ctx, x, dim=0: list(jnp.unstack(x, axis=dim))
    ops["split"] = lambda ctx, x, split_size, dim=0: list(
        jnp.split(x, _piece_bounds(jnp.shape(x)[dim], split_size), axis=dim))
    ops["split_with_sizes"] = lambda ctx, x, split_sizes, dim=0: list(
        jnp.split(x, list(np.cumsum(_size(split_sizes))[:-1]), axis=dim))
    @op("chunk")
    def chunk(ctx, x, chunks, dim=0):
        # PyTorch's chunk: pieces of ceil(n / chunks) (maybe fewer pieces); an empty dim gives
        # `chunks` empty pieces, which is what jnp.array_split gives there.
        n = jnp.shape(x)[dim]
        if n == 0:
            return list(jnp.array_split(x, chunks, axis=dim))
        return list(jnp.split(x, _piece_bounds(n, -(-n // chunks)), axis=dim))

    # The view-copy family (docs/ops/view_copy.md). JAX has no views, so a view's copying twin is
    # the view's value, spelled alike; a scatter is the `.at[region].set(src)` a JAX user writes.
    for view in ("expand", "permute", "squeeze", "unsqueeze", "select", "slice", "diagonal"):
        ops[view + "_copy"] = ops[view]
    ops["view_copy"] = lambda ctx, x, size: jnp.reshape(x, _size(size))
    ops["detach_copy"] = lambda ctx, x: jax.lax.stop_gradient(x)

    @op("select_scatter")
    def select_scatter(ctx, x, src, dim, index):
        if _ndim(x) == 0:
            raise SpecError("dim_out_of_range", "select_scatter into a 0-dim array")
        return x.at[(slice(None),) * (dim % _ndim(x)) + (index,)].set(src)

    @op("slice_scatter")
    def slice_scatter(ctx, x, src, dim=0, start=None, end=None, step=1):
        return x.at[(slice(None),) * (dim % max(_ndim(x), 1)) + (slice(start, end, step),)].set(src)

    @op("diagonal_scatter")
    def diagonal_scatter(ctx, x, src, offset=0, dim1=0, dim2=1):
        # The diagonal's elements, with dim1 and dim2 moved last (where jnp.diagonal puts the
        # diagonal's own dim, as src has it): rows and columns offset as the diagonal is.
        moved = jnp.moveaxis(x, (dim1, dim2), (-2, -1))
        rows, cols = jnp.shape(moved)[-2:]
        n = max(0, min(rows + min(offset, 0), cols - max(offset, 0)))
        i = jnp.arange(n)
        moved = moved.at[..., i - min(offset, 0), i + max(offset, 0)].set(src)
        return jnp.moveaxis(moved, (-2, -1), (dim1, dim2))

    # Joining and indexing.
    ops["cat"] = lambda ctx, tensors, dim=0: jnp.concatenate(tensors, axis=dim)
    ops["stack"] = lambda ctx, tensors, dim=0: jnp.stack(tensors, axis=dim)
    # A 0-dim index selects one slice and keeps the dim (as a 1-element index does).
    ops["index_select"] = lambda ctx, x, index, dim: jnp.take(x, jnp.reshape(index, (-1,)), axis=dim)

    @op("gather")
    def gather(ctx, x, index, dim):
        # gather reads the leading block of self that index covers in the other dims (PyTorch's
        # rule); jnp.take_along_axis broadcasts them instead, so self is cut to that block first.
        if _ndim(x) == _ndim(index) and _ndim(x) > 0:
            axis = dim % _ndim(x)
            block = tuple(slice(None) if d == axis else slice(0, n) for d, n in enumerate(jnp.shape(index)))
            x = x[block]
        return jnp.take_along_axis(x, index, axis=dim)
    ops["take_along_dim"] = lambda ctx, x, indices, dim=None: jnp.take_along_axis(
        jnp.ravel(x) if dim is None else x, jnp.ravel(indices) if dim is None else indices,
        axis=0 if dim is None else dim)
    ops["masked_fill"] = lambda ctx, x, mask, value: jnp.where(mask, value, x)

    @op("scatter_add")
    def scatter_add(ctx, x, index, src, dim):
        if _ndim(x) == 0:  # a rank-0 self is indexed as its one element
            return jnp.reshape(jnp.reshape(x, (1,)).at[jnp.reshape(index, (-1,))].add(jnp.reshape(src, (-1,))), ())
        grids = list(jnp.indices(jnp.shape(index), sparse=True))
        grids[dim % _ndim(x)] = index
        window = tuple(slice(0, n) for n in jnp.shape(index))
        return x.at[tuple(grids)].add(src[window])

    # scatter and its reductions are `.at[...]` updates over the index's grid, as scatter_add. JAX
    # has no mean and no fold without self's value (include_self=False): those stay unsupported.
    def _scatter_at(x, index, dim):
        if _ndim(x) == 0:  # a rank-0 self is indexed as its one element
            return jnp.reshape(x, (1,)).at[jnp.reshape(index, (-1,))], lambda y: jnp.reshape(y, ())
        grids = list(jnp.indices(jnp.shape(index), sparse=True))
        grids[dim % _ndim(x)] = index
        return x.at[tuple(grids)], lambda y: y

    def _window(src, index):
        if _ndim(src) == 0:
            return jnp.reshape(src, (-1,))
        return src[tuple(slice(0, n) for n in jnp.shape(index))]

    # The `.at[]` update of each reduce name, per op (index_reduce has no sum; scatter.reduce says
    # add and multiply).
    _scatter_reduce_names = {"sum": "add", "prod": "multiply", "amax": "max", "amin": "min"}
    _index_reduce_names = {"prod": "multiply", "amax": "max", "amin": "min"}
    _legacy_reduce_names = {"add": "add", "multiply": "multiply"}

    def _reduced(ref, reduce, values, include_self=True, names=_scatter_reduce_names):
        if reduce not in names:
            raise Unsupported(f"JAX's .at[] has no {reduce!r} reduction for this op")
        if not include_self:
            raise Unsupported("JAX's .at[] updates always fold in the array's own value (include_self=False)")
        return getattr(ref, names[reduce])(values)

    @op("scatter")
    def scatter(ctx, x, index, src, dim):
        ref, back = _scatter_at(x, index, dim)
        return back(ref.set(_window(src, index)))

    @op("scatter.value")
    def scatter_value(ctx, x, index, dim, value):
        ref, back = _scatter_at(x, index, dim)
        return back(ref.set(value))

    @op("scatter_reduce")
    def scatter_reduce(ctx, x, index, src, dim, reduce, include_self=True):
        ref, back = _scatter_at(x, index, dim)
        return back(_reduced(ref, reduce, _window(src, index), include_self))

    @op("scatter.reduce")
    def scatter_reduce_legacy(ctx, x, index, src, dim, reduce):
        ref, back = _scatter_at(x, index, dim)
        return back(_reduced(ref, reduce, _window(src, index), names=_legacy_reduce_names))

    def _slices_at(x, index, dim):
        if _ndim(x) == 0:
            return jnp.reshape(x, (1,)).at[jnp.reshape(index, (-1,))], lambda y: jnp.reshape(y, ())
        return x.at[(slice(None),) * (dim % _ndim(x)) + (jnp.reshape(index, (-1,)),)], lambda y: y

    @op("index_reduce")
    def index_reduce(ctx, x, index, source, dim, reduce, include_self=True):
        ref, back = _slices_at(x, index, dim)
        return back(_reduced(ref, reduce, source if _ndim(x) > 0 else jnp.reshape(source, (-1,)), include_self,
                             _index_reduce_names))

    @op("index_copy")
    def index_copy(ctx, x, index, source, dim):
        ref, back = _slices_at(x, index, dim)
        return back(ref.set(source if _ndim(x) > 0 else jnp.reshape(source, (-1,))))

    @op("index_fill")
    def index_fill(ctx, x, index, dim, value):
        ref, back = _slices_at(x, index, dim)
        return back(ref.set(value))

    ops["take"] = lambda ctx, x, index: jnp.take(jnp.ravel(x), index)

    @op("put")
    def put(ctx, x, index, source, accumulate=False):
        ref = jnp.ravel(x).at[jnp.ravel(index)]
        values = jnp.ravel(source)
        return jnp.reshape(ref.add(values) if accumulate else ref.set(values), jnp.shape(x))

    @op("index_add")
    def index_add(ctx, x, index, source, dim, alpha=1):
        added = source if alpha == 1 else alpha * source
        if _ndim(x) == 0:  # a rank-0 self is indexed as its one element
            return jnp.reshape(jnp.reshape(x, (1,)).at[jnp.reshape(index, (-1,))].add(jnp.reshape(added, (-1,))), ())
        where = (slice(None),) * (dim % _ndim(x)) + (index,)
        return x.at[where].add(added)

    # F.pad's other modes are jnp.pad's numpy modes under other names (docs/ops/resampling.md):
    # PyTorch's reflect is numpy's 'reflect' (the edge not repeated), replicate is 'edge', circular is
    # 'wrap'. jnp.pad takes no negative widths (PyTorch's crops) and repeats reflections and wraps
    # past the input's size, where PyTorch raises.
    _numpy_pad_modes = {"reflect": "reflect", "replicate": "edge", "circular": "wrap"}

    @op("pad")
    def pad(ctx, x, pad, mode="constant", value=0):
        pairs = _size(pad)
        if mode != "constant":
            if mode not in _numpy_pad_modes:
                raise Unsupported(f"jnp.pad has no mode that is PyTorch's {mode!r}")
            widths = [(0, 0)] * _ndim(x)
            for k in range(len(pairs) // 2):
                widths[_ndim(x) - 1 - k] = (pairs[2 * k], pairs[2 * k + 1])
            return jnp.pad(x, widths, mode=_numpy_pad_modes[mode])
        config = [(0, 0, 0)] * _ndim(x)
        for k in range(len(pairs) // 2):
            config[_ndim(x) - 1 - k] = (pairs[2 * k], pairs[2 * k + 1], 0)
        return jax.lax.pad(x, jnp.asarray(value, dtype=jnp.result_type(x)), config)

    # Linear algebra.
    ops["einsum"] = lambda ctx, operands, equation: jnp.einsum(equation, *operands)
    for name, fn in {"mm": jnp.matmul, "bmm": jnp.matmul, "mv": jnp.matmul, "dot": jnp.dot, "outer": jnp.outer,
                     "matmul": jnp.matmul}.items():
        ops[name] = lambda ctx, a, b, fn=fn: fn(a, b)
    ops["trace"] = lambda ctx, x: jnp.trace(x)
    # JAX has no addmm/addmv/addr/baddbmm/addbmm (their beta = 0 rule has no spelling there) and no
    # diag_embed: undeclared.
    ops["kron"] = lambda ctx, a, b: jnp.kron(a, b)
    ops["tensordot"] = lambda ctx, a, b, dims_self, dims_other: jnp.tensordot(
        a, b, axes=(tuple(_size(dims_self)), tuple(_size(dims_other))))
    ops["vecdot"] = lambda ctx, x, y, dim=-1: jnp.linalg.vecdot(x, y, axis=dim)
    ops["tril"] = lambda ctx, x, diagonal=0: jnp.tril(x, diagonal)
    ops["triu"] = lambda ctx, x, diagonal=0: jnp.triu(x, diagonal)
    # Norms and distances (docs/ops/distance.md); JAX has no dist, renorm, cdist, pdist,
    # cosine_similarity nor pairwise_distance: undeclared. A JAX user
    # casts before the norm where torch.linalg.vector_norm takes dtype=.
    ops["vector_norm"] = lambda ctx, x, ord=2, dim=None, keepdim=False, dtype=None: jnp.linalg.vector_norm(
        x if dtype is None else x.astype(dtype), axis=_axes(dim) or None, keepdims=keepdim, ord=ord)
    # torch.cross's dim=None (the first dim of size 3) has no JAX spelling: cross stays undeclared.
    ops["linalg_cross"] = lambda ctx, a, b, dim=-1: jnp.linalg.cross(a, b, axis=dim)
    ops["diag"] = lambda ctx, x, diagonal=0: jnp.diag(x, diagonal)
    ops["multi_dot"] = lambda ctx, *tensors: jnp.linalg.multi_dot(list(tensors))
    ops["cov"] = lambda ctx, x, fweights=None, aweights=None, correction=1: jnp.cov(
        x, ddof=correction, fweights=fweights, aweights=aweights)
    ops["corrcoef"] = lambda ctx, x: jnp.corrcoef(x)
    ops["det"] = lambda ctx, x: jnp.linalg.det(x)
    ops["slogdet"] = lambda ctx, x: tuple(jnp.linalg.slogdet(x))
    ops["inverse"] = lambda ctx, x: jnp.linalg.inv(x)
    ops["eigh"] = lambda ctx, a, UPLO="L": tuple(jnp.linalg.eigh(a, UPLO=UPLO))
    ops["eigvalsh"] = lambda ctx, a, UPLO="L": jnp.linalg.eigvalsh(a, UPLO=UPLO)
    ops["svd"] = lambda ctx, a, full_matrices=True: tuple(jnp.linalg.svd(a, full_matrices=full_matrices))
    ops["svdvals"] = lambda ctx, a: jnp.linalg.svdvals(a)
    ops["matrix_norm"] = lambda ctx, a, ord="fro", dim=(-2, -1), keepdim=False: jnp.linalg.norm(
        a, ord=matrix_ord(ord), axis=tuple(dim), keepdims=keepdim)
    ops["cond"] = lambda ctx, a, p=None: jnp.linalg.cond(a, p=None if p is None else matrix_ord(p))

    @op("solve")
    def solve(ctx, a, b, left=True):
        # torch.linalg.solve reads b as a (batch of) vector(s) when it is 1-D or has a's shape
        # without its last dim; jnp.linalg.solve takes matrices only since JAX 0.5, and its error
        # message gives the spelling of a vector solve used here: solve(a, b[..., None])[..., 0].
        vector = _ndim(b) == 1 or jnp.shape(b) == jnp.shape(a)[:-1]
        if not left:
            a = jnp.swapaxes(a, -1, -2)
            b = b if vector else jnp.swapaxes(b, -1, -2)
        x = jnp.linalg.solve(a, b[..., None])[..., 0] if vector else jnp.linalg.solve(a, b)
        return x if left or vector else jnp.swapaxes(x, -1, -2)

    @op("lu_factor")
    def lu_factor(ctx, a, pivot=True):
        # jax.scipy.linalg.lu_factor always pivots and returns SciPy's 0-based int32 pivots; the spec's
        # are LAPACK's 1-based ones as int64 (SPEC OPS-6.1).
        if not pivot:
            raise Unsupported("jax.scipy.linalg.lu_factor has no pivot=False")
        lu, pivots = jax.scipy.linalg.lu_factor(a)
        return lu, (pivots + 1).astype(jnp.int64)

    @op("lu")
    def lu(ctx, a, pivot=True):
        if not pivot:
            raise Unsupported("jax.scipy.linalg.lu has no pivot=False")
        if _ndim(a) != 2:
            raise Unsupported("jax.scipy.linalg.lu factors one matrix, not a batch")
        return tuple(jax.scipy.linalg.lu(a))

    @op("lu_solve")
    def lu_solve(ctx, lu, pivots, b, left=True, adjoint=False):
        # SciPy's 0-based pivots; X·A = B is Aᵀ·Xᵀ = Bᵀ, the spelling the solve mapping uses too.
        factors = (lu, (pivots - 1).astype(jnp.int32))
        if left:
            return jax.scipy.linalg.lu_solve(factors, b, trans=1 if adjoint else 0)
        x = jax.scipy.linalg.lu_solve(factors, jnp.swapaxes(b, -1, -2), trans=0 if adjoint else 1)
        return jnp.swapaxes(x, -1, -2)

    ops["matrix_exp"] = lambda ctx, x: jax.scipy.linalg.expm(x)
    @op("matrix_exp_frechet")
    def matrix_exp_frechet(ctx, a, e):
        if jnp.shape(a) != jnp.shape(e) or _ndim(a) != 2:
            raise Unsupported("jax.scipy.linalg.expm_frechet takes two matrices of one shape, neither batches nor broadcasting")
        return jax.scipy.linalg.expm_frechet(a, e, compute_expm=False)
    @op("solve_triangular")
    def solve_triangular(ctx, a, b, upper, left=True, unitriangular=False):
        # jax.scipy.linalg.solve_triangular solves from the left only: X·T = B is Tᵀ·Xᵀ = Bᵀ, which
        # trans=1 solves with the same triangle of a.
        if left:
            return jsl.solve_triangular(a, b, lower=not upper, unit_diagonal=unitriangular)
        x = jsl.solve_triangular(a, jnp.swapaxes(b, -1, -2), trans=1, lower=not upper, unit_diagonal=unitriangular)
        return jnp.swapaxes(x, -1, -2)

    # jax.scipy.linalg.cholesky reads one triangle, as LAPACK (jnp.linalg.cholesky symmetrizes its
    # input first); cholesky_ex has no JAX counterpart and stays undeclared.
    ops["cholesky"] = lambda ctx, a, upper=False: jsl.cholesky(a, lower=not upper)
    ops["cholesky_solve"] = lambda ctx, b, factor, upper=False: jsl.cho_solve((factor, not upper), b)
    # cholesky_inverse: undeclared (JAX has none).
    # inv_ex: undeclared (JAX has no info output).
    ops["inv"] = lambda ctx, a: jnp.linalg.inv(a)
    ops["matrix_power"] = lambda ctx, a, n: jnp.linalg.matrix_power(a, n)

    @op("qr")
    def qr(ctx, a, mode="reduced"):
        # jnp.linalg.qr(a, mode='r') returns R alone; the spec's Q in its place is an empty [0]
        # tensor (SPEC OPS-10.1), which a JAX user has no counterpart of.
        if mode == "r":
            return jnp.zeros((0,), dtype=jnp.result_type(a)), jnp.linalg.qr(a, mode="r")
        return tuple(jnp.linalg.qr(a, mode=mode))

    ops["householder_product"] = lambda ctx, a, tau: jax.lax.linalg.householder_product(a, tau)

    # jnp.linalg.pinv and matrix_rank take a relative tolerance only (pinv_with_tolerances, which
    # always has an absolute one, stays undeclared); jnp.linalg.lstsq solves one system, with no
    # driver, and returns the solution first.
    @op("pinv")
    def pinv(ctx, a, atol=None, rtol=None, hermitian=False):
        if atol is not None:
            raise Unsupported("jnp.linalg.pinv has no atol")
        return jnp.linalg.pinv(a, rtol=rtol, hermitian=hermitian)

    @op("matrix_rank")
    def matrix_rank(ctx, a, atol=None, rtol=None, hermitian=False):
        if atol is not None:
            raise Unsupported("jnp.linalg.matrix_rank has no atol")
        return jnp.linalg.matrix_rank(a, rtol=rtol, hermitian=hermitian).astype(jnp.int64)

    @op("lstsq")
    def lstsq(ctx, a, b, rcond=None, driver=None):
        if driver is not None:
            raise Unsupported("jnp.linalg.lstsq has no driver")
        if _ndim(a) != 2:
            raise Unsupported("jnp.linalg.lstsq solves one system, not a batch")
        return jnp.linalg.lstsq(a, b, rcond=rcond)[0]

    # Composites JAX itself has.
    # dtype= converts the input first, as PyTorch's.
    ops["softmax"] = lambda ctx, x, dim, dtype=None: jax.nn.softmax(x if dtype is None else x.astype(dtype), axis=dim)
    ops["log_softmax"] = lambda ctx, x, dim, dtype=None: jax.nn.log_softmax(
        x if dtype is None else x.astype(dtype), axis=dim)

    # Conversions (no storage, so clone and contiguous are the value itself).
    ops["to_dtype"] = lambda ctx, x, dtype: jnp.asarray(x).astype(dtype)
    ops["clone"] = lambda ctx, x: jnp.array(x, copy=True)
    ops["contiguous"] = lambda ctx, x: x
    ops["detach"] = lambda ctx, x: jax.lax.stop_gradient(x)

    # Creation.
    @op("full")
    def full(ctx, size, fill_value, dtype=None, device="cpu"):
        _device(ctx, device)
        return jnp.full(_size(size), fill_value, dtype=dtype)

    @op("arange")
    def arange(ctx, start=0, end=None, step=1, dtype=None, device="cpu"):
        _device(ctx, device)
        return jnp.arange(start, end, step, dtype=dtype)

    for name, fn in {"zeros": jnp.zeros, "ones": jnp.ones}.items():
        def create(ctx, size, dtype=jnp.float32, device="cpu", fn=fn):
            _device(ctx, device)
            return fn(_size(size), dtype=dtype)

        ops[name] = create
    ops["zeros_like"] = lambda ctx, x, dtype=None: jnp.zeros_like(x, dtype=dtype)
    ops["ones_like"] = lambda ctx, x, dtype=None: jnp.ones_like(x, dtype=dtype)
    ops["full_like"] = lambda ctx, x, fill_value, dtype=None: jnp.full_like(x, fill_value, dtype=dtype)

    # Value-dependent ops.
    ops["item"] = lambda ctx, x: jnp.asarray(x).item()
    ops["is_nonzero"] = lambda ctx, x: bool(x)
    ops["nonzero"] = lambda ctx, x: jnp.argwhere(x).astype(jnp.int64)

    @op("masked_select")
    def masked_select(ctx, x, mask):
        x, mask = jnp.broadcast_arrays(x, mask)
        return x[mask]

    # Random ops draw from the case's key (KeyState).
    @op("rand")
    def rand(ctx, size, dtype=jnp.float32, device="cpu"):
        _device(ctx, device)
        return jax.random.uniform(ctx.keys.next(), _size(size), dtype=dtype)

    @op("randn")
    def randn(ctx, size, dtype=jnp.float32, device="cpu"):
        _device(ctx, device)
        return jax.random.normal(ctx.keys.next(), _size(size), dtype=dtype)

    @op("randint")
    def randint(ctx, low, high, size, dtype=jnp.int64, device="cpu"):
        _device(ctx, device)
        return jax.random.randint(ctx.keys.next(), _size(size), low, high, dtype=jnp.int64).astype(dtype)

    ops["bernoulli"] = lambda ctx, p: jax.random.bernoulli(ctx.keys.next(), p).astype(jnp.result_type(p))
    ops["bernoulli.p"] = lambda ctx, x, p=0.5: jax.random.bernoulli(ctx.keys.next(), p, jnp.shape(x)).astype(
        jnp.result_type(x))

    @op("normal")
    def normal(ctx, mean, std):
        shape = jnp.broadcast_shapes(jnp.shape(mean), jnp.shape(std))
        dtype = jnp.result_type(mean, std)
        return mean + std * jax.random.normal(ctx.keys.next(), shape, dtype=dtype)

    ops["normal_functional"] = lambda ctx, x, mean=0.0, std=1.0: mean + std * jax.random.normal(
        ctx.keys.next(), jnp.shape(x), dtype=jnp.result_type(x))
    ops["uniform"] = lambda ctx, x, from_=0.0, to=1.0: jax.random.uniform(
        ctx.keys.next(), jnp.shape(x), dtype=jnp.result_type(x), minval=from_, maxval=to)
    # jax.random.exponential has rate 1; a JAX user divides by the rate.
    ops["exponential"] = lambda ctx, x, lambd=1.0: jax.random.exponential(
        ctx.keys.next(), jnp.shape(x), dtype=jnp.result_type(x)) / lambd

    @op("multinomial")
    def multinomial(ctx, x, num_samples, replacement=False):
        def row(key, w):
            return jax.random.choice(key, jnp.shape(w)[-1], (num_samples,), replace=replacement, p=w / jnp.sum(w))

        key = ctx.keys.next()
        if _ndim(x) == 1:
            return row(key, x).astype(jnp.int64)
        return jax.vmap(row)(jax.random.split(key, jnp.shape(x)[0]), x).astype(jnp.int64)

    # The convolutions (docs/ops/convolution.md) through jax.lax.conv_general_dilated with PyTorch's
    # layouts (NC..., OI...); a transposed convolution is the input-dilated convolution with the
    # kernel flipped and its channels swapped per group, as a JAX user writes PyTorch's. unfold is
    # jax.lax.conv_general_dilated_patches; JAX has no fold (col2im) and no pools (they live in Flax).
    def conv_spec(n: int) -> tuple[str, str, str]:
        spatial = "DHW"[3 - n:]
        return ("NC" + spatial, "OI" + spatial, "NC" + spatial)

    def per_dim(values: Any, n: int) -> tuple[int, ...]:
        values = tuple(int(v) for v in (values if isinstance(values, (list, tuple)) else [values]))
        return values * n if len(values) == 1 else values

    def batched(x, n: int, fn):
        if _ndim(x) == n + 1:
            return fn(x[None])[0]
        return fn(x)

    def conv(n: int, x, weight, bias, stride, padding, dilation, groups):
        d = per_dim(dilation, n)
        if isinstance(padding, str):
            # JAX's own 'SAME' and 'VALID' (for stride 1 its SAME puts the odd zero after, as
            # PyTorch's 'same'; for larger strides JAX defines it where PyTorch refuses).
            pads = padding.upper()
        else:
            pads = [(p, p) for p in per_dim(padding, n)]

        def run(x4):
            y = jax.lax.conv_general_dilated(x4, weight, per_dim(stride, n), pads, rhs_dilation=d,
                                             dimension_numbers=conv_spec(n), feature_group_count=groups)
            return y if bias is None else y + jnp.reshape(bias, (-1,) + (1,) * n)

        return batched(x, n, run)

    def conv_transpose(n: int, x, weight, bias, stride, padding, output_padding, groups, dilation):
        s, p, q, d = per_dim(stride, n), per_dim(padding, n), per_dim(output_padding, n), per_dim(dilation, n)
        k = jnp.shape(weight)[2:]
        c_in, c_out_per_group = jnp.shape(weight)[0], jnp.shape(weight)[1]
        w = jnp.reshape(weight, (groups, c_in // groups, c_out_per_group) + tuple(k))
        w = jnp.swapaxes(w, 1, 2).reshape((groups * c_out_per_group, c_in // groups) + tuple(k))
        w = jnp.flip(w, axis=tuple(range(2, 2 + n)))
        pads = [(d[i] * (k[i] - 1) - p[i], d[i] * (k[i] - 1) - p[i] + q[i]) for i in range(n)]

        def run(x4):
            y = jax.lax.conv_general_dilated(x4, w, (1,) * n, pads, lhs_dilation=s, rhs_dilation=d,
                                             dimension_numbers=conv_spec(n), feature_group_count=groups)
            return y if bias is None else y + jnp.reshape(bias, (-1,) + (1,) * n)

        return batched(x, n, run)

    for n in (1, 2, 3):
        ops[f"conv{n}d"] = lambda ctx, x, weight, bias=None, stride=(1,), padding=(0,), dilation=(1,), groups=1, n=n: \
            conv(n, x, weight, bias, stride, padding, dilation, groups)
        ops[f"conv{n}d.padding"] = lambda ctx, x, weight, bias=None, stride=(1,), padding="valid", dilation=(1,), \
            groups=1, n=n: conv(n, x, weight, bias, stride, padding, dilation, groups)
        ops[f"conv_transpose{n}d"] = lambda ctx, x, weight, bias=None, stride=(1,), padding=(0,), \
            output_padding=(0,), groups=1, dilation=(1,), n=n: conv_transpose(
                n, x, weight, bias, stride, padding, output_padding, groups, dilation)

    @op("unfold")
    def unfold(ctx, x, kernel_size, dilation=(1,), padding=(0,), stride=(1,)):
        def run(x4):
            patches = jax.lax.conv_general_dilated_patches(
                x4, per_dim(kernel_size, 2), per_dim(stride, 2), [(p, p) for p in per_dim(padding, 2)],
                rhs_dilation=per_dim(dilation, 2), dimension_numbers=conv_spec(2))
            rows, columns = jnp.shape(patches)[:2], 1
            for size in jnp.shape(patches)[2:]:
                columns *= size
            return jnp.reshape(patches, rows + (columns,))

        return batched(x, 2, run)

    # scaled_dot_product_attention (docs/ops/attention.md) as jax.nn.dot_product_attention, which takes
    # (batch, sequence, heads, features) where PyTorch takes (..., heads, sequence, features), and
    # shares key/value heads among query heads by itself (grouped heads; one key head is broadcast).
    @op("scaled_dot_product_attention")
    def scaled_dot_product_attention(ctx, q, k, v, attn_mask=None, is_causal=False, scale=None, enable_gqa=False):
        rank = _ndim(q)
        if rank not in (3, 4) or _ndim(k) != rank or _ndim(v) != rank:
            raise Unsupported("jax.nn.dot_product_attention takes (batch,) sequence, heads, features: "
                              "rank-3 or rank-4 query, key and value")
        to_jax = lambda t: jnp.swapaxes(t, -2, -3)  # noqa: E731
        mask = bias = None
        if attn_mask is not None:
            if jnp.asarray(attn_mask).dtype == jnp.bool_:
                mask = attn_mask
            else:
                bias = attn_mask
        out = jax.nn.dot_product_attention(to_jax(q), to_jax(k), to_jax(v), bias=bias, mask=mask, scale=scale,
                                           is_causal=is_causal)
        return jnp.swapaxes(out, -2, -3)
    # The normalization family (docs/ops/normalization.md): JAX has jax.nn.standardize, which is
    # layer_norm without weight and bias (the jax.nn.normalize of older JAX was its alias, not
    # F.normalize), and jnp.take, which is an embedding lookup; batch, instance, group and local
    # response norms, F.normalize, embedding_renorm and embedding_bag have no JAX function.
    @op("layer_norm")
    def layer_norm(ctx, x, weight=None, bias=None, normalized_shape=(), eps=1e-5):
        if weight is not None or bias is not None:
            raise Unsupported("jax.nn.standardize has no weight or bias")
        k = len(normalized_shape) if isinstance(normalized_shape, (list, tuple)) else 1
        return jax.nn.standardize(x, axis=tuple(range(-k, 0)), epsilon=eps)

    @op("embedding")
    def embedding(ctx, x, weight, padding_idx=None, scale_grad_by_freq=False):
        if padding_idx is not None or scale_grad_by_freq:
            raise Unsupported("jnp.take has no padding_idx or scale_grad_by_freq (gradient conventions of PyTorch's)")
        return jnp.take(weight, x, axis=0)

    return ops
