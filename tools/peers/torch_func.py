#!/usr/bin/python3
"""funcspec peer driver for PyTorch's function transforms (torch.func; functorch on PyTorch 1.13).

    funcspec check --backend 'exec:/usr/bin/python3 tools/peers/torch_func.py' --tier pr

Speaks funcspec-protocol/1 on stdin/stdout (docs/protocol.md). A case's program runs op by op
through the PyTorch calls of torch_ops.py, under the case's transforms as torch.func (PyTorch >=
2.0) or functorch (1.13) provides them. What PyTorch cannot express (vmap's and jacrev's
chunk_size and linearize before 2.0, an op form PyTorch lacks) is answered `unsupported`; an
exception becomes a spec error kind only where its message makes the kind certain (torch_errors.py).
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
from typing import Any, Callable, Optional, Sequence

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from funcspec_peer.case import FEATURES, Case, Level, Step  # noqa: E402
from funcspec_peer.program import failing_step, program, run_steps  # noqa: E402
from funcspec_peer.stack import Fn, Library, inner_arguments, outermost_arguments, transformed  # noqa: E402
from funcspec_peer.tensors import CaseTensor  # noqa: E402
from funcspec_peer.wire import Failed, Output, Peer, SpecError, Unsupported, serve  # noqa: E402


class TorchLibrary(Library):
    """torch.func (or functorch), whose API the case format's transforms follow."""

    def __init__(self, torch: Any) -> None:
        self.torch = torch
        self.major = int(torch.__version__.split(".")[0])
        if self.major >= 2:
            import torch.func as func
        else:
            import functorch as func
        self.func = func
        self.name = "torch.func" if self.major >= 2 else "functorch"
        transforms = {"vmap", "grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd", "hessian", "functionalize",
                      "functional_call"}
        if hasattr(func, "linearize"):
            transforms.add("linearize")
        self.transforms = frozenset(transforms)
        import torch_ops

        self.dtypes = torch_ops.TORCH_DTYPES

    def tensor(self, spec: CaseTensor, device: str) -> Any:
        """A case tensor on `device`, laid out with the case's strides (gaps loudly filled)."""
        torch = self.torch
        buffer, strides, offset = spec.strided_buffer()
        if device == "meta":
            base = torch.empty(buffer.size, dtype=self.dtypes[spec.dtype], device="meta")
            return base.as_strided(spec.shape, strides, offset)
        # A copy into PyTorch's own (resizable) storage: NumPy-backed storage cannot be resized, which
        # would change what out= does with an out of the wrong shape.
        return torch.from_numpy(buffer).clone().as_strided(spec.shape, strides, offset)

    def call_mode(self, mode: str) -> Any:
        modes = {"no_grad": self.torch.no_grad, "enable_grad": self.torch.enable_grad,
                 "inference_mode": self.torch.inference_mode}
        if mode not in modes:
            raise Unsupported(f"PyTorch has no grad mode {mode}")
        return modes[mode]

    def _no_chunks(self, what: str, chunk_size: Optional[int]) -> dict[str, Any]:
        if chunk_size is None:
            return {}
        if self.major < 2:
            raise Unsupported(f"functorch.{what} in PyTorch {self.torch.__version__} has no chunk_size")
        return {"chunk_size": chunk_size}

    def vmap(self, fn: Fn, in_dims: Any, out_dims: Any, randomness: str, chunk_size: Optional[int]) -> Fn:
        if self.major < 2 and (out_dims is None or (isinstance(out_dims, tuple) and None in out_dims)):
            raise Unsupported(f"functorch.vmap in PyTorch {self.torch.__version__} takes no None out_dims")
        return self.func.vmap(fn, in_dims=in_dims, out_dims=out_dims, randomness=randomness,
                              **self._no_chunks("vmap", chunk_size))

    def grad(self, fn: Callable, argnums: tuple[int, ...], has_aux: bool, and_value: bool) -> Callable:
        transform = self.func.grad_and_value if and_value else self.func.grad
        return transform(fn, argnums=argnums, has_aux=has_aux)

    def vjp(self, fn: Callable, primals: Sequence[Any], has_aux: bool) -> tuple:
        return self.func.vjp(fn, *primals, has_aux=has_aux)

    def jvp(self, fn: Callable, primals: tuple, tangents: tuple, has_aux: bool) -> tuple:
        return self.func.jvp(fn, primals, tangents, has_aux=has_aux)

    def linearize(self, fn: Callable, primals: Sequence[Any]) -> tuple:
        return self.func.linearize(fn, *primals)

    def jacobian(self, forward: bool, fn: Callable, argnums: tuple[int, ...], has_aux: bool,
                 chunk_size: Optional[int], randomness: str) -> Callable:
        if forward:
            return self.func.jacfwd(fn, argnums=argnums, has_aux=has_aux, randomness=randomness)
        return self.func.jacrev(fn, argnums=argnums, has_aux=has_aux, **self._no_chunks("jacrev", chunk_size))

    def hessian(self, fn: Callable, argnums: tuple[int, ...]) -> Callable:
        return self.func.hessian(fn, argnums=argnums)

    def functionalize(self, fn: Fn, remove: str) -> Fn:
        return self.func.functionalize(fn, remove=remove)

    def functional_call(self, fn: Fn, inner: Level, parameters: list[str], buffers: list[str], strict: bool,
                        tie_weights: bool) -> Fn:
        """PyTorch's own functional_call on an nn.Module built, at each call, around `fn`.

        The module's parameters and buffers are meta tensors of the shapes and dtypes of the state
        the call gets (under vmap, one example's), declared in submodules as dotted names say; its
        forward reads them from its attributes, where functional_call puts the given tensors.
        PyTorch 1.13's torch.nn.utils.stateless.functional_call has neither `strict` nor
        `tie_weights`; a case's state always fits its module and ties nothing, so neither changes
        what it does, and 2.x gets them as the case gives them.
        """
        torch = self.torch
        members = parameters + buffers

        class CaseProgram(torch.nn.Module):
            def forward(self, *rest: Any) -> tuple:
                # Not get_parameter: during the call an attribute holds the given tensor, not a Parameter.
                read = lambda name: functools.reduce(getattr, name.split("."), self)  # noqa: E731
                return fn(*inner_arguments(inner, members, read, rest))

        def called(state: dict[str, Any], *rest: Any) -> tuple:
            module = CaseProgram()
            for name, value in state.items():
                if name not in members or not isinstance(value, torch.Tensor):
                    continue  # left undeclared, for functional_call to refuse in its own way
                *path, leaf = name.split(".")
                owner = module
                for part in path:
                    if not hasattr(owner, part):
                        owner.add_module(part, torch.nn.Module())
                    owner = getattr(owner, part)
                slot = torch.empty(value.shape, dtype=value.dtype, device="meta")
                if name in parameters:
                    owner.register_parameter(leaf, torch.nn.Parameter(slot, requires_grad=slot.is_floating_point()))
                else:
                    owner.register_buffer(leaf, slot)
            if self.major >= 2:
                return self.func.functional_call(module, state, rest, strict=strict, tie_weights=tie_weights)
            from torch.nn.utils import stateless

            return stateless.functional_call(module, state, rest)

        return called


