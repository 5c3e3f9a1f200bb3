#!/usr/bin/env python3
"""funcspec peer driver for JAX (on CPU, float64 enabled).

    funcspec check --backend 'exec:tools/peers/.venv-jax/bin/python tools/peers/jax_driver.py' --tier pr

Speaks funcspec-protocol/1 on stdin/stdout (docs/protocol.md). A case's program runs op by op
through the JAX calls of jax_ops.py under JAX's own transforms (jax.vmap with in_axes/out_axes,
jax.grad, jax.vjp, jax.jvp, jax.linearize, jax.jacrev, jax.jacfwd, jax.hessian). A meta case runs
under jax.eval_shape, JAX's way of computing shapes and dtypes without values. Randomness uses
JAX's key model: see jax_ops.KeyState and JaxLibrary.vmap.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Callable, Optional, Sequence

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from funcspec_peer.case import FEATURES, Case, Level, Step  # noqa: E402
from funcspec_peer.program import failing_step, program, run_steps  # noqa: E402
from funcspec_peer.stack import Fn, Library, outermost_arguments, state_call, transformed  # noqa: E402
from funcspec_peer.tensors import CaseTensor  # noqa: E402
from funcspec_peer.wire import Failed, Output, Peer, SpecError, Unsupported, serve  # noqa: E402

REVERSE_MODE = frozenset({"grad", "grad_and_value", "vjp", "jacrev"})
FORWARD_MODE = frozenset({"jvp", "linearize", "jacfwd"})


class JaxLibrary(Library):
    name = "jax"
    transforms = frozenset({"vmap", "grad", "grad_and_value", "vjp", "jvp", "linearize", "jacrev", "jacfwd",
                            "hessian", "functional_call"})

    def __init__(self, jax: Any, ctx: Any) -> None:
        self.jax = jax
        self.ctx = ctx  # the evaluation's jax_ops.Context (its KeyState changes per case)
        import jax_ops

        self.dtypes = jax_ops.JAX_DTYPES

    def tensor(self, spec: CaseTensor, device: str) -> Any:
        # JAX arrays have no strides: a layout changes where values sit, never what they are.
        if device == "meta" or spec.values is None:
            return self.jax.ShapeDtypeStruct(spec.shape, self.dtypes[spec.dtype])
        return self.jax.numpy.asarray(spec.values)

    def vmap(self, fn: Fn, in_dims: Any, out_dims: Any, randomness: str, chunk_size: Optional[int]) -> Fn:
        jax = self.jax
        if chunk_size is not None:
            # jax.lax.map(batch_size=) is the nearest analogue, but it maps leading axes only and
            # always stacks: in_dims, out_dims None and randomness would be the driver's, not JAX's.
            raise Unsupported("jax.vmap has no chunk_size")
        in_axes = tuple(in_dims) if isinstance(in_dims, (list, tuple)) else in_dims
        out_axes = tuple(out_dims) if isinstance(out_dims, (list, tuple)) else out_dims
        if randomness != "different":
            # 'same': every example sees the closed-over key, so all draw the same values. JAX has
            # no 'error' mode: a random op under vmap is never refused, it draws as under 'same'.
            return jax.vmap(fn, in_axes=in_axes, out_axes=out_axes)
        ctx = self.ctx

        def batched(*args: Any) -> tuple:
            size = self._batch_size(args, in_axes)
            if size is None:
                return jax.vmap(fn, in_axes=in_axes, out_axes=out_axes)(*args)  # JAX's own error
            keys = jax.random.split(ctx.keys.next(), size)

            def example(key: Any, *a: Any) -> tuple:
                # 'different': each example draws from its own key, the key mapped over the batch.
                outer = ctx.keys.key
                ctx.keys.key = key
                try:
                    return fn(*a)
                finally:
                    ctx.keys.key = outer

            axes = (0,) + (in_axes if isinstance(in_axes, tuple) else (in_axes,) * len(args))
            return jax.vmap(example, in_axes=axes, out_axes=out_axes)(keys, *args)

        return batched

    def _batch_size(self, args: Sequence[Any], in_axes: Any) -> Optional[int]:
        axes = in_axes if isinstance(in_axes, tuple) else (in_axes,) * len(args)
        for arg, axis in zip(args, axes):
            # A module state is a dict, mapped as a whole or member by member.
            members = arg.items() if isinstance(arg, dict) else [(None, arg)]
            for member, value in members:
                dim = axis.get(member) if isinstance(axis, dict) else axis
                shape = getattr(value, "shape", None)
                if dim is not None and shape is not None and -len(shape) <= dim < len(shape):
                    return int(shape[dim])
        return None

    def grad(self, fn: Callable, argnums: tuple[int, ...], has_aux: bool, and_value: bool) -> Callable:
        transform = self.jax.value_and_grad if and_value else self.jax.grad
        g = transform(fn, argnums=argnums, has_aux=has_aux)
        if not and_value:
            return g

        def gradient_and_value(*args: Any) -> tuple:
            # jax.value_and_grad returns (value, grads); torch.func's grad_and_value the reverse.
            value, grads = g(*args)
            return grads, value

        return gradient_and_value

    def vjp(self, fn: Callable, primals: Sequence[Any], has_aux: bool) -> tuple:
        return self.jax.vjp(fn, *primals, has_aux=has_aux)

    def _zero_float0(self, primal: Any, tangent: Any) -> Any:
        # JAX gives an integer or bool result the tangent dtype float0 (no derivative); the case
        # format's jvp(y) has y's shape and dtype, so "no derivative" is a zero of y's dtype.
        if getattr(tangent, "dtype", None) == self.jax.dtypes.float0:
            return self.jax.numpy.zeros_like(primal)
        return tangent

    def jvp(self, fn: Callable, primals: tuple, tangents: tuple, has_aux: bool) -> tuple:
        r = self.jax.jvp(fn, primals, tangents, has_aux=has_aux)
        fixed = tuple(self._zero_float0(p, t) for p, t in zip(r[0], r[1]))
        return (r[0], fixed) + tuple(r[2:])

    def linearize(self, fn: Callable, primals: Sequence[Any]) -> tuple:
        out, f_jvp = self.jax.linearize(fn, *primals)
        return out, lambda *t: tuple(self._zero_float0(p, v) for p, v in zip(out, f_jvp(*t)))

    def jacobian(self, forward: bool, fn: Callable, argnums: tuple[int, ...], has_aux: bool,
                 chunk_size: Optional[int], randomness: str) -> Callable:
        if not forward and chunk_size is not None:
            raise Unsupported("jax.jacrev has no chunk_size")
        transform = self.jax.jacfwd if forward else self.jax.jacrev
        return transform(fn, argnums=argnums, has_aux=has_aux)

    def hessian(self, fn: Callable, argnums: tuple[int, ...]) -> Callable:
        return self.jax.hessian(fn, argnums=argnums)

    def called_under(self, fn: Fn, mode: str, outer: Sequence[str]) -> Fn:
        """JAX has no grad mode: a transform computes the same under every one (SPEC AD-5.3). Inside
        an outer transform's function, no_grad (and inference_mode) make the call's results constants
        for the outer reverse-mode levels and nothing for forward mode, which stop_gradient expresses
        exactly when the outer levels are all of one mode (as a no_grad step, JaxPeer._no_grad_means)."""
        if mode == "enable_grad":
            return fn
        kinds = set(outer)
        reverse, forward = kinds & REVERSE_MODE, kinds & FORWARD_MODE
        if not reverse:
            return fn
        if forward or "hessian" in kinds:
            raise Unsupported(f"JAX has no grad mode: {mode} around a call inside forward and reverse mode levels")
        stop = self.jax.lax.stop_gradient

        def constant(*args: Any) -> tuple:
            return tuple(self.jax.tree_util.tree_map(stop, r) for r in fn(*args))

        return constant

    def functional_call(self, fn: Fn, inner: Level, parameters: list[str], buffers: list[str], strict: bool,
                        tie_weights: bool) -> Fn:
        # JAX has no modules: the state is what a JAX model's parameters are, a dict pytree argument
        # of a pure function. A case's state always fits its program and ties nothing, so strict and
        # tie_weights change nothing; parameters and buffers differ only in name.
        return state_call(fn, inner, parameters + buffers)


class JaxPeer(Peer):
    def __init__(self) -> None:
        import jax

        jax.config.update("jax_enable_x64", True)
        jax.config.update("jax_platforms", "cpu")
        import jax_errors
        import jax_ops

        self.jax = jax
        self.jnp = jax.numpy
        self.jax_ops = jax_ops
        self.ctx = jax_ops.Context(jax_ops.KeyState(0), meta=False)
        self.lib = JaxLibrary(jax, self.ctx)
        import jax_custom

        self.ops = jax_ops.build_ops()
        self.ops.update(jax_custom.custom_ops())
        self.errors = jax_errors
        self.name = "jax"
        self.version = f"JAX {jax.__version__} (jaxlib, CPU, x64)"
        self.cases_run = 0

    def capabilities(self) -> dict[str, list[str]]:
        return {
            "ops": sorted(self.ops),
            "transforms": sorted(self.lib.transforms),
            "dtypes": ["bool", "int64", "float32", "float64"],
            "devices": ["cpu", "meta"],
            # Arrays are immutable: an alias is its values (no program can write through it), and
            # before_call steps are in-place writes, which no op of this driver makes.
            "features": list(FEATURES),
        }

    def call_step(self, case: Case) -> Callable[[Step, list[Any]], Any]:
        stop = self._no_grad_means(case)

        def call(step: Step, args: list[Any]) -> Any:
            impl = self.ops.get(step.op)
            if impl is None:
                raise Unsupported(f"JAX has no counterpart of {step.op} in this driver")
            result = impl(self.ctx, *args, **self.jax_ops.attrs_for_jax(step.attrs))
            if step.in_no_grad and stop:
                result = self.jax.tree_util.tree_map(self.jax.lax.stop_gradient, result)
            return result

        return call

    def _no_grad_means(self, case: Case) -> bool:
        """Whether a no_grad step is a stop_gradient here (True) or nothing (False).

        JAX has no grad mode, only stop_gradient, which stops every mode. A no_grad step (SPEC
        AD-5.1) stops reverse mode and is ignored by forward mode, so it translates exactly when
        every derivative transform of the case has one mode; a mix (hessian included) does not.
        """
        if not any(step.in_no_grad for step in case.program):
            return False
        kinds = set(case.transform_kinds())
        reverse, forward = kinds & REVERSE_MODE, kinds & FORWARD_MODE
        if "hessian" in kinds or (reverse and forward):
            raise Unsupported("JAX has no no_grad region: stop_gradient stops forward and reverse mode alike, "
                              "and this case mixes the two")
        return bool(reverse)

    def as_result(self, value: Any) -> Any:
        if isinstance(value, (bool, int, float)):
            # item() gives a Python number; the reference's item is a 0-dim tensor of its category.
            dtype = {bool: self.jnp.bool_, int: self.jnp.int64, float: self.jnp.float64}[type(value)]
            return self.jnp.asarray(value, dtype=dtype)
        return value

    def output(self, value: Any, meta: bool) -> Output:
        import numpy as np

        dtype = np.dtype(value.dtype)
        names = {np.dtype(d): name for name, d in self.lib.dtypes.items()}
        if dtype not in names:
            raise Failed(f"a result of dtype {dtype}, which no case can hold")
        if meta:
            return Output(names[dtype], tuple(value.shape), None)
        return Output(names[dtype], tuple(value.shape), np.asarray(value))

    def run(self, case: Case) -> list[Output]:
        # Every case has shapes of its own, so JAX's caches of compiled computations only grow (to
        # gigabytes over a run); clearing them now and then keeps a long run's memory bounded.
        self.cases_run += 1
        if self.cases_run % 200 == 0:
            self.jax.clear_caches()
        if case.device not in ("cpu", "meta"):
            raise Unsupported(f"this driver runs on cpu (and meta through jax.eval_shape), not {case.device}")
        # Every random choice comes from the case's seed, through JAX keys.
        self.ctx.keys = self.jax_ops.KeyState(case.seed)
        meta = case.device == "meta"
        self.ctx.meta = meta
        callers = {name: self._input(case, name) for name in case.input_names}
        args = outermost_arguments(case, lambda name: callers[name])
        stored: dict[str, Any] = {}
        call_step = self.call_step(case)
        f = transformed(case, program(case, call_step, self.as_result, stored), self.lib,
                        lambda steps, env: run_steps(steps, env, call_step))
        results = self.jax.eval_shape(f, *args) if meta else f(*args)
        if case.after:
            if meta:
                raise Unsupported("steps after the call need values, which eval_shape does not give")
            env = {**callers, **stored, **dict(zip(case.result_names, results))}
            run_steps(case.after, env, call_step)
            results = tuple(results) + tuple(self.as_result(env[name]) for name in case.after_outputs)
        return [self.output(r, meta) for r in results]

    def _input(self, case: Case, name: str) -> Any:
        i = case.input(name)
        return i.literal if i.is_literal else self.lib.tensor(i.tensor, case.device)

    def classify(self, error: BaseException, case: Case) -> Optional[SpecError]:
        return self.errors.classify(error, case, failing_step(error))


if __name__ == "__main__":
    sys.exit(serve(JaxPeer))
