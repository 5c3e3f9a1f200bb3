"""A case's transform stack over a library with torch.func-shaped transforms.

Both peers expose the same transforms with the same result structures (torch.func's, which JAX
shares: `vjp` returns `(output, vjp_fn)`, `jacrev` a tuple per output of a tuple per argument,
...), so one translation from the case format to those calls serves both. A `Library` adapts the
few spellings that differ (JAX's in_axes, keyword names) and says what it cannot express by
raising `Unsupported`.

A case's function takes the case's inputs positionally and returns a flat tuple; each transform
here returns a function of the same arguments whose flat results come in the order the naming
rules give (docs/case-format.md, *Transforms*; funcspec_peer.case computes the names).
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

from .case import Case, dims_per_name, resolve_argnums
from .tensors import CaseTensor
from .wire import Unsupported

Fn = Callable[..., tuple]


class Library:
    """The transforms of one peer library, as torch.func spells them."""

    name = "library"
    transforms: frozenset[str] = frozenset()

    def tensor(self, spec: CaseTensor, device: str) -> Any:
        raise NotImplementedError

    def vmap(self, fn: Fn, in_dims: Any, out_dims: Any, randomness: str, chunk_size: Optional[int]) -> Fn:
        raise Unsupported(f"{self.name} has no vmap")

    def grad(self, fn: Callable, argnums: tuple[int, ...], has_aux: bool, and_value: bool) -> Callable:
        raise Unsupported(f"{self.name} has no grad")

    def vjp(self, fn: Callable, primals: Sequence[Any], has_aux: bool) -> tuple:
        raise Unsupported(f"{self.name} has no vjp")

    def jvp(self, fn: Callable, primals: tuple, tangents: tuple, has_aux: bool) -> tuple:
        raise Unsupported(f"{self.name} has no jvp")

    def linearize(self, fn: Callable, primals: Sequence[Any]) -> tuple:
        raise Unsupported(f"{self.name} has no linearize")

    def jacobian(self, forward: bool, fn: Callable, argnums: tuple[int, ...], has_aux: bool,
                 chunk_size: Optional[int], randomness: str) -> Callable:
        raise Unsupported(f"{self.name} has no jacobians")

    def hessian(self, fn: Callable, argnums: tuple[int, ...]) -> Callable:
        raise Unsupported(f"{self.name} has no hessian")

    def functionalize(self, fn: Fn, remove: str) -> Fn:
        raise Unsupported(f"{self.name} has no functionalize")


def closed_over(f: Fn, args: Sequence[Any], positions: Sequence[int]) -> Fn:
    """f as a function of the arguments at `positions`, the others held at `args` (constants)."""

    def g(*chosen: Any) -> tuple:
        all_args = list(args)
        for k, position in enumerate(positions):
            all_args[position] = chosen[k]
        return f(*all_args)

    return g


def transformed(case: Case, program: Fn, lib: Library) -> Fn:
    """The case's program under its transforms, outermost applied last."""
    fn = program
    for index in range(len(case.transforms) - 1, -1, -1):
        fn = _wrap(case, index, fn, lib)
    return fn


def _wrap(case: Case, index: int, fn: Fn, lib: Library) -> Fn:
    t = case.transforms[index]
    level = case.levels[index]
    has_aux = bool(t.get("has_aux", False))
    results = level.results
    if t.kind not in lib.transforms:
        raise Unsupported(f"{lib.name} has no {t.kind}")

    def paired(*args: Any) -> Any:
        # torch.func's has_aux: f returns (output, aux); keeping outputs a tuple keeps one answer shape.
        r = fn(*args)
        return (tuple(r[:1]), tuple(r[1:])) if has_aux else tuple(r)

    if t.kind == "vmap":
        return lib.vmap(
            fn,
            dims_per_name(t.get("in_dims", 0), [a.name for a in level.args]),
            dims_per_name(t.get("out_dims", 0), results),
            t.get("randomness", "error"),
            t.get("chunk_size"),
        )

    if t.kind in ("grad", "grad_and_value"):
        positions, _ = resolve_argnums(case, level, t.get("argnums", 0))

        def scalar(*args: Any) -> Any:
            r = fn(*args)
            return (r[0], tuple(r[1:])) if has_aux else r[0]

        g = lib.grad(scalar, tuple(positions), has_aux, and_value=t.kind == "grad_and_value")

        def gradients(*args: Any) -> tuple:
            r = g(*args)
            if t.kind == "grad":
                return tuple(r[0]) + tuple(r[1]) if has_aux else tuple(r)
            grads, value = r
            aux: tuple = ()
            if has_aux:
                value, aux = value
            return tuple(grads) + (value,) + tuple(aux)

        return gradients

    if t.kind == "vjp":
        outputs = results[:1] if has_aux else results
        cotangents = tuple(lib.tensor(t.get("cotangents")[y], case.device) for y in outputs)
        # vjp differentiates every floating tensor input (docs/case-format.md).
        floating = [k for k, i in enumerate(case.inputs) if i.tensor is not None and i.tensor.is_floating]

        def pulled(*args: Any) -> tuple:
            r = lib.vjp(closed_over(paired, args, floating), [args[k] for k in floating], has_aux)
            out, vjp_fn = r[0], r[1]
            aux = r[2] if has_aux else ()
            return tuple(out) + tuple(aux) + tuple(vjp_fn(cotangents))

        return pulled

    if t.kind in ("jvp", "linearize"):
        given = t.get("tangents")
        chosen = [k for k, i in enumerate(case.inputs) if i.name in given]
        if t.kind == "linearize":
            chosen = [k for k in chosen if case.inputs[k].tensor is not None and case.inputs[k].tensor.is_floating]
        tangents = tuple(lib.tensor(given[case.inputs[k].name], case.device) for k in chosen)

        def pushed(*args: Any) -> tuple:
            # Inputs without a tangent are held constant (the case format's None tangent).
            closed = closed_over(paired, args, chosen)
            primals = tuple(args[k] for k in chosen)
            if t.kind == "linearize":
                out, jvp_fn = lib.linearize(closed, primals)
                return tuple(out) + tuple(jvp_fn(*tangents))
            r = lib.jvp(closed, primals, tangents, has_aux)
            aux = r[2] if has_aux else ()
            return tuple(r[0]) + tuple(aux) + tuple(r[1])

        return pushed

    if t.kind in ("jacrev", "jacfwd"):
        positions, _ = resolve_argnums(case, level, t.get("argnums", 0))
        jac = lib.jacobian(t.kind == "jacfwd", paired, tuple(positions), has_aux, t.get("chunk_size"),
                           t.get("randomness", "error"))

        def jacobians(*args: Any) -> tuple:
            r = jac(*args)
            blocks, aux = (r[0], r[1]) if has_aux else (r, ())
            return tuple(b for per_output in blocks for b in per_output) + tuple(aux)

        return jacobians

    if t.kind == "hessian":
        positions, _ = resolve_argnums(case, level, t.get("argnums", 0))
        h = lib.hessian(lambda *a: tuple(fn(*a)), tuple(positions))
        return lambda *args: tuple(b for per_output in h(*args) for per_a in per_output for b in per_a)

    if t.kind == "functionalize":
        return lib.functionalize(fn, t.get("remove", "mutations"))

    raise Unsupported(f"{lib.name} has no {t.kind}")