# The global autograd API a case calls inside f (case format 1.1, feature autograd_api): its errors
# are classified by torch_errors.py like an op's.
AUTOGRAD_CALLS: dict[str, Callable[[Any, list[Any]], Any]] = {
    "autograd.grad": lambda torch, args: torch.autograd.grad(args[0], args[1:]),
    "autograd.backward": lambda torch, args: (args[0].backward(), ())[1],
}


class TorchFuncPeer(Peer):
    def __init__(self) -> None:
        import torch

        import torch_errors
        import torch_ops

        self.torch = torch
        self.lib = TorchLibrary(torch)
        self.ops = torch_ops.build_ops()
        self.attrs_for_torch = torch_ops.attrs_for_torch
        self.errors = torch_errors
        self.name = self.lib.name
        self.version = f"PyTorch {torch.__version__}"

    def capabilities(self) -> dict[str, list[str]]:
        return {
            "ops": self.ops.names(),
            "transforms": sorted(self.lib.transforms),
            "dtypes": ["bool", "int64", "float32", "float64"],
            "devices": ["cpu", "meta"],
            # The global autograd API (SPEC AD-5.6) is PyTorch's own; JAX has none.
            "features": sorted(list(FEATURES) + ["autograd_api"]),
        }

    def call_step(self, step: Step, args: list[Any]) -> Any:
        if step.op in AUTOGRAD_CALLS:
            return AUTOGRAD_CALLS[step.op](self.torch, args)
        impl = self.ops.table.get(step.op)
        if impl is None:
            raise Unsupported(f"PyTorch has no counterpart of {step.op} in this driver")
        try:
            with contextlib.ExitStack() as regions:
                for mode in (["no_grad"] if step.no_grad else []) + step.grad_modes:  # outermost first
                    regions.enter_context(self.lib.call_mode(mode)())
                return impl(*args, **self.attrs_for_torch(step.attrs))
        except Exception as e:
            if isinstance(e, NotImplementedError):
                self._unsupported_on_meta(step, args, e)
            if getattr(e, "funcspec_shapes", None) is None:
                # The (per-example) shapes of the step's tensors decide some kinds (torch_errors.py).
                flat = [t for a in args for t in (a if isinstance(a, list) else [a])]
                try:
                    e.funcspec_shapes = [tuple(t.shape) if isinstance(t, self.torch.Tensor) else ()  # type: ignore
                                         for t in flat]
                except AttributeError:
                    pass
            raise

    def _unsupported_on_meta(self, step: Step, args: list[Any], e: NotImplementedError) -> None:
        """An op without a meta kernel is one PyTorch cannot run there; ops whose result depends on
        values are different: no kernel can exist, which is the spec's data_dependent_on_meta."""
        flat = [t for a in args for t in (a if isinstance(a, list) else [a])]
        meta = step.attrs.get("device") == "meta" or any(getattr(t, "is_meta", False) for t in flat)
        if meta and step.op not in self.errors.VALUE_DEPENDENT_OPS and "Meta" in str(e):
            raise Unsupported(f"PyTorch {self.torch.__version__} has no meta kernel for {step.op}") from None

    def as_result(self, case: Case) -> Callable[[Any], Any]:
        torch = self.torch

        def tensor(value: Any) -> Any:
            if isinstance(value, torch.Tensor):
                return value
            # item() gives a Python number; the reference's item is a 0-dim wrapped-number tensor.
            dtype = torch.float64 if isinstance(value, float) else None
            return torch.tensor(value, dtype=dtype, device=case.device)

        return tensor

    def output(self, value: Any) -> Output:
        torch = self.torch
        if getattr(value, "_is_zerotensor", lambda: False)():
            # Forward mode returns an unmaterialized ZeroTensor for a zero tangent; its .numpy() raises
            # in PyTorch 2 and reads uninitialized memory in 1.13, so the zeros are made explicitly.
            value = torch.zeros(value.shape, dtype=value.dtype, device=value.device)
        names = {dtype: name for name, dtype in self.lib.dtypes.items()}
        if value.dtype not in names:
            raise Failed(f"a result of dtype {value.dtype}, which no case can hold")
        if value.device.type == "meta":
            return Output(names[value.dtype], tuple(value.shape), None)
        return Output(names[value.dtype], tuple(value.shape), value.detach().cpu().contiguous().numpy())

    def run(self, case: Case) -> list[Output]:
        if case.device not in ("cpu", "meta"):
            raise Unsupported(f"this driver runs on cpu and meta, not {case.device}")
        # Every random choice comes from the case's seed (PyTorch's own generator, not the spec's).
        self.torch.manual_seed(case.seed % (1 << 64))
        callers = self._inputs(case)
        args = outermost_arguments(case, lambda name: callers[name])
        stored: dict[str, Any] = {}
        f = transformed(case, program(case, self.call_step, self.as_result(case), stored), self.lib,
                        lambda steps, env: run_steps(steps, env, self.call_step))
        try:
            results = f(*args)
            if case.after:
                # The caller's own steps (format 1.1): its inputs as the call left them, the stored
                # values, then the results, each shadowing the one before.
                env = {**callers, **stored, **dict(zip(case.result_names, results))}
                run_steps(case.after, env, self.call_step)
                results = tuple(results) + tuple(env[name] for name in case.after_outputs)
        except NotImplementedError as e:
            # PyTorch says a derivative formula does not exist (forward mode over some backward ops).
            if "Trying to use forward AD with" in str(e):
                raise Unsupported(f"PyTorch {self.torch.__version__}: {str(e).splitlines()[0][:160]}") from None
            raise
        return [self.output(r) for r in results]

    def _inputs(self, case: Case) -> dict[str, Any]:
        """The caller's inputs by name; an alias (format 1.1) is a view of its base's storage."""
        values: dict[str, Any] = {}
        for i in case.inputs:
            if i.is_literal:
                values[i.name] = i.literal
            elif i.alias_of is not None:
                layout = i.alias_layout
                values[i.name] = values[i.alias_of].as_strided(i.tensor.shape, layout.strides, layout.offset)
            else:
                values[i.name] = self.lib.tensor(i.tensor, case.device)
        return values

    def classify(self, error: BaseException, case: Case) -> Optional[SpecError]:
        return self.errors.classify(error, case, failing_step(error))


if __name__ == "__main__":
    sys.exit(serve(TorchFuncPeer))
