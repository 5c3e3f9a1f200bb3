"""A case's SSA program as a Python function of its inputs (docs/case-format.md, *The program*)."""

from __future__ import annotations

from typing import Any, Callable, Optional

from .case import Case, Step
from .stack import Fn
from .wire import Failed, SpecError, Unsupported

# call_step(step, args) runs one op: `args` are the step's arguments (values, None, or lists).
StepCall = Callable[[Step, list[Any]], Any]

# Ops whose one tensor argument is a Tensor[]: a step's args are then the list's tensors.
VARIADIC_OPS = frozenset({"cat", "stack", "einsum"})


def failing_step(error: BaseException) -> Optional[Step]:
    """The program step during which `error` was raised, when it was raised by one."""
    return getattr(error, "funcspec_step", None)


def tag_failing_step(e: BaseException, step: Step) -> None:
    """Marks `step` as where `e` was raised, unless an inner step already claimed it."""
    if failing_step(e) is None:
        try:
            e.funcspec_step = step  # type: ignore[attr-defined]
        except AttributeError:
            pass


def run_steps(steps: list[Step], env: dict[str, Any], call_step: StepCall) -> None:
    """Runs steps outside the transformed function (format 1.1's `after` and `before_call`) on
    `env`, adding what they define."""
    for step in steps:
        args = [None if a is None else [env[n] for n in a] if isinstance(a, list) else env[a] for a in step.args]
        try:
            result = call_step(step, [args] if step.op in VARIADIC_OPS else args)
        except Exception as e:
            tag_failing_step(e, step)
            raise
        outs = list(result) if isinstance(result, (list, tuple)) else [result]
        env.update(zip(step.outs, outs))


def program(case: Case, call_step: StepCall, as_result: Callable[[Any], Any],
            stored: Optional[dict[str, Any]] = None) -> Fn:
    """f(*inputs) -> the case's outputs, running the steps in order on real values.

    In-place ops write into their arguments, so later steps (and the outputs, which may name an
    input) see the writes. An exception is tagged with the innermost step that raised it, whose op
    decides some error kinds (an in-place op's shape error is inplace_broadcast).
    """

    def f(*inputs: Any) -> tuple:
        env = dict(zip(case.input_names, inputs))

        def value(name: Any) -> Any:
            if name is None:
                return None
            if isinstance(name, list):
                return [env[n] for n in name]
            return env[name]

        for step in case.program:
            try:
                args = [value(a) for a in step.args]
                result = call_step(step, [args] if step.op in VARIADIC_OPS else args)
            except (SpecError, Unsupported, Failed):
                raise
            except Exception as e:
                tag_failing_step(e, step)
                raise
            outs = list(result) if isinstance(result, (list, tuple)) else [result]
            if len(outs) != len(step.outs):
                raise Failed(
                    f"program[{step.index}]: {step.op} returned {len(outs)} tensors but 'out' names {len(step.outs)}"
                )
            env.update(zip(step.outs, outs))
            if stored is not None and step.stored_as:
                stored[step.stored_as] = outs[0]
        return tuple(as_result(env[name]) for name in case.outputs)

    return f
