"""The case of an evaluate request (docs/case-format.md), read into plain Python values.

A peer needs the program, the inputs in argument order, the transform stack and the names under
which the transformed function's results are reported. The names follow the suite's rules
(conformance/case/case.cpp, SignatureWalker): this module recomputes them so that a peer's reply
names exactly what the suite asks for.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional, Union

import numpy as np

from .tensors import CaseFormatError, CaseTensor, Layout, decode_tensor, layout_of

Literal = Union[bool, int, float]
Arg = Union[str, None, list[str]]

TRANSFORMS = (
    "vmap",
    "grad",
    "grad_and_value",
    "vjp",
    "jvp",
    "linearize",
    "jacrev",
    "jacfwd",
    "hessian",
    "functionalize",
    "functional_call",
)

FORMATS = ("funcspec-case/1", "funcspec-case/1.1")

# What format 1.1 adds (docs/case-format.md, *Format 1.1*): a backend states the ones it runs in
# its hello (`capabilities.features`) and is never sent a case using another.
FEATURES = ("aliased_inputs", "before_call", "call_modes", "grad_mode_regions", "stored_values")


@dataclass
class Input:
    name: str
    literal: Optional[Literal] = None
    tensor: Optional[CaseTensor] = None
    # Format 1.1: the earlier input whose memory this one views, at `alias_layout` (strides and
    # offset in elements); `tensor` then holds the values the view reads.
    alias_of: Optional[str] = None
    alias_layout: Optional[Layout] = None

    @property
    def is_literal(self) -> bool:
        return self.tensor is None


@dataclass
class Step:
    index: int
    outs: list[str]
    op: str
    args: list[Arg]
    attrs: dict[str, Any]
    no_grad: bool = False
    stored_as: Optional[str] = None  # format 1.1: the result is also kept outside the function
    # Format 1.1: the step runs inside these nested grad-mode regions of f, outermost first.
    grad_modes: list[str] = field(default_factory=list)

    @property
    def in_no_grad(self) -> bool:
        """Whether reverse mode is off for this step: the innermost region decides (SPEC AD-5.5), and
        inference_mode is a no_grad region to the spec."""
        if self.grad_modes:
            return self.grad_modes[-1] != "enable_grad"
        return self.no_grad


@dataclass
class Transform:
    """One transform; `fields` keeps the case's fields, with tensors decoded."""

    kind: str
    fields: dict[str, Any] = field(default_factory=dict)

    def get(self, name: str, default: Any = None) -> Any:
        return self.fields.get(name, default)


@dataclass
class FunctionArg:
    """A positional argument of a function some transform wraps: an input, or the module state.

    The state (after a `functional_call`) is one argument, a dict from member names (case inputs)
    to tensors; an input is its own single member.
    """

    name: str
    members: list[str]
    literal: bool
    state: bool = False


@dataclass
class Level:
    """What transform `transforms[i]` wraps: the arguments and the result names of that function."""

    args: list[FunctionArg]
    results: list[str]


@dataclass
class Case:
    id: str
    clauses: list[str]
    seed: int
    tier: str
    device: str
    inputs: list[Input]
    program: list[Step]
    outputs: list[str]
    transforms: list[Transform]
    levels: list[Level] = field(default_factory=list)  # levels[i]: the function transforms[i] wraps
    result_names: list[str] = field(default_factory=list)
    arguments: list[FunctionArg] = field(default_factory=list)  # what the transformed function takes
    after: list[Step] = field(default_factory=list)  # format 1.1: the caller's steps after the call
    after_outputs: list[str] = field(default_factory=list)

    def input(self, name: str) -> Optional[Input]:
        for i in self.inputs:
            if i.name == name:
                return i
        return None

    @property
    def input_names(self) -> list[str]:
        return [i.name for i in self.inputs]

    def transform_kinds(self) -> list[str]:
        return [t.kind for t in self.transforms]


def _literal(value: Any, where: str) -> Literal:
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return value
    if isinstance(value, str) and value.strip().lower() in ("nan", "inf", "+inf", "-inf"):
        return float(value.strip().lower())
    raise CaseFormatError(f"{where}: not a literal: {value!r}")


