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


def program(case: Case, call_step: StepCall, as_result: Callable[[Any], Any]) -> Fn:
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
                if failing_step(e) is None:
                    try:
                        e.funcspec_step = step  # type: ignore[attr-defined]
                    except AttributeError:
                        pass
                raise
            outs = list(result) if isinstance(result, (list, tuple)) else [result]
            if len(outs) != len(step.outs):
                raise Failed(
                    f"program[{step.index}]: {step.op} returned {len(outs)} tensors but 'out' names {len(step.outs)}"
                )
            env.update(zip(step.outs, outs))
        return tuple(as_result(env[name]) for name in case.outputs)

    return f
