"""A case's transform stack over a library with torch.func-shaped transforms.

Both peers expose the same transforms with the same result structures (torch.func's, which JAX
shares: `vjp` returns `(output, vjp_fn)`, `jacrev` a tuple per output of a tuple per argument,
...), so one translation from the case format to those calls serves both. A `Library` adapts the
few spellings that differ (JAX's in_axes, keyword names) and says what it cannot express by
raising `Unsupported`.

A case's function takes the case's inputs positionally and returns a flat tuple; each transform
here returns a function of the same arguments whose flat results come in the order the naming
rules give (docs/case-format.md, *Transforms*; funcspec_peer.case computes the names). The one
transform that changes the arguments is `functional_call`: above it, argument 0 is the module
state, a dict from member names to tensors, which the libraries' transforms take as the pytree
it is (grad of the state is a dict of gradients, in_dims may map single members).
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

from .case import Case, FunctionArg, Level, dims_per_argument, dims_per_name, resolve_argnums
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

    def call_mode(self, mode: str) -> Any:
        """A context manager for the grad mode a transformed function is called under (format 1.1's
        `called_under`: no_grad, enable_grad, inference_mode)."""
        raise Unsupported(f"{self.name} has no grad mode {mode}")

    def called_under(self, fn: Fn, mode: str, outer: Sequence[str]) -> Fn:
        """`fn` called under `mode`, inside the functions of the transforms `outer` (outermost first)."""
        context = self.call_mode(mode)

        def under(*args: Any) -> tuple:
            with context():
                return fn(*args)

        return under

    def functional_call(self, fn: Fn, inner: Level, parameters: list[str], buffers: list[str], strict: bool,
                        tie_weights: bool) -> Fn:
        """f(state, *rest): `fn` (of `inner`'s arguments) run as a module whose state is `state`."""
        raise Unsupported(f"{self.name} has no functional_call")


def leaf_names(level: Level) -> list[str]:
    """The case inputs the level's arguments hold, in argument order (a state's members in its order)."""
    return [m for a in level.args for m in a.members]


def leaves_of(level: Level, args: Sequence[Any]) -> list[Any]:
    """The level's arguments as one value per case input (leaf_names order)."""
    leaves: list[Any] = []
    for a, value in zip(level.args, args):
        if a.state:
            leaves.extend(value[m] for m in a.members)
        else:
            leaves.append(value)
    return leaves


def with_leaves(declared: Sequence[FunctionArg], leaves: Sequence[Any]) -> list[Any]:
    """leaves_of's inverse: arguments as `declared`, a state rebuilt as the dict of its members."""
    args: list[Any] = []
    k = 0
    for a in declared:
        if a.state:
            args.append({m: leaves[k + j] for j, m in enumerate(a.members)})
            k += len(a.members)
        else:
            args.append(leaves[k])
            k += 1
    return args


def flat(tree: Any, order: Sequence[str]) -> list[Any]:
    """The leaves of a transform's result tree (tuples, and dicts keyed by state members).

    A dict's leaves come in the members' order, as the suite names them: JAX rebuilds a dict with
    its keys sorted, so the order a library returns is not the order of the state.
    """
    if isinstance(tree, (tuple, list)):
        return [leaf for item in tree for leaf in flat(item, order)]
    if isinstance(tree, dict):
        return [leaf for key in sorted(tree, key=list(order).index) for leaf in flat(tree[key], order)]
    return [tree]


def closed_over(f: Fn, level: Level, args: Sequence[Any], positions: Sequence[int]) -> Fn:
    """f as a function of the leaves at `positions` (leaf_names order), the others held at `args`."""

    def g(*chosen: Any) -> tuple:
        leaves = leaves_of(level, args)
        for k, position in enumerate(positions):
            leaves[position] = chosen[k]
        return f(*with_leaves(level.args, leaves))

    return g


def state_call(fn: Fn, inner: Level, members: Sequence[str]) -> Fn:
    """The case's functional_call where the state is a plain dict argument (no module object).

    Returns f(state, *rest) calling `fn` (whose arguments are `inner`'s) with each state member
    where `fn` takes that input and the other arguments in order (NOTE: [case functional_call]).
    """

    def called(state: dict[str, Any], *rest: Any) -> tuple:
        return fn(*inner_arguments(inner, members, lambda name: state[name], rest))

    return called


def inner_arguments(inner: Level, members: Sequence[str], read: Callable[[str], Any],
                    rest: Sequence[Any]) -> list[Any]:
    """The arguments of the function a functional_call wraps: state members read with `read`
    where it takes them, the call's other arguments in order elsewhere."""
    values: list[Any] = []
    others = iter(rest)
    for a in inner.args:
        values.append(read(a.name) if not a.state and a.name in members else next(others))
    return values


def outermost_arguments(case: Case, value_of: Callable[[str], Any]) -> list[Any]:
    """The arguments the transformed function takes, from each input's value (a state as its dict)."""
    return with_leaves(case.arguments, [value_of(m) for a in case.arguments for m in a.members])


def _is_floating_input(case: Case, name: str) -> bool:
    i = case.input(name)
    return i is not None and i.tensor is not None and i.tensor.is_floating


def transformed(case: Case, program: Fn, lib: Library,
                before_call: Optional[Callable[[list[Any], dict[str, Any]], None]] = None) -> Fn:
    """The case's program under its transforms, outermost applied last.

    `before_call(steps, env)` runs a vjp's or linearize's `before_call` steps on the arguments of its
    level by input name (format 1.1); without it such a case is unsupported.
    """
    fn = program
    for index in range(len(case.transforms) - 1, -1, -1):
        fn = _wrap(case, index, fn, lib, before_call)
        mode = case.transforms[index].get("called_under")
        if mode not in (None, "plain"):
            fn = lib.called_under(fn, mode, case.transform_kinds()[:index])
    return fn


def _run_before_call(t: Any, level: Level, args: Sequence[Any], before_call: Any) -> None:
    steps = t.get("before_call")
    if not steps:
        return
    if before_call is None:
        raise Unsupported("writes between a vjp and its vjp_fn need the driver's steps")
    before_call(steps, dict(zip(leaf_names(level), leaves_of(level, args))))


def _wrap(case: Case, index: int, fn: Fn, lib: Library, before_call: Any = None) -> Fn:
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

    # A result tree's dicts are module states: their leaves go in the order of the state's members.
    order = leaf_names(level)

    if t.kind == "vmap":
        return lib.vmap(
            fn,
            dims_per_argument(t.get("in_dims", 0), level.args),
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
                grads, aux = (r[0], tuple(r[1])) if has_aux else (r, ())
                return tuple(flat(grads, order)) + aux
            grads, value = r
            aux = ()
            if has_aux:
                value, aux = value
            return tuple(flat(grads, order)) + (value,) + tuple(aux)

        return gradients

    if t.kind == "vjp":
        outputs = results[:1] if has_aux else results
        cotangents = tuple(lib.tensor(t.get("cotangents")[y], case.device) for y in outputs)
        # vjp differentiates every floating tensor input (docs/case-format.md), a state's members
        # included, and names their cotangents in the case's input order.
        floating = [k for k, name in enumerate(order) if _is_floating_input(case, name)]
        by_input_order = sorted(range(len(floating)), key=lambda j: case.input_names.index(order[floating[j]]))

        def pulled(*args: Any) -> tuple:
            leaves = leaves_of(level, args)
            r = lib.vjp(closed_over(paired, level, args, floating), [leaves[k] for k in floating], has_aux)
            out, vjp_fn = r[0], r[1]
            aux = r[2] if has_aux else ()
            _run_before_call(t, level, args, before_call)
            pulled_back = vjp_fn(cotangents)
            return tuple(out) + tuple(aux) + tuple(pulled_back[j] for j in by_input_order)

        return pulled

    if t.kind in ("jvp", "linearize"):
        given = t.get("tangents")
        chosen = [k for k, name in enumerate(order) if name in given]
        if t.kind == "linearize":
            chosen = [k for k in chosen if _is_floating_input(case, order[k])]
        tangents = tuple(lib.tensor(given[order[k]], case.device) for k in chosen)

        def pushed(*args: Any) -> tuple:
            # Inputs without a tangent are held constant (the case format's None tangent).
            closed = closed_over(paired, level, args, chosen)
            leaves = leaves_of(level, args)
            primals = tuple(leaves[k] for k in chosen)
            if t.kind == "linearize":
                out, jvp_fn = lib.linearize(closed, primals)
                _run_before_call(t, level, args, before_call)
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
            return tuple(flat(blocks, order)) + tuple(aux)

        return jacobians

    if t.kind == "hessian":
        positions, _ = resolve_argnums(case, level, t.get("argnums", 0))
        h = lib.hessian(lambda *a: tuple(fn(*a)), tuple(positions))
        return lambda *args: tuple(flat(h(*args), order))

    if t.kind == "functionalize":
        return lib.functionalize(fn, t.get("remove", "mutations"))

    if t.kind == "functional_call":
        return lib.functional_call(fn, level, list(t.get("parameters", [])), list(t.get("buffers", [])),
                                   bool(t.get("strict", False)), bool(t.get("tie_weights", True)))

    raise Unsupported(f"{lib.name} has no {t.kind}")
