"""The backend side of `funcspec-protocol/1` (docs/protocol.md) for a Python peer.

A peer implements `Peer`; `serve` speaks the protocol on stdin/stdout. stdout belongs to the
protocol alone, so `serve` moves file descriptor 1 to stderr before the peer's library is
imported: whatever PyTorch, JAX or their C++ code print cannot corrupt a reply.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from dataclasses import dataclass
from typing import Any, Callable, Optional, TextIO

import numpy as np

from .case import Case, parse_case
from .randomness import stream_dependent_reason
from .tensors import CaseFormatError, encode_values

PROTOCOL = "funcspec-protocol/1"

# The error kinds of reference/core/error.h (error_kind_name); a reply naming another is refused.
ERROR_KINDS = frozenset(
    {
        "internal",
        "invalid_argument",
        "unknown_op",
        "shape_mismatch",
        "dim_out_of_range",
        "index_out_of_range",
        "dtype_not_supported",
        "dtype_cast_not_allowed",
        "inplace_broadcast",
        "internal_overlap",
        "view_incompatible",
        "out_shape_mismatch",
        "device_mismatch",
        "data_dependent_on_meta",
        "scalar_conversion",
        "singular_matrix",
        "cuda_not_available",
        "transform_escaped",
        "vmap_invalid_dims",
        "vmap_batch_size_mismatch",
        "vmap_non_tensor_output",
        "vmap_randomness",
        "vmap_inplace_unbatched",
        "vmap_out_variant",
        "vmap_data_dependent",
        "vmap_dynamic_shape",
        "ad_non_scalar_output",
        "ad_non_differentiable_input",
        "ad_tangent_mismatch",
        "ad_invalid_argnums",
        "ad_aux_structure",
        "ad_inplace_captured",
        "ad_inplace_aliased",
        "custom_rule_missing",
        "custom_rule_mismatch",
        "functionalize_captured_mutation",
        "functionalize_aliased_inputs",
        "module_state_mismatch",
        "module_state_conflict",
        "module_structure_mismatch",
        "composite_noncompliant",
        "ad_input_modified",
        "autograd_api_under_transform",
        "not_positive_definite",
    }
)


class SpecError(Exception):
    """The program raised an error whose spec kind is certain."""

    def __init__(self, kind: str, message: str):
        assert kind in ERROR_KINDS, kind
        super().__init__(message)
        self.kind = kind


class Unsupported(Exception):
    """The peer cannot run this case (beyond what its capabilities say)."""


class Failed(Exception):
    """The peer ran the case but cannot return what the case names (judged as a failure)."""


@dataclass
class Output:
    dtype: str
    shape: tuple[int, ...]
    values: Optional[np.ndarray]  # None on meta


class Peer:
    """A peer backend: its identity, its capabilities, and how it runs one case."""

    name = "peer"
    version = "0"

    def capabilities(self) -> dict[str, list[str]]:
        raise NotImplementedError

    def run(self, case: Case) -> list[Output]:
        """The transformed program's results, in the order of case.result_names."""
        raise NotImplementedError

    def classify(self, error: BaseException, case: Case) -> Optional[SpecError]:
        """The spec error an exception of the peer certainly is, or None when it is not certain."""
        return None


def evaluate(peer: Peer, case: Case) -> dict[str, Any]:
    """The reply body (without type-independent fields) for one case."""
    try:
        outputs = peer.run(case)
    except SpecError as e:
        return {"type": "error", "kind": e.kind, "message": str(e)}
    except Unsupported as e:
        return {"type": "unsupported", "reason": str(e)}
    except Failed as e:
        return {"type": "failed", "reason": str(e)}
    except Exception as e:  # noqa: BLE001 - any exception of the peer's library is an answer
        known = peer.classify(e, case)
        if known is not None:
            return {"type": "error", "kind": known.kind, "message": str(known)}
        # The protocol has no error without a kind (that would be a rejection of the request), so
        # an error whose kind the message does not make certain is a failure that quotes it.
        first = str(e).strip().splitlines()[0] if str(e).strip() else ""
        return {"type": "failed", "reason": f"unclassified error: {type(e).__name__}: {first}"}
    reason = stream_dependent_reason(case)
    if reason is not None:
        return {"type": "unsupported", "reason": reason}
    if len(outputs) != len(case.result_names):
        return {
            "type": "failed",
            "reason": f"the transformed function returned {len(outputs)} results but the case names "
            f"{len(case.result_names)} ({', '.join(case.result_names)})",
        }
    encoded = {}
    for name, out in zip(case.result_names, outputs):
        encoded[name] = {
            "dtype": out.dtype,
            "shape": list(out.shape),
            "base64": "" if out.values is None else encode_values(out.values),
        }
    return {"type": "result", "outputs": encoded}


def serve(make_peer: Callable[[], Peer], stdin: TextIO = sys.stdin) -> int:
    """Answers requests until `bye` or end of input; returns the exit status."""
    # Keep the protocol's stdout for ourselves and point fd 1 at stderr for everything else.
    protocol_out = os.fdopen(os.dup(1), "w", encoding="utf-8", newline="\n")
    os.dup2(2, 1)
    sys.stdout = sys.stderr

    def send(message: dict[str, Any]) -> None:
        protocol_out.write(json.dumps(message, allow_nan=False, separators=(",", ":")) + "\n")
        protocol_out.flush()

    peer: Optional[Peer] = None
    for line in stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
            if not isinstance(message, dict):
                raise ValueError("the message is not an object")
        except ValueError as e:
            send({"type": "error", "message": f"the request is not a JSON object: {e}"})
            continue
        kind = message.get("type")
        if kind == "bye":
            return 0
        if kind == "hello":
            if PROTOCOL not in message.get("protocols", []):
                send({"type": "error", "message": f"this peer speaks only {PROTOCOL}"})
                return 1
            peer = make_peer()
            send(
                {
                    "type": "hello",
                    "protocol": PROTOCOL,
                    "name": peer.name,
                    "version": peer.version,
                    "capabilities": peer.capabilities(),
                }
            )
            continue
        request_id = message.get("id")
        if kind != "evaluate" or not isinstance(request_id, int) or peer is None:
            reply: dict[str, Any] = {"type": "error", "message": f"unexpected request of type {kind!r}"}
            if isinstance(request_id, int):
                reply["id"] = request_id
            send(reply)
            continue
        try:
            case = parse_case(message.get("case"))
        except (CaseFormatError, KeyError, TypeError, ValueError) as e:
            send({"type": "error", "id": request_id, "message": f"the request has a malformed case: {e}"})
            continue
        try:
            body = evaluate(peer, case)
        except Exception:  # noqa: BLE001 - a bug of the driver itself: say so, keep serving
            body = {"type": "failed", "reason": "driver error: " + traceback.format_exc(limit=3).replace("\n", " | ")}
        body["id"] = request_id
        send(body)
    return 0
