"""The op catalogue (`funcspec ops`) as PyTorch calls.

Each catalogue op maps to the PyTorch call a user would write for it: the public function, the
Tensor method for in-place variants and `out=` for out variants. Where PyTorch has no such call
(an in-place or out= form it lacks, a list of dims where it takes one), the op raises
`Unsupported` naming what is missing rather than emulating it: the matrix reports PyTorch, not
the driver. Literal operands (the case format's wrapped numbers) are passed as Python numbers
where PyTorch accepts them, which is where PyTorch's wrapped-number promotion applies; where a
function takes tensors only, the number becomes a 0-dim tensor of `torch.result_type(tensor,
number)`, the dtype PyTorch itself would give the pair.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import torch
import torch.nn.functional as F

from funcspec_peer.orders import matrix_ord, number_or_name
from funcspec_peer.wire import Unsupported

TORCH_DTYPES = {
    "bool": torch.bool,
    "int64": torch.int64,
    "float32": torch.float32,
    "float64": torch.float64,
}

# Attributes typed float or Scalar that a case may spell "nan" / "inf" / "-inf".
_NUMERIC_ATTRS = frozenset(
    {"alpha", "value", "fill_value", "p", "beta", "threshold", "mean", "std", "from", "to", "start", "end", "step",
     "eps", "label_smoothing", "correction", "ord", "maxnorm", "lambd", "negative_slope", "min_val", "max_val",
     "norm_type", "max_norm", "k", "momentum"}
)

Impl = Callable[..., Any]


def _lu_pivot(pivot, a):
    if not pivot and not a.is_cuda:
        raise Unsupported(f"PyTorch {torch.__version__} factors without pivoting on CUDA only")


def torch_dtype(name: Optional[str]) -> Optional[torch.dtype]:
    if name is None:
        return None
    if name == "oracle":
        raise Unsupported("the oracle dtype is the reference's own; PyTorch has no such dtype")
    return TORCH_DTYPES[name]


def attrs_for_torch(attrs: dict[str, Any]) -> dict[str, Any]:
    """Case attributes as Python values: dtype names as dtypes, "nan"/"inf" as floats."""
    out = {}
    for name, value in attrs.items():
        if name == "dtype":
            value = torch_dtype(value)
        elif name in _NUMERIC_ATTRS and isinstance(value, str):
            value = number_or_name(value)
        out["from_" if name == "from" else name] = value
    return out


def is_number(value: Any) -> bool:
    return isinstance(value, (bool, int, float)) and not isinstance(value, torch.Tensor)


def tensor_of(value: Any, like: Any) -> Any:
    """A literal as the 0-dim tensor PyTorch's promotion gives it next to `like` (a tensor or a literal)."""
    if not is_number(value):
        return value
    if isinstance(like, torch.Tensor):
        return torch.tensor(value, dtype=torch.result_type(like, value), device=like.device)
    return torch.tensor(value)


def both_tensors(a: Any, b: Any) -> tuple[Any, Any]:
    return tensor_of(a, b), tensor_of(b, a)


def _out(out: Optional[torch.Tensor]) -> dict[str, Any]:
    return {} if out is None else {"out": out}


def _dims(dim: Any) -> Optional[list[int]]:
    if dim is None:
        return None
    return [dim] if isinstance(dim, int) else list(dim)


def _spatial(values: Any) -> Any:
    """A spatial op's int[] attribute as torch.nn.functional takes it: one value as an int (which it
    repeats for every spatial dim), several as a tuple."""
    values = _dims(values)
    return values[0] if len(values) == 1 else tuple(values)


def _one_dim(op: str, dim: Any) -> Optional[int]:
    """PyTorch functions that reduce one dim (or all): a list of several dims has no PyTorch call."""
    dims = _dims(dim)
    if dims is None or len(dims) == 0:
        return None
    if len(dims) > 1:
        raise Unsupported(f"torch.{op} in PyTorch {torch.__version__} reduces one dim at a time, not {dims}")
    return dims[0]


class Ops:
    """The catalogue op name -> implementation table, with in-place and out= variants."""

    def __init__(self) -> None:
        self.table: dict[str, Impl] = {}

    def add(self, name: str, impl: Impl, inplace: Optional[Impl] = None, out: bool = False) -> None:
        self.table[name] = impl
        if inplace is not None:
            self.table[name + "_"] = inplace
        if out:
            # The out variant puts `out` after the last tensor argument (NOTE: [derived variants]).
            self.table[name + ".out"] = lambda *args, **attrs: impl(*args[:-1], **attrs, out=args[-1])

    def names(self) -> list[str]:
        return sorted(self.table)


def method(name: str) -> Impl:
    """The in-place Tensor method `name` with the functional op's arguments."""
    return lambda self, *args, **attrs: getattr(self, name)(*args, **attrs)