def _tensor_map(value: Any, where: str) -> dict[str, CaseTensor]:
    if not isinstance(value, dict):
        raise CaseFormatError(f"{where}: expected an object of tensors")
    return {name: decode_tensor(spec, f"{where}.{name}") for name, spec in value.items()}


def _steps(steps: Any, where: str) -> list[Step]:
    out = []
    for i, step in enumerate(steps or []):
        outs = step.get("out", [])
        out.append(
            Step(
                index=i,
                outs=[outs] if isinstance(outs, str) else list(outs),
                op=step["op"],
                args=list(step.get("args", [])),
                attrs=dict(step.get("attrs", {})),
                no_grad=bool(step.get("no_grad", False)),
                stored_as=step.get("stored_as"),
                grad_modes=list(step.get("grad_modes", [])),
            )
        )
    return out


def _alias(name: str, spec: dict[str, Any], where: str, earlier: list[Input]) -> Input:
    base = next((i for i in earlier if i.name == spec["alias_of"]), None)
    if base is None or base.tensor is None or base.tensor.values is None:
        raise CaseFormatError(f"{where}: alias_of names no earlier tensor input with values")
    shape = tuple(int(n) for n in spec["shape"])
    layout = layout_of(spec["layout"], shape)
    flat = base.tensor.values.reshape(-1)
    item = flat.itemsize
    values = np.lib.stride_tricks.as_strided(flat[layout.offset:], shape=shape,
                                             strides=tuple(s * item for s in layout.strides)).copy()
    return Input(name, tensor=CaseTensor(spec["dtype"], shape, values, None), alias_of=spec["alias_of"],
                 alias_layout=layout)


def _transform(spec: Any, where: str) -> Transform:
    if not isinstance(spec, dict) or spec.get("transform") not in TRANSFORMS:
        raise CaseFormatError(f"{where}: unknown transform {spec!r}")
    fields = {k: v for k, v in spec.items() if k != "transform"}
    if "before_call" in fields:
        fields["before_call"] = _steps(fields["before_call"], where + ".before_call")
    if "cotangents" in fields:
        fields["cotangents"] = _tensor_map(fields["cotangents"], where + ".cotangents")
    if "tangents" in fields:
        fields["tangents"] = _tensor_map(fields["tangents"], where + ".tangents")
    return Transform(spec["transform"], fields)


def parse_case(doc: Any) -> Case:
    if not isinstance(doc, dict):
        raise CaseFormatError("the case is not an object")
    if doc.get("format") not in FORMATS:
        raise CaseFormatError(f"unknown case format {doc.get('format')!r}")
    device = doc.get("device", "cpu")
    inputs: list[Input] = []
    for name, spec in doc.get("inputs", {}).items():
        where = f"inputs.{name}"
        if isinstance(spec, dict) and "alias_of" in spec:
            inputs.append(_alias(name, spec, where, inputs))
        elif isinstance(spec, dict) and "literal" in spec:
            inputs.append(Input(name, literal=_literal(spec["literal"], where)))
        else:
            inputs.append(Input(name, tensor=decode_tensor(spec, where, allow_omitted=device == "meta")))
    program = _steps(doc.get("program", []), "program")
    transforms = [_transform(t, f"transforms[{i}]") for i, t in enumerate(doc.get("transforms", []))]
    case = Case(
        id=doc.get("id", ""),
        clauses=list(doc.get("clauses", [])),
        seed=int(doc.get("seed", 0)),
        tier=doc.get("tier", "pr"),
        device=device,
        inputs=inputs,
        program=program,
        outputs=list(doc["outputs"]),
        transforms=transforms,
    )
    after = doc.get("after") or {}
    case.after = _steps(after.get("program", []), "after.program")
    case.after_outputs = list(after.get("outputs", []))
    _walk_signatures(case)
    case.result_names += case.after_outputs
    return case


def _as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else [value]


