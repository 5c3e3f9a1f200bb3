"""JAX's exceptions as the spec's error kinds, where the exception makes the kind certain.

JAX distinguishes errors by class and message (SPEC ERR-1.1). Tracer errors (a concrete value
asked of a traced one) mean different things under different transforms, so their rules also look
at what traced the value (a BatchTracer: vmap) or at the device (eval_shape: meta). Anything no
rule matches is reported as an unclassified error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Optional

from funcspec_peer.case import Case, Step
from funcspec_peer.wire import SpecError

Condition = Callable[[Case, Optional[Step]], bool]


@dataclass(frozen=True)
class Rule:
    pattern: str
    kind: str
    when: Optional[Condition] = None

    def matches(self, text: str, case: Case, step: Optional[Step]) -> bool:
        return re.search(self.pattern, text, re.S) is not None and (self.when is None or self.when(case, step))


def _on_meta(case: Case, step: Optional[Step]) -> bool:
    return case.device == "meta"


def _dynamic_shape(case: Case, step: Optional[Step]) -> bool:
    return step is not None and step.op in ("nonzero", "masked_select")


_TRACER = r"(?:ConcretizationTypeError|TracerBoolConversionError|TracerIntegerConversionError|" \
          r"NonConcreteBooleanIndexError|TracerArrayConversionError)"

RULES: list[Rule] = [
    # A tracer kept from inside a transform and used after it returned (SPEC AD-6.4).
    Rule(r"UnexpectedTracerError", "transform_escaped"),
    # eval_shape has no values: asking for one is the meta device's data-dependence error.
    Rule(_TRACER, "data_dependent_on_meta", _on_meta),
    # A value asked of a batched tracer (vmap): item/bool conversion, or a value-dependent shape.
    Rule(_TRACER + r".*BatchTracer", "vmap_dynamic_shape", _dynamic_shape),
    Rule(r"NonConcreteBooleanIndexError|The size argument of jnp\.nonzero must be statically specified",
         "vmap_dynamic_shape", lambda case, step: _dynamic_shape(case, step) and "vmap" in case.transform_kinds()),
    Rule(_TRACER + r".*BatchTracer", "vmap_data_dependent"),
    # Newer JAX names no tracer type; under vmap an item or bool conversion that finds no value is
    # the batched one (SPEC VMAP-3.3: under grad alone the value exists, AD-5.4).
    Rule(_TRACER + r".*(?:item|__bool__|bool)", "vmap_data_dependent",
         lambda case, step: step is not None and step.op in ("item", "is_nonzero") and "vmap" in case.transform_kinds()),
    # vmap's own argument checks.
    Rule(r"vmap got inconsistent sizes for array axes to be mapped", "vmap_batch_size_mismatch"),
    Rule(r"vmap must have at least one non-None value in in_axes|"
         r"vmap was requested to map its argument along axis -?\d+, which implies that its rank should be at least|"
         r"vmap in_axes must be an int, None, or a tuple of entries corresponding to the positional arguments|"
         r"vmap in_axes specification must be a tree prefix|"
         r"vmap out_axes specification must be a tree prefix|"
         r"vmap has mapped output but out_axes is None|"
         r"axis -?\d+ is out of bounds for array of dimension -?\d+.*(?:vmap|batching)|"
         r"out_axes .* out of bounds|vmap out_axes|"
         r"vmap was requested to map its argument along axis",
         "vmap_invalid_dims", lambda case, step: "vmap" in case.transform_kinds()),
    # Differentiation.
    Rule(r"Gradient only defined for scalar-output functions|grad requires real-valued outputs|"
         r"grad_and_value requires real-valued outputs", "ad_non_scalar_output"),
    Rule(r"grad requires real- or complex-valued inputs|jacrev requires real- or complex-valued inputs|"
         r"jacfwd requires real-valued inputs|hessian requires real-valued inputs", "ad_non_differentiable_input"),
    Rule(r"primal and tangent arguments to jax\.jvp do not match|"
         r"jvp called with different primal and tangent shapes|"
         r"primal and tangent arguments to jax\.jvp must have the same tree structure|"
         r"unexpected JAX type \(e\.g\. shape/dtype\) for argument to (?i:vjp) function|"
         r"Type of cotangent input to vjp pullback function|"
         r"Shape of cotangent input to vjp pullback function|"
         r"linearized function called on tangent values inconsistent with the original primal values|"
         r"f_jvp called with",
         "ad_tangent_mismatch"),
    # Custom functions (SPEC CUSTOM-2.2): forward mode meets a custom_vjp function, which has no jvp rule.
    Rule(r"can't apply forward-mode autodiff \(jvp\) to a custom_vjp function", "custom_rule_missing"),
    # Shapes, dims and indices.
    Rule(r"Incompatible shapes for broadcasting|operands could not be broadcast together|"
         r"shapes .* are not broadcast-compatible|"
         r"Cannot concatenate arrays with shapes that differ in dimensions other than the one being concatenated|"
         r"All input arrays must have the same shape|"
         r"dot_general requires contracting dimensions to have the same shape|"
         r"matmul input operand \d+ must have ndim at least 1|"
         r"matmul: Input operand|size mismatch|"
         r"Size of label .* does not match previous terms|"
         r"einsum.*(?:shape|size)|"
         r"must be a square matrix|Argument to .* must have shape|"
         r"Incompatible shapes for dot|"
         r"incompatible shapes|"
         r"m has more than \d+ dimensions|incompatible numbers of samples and [fa]weights|"
         r"cannot handle multidimensional [fa]weights|"
         r"Both input arrays must be \(arrays of\) \d+-?dimensional vectors|"
         r"multi_dot: last dimension of each array must match first dimension|"
         r"multi_dot: input arrays must all be two-dimensional|diag input must be \d+d or \d+d|"
         r"Input \d+ to (?:svd|qr|householder_product) must have rank at least 2|"
         r"The first argument to householder_product must have at least as many rows as columns|"
         r"The second argument to householder_product must not have more rows than the minimum|"
         r"All inputs to householder_product must have the same number of batch dimensions|"
         r"Batching dimension \w+ corresponds to two sizes|"
         r"Leading dimensions of input arrays must match|axes must match; got shapes|"
         r"jnp\.linalg\.cond: for p='?\w+'?, array must be square", "shape_mismatch"),
    # jax.lax.conv_general_dilated's shape checks (docs/ops/convolution.md).
    Rule(r"conv_general_dilated feature_group_count must divide lhs feature dimension size|"
         r"conv_general_dilated lhs feature dimension size divided by feature_group_count must equal|"
         r"conv_general_dilated rhs output feature dimension size must be a multiple of feature_group_count|"
         r"convolution requires lhs and rhs ndim to be equal", "shape_mismatch"),
    Rule(r"conv_general_dilated window and window_strides must have the same number of dimensions|"
         r"conv_general_dilated window and rhs_dilation must have the same number of dimensions|"
         r"Unrecognized padding type: expected 'VALID', 'SAME', or 'SAME_LOWER'",
         "invalid_argument"),
    # jax.nn.dot_product_attention's head and shape checks (docs/ops/attention.md).
    Rule(r"The number of query heads must be a multiple of key/value heads|"
         r"(?:query|key|value) shape should be \[", "shape_mismatch",
         lambda case, step: step is not None and step.op == "scaled_dot_product_attention"),
    # jax.nn.glu asserts that the halved axis is even.
    Rule(r"AssertionError: axis size must be divisible by 2", "shape_mismatch",
         lambda case, step: step is not None and step.op == "glu"),
    # jnp.linalg.pinv reads a.shape[-2:] into two names without checking the rank first.
    Rule(r"not enough values to unpack \(expected 2, got [01]\)", "shape_mismatch",
         lambda case, step: step is not None and step.op == "pinv"),
    Rule(r"AxisError|axis -?\d+ is out of bounds for array of (?:dimension|shape)", "dim_out_of_range"),
    Rule(r"index -?\d+ is out of bounds for axis -?\d+ with size", "index_out_of_range"),
    Rule(r"cannot reshape array of size", "invalid_argument"),
    # jnp.diff (docs/ops/scan.md, SPEC OPS-23.11).
    Rule(r"order must be non-negative but got -?\d+|diff requires input that is at least one dimensional",
         "invalid_argument"),
    Rule(r"UPLO must be one of None, 'L', or 'U'|Invalid order '[^']*' for matrix norm|"
         r"jnp\.linalg\.cond: input array must not be empty", "invalid_argument"),
    # A repeated dim where dims must each appear once (permute, diagonal's dim1 == dim2).
    Rule(r"transpose permutation isn't a permutation of operand dimensions", "invalid_argument"),
    Rule(r"duplicate value in 'axis'|zero-size array to reduction operation \w+ which has no identity|"
         r"attempt to get arg(?:max|min) of an empty sequence|rev dimensions must be unique|"
         r"broadcast_in_dim shape must have every element be nonnegative|slice step cannot be zero|"
         r"Dimension size after padding is not at least 0", "invalid_argument"),
    Rule(r"slice limit_indices must be less than or equal to operand shape|"
         r"k argument to top_k must be no larger than size along axis", "index_out_of_range"),
    Rule(r"indices must have an integer type|data type <class 'numpy\.\w+'> not inexact|fweights must be integer|"
         r"lax\.householder_product requires arguments to have the same dtypes",
         "dtype_not_supported"),
    Rule(r"Incompatible types for broadcasting: input type=|Zero-dimensional arrays cannot be concatenated|"
         r"indices and arr must have the same number of dimensions|cannot reshape array of shape",
         "shape_mismatch"),
    Rule(r"can only convert an array of size 1 to a Python scalar", "scalar_conversion"),
    Rule(r"must be of (?:boolean|integer) type|"
         r"only accepts (?:boolean|integer)|"
         r"requires a floating point|must be a floating-point|"
         r"jnp\.where: condition must|"
         r"dtype argument to .* must be a float dtype|"
         r"not implemented for (?:bool|int)|"
         r"Unsupported dtype|does not accept dtype|"
         r"Indexer must have integer or boolean type",
         "dtype_not_supported"),
]


def classify(error: BaseException, case: Case, step: Optional[Step]) -> Optional[SpecError]:
    text = f"{type(error).__name__}: {error}"
    for rule in RULES:
        if rule.matches(text, case, step):
            first = str(error).strip().splitlines()[0] if str(error).strip() else text
            return SpecError(rule.kind, first)
    return None
