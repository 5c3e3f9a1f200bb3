"""Which cases a peer with its own random generator can answer honestly.

The spec's generator is its own counter-based Philox stream (SPEC GEN-2.1): a random op's values
are fixed bit for bit by the seed, and the suite's expectations of random values are the
reference's draws. No peer reproduces those bits (PyTorch's CPU generator is a Mersenne twister,
JAX's is threefry), and the protocol has no capability that says so. A peer therefore draws from
its own generator, seeded with the case's seed, and:

- reports a random program's values only when the case checks a property every generator has
  (GEN-1.2 successive draws differ, GEN-3.1 ranges and moments, GEN-3.2 refused dtypes) or an
  error (VMAP-2.1 randomness='error': values there fail, whatever the bits);
- answers `unsupported` when returned values depend on a draw and the case checks anything else,
  since the comparison would judge the generator, not the peer's semantics;
- always reports the values of a case that names no clause: those are the programs a property law
  generates (property_tests/), and the randomness laws compare a backend's draws with its own
  unbatched draws or with distribution bounds, never with the reference's stream.

Errors are always reported: an error kind does not depend on the bits.
"""

from __future__ import annotations

from typing import Any

from .case import Case

# Ops whose values come from the generator (docs/ops/random.md); the dropout family and rrelu draw
# too, when training (DRAWING_WHEN_TRAINING).
RANDOM_OPS = frozenset(
    {
        "rand",
        "randn",
        "randint",
        "bernoulli",
        "bernoulli.p",
        "bernoulli_",
        "normal",
        "normal_functional",
        "normal_",
        "uniform",
        "uniform_",
        "exponential",
        "exponential_",
        "multinomial",
        # softmax((logits + Gumbel noise) / tau): draws on every call (docs/ops/dropout.md).
        "gumbel_softmax",
    }
)

# Clauses whose tests hold for any generator (or expect an error where values would be drawn).
STREAM_FREE_CLAUSES = frozenset({"GEN-1.2", "GEN-3.1", "GEN-3.2", "VMAP-2.1"})

# Ops whose results share storage with their first argument: a later in-place write through
# any of them changes the others, so taint follows the alias group.
VIEW_OPS = frozenset(
    {
        "expand",
        "view",
        "permute",
        "squeeze",
        "unsqueeze",
        "select",
        "slice",
        "diagonal",
        "reshape",
        "transpose",
        "movedim",
        "broadcast_to",
        "flatten",
        "unflatten",
        "narrow",
        "unbind",
        "split",
        "split_with_sizes",
        "chunk",
        "detach",
        "contiguous",
    }
)


# The dropout family (docs/ops/dropout.md): draws only when training with 0 < p < 1; p = 0, p = 1
# and eval mode are exact.
DROPOUT_OPS = frozenset(
    {"dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout", "feature_alpha_dropout"})


def draws(op: str, attrs: dict[str, Any]) -> bool:
    """Whether a call of `op` with `attrs` takes values from the generator."""
    if op in RANDOM_OPS:
        return True
    if op in DROPOUT_OPS:
        p = float(attrs.get("p", 0.5))
        return bool(attrs.get("train", True)) and 0.0 < p < 1.0
    if op == "rrelu":
        # rrelu draws its slopes when training (docs/ops/activation.md); eval is deterministic.
        return bool(attrs.get("training", False))
    return False


def has_random_op(case: Case) -> bool:
    return any(draws(step.op, step.attrs) for step in case.program)


def outputs_depend_on_draws(case: Case) -> bool:
    """Whether some output of the program may hold values a random op drew (through data or aliases)."""
    group: dict[str, str] = {}

    def root(name: str) -> str:
        while group.get(name, name) != name:
            name = group[name]
        return name

    tainted: set[str] = set()
    for step in case.program:
        names = [n for a in step.args for n in (a if isinstance(a, list) else [a]) if n is not None]
        dirty = draws(step.op, step.attrs) or any(root(n) in tainted for n in names)
        if step.op in VIEW_OPS and names:
            for out in step.outs:
                group[out] = root(names[0])
        written = []
        if step.op.endswith("_") and names:
            written.append(names[0])
        if step.op.endswith(".out") and names:
            written.append(names[-1])
        if dirty:
            for n in step.outs + written:
                tainted.add(root(n))
    return any(root(o) in tainted for o in case.outputs)


def stream_dependent_reason(case: Case) -> str | None:
    """Why this case's values cannot be reported by a peer with another generator, or None."""
    if case.device == "meta" or not case.clauses or not has_random_op(case):
        return None
    if set(case.clauses) & STREAM_FREE_CLAUSES:
        return None
    if not outputs_depend_on_draws(case):
        return None
    return (
        "the values depend on the spec's Philox random stream (GEN-2.1), which this peer's "
        "generator does not reproduce; only errors and generator-independent properties are compared"
    )