def _push_unique(results: list[str], name: str) -> None:
    # Nested levels of one mode name two results alike; the later gets the first free #k.
    unique, k = name, 2
    while unique in results:
        unique, k = f"{name}#{k}", k + 1
    results.append(unique)


def resolve_argnums(case: Case, level: Level, argnums: Any) -> tuple[list[int], list[str]]:
    """The argument positions `argnums` selects at this level, and the input names they stand for.

    A name selects the argument of that name (never a member of the module state: the case reader
    refuses that); positions may be negative and count from the end of the level's arguments.
    """
    positions: list[int] = []
    names: list[str] = []
    n = len(level.args)
    for selector in _as_list(0 if argnums is None else argnums):
        if isinstance(selector, str):
            position = next(k for k, a in enumerate(level.args) if not a.state and a.name == selector)
            positions.append(position)
            names.append(selector)
        else:
            position = int(selector) + n if int(selector) < 0 else int(selector)
            positions.append(position)
            names.extend(level.args[position].members)
    return positions, names


def _walk_signatures(case: Case) -> None:
    """Fills case.levels, case.result_names and case.arguments, innermost transform first, as the
    suite names them."""
    args = [FunctionArg(i.name, [i.name], i.is_literal) for i in case.inputs]
    results = list(case.outputs)
    levels: list[Level] = [Level([], [])] * len(case.transforms)
    for index in range(len(case.transforms) - 1, -1, -1):
        t = case.transforms[index]
        level = Level(list(args), list(results))
        levels[index] = level
        has_aux = bool(t.get("has_aux", False))
        outputs, aux = (results[:1], results[1:]) if has_aux else (results, [])
        if t.kind in ("grad", "grad_and_value"):
            _, wrt = resolve_argnums(case, level, t.get("argnums", 0))
            new = [f"grad({outputs[0]}, {x})" for x in wrt]
            if t.kind == "grad_and_value":
                new.append(outputs[0])
            results = new + aux
        elif t.kind == "vjp":
            results = list(results)
            for i in case.inputs:
                if i.tensor is not None and i.tensor.is_floating:
                    _push_unique(results, f"vjp({i.name})")
        elif t.kind in ("jvp", "linearize"):
            results = list(results)
            for y in outputs:
                _push_unique(results, f"jvp({y})")
        elif t.kind in ("jacrev", "jacfwd"):
            _, wrt = resolve_argnums(case, level, t.get("argnums", 0))
            results = [f"jac({y}, {x})" for y in outputs for x in wrt] + aux
        elif t.kind == "hessian":
            _, wrt = resolve_argnums(case, level, t.get("argnums", 0))
            results = [f"hess({y}, {a}, {b})" for y in results for a in wrt for b in wrt]
        elif t.kind == "functional_call":
            state = list(t.get("parameters", [])) + list(t.get("buffers", []))
            rest = [a for a in args if a.state or a.name not in state]
            args = [FunctionArg("state", state, False, state=True)] + rest
    case.levels = levels
    case.result_names = results
    case.arguments = args


def dims_per_name(spec: Any, names: list[str]) -> Union[int, None, tuple[Optional[int], ...]]:
    """out_dims as one dim for all, or one per name (a list by position, an object by name)."""
    if spec is None or isinstance(spec, int):
        return spec
    if isinstance(spec, list):
        return tuple(spec)
    if isinstance(spec, dict):
        return tuple(spec.get(name) for name in names)
    raise CaseFormatError(f"dims of an unknown form: {spec!r}")


def dims_per_argument(spec: Any, args: list[FunctionArg]) -> Any:
    """in_dims for the arguments `args`, as torch.func's in_dims and JAX's in_axes take them.

    By name, the module state gets one dim when its name ("state") is listed, else a dict giving
    each member its own (None where not listed): a prefix of the state's dict, as both libraries
    accept. The other forms are dims_per_name's.
    """
    if not isinstance(spec, dict):
        return dims_per_name(spec, [a.name for a in args])
    dims: list[Any] = []
    for a in args:
        if a.state and a.name not in spec:
            dims.append({m: spec.get(m) for m in a.members})
        else:
            dims.append(spec.get(a.name))
    return tuple(dims)