def build_ops() -> Ops:
    ops = Ops()
    v2 = int(torch.__version__.split(".")[0]) >= 2

    # Unary elementwise (docs/ops/unary.md): every op has name_ and name.out in the catalogue.
    for name in ("neg", "abs", "sign", "square", "floor", "ceil", "round", "exp", "expm1", "log", "log1p", "sqrt",
                 "rsqrt", "reciprocal", "sin", "cos", "tan", "tanh", "sigmoid", "erf", "logical_not"):
        fn = getattr(torch, name)
        ops.add(name, lambda x, out=None, fn=fn: fn(x, **_out(out)), inplace=method(name + "_"), out=True)
    # relu has no out= in PyTorch; relu_ is a method.
    ops.add("relu", lambda x: torch.relu(x), inplace=method("relu_"))
    ops.add("gelu", lambda x, approximate="none", out=None: F.gelu(x, approximate=approximate)
            if out is None else torch._C._nn.gelu(x, approximate=approximate, out=out), out=True)
    ops.add("softplus", lambda x, beta=1.0, threshold=20.0, out=None: F.softplus(x, beta, threshold)
            if out is None else torch._C._nn.softplus(x, beta, threshold, out=out), out=True)

    # Activation functions (docs/ops/activation.md): torch.nn.functional, its in-place forms (F.elu_,
    # inplace=True) and torch._C._nn's out= overloads, which F's functions do not expose.
    nn = torch._C._nn
    ops.add("elu", lambda x, alpha=1.0, out=None: F.elu(x, alpha) if out is None else nn.elu(x, alpha, out=out),
            inplace=lambda x, alpha=1.0: F.elu_(x, alpha), out=True)
    ops.add("selu", lambda x: F.selu(x), inplace=lambda x: F.selu(x, inplace=True))
    ops.add("celu", lambda x, alpha=1.0: F.celu(x, alpha), inplace=lambda x, alpha=1.0: F.celu_(x, alpha))
    ops.add("leaky_relu", lambda x, negative_slope=0.01, out=None: F.leaky_relu(x, negative_slope)
            if out is None else nn.leaky_relu(x, negative_slope, out=out),
            inplace=lambda x, negative_slope=0.01: F.leaky_relu_(x, negative_slope), out=True)
    ops.add("hardtanh", lambda x, min_val=-1, max_val=1, out=None: F.hardtanh(x, min_val, max_val)
            if out is None else nn.hardtanh(x, min_val, max_val, out=out),
            inplace=lambda x, min_val=-1, max_val=1: F.hardtanh_(x, min_val, max_val), out=True)
    ops.add("relu6", lambda x: F.relu6(x), inplace=lambda x: F.relu6(x, inplace=True))
    for name in ("hardsigmoid", "hardswish", "silu", "mish"):
        fn, out_fn = getattr(F, name), getattr(nn, name)
        ops.add(name, lambda x, out=None, fn=fn, out_fn=out_fn: fn(x) if out is None else out_fn(x, out=out),
                inplace=lambda x, fn=fn: fn(x, inplace=True), out=True)
    ops.add("glu", lambda x, dim=-1, out=None: F.glu(x, dim) if out is None else nn.glu(x, dim, out=out), out=True)
    ops.add("logsigmoid", lambda x, out=None: F.logsigmoid(x) if out is None else nn.log_sigmoid(x, out=out),
            out=True)
    ops.add("softsign", lambda x: F.softsign(x))
    ops.add("softmin", lambda x, dim, dtype=None: F.softmin(x, dim, dtype=dtype))
    ops.add("rrelu", lambda x, lower=0.125, upper=1 / 3, training=False: F.rrelu(x, lower, upper, training))
    ops.add("tanhshrink", lambda x: F.tanhshrink(x))
    ops.add("softshrink", lambda x, lambd=0.5, out=None: F.softshrink(x, lambd)
            if out is None else nn.softshrink(x, lambd, out=out), out=True)
    ops.add("hardshrink", lambda x, lambd=0.5, out=None: F.hardshrink(x, lambd)
            if out is None else torch.hardshrink(x, lambd, out=out), out=True)
    ops.add("threshold", lambda x, threshold, value, out=None: F.threshold(x, threshold, value)
            if out is None else torch.threshold(x, threshold, value, out=out),
            inplace=lambda x, threshold, value: F.threshold_(x, threshold, value), out=True)
    ops.add("prelu", lambda x, weight: F.prelu(x, weight))

    # Binary elementwise (docs/ops/binary.md).
    ops.add("add", lambda a, b, alpha=1, out=None: torch.add(a, b, alpha=alpha, **_out(out)),
            inplace=method("add_"), out=True)
    ops.add("sub", lambda a, b, alpha=1, out=None: torch.sub(a, b, alpha=alpha, **_out(out)),
            inplace=method("sub_"), out=True)
    ops.add("mul", lambda a, b, out=None: torch.mul(a, b, **_out(out)), inplace=method("mul_"), out=True)
    ops.add("div", lambda a, b, rounding_mode=None, out=None: torch.div(a, b, rounding_mode=rounding_mode,
                                                                         **_out(out)),
            inplace=method("div_"), out=True)
    ops.add("pow", lambda a, b, out=None: torch.pow(a, b, **_out(out)) if not (is_number(a) and is_number(b))
            else torch.pow(*both_tensors(a, b), **_out(out)), inplace=method("pow_"), out=True)
    ops.add("remainder", lambda a, b, out=None: torch.remainder(a, b, **_out(out)) if not is_number(a) or not
            is_number(b) else torch.remainder(*both_tensors(a, b), **_out(out)),
            inplace=method("remainder_"), out=True)
    for name in ("maximum", "minimum", "atan2", "logical_and", "logical_or"):
        fn = getattr(torch, name)
        ops.add(name, lambda a, b, out=None, fn=fn: fn(*both_tensors(a, b), **_out(out)),
                inplace=(lambda a, b, name=name: getattr(a, name + "_")(tensor_of(b, a)))
                if name not in ("maximum", "minimum") else None, out=True)
    for name in ("eq", "ne", "lt", "le", "gt", "ge"):
        fn = getattr(torch, name)
        ops.add(name, lambda a, b, out=None, fn=fn: fn(tensor_of(a, b), b, **_out(out)),
                inplace=method(name + "_"), out=True)
    # where's out= overload takes tensors only (its functional one takes numbers too).
    ops.add("where", lambda c, a, b, out=None: torch.where(c, a, b) if out is None
            else torch.where(c, tensor_of(a, b), tensor_of(b, a), out=out), out=True)
    ops.add("clamp", lambda x, min=None, max=None, out=None: torch.clamp(x, min, max, **_out(out)),
            inplace=lambda x, min=None, max=None: x.clamp_(min, max), out=True)

    # Special functions (docs/ops/special.md). torch.hypot and torch.copysign take tensors (a literal
    # becomes the 0-dim tensor promotion gives it); PyTorch's special_* ops have no in-place form.
    for name in ("xlogy", "hypot", "copysign"):
        fn = getattr(torch, name)
        ops.add(name, lambda a, b, out=None, fn=fn: fn(*both_tensors(a, b), **_out(out)),
                inplace=lambda a, b, name=name: getattr(a, name + "_")(tensor_of(b, a)), out=True)
    for name in ("logaddexp", "logaddexp2"):
        fn = getattr(torch, name)
        ops.add(name, lambda a, b, out=None, fn=fn: fn(*both_tensors(a, b), **_out(out)), out=True)
    ops.add("special_xlog1py", lambda a, b, out=None: torch.special.xlog1py(*both_tensors(a, b), **_out(out)),
            out=True)
    for name in ("asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "exp2", "log2", "log10", "erfc",
                 "frac", "trunc", "deg2rad"):
        fn = getattr(torch, name)
        ops.add(name, lambda x, out=None, fn=fn: fn(x, **_out(out)), inplace=method(name + "_"), out=True)
    # isnan, isinf and isfinite have neither an in-place form nor out=.
    for name in ("isnan", "isinf", "isfinite"):
        ops.add(name, lambda x, fn=getattr(torch, name): fn(x))
    ops.add("special_entr", lambda x, out=None: torch.special.entr(x, **_out(out)), out=True)
    for name in ("clamp_min", "clamp_max"):
        fn = getattr(torch, name)
        ops.add(name, lambda x, bound, out=None, fn=fn: fn(x, bound, **_out(out)),
                inplace=lambda x, bound, name=name: getattr(x, name + "_")(bound), out=True)
    ops.add("sinc", lambda x, out=None: torch.sinc(x, **_out(out)), inplace=method("sinc_"), out=True)
    ops.add("logit", lambda x, eps=None, out=None: torch.logit(x, eps=eps, **_out(out)),
            inplace=lambda x, eps=None: x.logit_(eps=eps), out=True)
    ops.add("lerp", lambda a, b, w, out=None: torch.lerp(a, b, w, **_out(out)), inplace=method("lerp_"), out=True)
    for name in ("addcmul", "addcdiv"):
        fn = getattr(torch, name)
        ops.add(name, lambda s, t1, t2, value=1, out=None, fn=fn: fn(s, t1, t2, value=value, **_out(out)),
                inplace=lambda s, t1, t2, value=1, name=name: getattr(s, name + "_")(t1, t2, value=value), out=True)

    # Reductions (docs/ops/reduce.md).
    def reduce_all_or(fn: Impl, name: str) -> Impl:
        def impl(x, dim=None, keepdim=False, dtype=None, out=None):
            kw = dict(_out(out))
            if dtype is not None:
                kw["dtype"] = dtype
            dims = _dims(dim)
            if dims is None or (dims == [] and name in ("sum", "mean")):
                if keepdim or out is not None:
                    # PyTorch's all-dims overload takes neither keepdim nor out=: name every dim.
                    return fn(x, dim=tuple(range(x.dim())), keepdim=keepdim, **kw)
                return fn(x, **kw)
            return fn(x, dims, keepdim=keepdim, **kw)

        return impl

    ops.add("sum", reduce_all_or(torch.sum, "sum"), out=True)
    ops.add("mean", reduce_all_or(torch.mean, "mean"))

    def prod(x, dim=None, keepdim=False, dtype=None, out=None):
        one = _one_dim("prod", dim)
        if one is None:
            return torch.prod(x, dtype=dtype) if out is None else torch.prod(x, dtype=dtype, out=out)
        return torch.prod(x, one, keepdim=keepdim, dtype=dtype, **_out(out))

    ops.add("prod", prod)
    for name in ("amax", "amin"):
        fn = getattr(torch, name)
        ops.add(name, lambda x, dim=None, keepdim=False, out=None, fn=fn: fn(x, dim=() if dim is None else dim,
                                                                              keepdim=keepdim, **_out(out)))
    for name in ("all", "any"):
        fn = getattr(torch, name)

        def boolean(x, dim=None, keepdim=False, out=None, fn=fn, name=name):
            dims = _dims(dim)
            if not dims and not keepdim:  # None or []: every dim (docs/ops/reduce.md)
                return fn(x, **_out(out))
            if v2:
                return fn(x, dim=tuple(dims) if dims else tuple(range(x.dim())), keepdim=keepdim, **_out(out))
            if not dims:
                raise Unsupported(f"torch.{name} in PyTorch {torch.__version__} keeps dims of one reduced dim only")
            return fn(x, _one_dim(name, dims), keepdim=keepdim, **_out(out))

        ops.add(name, boolean)
    for name in ("argmax", "argmin"):
        fn = getattr(torch, name)
        ops.add(name, lambda x, dim=None, keepdim=False, out=None, fn=fn: fn(x, dim=dim, keepdim=keepdim,
                                                                              **_out(out)))
    ops.add("norm", lambda x, p=2, dim=None, keepdim=False, out=None: torch.linalg.vector_norm(
        x, p, dim=None if dim is None or _dims(dim) == [] else _dims(dim), keepdim=keepdim, **_out(out)))
    def correction_of(correction: Any) -> Any:
        if correction is None:
            return 1
        if float(correction).is_integer():
            return int(correction)
        if not v2:
            raise Unsupported(f"PyTorch {torch.__version__} takes an integer correction, not {correction}")
        return correction

    for name in ("var", "std"):
        fn = getattr(torch, name)
        ops.add(name, lambda x, dim=None, correction=None, keepdim=False, fn=fn: fn(
            x, dim=_dims(dim) or None, correction=correction_of(correction), keepdim=keepdim))
    ops.add("logsumexp", lambda x, dim, keepdim=False, out=None: torch.logsumexp(
        x, dim=_dims(dim) if _dims(dim) else tuple(range(x.dim())), keepdim=keepdim, **_out(out)))

    # Scans and reorderings (docs/ops/scan.md).
    ops.add("cumsum", lambda x, dim, dtype=None: torch.cumsum(x, dim, dtype=dtype))
    ops.add("cumprod", lambda x, dim, dtype=None: torch.cumprod(x, dim, dtype=dtype))
    ops.add("flip", lambda x, dims: torch.flip(x, _dims(dims)))
    ops.add("roll", lambda x, shifts, dims=(): torch.roll(x, _dims(shifts), _dims(dims) or []))
    ops.add("sort", lambda x, dim=-1, descending=False, stable=True: tuple(
        torch.sort(x, dim=dim, descending=descending, stable=stable)))
    ops.add("topk", lambda x, k, dim=-1, largest=True, sorted=True: tuple(
        torch.topk(x, k, dim=dim, largest=largest, sorted=sorted)))
    for name in ("cummax", "cummin"):
        fn = getattr(torch, name)
        ops.add(name, lambda x, dim, fn=fn: tuple(fn(x, dim)))
    # Issue 23's second batch (docs/ops/scan.md, binary.md, reduce.md; SPEC OPS-23.9 - 23.13).
    ops.add("logcumsumexp", lambda x, dim, out=None: torch.logcumsumexp(x, dim, **_out(out)), out=True)
    ops.add("diff", lambda x, prepend=None, append=None, n=1, dim=-1, out=None: torch.diff(
        x, n=n, dim=dim, prepend=prepend, append=append, **_out(out)), out=True)
    ops.add("trapezoid.x", lambda y, x, dim=-1: torch.trapezoid(y, x, dim=dim))
    ops.add("trapezoid.dx", lambda y, dx=1, dim=-1: torch.trapezoid(y, dx=dx, dim=dim))
    ops.add("cumulative_trapezoid.x", lambda y, x, dim=-1: torch.cumulative_trapezoid(y, x, dim=dim))
    ops.add("cumulative_trapezoid.dx", lambda y, dx=1, dim=-1: torch.cumulative_trapezoid(y, dx=dx, dim=dim))
    ops.add("aminmax", lambda x, dim=None, keepdim=False: tuple(torch.aminmax(x, dim=dim, keepdim=keepdim)))

    # Selections (docs/ops/reduce.md, SPEC OPS-23): values and indices along one dim.
    for name in ("max", "min", "median", "nanmedian"):
        fn = getattr(torch, name)
        ops.add(name + ".dim", lambda x, dim, keepdim=False, fn=fn: tuple(fn(x, dim, keepdim=keepdim)))
    ops.add("median", lambda x: torch.median(x))
    ops.add("nanmedian", lambda x: torch.nanmedian(x))
    ops.add("kthvalue", lambda x, k, dim=-1, keepdim=False: tuple(torch.kthvalue(x, k, dim, keepdim=keepdim)))
    def nansum(x, dim=None, keepdim=False, dtype=None):
        dims = _dims(dim)
        if not dims:  # None or []: every dim (docs/ops/reduce.md)
            if not keepdim:
                return torch.nansum(x, dtype=dtype)
            dims = list(range(x.dim()))
        return torch.nansum(x, dim=dims, keepdim=keepdim, dtype=dtype)

    ops.add("nansum", nansum)
    ops.add("nanmean", lambda x, dim=None, keepdim=False, dtype=None: torch.nanmean(
        x, dim=_dims(dim) or None, keepdim=keepdim, dtype=dtype))
    ops.add("count_nonzero", lambda x, dim=None: torch.count_nonzero(x, dim))
    for name in ("var_mean", "std_mean"):
        fn = getattr(torch, name)
        ops.add(name, lambda x, dim=None, correction=None, keepdim=False, fn=fn: tuple(fn(
            x, dim=_dims(dim) or None, correction=correction_of(correction), keepdim=keepdim)))
    ops.add("argsort", lambda x, dim=-1, descending=False: torch.argsort(x, dim=dim, descending=descending,
                                                                         stable=True))
    ops.add("argsort.stable", lambda x, stable, dim=-1, descending=False: torch.argsort(
        x, dim=dim, descending=descending, stable=stable))
    ops.add("msort", lambda x: torch.msort(x))

    # Views and their composites (docs/ops/view.md).
    ops.add("expand", lambda x, size: x.expand(_dims(size)))
    ops.add("view", lambda x, size: x.view(_dims(size)))
    ops.add("permute", lambda x, dims: x.permute(_dims(dims)))

    def squeeze(x, dim=None):
        dims = _dims(dim)
        if dims is None:
            return torch.squeeze(x)
        if v2:
            return torch.squeeze(x, tuple(dims))
        if len(dims) == 1:
            return torch.squeeze(x, dims[0])
        raise Unsupported(f"torch.squeeze in PyTorch {torch.__version__} takes one dim, not {dims}")

    ops.add("squeeze", squeeze)
    ops.add("unsqueeze", lambda x, dim: torch.unsqueeze(x, dim))
    ops.add("select", lambda x, dim, index: torch.select(x, dim, index))
    ops.add("slice", lambda x, dim=0, start=None, end=None, step=1: torch.ops.aten.slice.Tensor(
        x, dim, start, end, step))
    ops.add("diagonal", lambda x, offset=0, dim1=0, dim2=1: torch.diagonal(x, offset, dim1, dim2))
    ops.add("reshape", lambda x, shape: torch.reshape(x, _dims(shape)))
    ops.add("transpose", lambda x, dim0, dim1: torch.transpose(x, dim0, dim1))
    ops.add("movedim", lambda x, source, destination: torch.movedim(x, _dims(source), _dims(destination)))
    ops.add("broadcast_to", lambda x, size: torch.broadcast_to(x, _dims(size)))
    ops.add("flatten", lambda x, start_dim=0, end_dim=-1: torch.flatten(x, start_dim, end_dim))
    ops.add("unflatten", lambda x, dim, sizes: torch.unflatten(x, dim, _dims(sizes)))
    ops.add("narrow", lambda x, dim, start, length: torch.narrow(x, dim, start, length))
    ops.add("unbind", lambda x, dim=0: list(torch.unbind(x, dim)))
    ops.add("split", lambda x, split_size, dim=0: list(torch.split(x, split_size, dim)))
    ops.add("split_with_sizes", lambda x, split_sizes, dim=0: list(torch.split(x, _dims(split_sizes), dim)))
    ops.add("chunk", lambda x, chunks, dim=0: list(torch.chunk(x, chunks, dim)))

    # The view-copy family (docs/ops/view_copy.md): PyTorch's own *_copy and *_scatter functions,
    # the ops its functionalize(remove='mutations_and_views') emits.
    def squeeze_copy(x, dim=None):
        dims = _dims(dim)
        if dims is None:
            return torch.squeeze_copy(x)
        if v2:
            return torch.squeeze_copy(x, tuple(dims))
        if len(dims) == 1:
            return torch.squeeze_copy(x, dims[0])
        raise Unsupported(f"torch.squeeze_copy in PyTorch {torch.__version__} takes one dim, not {dims}")

    ops.add("squeeze_copy", squeeze_copy)
    ops.add("expand_copy", lambda x, size: torch.expand_copy(x, _dims(size)))
    ops.add("permute_copy", lambda x, dims: torch.permute_copy(x, _dims(dims)))
    ops.add("unsqueeze_copy", lambda x, dim: torch.unsqueeze_copy(x, dim))
    ops.add("select_copy", lambda x, dim, index: torch.select_copy(x, dim, index))
    ops.add("slice_copy", lambda x, dim=0, start=None, end=None, step=1: torch.slice_copy(x, dim, start, end, step))
    ops.add("diagonal_copy", lambda x, offset=0, dim1=0, dim2=1: torch.diagonal_copy(x, offset, dim1, dim2))
    ops.add("detach_copy", lambda x: torch.detach_copy(x))
    ops.add("view_copy", lambda x, size: torch.view_copy(x, _dims(size)))
    ops.add("select_scatter", lambda x, src, dim, index: torch.select_scatter(x, src, dim, index))
    ops.add("slice_scatter", lambda x, src, dim=0, start=None, end=None, step=1: torch.slice_scatter(
        x, src, dim, start, end, step))
    ops.add("diagonal_scatter", lambda x, src, offset=0, dim1=0, dim2=1: torch.diagonal_scatter(
        x, src, offset, dim1, dim2))

    # Joining and indexing (docs/ops/index.md).
    ops.add("cat", lambda tensors, dim=0: torch.cat(tensors, dim))
    ops.add("stack", lambda tensors, dim=0: torch.stack(tensors, dim))
    ops.add("index_select", lambda x, index, dim: torch.index_select(x, dim, index))
    ops.add("gather", lambda x, index, dim: torch.gather(x, dim, index))
    ops.add("scatter_add", lambda x, index, src, dim: torch.scatter_add(x, dim, index, src))
    ops.add("scatter", lambda x, index, src, dim, out=None: torch.scatter(x, dim, index, src, **_out(out)),
            inplace=lambda x, index, src, dim: x.scatter_(dim, index, src), out=True)
    ops.table["scatter.value"] = lambda x, index, dim, value: torch.scatter(x, dim, index, value)
    ops.table["scatter.reduce"] = lambda x, index, src, dim, reduce: torch.scatter(x, dim, index, src, reduce=reduce)
    ops.add("scatter_reduce", lambda x, index, src, dim, reduce, include_self=True, out=None: torch.scatter_reduce(
        x, dim, index, src, reduce, include_self=include_self, **_out(out)),
        inplace=lambda x, index, src, dim, reduce, include_self=True: x.scatter_reduce_(
            dim, index, src, reduce, include_self=include_self), out=True)
    ops.add("index_reduce", lambda x, index, source, dim, reduce, include_self=True: torch.index_reduce(
        x, dim, index, source, reduce, include_self=include_self),
        inplace=lambda x, index, source, dim, reduce, include_self=True: x.index_reduce_(
            dim, index, source, reduce, include_self=include_self))
    ops.add("index_copy", lambda x, index, source, dim: torch.index_copy(x, dim, index, source),
            inplace=lambda x, index, source, dim: x.index_copy_(dim, index, source))
    ops.add("index_fill", lambda x, index, dim, value: torch.index_fill(x, dim, index, value),
            inplace=lambda x, index, dim, value: x.index_fill_(dim, index, value))
    ops.add("take", lambda x, index: torch.take(x, index))
    ops.add("put", lambda x, index, source, accumulate=False: torch.put(x, index, source, accumulate=accumulate),
            inplace=lambda x, index, source, accumulate=False: x.put_(index, source, accumulate=accumulate))
    ops.add("take_along_dim", lambda x, indices, dim=None: torch.take_along_dim(x, indices, dim))
    ops.add("masked_fill", lambda x, mask, value: torch.masked_fill(x, mask, value),
            inplace=lambda x, mask, value: x.masked_fill_(mask, value))
    ops.add("index_add", lambda x, index, source, dim, alpha=1: torch.index_add(x, dim, index, source, alpha=alpha),
            inplace=lambda x, index, source, dim, alpha=1: x.index_add_(dim, index, source, alpha=alpha))
    ops.add("pad", lambda x, pad, mode="constant", value=0: F.pad(x, _dims(pad), mode=mode, value=value))

    # Linear algebra (docs/ops/linalg.md).
    ops.add("einsum", lambda operands, equation: torch.einsum(equation, *operands))
    for name in ("mm", "bmm", "mv", "dot", "outer", "matmul"):
        fn = getattr(torch, name)
        ops.add(name, lambda a, b, out=None, fn=fn: fn(a, b, **_out(out)), out=name in ("mm", "matmul"))
    ops.add("trace", lambda x: torch.trace(x))
    for name in ("addmm", "addmv", "addr", "baddbmm", "addbmm"):
        fn = getattr(torch, name)
        ops.add(name, lambda x, a, b, beta=1, alpha=1, fn=fn: fn(x, a, b, beta=beta, alpha=alpha))
    ops.add("kron", lambda a, b: torch.kron(a, b))
    ops.add("tensordot", lambda a, b, dims_self, dims_other: torch.tensordot(
        a, b, dims=(_dims(dims_self), _dims(dims_other))))
    ops.add("vecdot", lambda x, y, dim=-1: torch.linalg.vecdot(x, y, dim=dim))
    ops.add("diag_embed", lambda x, offset=0, dim1=-2, dim2=-1: torch.diag_embed(x, offset, dim1, dim2))
    for name in ("tril", "triu"):
        fn = getattr(torch, name)
        ops.add(name, lambda x, diagonal=0, out=None, fn=fn: fn(x, diagonal, **_out(out)),
                inplace=method(name + "_"), out=True)
    # Norms and distances (docs/ops/distance.md).
    ops.add("vector_norm", lambda x, ord=2, dim=None, keepdim=False, dtype=None: torch.linalg.vector_norm(
        x, ord, dim=None if dim is None or _dims(dim) == [] else _dims(dim), keepdim=keepdim, dtype=dtype))
    ops.add("dist", lambda a, b, p=2: torch.dist(a, b, p))
    ops.add("renorm", lambda x, p, dim, maxnorm: torch.renorm(x, p, dim, maxnorm))
    ops.add("cross", lambda a, b, dim=None: torch.cross(a, b, dim=dim))
    ops.add("linalg_cross", lambda a, b, dim=-1: torch.linalg.cross(a, b, dim=dim))
    ops.add("diag", lambda x, diagonal=0: torch.diag(x, diagonal))
    ops.add("multi_dot", lambda *tensors: torch.linalg.multi_dot(list(tensors)))
    ops.add("cov", lambda x, fweights=None, aweights=None, correction=1: torch.cov(
        x, correction=correction, fweights=fweights, aweights=aweights))
    ops.add("corrcoef", lambda x: torch.corrcoef(x))
    ops.add("cdist", lambda x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary": torch.cdist(
        x1, x2, p, compute_mode))
    ops.add("pdist", lambda x, p=2.0: torch.pdist(x, p))
    ops.add("cosine_similarity", lambda x1, x2, dim=1, eps=1e-8: F.cosine_similarity(x1, x2, dim, eps))
    ops.add("pairwise_distance", lambda x1, x2, p=2.0, eps=1e-6, keepdim=False: F.pairwise_distance(
        x1, x2, p, eps, keepdim))
    ops.add("det", lambda x: torch.linalg.det(x))
    ops.add("slogdet", lambda x: tuple(torch.linalg.slogdet(x)))
    ops.add("inverse", lambda x: torch.linalg.inv(x))
    ops.add("solve", lambda a, b, left=True: torch.linalg.solve(a, b, left=left))
    ops.add("eigh", lambda a, UPLO="L": tuple(torch.linalg.eigh(a, UPLO=UPLO)))
    ops.add("eigvalsh", lambda a, UPLO="L": torch.linalg.eigvalsh(a, UPLO=UPLO))
    ops.add("svd", lambda a, full_matrices=True: tuple(torch.linalg.svd(a, full_matrices=full_matrices)))
    ops.add("svdvals", lambda a: torch.linalg.svdvals(a))
    ops.add("matrix_norm", lambda a, ord="fro", dim=(-2, -1), keepdim=False: torch.linalg.matrix_norm(
        a, ord=matrix_ord(ord), dim=tuple(dim), keepdim=keepdim))
    ops.add("cond", lambda a, p=None: torch.linalg.cond(a, p=None if p is None else matrix_ord(p)))

    def lu_factor(a, pivot=True):
        # lu_factor's pivots are int32 in PyTorch; the spec's are int64 with the same values (SPEC OPS-6.1).
        _lu_pivot(pivot, a)
        lu, pivots = torch.linalg.lu_factor(a, pivot=pivot)
        return lu, pivots.long()

    def lu(a, pivot=True):
        _lu_pivot(pivot, a)
        return tuple(torch.linalg.lu(a, pivot=pivot))

    ops.add("lu_factor", lu_factor)
    ops.add("lu", lu)
    ops.add("lu_solve", lambda lu, pivots, b, left=True, adjoint=False: torch.linalg.lu_solve(
        lu, pivots.int(), b, left=left, adjoint=adjoint))
    ops.add("matrix_exp", lambda x: torch.linalg.matrix_exp(x))
    ops.add("solve_triangular", lambda a, b, upper, left=True, unitriangular=False: torch.linalg.solve_triangular(
        a, b, upper=upper, left=left, unitriangular=unitriangular))
    ops.add("cholesky", lambda a, upper=False: torch.linalg.cholesky(a, upper=upper))

    def cholesky_ex(a, upper=False, check_errors=False):
        # info is int32 in PyTorch; the case format has int64 only (docs/ops/linalg.md).
        factor, info = torch.linalg.cholesky_ex(a, upper=upper, check_errors=check_errors)
        return factor, info.to(torch.int64)

    ops.add("cholesky_ex", cholesky_ex)
    ops.add("cholesky_solve", lambda b, factor, upper=False: torch.cholesky_solve(b, factor, upper=upper))
    ops.add("cholesky_inverse", lambda factor, upper=False: torch.cholesky_inverse(factor, upper=upper))
    ops.add("inv", lambda a: torch.linalg.inv(a))

    def inv_ex(a, check_errors=False):
        # info is int32 in PyTorch; the case format has int64 only (docs/ops/linalg.md).
        inverse, info = torch.linalg.inv_ex(a, check_errors=check_errors)
        return inverse, info.to(torch.int64)

    ops.add("inv_ex", inv_ex)
    ops.add("matrix_power", lambda a, n: torch.linalg.matrix_power(a, n))
    ops.add("qr", lambda a, mode="reduced": tuple(torch.linalg.qr(a, mode=mode)))
    ops.add("householder_product", lambda a, tau: torch.linalg.householder_product(a, tau))
    ops.add("pinv", lambda a, atol=None, rtol=None, hermitian=False: torch.linalg.pinv(
        a, atol=atol, rtol=rtol, hermitian=hermitian))
    ops.add("pinv_with_tolerances", lambda a, atol, rtol, hermitian=False: torch.linalg.pinv(
        a, atol=atol, rtol=rtol, hermitian=hermitian))
    # The catalogue's lstsq is the solution (docs/ops/linalg.md).
    ops.add("lstsq", lambda a, b, rcond=None, driver=None: torch.linalg.lstsq(
        a, b, rcond=rcond, driver=driver).solution)
    ops.add("matrix_rank", lambda a, atol=None, rtol=None, hermitian=False: torch.linalg.matrix_rank(
        a, atol=atol, rtol=rtol, hermitian=hermitian))

    # Composites (docs/ops/composite.md).
    ops.add("softmax", lambda x, dim, dtype=None: torch.softmax(x, dim, dtype=dtype))
    ops.add("log_softmax", lambda x, dim, dtype=None: torch.log_softmax(x, dim, dtype=dtype))
    ops.add("nll_loss", lambda x, target, weight=None, reduction="mean", ignore_index=-100: F.nll_loss(
        x, target, weight, reduction=reduction, ignore_index=ignore_index))
    ops.add("cross_entropy", lambda x, target, weight=None, reduction="mean", ignore_index=-100,
            label_smoothing=0.0: F.cross_entropy(x, target, weight, reduction=reduction,
                                                 ignore_index=ignore_index, label_smoothing=label_smoothing))
    ops.add("mse_loss", lambda x, target, reduction="mean": F.mse_loss(x, target, reduction=reduction))
    # Losses (docs/ops/loss.md).
    ops.add("binary_cross_entropy", lambda x, target, weight=None, reduction="mean": F.binary_cross_entropy(
        x, target, weight, reduction=reduction))
    ops.add("binary_cross_entropy_with_logits", lambda x, target, weight=None, pos_weight=None, reduction="mean":
            F.binary_cross_entropy_with_logits(x, target, weight, reduction=reduction, pos_weight=pos_weight))
    ops.add("kl_div", lambda x, target, reduction="mean", log_target=False: F.kl_div(
        x, target, reduction=reduction, log_target=log_target))
    ops.add("huber_loss", lambda x, target, reduction="mean", delta=1.0: F.huber_loss(
        x, target, reduction=reduction, delta=delta))
    ops.add("smooth_l1_loss", lambda x, target, reduction="mean", beta=1.0: F.smooth_l1_loss(
        x, target, reduction=reduction, beta=beta))
    ops.add("l1_loss", lambda x, target, reduction="mean": F.l1_loss(x, target, reduction=reduction))
    ops.add("gaussian_nll_loss", lambda x, target, var, full=False, eps=1e-6, reduction="mean": F.gaussian_nll_loss(
        x, target, var, full=full, eps=eps, reduction=reduction))
    ops.add("poisson_nll_loss", lambda x, target, log_input=True, full=False, eps=1e-8, reduction="mean":
            F.poisson_nll_loss(x, target, log_input=log_input, full=full, eps=eps, reduction=reduction))
    ops.add("margin_ranking_loss", lambda x1, x2, target, margin=0.0, reduction="mean": F.margin_ranking_loss(
        x1, x2, target, margin=margin, reduction=reduction))
    ops.add("hinge_embedding_loss", lambda x, target, margin=1.0, reduction="mean": F.hinge_embedding_loss(
        x, target, margin=margin, reduction=reduction))
    ops.add("soft_margin_loss", lambda x, target, reduction="mean": F.soft_margin_loss(x, target, reduction=reduction))
    ops.add("multilabel_soft_margin_loss", lambda x, target, weight=None, reduction="mean":
            F.multilabel_soft_margin_loss(x, target, weight, reduction=reduction))
    ops.add("multi_margin_loss", lambda x, target, weight=None, p=1, margin=1, reduction="mean": F.multi_margin_loss(
        x, target, p=p, margin=margin, weight=weight, reduction=reduction))
    ops.add("cosine_embedding_loss", lambda x1, x2, target, margin=0.0, reduction="mean": F.cosine_embedding_loss(
        x1, x2, target, margin=margin, reduction=reduction))
    ops.add("triplet_margin_loss", lambda anchor, positive, negative, margin=1.0, p=2.0, eps=1e-6, swap=False,
            reduction="mean": F.triplet_margin_loss(anchor, positive, negative, margin=margin, p=p, eps=eps,
                                                    swap=swap, reduction=reduction))
    ops.add("linear", lambda x, weight, bias=None: F.linear(x, weight, bias))
    ops.add("layer_norm", lambda x, weight=None, bias=None, normalized_shape=(), eps=1e-5: F.layer_norm(
        x, _dims(normalized_shape), weight, bias, eps))
    ops.add("dropout", lambda x, p=0.5, train=True: F.dropout(x, p, training=train))
    ops.add("alpha_dropout", lambda x, p=0.5, train=True: F.alpha_dropout(x, p, training=train))
    ops.add("feature_alpha_dropout", lambda x, p=0.5, train=True: F.feature_alpha_dropout(x, p, training=train))
    ops.add("gumbel_softmax", lambda logits, tau=1.0, hard=False, dim=-1: F.gumbel_softmax(logits, tau=tau, hard=hard,
                                                                                           dim=dim))
    for n in (1, 2, 3):
        ops.add(f"dropout{n}d", (lambda f: lambda x, p=0.5, train=True: f(x, p, training=train))(
            getattr(F, f"dropout{n}d")))
    # The convolution family (docs/ops/convolution.md): F.convNd with a list padding or a string
    # ('valid', 'same': the .padding overload), F.conv_transposeNd (groups before dilation, as
    # PyTorch's positional order), F.unfold and F.fold.
    for n in (1, 2, 3):
        conv = getattr(F, f"conv{n}d")
        ops.add(f"conv{n}d", (lambda f: lambda x, weight, bias=None, stride=(1,), padding=(0,), dilation=(1,),
                               groups=1: f(x, weight, bias, _spatial(stride), _spatial(padding), _spatial(dilation),
                                           groups))(conv))
        ops.add(f"conv{n}d.padding", (lambda f: lambda x, weight, bias=None, stride=(1,), padding="valid",
                                       dilation=(1,), groups=1: f(x, weight, bias, _spatial(stride), padding,
                                                                  _spatial(dilation), groups))(conv))
        ops.add(f"conv_transpose{n}d", (lambda f: lambda x, weight, bias=None, stride=(1,), padding=(0,),
                                         output_padding=(0,), groups=1, dilation=(1,): f(
            x, weight, bias, _spatial(stride), _spatial(padding), _spatial(output_padding), groups,
            _spatial(dilation)))(getattr(F, f"conv_transpose{n}d")))
    ops.add("unfold", lambda x, kernel_size, dilation=(1,), padding=(0,), stride=(1,): F.unfold(
        x, _spatial(kernel_size), _spatial(dilation), _spatial(padding), _spatial(stride)))
    ops.add("fold", lambda x, output_size, kernel_size, dilation=(1,), padding=(0,), stride=(1,): F.fold(
        x, _spatial(output_size), _spatial(kernel_size), _spatial(dilation), _spatial(padding), _spatial(stride)))
    # The pools (docs/ops/pooling.md): an empty stride is F.*'s stride=None (the kernel size).
    def _stride(stride: Any) -> Any:
        return None if not _dims(stride) else _spatial(stride)

    for n in (1, 2, 3):
        max_pool = getattr(F, f"max_pool{n}d")
        for suffix, with_indices in (("", False), ("_with_indices", True)):
            ops.add(f"max_pool{n}d{suffix}", (lambda f, r: lambda x, kernel_size, stride=(), padding=(0,),
                                               dilation=(1,), ceil_mode=False: f(
                x, _spatial(kernel_size), _stride(stride), _spatial(padding), _spatial(dilation), ceil_mode,
                return_indices=r))(max_pool, with_indices))
        avg_pool = getattr(F, f"avg_pool{n}d")
        if n == 1:
            ops.add("avg_pool1d", lambda x, kernel_size, stride=(), padding=(0,), ceil_mode=False,
                    count_include_pad=True: F.avg_pool1d(x, _spatial(kernel_size), _stride(stride),
                                                         _spatial(padding), ceil_mode, count_include_pad))
        else:
            ops.add(f"avg_pool{n}d", (lambda f: lambda x, kernel_size, stride=(), padding=(0,), ceil_mode=False,
                                       count_include_pad=True, divisor_override=None: f(
                x, _spatial(kernel_size), _stride(stride), _spatial(padding), ceil_mode, count_include_pad,
                divisor_override))(avg_pool))
        ops.add(f"max_unpool{n}d", (lambda f: lambda x, indices, kernel_size, stride=(), padding=(0,),
                                     output_size=(): f(x, indices, _spatial(kernel_size), _stride(stride),
                                                       _spatial(padding), list(output_size) or None))(
            getattr(F, f"max_unpool{n}d")))
    for n in (1, 2):
        ops.add(f"adaptive_avg_pool{n}d", (lambda f: lambda x, output_size: f(x, _spatial(output_size)))(
            getattr(F, f"adaptive_avg_pool{n}d")))
        for suffix, with_indices in (("", False), ("_with_indices", True)):
            ops.add(f"adaptive_max_pool{n}d{suffix}", (lambda f, r: lambda x, output_size: f(
                x, _spatial(output_size), return_indices=r))(getattr(F, f"adaptive_max_pool{n}d"), with_indices))
        ops.add(f"lp_pool{n}d", (lambda f: lambda x, norm_type, kernel_size, stride=(), ceil_mode=False: f(
            x, norm_type, _spatial(kernel_size), _stride(stride), ceil_mode))(getattr(F, f"lp_pool{n}d")))
    # scaled_dot_product_attention (docs/ops/attention.md): PyTorch 2; enable_gqa from 2.5.
    if hasattr(F, "scaled_dot_product_attention"):
        ops.add("scaled_dot_product_attention", lambda q, k, v, attn_mask=None, is_causal=False, scale=None,
                enable_gqa=False: F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, is_causal=is_causal,
                                                                 scale=scale, **({"enable_gqa": True} if enable_gqa
                                                                                 else {})))
    # multi_head_attention_forward (docs/ops/attention.md): F.multi_head_attention_forward's
    # need_weights path with packed projections and no dropout, in either version.
    ops.add("multi_head_attention_forward",
            lambda q, k, v, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias, key_padding_mask=None,
            attn_mask=None, num_heads=1, average_attn_weights=True: F.multi_head_attention_forward(
                q, k, v, q.shape[-1], num_heads, in_proj_weight, in_proj_bias, None, None, False, 0.0,
                out_proj_weight, out_proj_bias, training=False, key_padding_mask=key_padding_mask, need_weights=True,
                attn_mask=attn_mask, average_attn_weights=average_attn_weights))
    # The normalization family (docs/ops/normalization.md). batch_norm and instance_norm write their
    # running statistics as F.* does. Their functional forms: PyTorch 2's ATen
    # _native_batch_norm_legit_functional (results 0, 3 and 4; 1 and 2 are the statistics its
    # backward saves); PyTorch 1.13 has none, and instance_norm none in either, so there they are what
    # a user writes to keep the statistics: F.* on clones, returned.
    ops.add("batch_norm", lambda x, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1,
            eps=1e-5: F.batch_norm(x, running_mean, running_var, weight, bias, training, momentum, eps))

    def _batch_norm_functional(x, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1,
                               eps=1e-5):
        if v2:
            out = torch.ops.aten._native_batch_norm_legit_functional(x, weight, bias, running_mean, running_var,
                                                                     training, momentum, eps)
            return out[0], out[3], out[4]
        mean, var = running_mean.clone(), running_var.clone()
        return F.batch_norm(x, mean, var, weight, bias, training, momentum, eps), mean, var

    ops.add("batch_norm_functional", _batch_norm_functional)
    ops.add("instance_norm", lambda x, running_mean=None, running_var=None, weight=None, bias=None,
            use_input_stats=True, momentum=0.1, eps=1e-5: F.instance_norm(
        x, running_mean, running_var, weight, bias, use_input_stats, momentum, eps))

    def _instance_norm_functional(x, running_mean, running_var, weight=None, bias=None, use_input_stats=True,
                                  momentum=0.1, eps=1e-5):
        mean, var = running_mean.clone(), running_var.clone()
        return F.instance_norm(x, mean, var, weight, bias, use_input_stats, momentum, eps), mean, var

    ops.add("instance_norm_functional", _instance_norm_functional)
    ops.add("group_norm", lambda x, weight=None, bias=None, num_groups=1, eps=1e-5: F.group_norm(
        x, num_groups, weight, bias, eps))
    ops.add("local_response_norm", lambda x, size, alpha=1e-4, beta=0.75, k=1.0: F.local_response_norm(
        x, size, alpha, beta, k))
    ops.add("normalize", lambda x, p=2.0, dim=1, eps=1e-12: F.normalize(x, p, dim, eps))
    ops.add("embedding", lambda x, weight, padding_idx=None, scale_grad_by_freq=False: F.embedding(
        x, weight, padding_idx, scale_grad_by_freq=scale_grad_by_freq))
    # F.embedding's max_norm: torch.embedding_renorm_; the functional form is ATen's embedding_renorm in
    # PyTorch 2 (made for functionalization), the in-place one on a clone in 1.13.
    ops.add("embedding_renorm", lambda x, indices, max_norm, norm_type: torch.ops.aten.embedding_renorm(
        x, indices, max_norm, norm_type) if v2 else torch.embedding_renorm_(x.clone(), indices, max_norm, norm_type),
        inplace=lambda x, indices, max_norm, norm_type: torch.embedding_renorm_(x, indices, max_norm, norm_type))
    ops.add("embedding_bag", lambda x, weight, offsets=None, per_sample_weights=None, scale_grad_by_freq=False,
            mode="mean", include_last_offset=False, padding_idx=None: F.embedding_bag(
        x, weight, offsets, scale_grad_by_freq=scale_grad_by_freq, mode=mode,
        per_sample_weights=per_sample_weights, include_last_offset=include_last_offset, padding_idx=padding_idx))
    # The resampling family (docs/ops/resampling.md); pad's modes are above. A one-entry size or
    # scale_factor is F.interpolate's single number (repeated for every spatial dim).
    ops.add("pixel_shuffle", lambda x, upscale_factor: F.pixel_shuffle(x, upscale_factor))
    ops.add("pixel_unshuffle", lambda x, downscale_factor: F.pixel_unshuffle(x, downscale_factor))

    def _factors(values: Any) -> Any:
        if values is None:
            return None
        values = [float(v) for v in ([values] if isinstance(values, (int, float)) else values)]
        return values[0] if len(values) == 1 else tuple(values)

    ops.add("interpolate", lambda x, size=None, scale_factor=None, mode="nearest", align_corners=None,
            recompute_scale_factor=None: F.interpolate(
                x, size=None if size is None else _spatial(size), scale_factor=_factors(scale_factor), mode=mode,
                align_corners=align_corners, recompute_scale_factor=recompute_scale_factor))
    ops.add("grid_sample", lambda x, grid, mode="bilinear", padding_mode="zeros", align_corners=False: F.grid_sample(
        x, grid, mode=mode, padding_mode=padding_mode, align_corners=align_corners))
    ops.add("affine_grid", lambda theta, size, align_corners=False: F.affine_grid(
        theta, list(_dims(size)), align_corners=align_corners))
    ops.table["fill_"] = lambda x, value: x.fill_(value)
    ops.table["zero_"] = lambda x: x.zero_()

    # Conversions (funcspec ops, conversion family).
    ops.add("to_dtype", lambda x, dtype: x.to(dtype))
    ops.add("clone", lambda x: torch.clone(x))
    ops.add("contiguous", lambda x: x.contiguous())
    ops.table["copy_"] = lambda x, src: x.copy_(src) if isinstance(src, torch.Tensor) else x.fill_(src)
    ops.add("detach", lambda x: x.detach())

    # Creation (docs/ops/creation.md).
    ops.add("full", lambda size, fill_value, dtype=None, device="cpu": torch.full(
        _dims(size), fill_value, dtype=dtype, device=device))
    ops.add("arange", lambda start=0, end=None, step=1, dtype=None, device="cpu": torch.arange(
        start, end, step, dtype=dtype, device=device))
    for name in ("zeros", "ones"):
        fn = getattr(torch, name)
        ops.add(name, lambda size, dtype=torch.float32, device="cpu", fn=fn: fn(_dims(size), dtype=dtype,
                                                                                 device=device))
    for name in ("zeros_like", "ones_like"):
        fn = getattr(torch, name)
        ops.add(name, lambda x, dtype=None, fn=fn: fn(x, dtype=dtype))
    ops.add("full_like", lambda x, fill_value, dtype=None: torch.full_like(x, fill_value, dtype=dtype))

    # Value-dependent ops (docs/ops/dynamic.md).
    ops.add("item", lambda x: x.item())
    ops.add("is_nonzero", lambda x: torch.is_nonzero(x))
    ops.add("nonzero", lambda x: torch.nonzero(x))
    ops.add("masked_select", lambda x, mask: torch.masked_select(x, mask))

    # Random ops (docs/ops/random.md): PyTorch's generator, seeded with the case's seed.
    for name in ("rand", "randn"):
        fn = getattr(torch, name)
        ops.add(name, lambda size, dtype=torch.float32, device="cpu", fn=fn: fn(_dims(size), dtype=dtype,
                                                                                 device=device))
    ops.add("randint", lambda low, high, size, dtype=torch.int64, device="cpu": torch.randint(
        low, high, _dims(size), dtype=dtype, device=device))
    ops.add("bernoulli", lambda p: torch.bernoulli(p))
    ops.table["bernoulli.p"] = lambda x, p=0.5: torch.bernoulli(x, p)
    ops.add("normal", lambda mean, std: torch.normal(mean, std))
    # The functional draws are ATen's own ops of these names (made for functionalization).
    ops.add("normal_functional", lambda x, mean=0.0, std=1.0: torch.ops.aten.normal_functional(x, mean, std))
    ops.add("uniform", lambda x, from_=0.0, to=1.0: torch.ops.aten.uniform(x, from_, to))
    ops.table["normal_"] = lambda x, mean=0.0, std=1.0: x.normal_(mean, std)
    ops.table["uniform_"] = lambda x, from_=0.0, to=1.0: x.uniform_(from_, to)
    ops.table["bernoulli_"] = lambda x, p=0.5: x.bernoulli_(p)
    # exponential: ATen's functional op in PyTorch 2; what a 1.13 user writes otherwise.
    ops.add("exponential", lambda x, lambd=1.0: torch.ops.aten.exponential(x, lambd) if v2 else
            torch.empty_like(x).exponential_(lambd))
    ops.table["exponential_"] = lambda x, lambd=1.0: x.exponential_(lambd)
    ops.add("multinomial", lambda x, num_samples, replacement=False: torch.multinomial(x, num_samples,
                                                                                       replacement))

    # The spec-defined custom functions (SPEC CUSTOM-3.x), as autograd.Functions: PyTorch 2 only
    # (torch_custom.py says why).
    if v2:
        import torch_custom

        ops.table.update(torch_custom.custom_ops())
    return ops
