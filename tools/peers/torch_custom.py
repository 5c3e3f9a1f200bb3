"""The spec-defined custom functions (SPEC CUSTOM-3.x) as torch.autograd.Function subclasses.

Each catalogue function becomes the `autograd.Function` a torch.func user writes for it (PyTorch
>= 2.0: forward without ctx, `setup_context`, and the rules as `backward`, `jvp` and the `vmap`
staticmethod), with exactly the rules docs/custom-rules.md gives it and no others. A rule the
spec does not give is left undefined, so PyTorch answers for its absence in its own way:
`straight_through_sign` has no vjp rule (the spec transposes its jvp rule, as JAX's custom_jvp;
PyTorch raises, a deliberate difference of CUSTOM-2.3) and `clip_gradient` no jvp rule (both
raise, CUSTOM-2.2).

PyTorch 1.13 is not given these (they stay unsupported there): its autograd.Function has no
setup_context and no vmap staticmethod, and every functorch 1.13 transform refuses an
autograd.Function ("functorch functions ... currently do not support the use of
autograd.Function"), so no rule of the spec could be PyTorch's own there.
"""

from __future__ import annotations

from typing import Any, Callable

import torch

from funcspec_peer.wire import SpecError


# Each vmap rule below is the catalogue's rule of a function applied elementwise: the function
# itself on the whole batch, whose batch dim stays where it was (reference/ops/custom_ops.cpp).


class StraightThroughRound(torch.autograd.Function):
    """round(x), half to even; the vjp and jvp rules pass the (co)tangent through."""

    @staticmethod
    def forward(x: Any) -> Any:
        return torch.round(x)

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple, output: Any) -> None:
        pass

    @staticmethod
    def backward(ctx: Any, g: Any) -> Any:
        return g

    @staticmethod
    def jvp(ctx: Any, t: Any) -> Any:
        return t

    @staticmethod
    def vmap(info: Any, in_dims: tuple, x: Any) -> tuple:
        return StraightThroughRound.apply(x), in_dims[0]


class StraightThroughSign(torch.autograd.Function):
    """sign(x); the jvp rule passes the tangent through; no vjp rule (none is given)."""

    @staticmethod
    def forward(x: Any) -> Any:
        return torch.sign(x)

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple, output: Any) -> None:
        pass

    @staticmethod
    def jvp(ctx: Any, t: Any) -> Any:
        return t

    @staticmethod
    def vmap(info: Any, in_dims: tuple, x: Any) -> tuple:
        return StraightThroughSign.apply(x), in_dims[0]


class Log1pExp(torch.autograd.Function):
    """log(1 + exp(x)) as relu(x) + log1p(exp(-|x|)); vjp g * sigmoid(x), jvp t * sigmoid(x)."""

    @staticmethod
    def forward(x: Any) -> Any:
        return torch.relu(x) + torch.log1p(torch.exp(-torch.abs(x)))

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple, output: Any) -> None:
        (x,) = inputs
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)

    @staticmethod
    def backward(ctx: Any, g: Any) -> Any:
        (x,) = ctx.saved_tensors
        return g * torch.sigmoid(x)

    @staticmethod
    def jvp(ctx: Any, t: Any) -> Any:
        (x,) = ctx.saved_tensors
        return t * torch.sigmoid(x)

    @staticmethod
    def vmap(info: Any, in_dims: tuple, x: Any) -> tuple:
        return Log1pExp.apply(x), in_dims[0]


class ClipGradient(torch.autograd.Function):
    """A copy of x whose cotangent is clamped to [min, max]; no jvp rule (none is given)."""

    @staticmethod
    def forward(x: Any, min: float, max: float) -> Any:
        if min > max:
            # The function's own check (CUSTOM-3.4), in the spec's terms: it is this function's
            # definition, not an exception of PyTorch's to classify.
            raise SpecError("invalid_argument",
                            f"custom.clip_gradient: min {min} is greater than max {max}; the interval is empty")
        return x.clone()

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple, output: Any) -> None:
        _, ctx.min, ctx.max = inputs

    @staticmethod
    def backward(ctx: Any, g: Any) -> tuple:
        return g.clamp(ctx.min, ctx.max), None, None

    @staticmethod
    def vmap(info: Any, in_dims: tuple, x: Any, min: float, max: float) -> tuple:
        return ClipGradient.apply(x, min, max), in_dims[0]


def custom_ops() -> dict[str, Callable[..., Any]]:
    """The catalogue's custom.* ops, as calls of the functions above."""
    return {
        "custom.straight_through_round": lambda x: StraightThroughRound.apply(x),
        "custom.straight_through_sign": lambda x: StraightThroughSign.apply(x),
        "custom.log1pexp": lambda x: Log1pExp.apply(x),
        "custom.clip_gradient": lambda x, min, max: ClipGradient.apply(x, float(min), float(max)),
    }
