"""The spec-defined custom functions (SPEC CUSTOM-3.x) as JAX custom_jvp / custom_vjp functions.

JAX gives a function either a jvp rule (`custom_jvp`; reverse mode transposes it) or a vjp rule
(`custom_vjp`; forward mode raises), never both, and the spec's catalogue (docs/custom-rules.md)
fits that exactly:

- `straight_through_round` (jvp t, vjp g) and `log1pexp` (jvp t * sigmoid(x), vjp g * sigmoid(x))
  are `custom_jvp` functions: their vjp rules are the transposes of their jvp rules (a product
  with a tangent-free factor is its own transpose), so JAX's transpose is the stated vjp rule, also
  under higher-order transforms, which differentiate the factor sigmoid(x) as the primal it is.
- `straight_through_sign` (jvp t, no vjp rule) is a `custom_jvp` function: the spec's transpose of
  the jvp rule (CUSTOM-2.3) is JAX's own behaviour.
- `clip_gradient` (vjp clamp(g, min, max), no jvp rule) is a `custom_vjp` function with min and max
  as nondiff_argnums: forward mode raises, as the spec's custom_rule_missing (CUSTOM-2.2).

The vmap rule of every catalogue function is the function itself on the whole batch (it is
elementwise); JAX batches a custom_jvp or custom_vjp function by batching its function and
rules, which is that rule, so no `jax.custom_batching.custom_vmap` is needed.
"""

from __future__ import annotations

import functools
from typing import Any, Callable

import jax
import jax.numpy as jnp

from funcspec_peer.wire import SpecError


@jax.custom_jvp
def straight_through_round(x: Any) -> Any:
    return jnp.round(x)  # half to even, as the catalogue's round


@straight_through_round.defjvp
def _straight_through_round_jvp(primals: tuple, tangents: tuple) -> tuple:
    (x,), (t,) = primals, tangents
    return straight_through_round(x), t


@jax.custom_jvp
def straight_through_sign(x: Any) -> Any:
    return jnp.sign(x)


@straight_through_sign.defjvp
def _straight_through_sign_jvp(primals: tuple, tangents: tuple) -> tuple:
    (x,), (t,) = primals, tangents
    return straight_through_sign(x), t


@jax.custom_jvp
def log1pexp(x: Any) -> Any:
    return jax.nn.relu(x) + jnp.log1p(jnp.exp(-jnp.abs(x)))


@log1pexp.defjvp
def _log1pexp_jvp(primals: tuple, tangents: tuple) -> tuple:
    (x,), (t,) = primals, tangents
    return log1pexp(x), t * jax.nn.sigmoid(x)


@functools.partial(jax.custom_vjp, nondiff_argnums=(1, 2))
def clip_gradient(x: Any, min: float, max: float) -> Any:
    if min > max:
        # The function's own check (CUSTOM-3.4), in the spec's terms: it is this function's
        # definition, not an exception of JAX's to classify. min and max are Python numbers.
        raise SpecError("invalid_argument",
                        f"custom.clip_gradient: min {min} is greater than max {max}; the interval is empty")
    return jnp.array(x, copy=True)


def _clip_gradient_fwd(x: Any, min: float, max: float) -> tuple:
    return clip_gradient(x, min, max), None


def _clip_gradient_bwd(min: float, max: float, residuals: None, g: Any) -> tuple:
    return (jnp.clip(g, min, max),)


clip_gradient.defvjp(_clip_gradient_fwd, _clip_gradient_bwd)


def custom_ops() -> dict[str, Callable[..., Any]]:
    """The catalogue's custom.* ops, in jax_ops' calling convention (the context first)."""
    return {
        "custom.straight_through_round": lambda ctx, x: straight_through_round(x),
        "custom.straight_through_sign": lambda ctx, x: straight_through_sign(x),
        "custom.log1pexp": lambda ctx, x: log1pexp(x),
        "custom.clip_gradient": lambda ctx, x, min, max: clip_gradient(x, float(min), float(max)),
    }
