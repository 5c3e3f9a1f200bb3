"""PyTorch's exceptions as the spec's error kinds, where the message makes the kind certain.

PyTorch distinguishes errors by exception class and message text only (SPEC ERR-1.1). Each rule
below names a message PyTorch raises for exactly one situation of the spec; the first rule that
matches decides. An exception no rule matches is reported as an unclassified error (a `failed`
reply quoting it): guessing a kind would let a wrong error pass a test.
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
    when: Optional[Condition] = None  # an extra condition on the case and the step that raised

    def matches(self, text: str, case: Case, step: Optional[Step]) -> bool:
        return re.search(self.pattern, text, re.S) is not None and (self.when is None or self.when(case, step))


def _inplace(case: Case, step: Optional[Step]) -> bool:
    return step is not None and step.op.endswith("_")


def _out_variant(case: Case, step: Optional[Step]) -> bool:
    return step is not None and step.op.endswith(".out")


def _on_meta(case: Case, step: Optional[Step]) -> bool:
    return case.device == "meta"


def _under(kind: str) -> Condition:
    return lambda case, step: kind in case.transform_kinds()


# Ops whose result (or its shape) depends on values (docs/ops/dynamic.md): refused on meta.
VALUE_DEPENDENT_OPS = frozenset({"item", "is_nonzero", "nonzero", "masked_select"})


def _value_dependent(case: Case, step: Optional[Step]) -> bool:
    return step is not None and step.op in VALUE_DEPENDENT_OPS


RULES: list[Rule] = [
    # vmap (SPEC VMAP-*): functorch's own messages.
    Rule(r"vmap: called random operation while in randomness error mode", "vmap_randomness"),
    Rule(r"does not currently support same randomness with a batched tensor input", "vmap_randomness"),
    # Each example would write its own draw into the one unbatched tensor (SPEC VMAP-2.3).
    Rule(r"vmap: Cannot ask for different inplace randomness on an unbatched tensor", "vmap_inplace_unbatched"),
    Rule(r"It looks like you're calling \.item\(\) on a Tensor|"
         r"vmap: It looks like you're either \(1\) calling \.item\(\) on a Tensor|"
         r"vmap: It looks like you're attempting to use a Tensor in some data-dependent control flow",
         "vmap_data_dependent"),
    Rule(r"We do not support batching operators that can output dynamic shape", "vmap_dynamic_shape"),
    Rule(r"vmap: (?:inplace arithmetic|(?:aten::)?\w+)\(self, \*extra_args\) is not possible because there exists a "
         r"Tensor `other` in extra_args that has more elements than `self`", "vmap_inplace_unbatched"),
    Rule(r"Batching rule not implemented for aten::\w+\.\w*[Oo]ut\w*; the fallback path doesn't work on out= or "
         r"view ops", "vmap_out_variant"),
    Rule(r"vmap: Attempted to vmap over `\w+` in torch\.masked_select", "vmap_dynamic_shape"),
    Rule(r"Expected all tensors to have the same size in the mapped dimension", "vmap_batch_size_mismatch"),
    Rule(r"vmap\(.*\): Got in_dim=.* for an input but the input is of type|"
         r"vmap\(.*\): Got in_dim=.* for some input, but that input is a Tensor of dimensionality|"
         r"vmap\(.*\): At least one of the inputs must be a Tensor|"
         r"vmap\(.*\): There are no inputs|"
         r"vmap\(.*\): in_dims is not compatible with the structure of `inputs`|"
         r"vmap\(.*\): Expected in_dims to be int or a \(potentially nested\) tuple|"
         r"vmap\(f, in_dims=None, \.\.\.\)\(<inputs>\): expected `in_dims` to be int or a|"
         r"vmap\(.*\): out_dims is not compatible with the structure of `outputs`|"
         r"vmap\(.*\): .*out_dim.* is out of bounds|"
         r"vmap\(.*\): .*can not return a BatchedTensor when out_dim is None|"
         r"vmap: .*out_dim=None.*|"
         r"Dimension out of range .* \(while executing vmap\)|"
         r"vmap\(.*\): Got out_dim=.* for an output but the output is of type",
         "vmap_invalid_dims"),
    Rule(r"vmap\(.*\): `.*` must only return Tensors, got type", "vmap_non_tensor_output"),
    # Differentiation (SPEC AD-*).
    Rule(r"Expected f\(\*args\) to return a scalar Tensor|Expected f\(\*args\) to return a Tensor, got|"
         r"to return a scalar Tensor, got tensor with|grad_and_value\(f\)\(\*args\): Expected f\(\*args\) to "
         r"return a scalar", "ad_non_scalar_output"),
    Rule(r"only Tensors of floating point dtype can require gradients|"
         r"only Tensors of floating point and complex dtype can require gradients|"
         r"Expected primals to be a tuple of floating point Tensors|"
         r"Got argnum=.* but the input is not a Tensor|"
         r"Expected input to be a floating point Tensor|"
         r"Expected primal to be floating point or complex, but got",
         "ad_non_differentiable_input"),
    Rule(r"Mismatch in shape: grad_output\[\d+\] has a shape of|Mismatch in dtype: grad_output|"
         r"Expected primals and tangents to have the same|Expected tangents to have the same shape|"
         r"Expected `tangents` to have the same .* as `primals`|"
         r"jvp\(f, primals, tangents\): Expected primals and tangents to have the same python structure|"
         r"Expected vjp_fn\(\*grad_outputs\) to have|Expected pytree structure of cotangents to be the same|"
         r"Trying to set a forward gradient that has a different size than that of the original Tensor|"
         r"forward gradient.*(?:dtype|shape)|"
         r"tangent:\d+ with (?:shape|dtype) .* in flattened pytree doesn't match the (?:shape|dtype) .* of the "
         r"corresponding primal|"
         r"Expected grad_outputs to have the same dtype",
         "ad_tangent_mismatch"),
    Rule(r"would mutate a captured Tensor", "ad_inplace_captured"),
    # A value kept from inside vmap and used after it returned (SPEC VMAP preamble, AD-6.4): 2.x says
    # so; 1.13 only fails functorch's internal check that the tensor's level is alive.
    Rule(r"Either your tensor may have escaped from inside a function being vmapped|"
         r"maybe_layer\.has_value\(\) INTERNAL ASSERT FAILED", "transform_escaped"),
    # The global autograd API inside a transformed function (SPEC AD-5.6): functorch refuses
    # backward() by name; torch.autograd.grad finds that the transform's tensors do not require grad
    # at the regular autograd level.
    Rule(r"backward\(\) called inside a functorch transform|"
         r"element 0 of tensors does not require grad and does not have a grad_fn",
         "autograd_api_under_transform", lambda case, step: step is not None and step.op.startswith("autograd.")),
    # PyTorch's version counter: a saved tensor written before backward used it (SPEC AD-2.5).
    Rule(r"one of the variables needed for gradient computation has been modified by an inplace operation",
         "ad_input_modified"),
    # Custom functions (SPEC CUSTOM-2.2, 2.3): an autograd.Function without the rule a mode needs.
    Rule(r"You must implement the jvp function for custom autograd\.Function to use it with forward mode AD|"
         r"You must implement either the backward or vjp method for your custom autograd\.Function to use it "
         r"with backward mode AD", "custom_rule_missing"),
    # Tensor semantics (SPEC TENSOR-*, ERR-2.*).
    Rule(r"unsupported operation: more than one element of the written-to tensor refers to a single memory "
         r"location", "internal_overlap"),
    Rule(r"view size is not compatible with input tensor's size and stride", "view_incompatible"),
    Rule(r"result type .* can't be cast to the desired output type|"
         r"Attempting to cast from torch\.\w+ to out tensor with dtype torch\.\w+, but this can't be cast",
         "dtype_cast_not_allowed"),
    # deg2rad_ checks its own dtype before the cast (the float result into an integer self).
    Rule(r"deg2rad_ is not supported for integral tensors", "dtype_cast_not_allowed", _inplace),
    # An in-place op's shape error: see _inplace_shape_kind.
    Rule(r"output with shape (?:torch\.Size\()?\[.*\]\)? doesn't match the broadcast shape", "inplace_broadcast",
         lambda case, step: _inplace(case, step) and "vmap" not in case.transform_kinds()),
    Rule(r"Expected all tensors to be on the same device|Tensor on device \w+ is not on the expected device",
         "device_mismatch"),
    Rule(r"Tensor\.item\(\) cannot be called on meta tensors|"
         r"Cannot copy out of meta tensor|"
         r"(?:Could not run|NotImplementedError).*'Meta' backend|"
         r"attempted to run this operator with Meta tensors|"
         r"The register_meta function for torch\.nonzero\(\) raises unimplemented", "data_dependent_on_meta",
         lambda case, step: _on_meta(case, step) and _value_dependent(case, step)),
    Rule(r"a Tensor with \d+ elements cannot be converted to Scalar|"
         r"only one element tensors can be converted to Python scalars|"
         r"Boolean value of Tensor with (?:more than one value|no values) is ambiguous", "scalar_conversion"),
    # linalg.pinv reports an integer and a 1-D input with one message; its dtype and shape tell them apart.
    Rule(r"linalg\.pinv\((?:Long|Bool)\{", "dtype_not_supported"),
    Rule(r"linalg\.pinv\((?:Float|Double)\{\[\d*\]\}\): expected a tensor with 2 or more dimensions", "shape_mismatch"),
    Rule(r"torch\.linalg\.lstsq: input\.size\(-2\) should match other\.size\(-2\)|"
         r"torch\.linalg\.lstsq: input\.dim\(\) must be greater or equal to other\.dim\(\)|"
         r"torch\.linalg\.matrix_rank: The input tensor input must have at least 2 dimensions", "shape_mismatch"),
    Rule(r"torch\.linalg\.lstsq: parameter `driver` should be one of", "invalid_argument"),
    Rule(r"This function doesn't handle types other than float and double", "dtype_not_supported"),
    Rule(r"The size of tensor a \(\d+\) must match the size of tensor b \(\d+\) at non-singleton dimension|"
         r"shape .* is not broadcastable|operands could not be broadcast together|"
         r"Attempting to broadcast a dimension of length \d+ at -?\d+!|"
         r"Sizes of tensors must match except in dimension|"
         r"mat1 and mat2 shapes cannot be multiplied|size mismatch, got|"
         r"inconsistent tensor size, expected tensor|"
         r"Expected size for first two dimensions of batch2 tensor to be|"
         r"Incompatible matrix sizes|"
         r"stack expects each tensor to be equal size|"
         r"zero-dimensional tensor \(at position \d+\) cannot be concatenated|"
         r"must be batches of square matrices|must be batches of square|"
         r"A must be batches of square matrices|"
         r"split_with_sizes expects split_sizes to sum exactly to|"
         r"expected to be batches of square matrices|"
         r"linalg\..*: A must be batches of square|"
         r"The expanded size of the tensor \(\d+\) must match the existing size \(\d+\) at non-singleton dimension|"
         r"Index tensor must have the same number of dimensions as input tensor|"
         r"shape '\[[-\d, ]*\]' is invalid for input of size \d+|"
         r"cannot reshape tensor of 0 elements into shape .* because the unspecified dimension size -1 can be any|"
         r"linalg\.solve: Incompatible shapes of A and B|"
         r"The input tensor (?:A )?must have at least 2 dimensions|"
         r"Number of dimensions of tensors must match\.\s+Expected \d+-D tensors|"
         r"source tensor shape must match self tensor shape, excluding the specified dimension|"
         r"expected src to have a size equal to the slice of self|"
         r"no dimension of size 3 in input|linalg\.cross: inputs dimension -?\d+ must have length 3|"
         r"linalg\.cross: inputs must have the same number of dimensions|"
         r"renorm: input needs at least 2 dimensions|diag\(\): Supports 1D or 2D tensors|"
         r"matrix or a vector expected|"  # diag in PyTorch 1.13
         r"(?:cov|corrcoef)\(\): expected input to have two or fewer dimensions|"
         r"cov\(\): expected [fa]weights to have the same numel as there are observations|"
         r"cov\(\): expected [fa]weights to have one or fewer dimensions|"
         r"multi_dot\(\): tensors \d+ and \d+ with shapes .* cannot be multiplied|"
         r"multi_dot\(\): tensor \d+ must be 2D|multi_dot\(\): the (?:first|last) tensor must be 1D or 2D|"
         r"cdist only supports at least 2D tensors|X1 and X2 must have the same number of columns|"
         r"pdist only supports 2D tensors|"
         r"householder_product: input must have at least 2 dimensions|"
         r"householder_product: input\.shape\[-2\] must be greater than or equal to input\.shape\[-1\]|"
         r"householder_product: input\.shape\[-1\] must be greater than or equal to tau\.shape\[-1\]|"
         r"householder_product: Expected tau to have one dimension less than input|"
         r"householder_product: Expected batch dimensions of tau to be equal to input\.shape", "shape_mismatch"),
    Rule(r"Dimension out of range \(expected to be in range of|Dimension specified as -?\d+ but tensor has no "
         r"dimensions|(?:select|slice)\(\) cannot be applied to a 0-dim tensor", "dim_out_of_range"),
    # diff and trapezoid (docs/ops/scan.md, SPEC OPS-23.11, OPS-23.13).
    Rule(r"diff expects input to be at least one-dimensional|order must be non-negative but got -?\d+|"
         r"diff expects prepend or append to be the same dimension as input|"
         r"aminmax\(\): cannot compute aminmax over an empty dimension", "invalid_argument"),
    Rule(r"diff expects the shape of tensor to prepend or append to match that of input|"
         r"(?:cumulative_)?trapezoid: There must be one `x` value for each sample point", "shape_mismatch"),
    Rule(r"(?:cumulative_)?trapezoid: received a bool input for `(?:x` or `)?y`", "dtype_not_supported"),
    Rule(r"index -?\d+ is out of bounds for dimension \d+ with size \d+|index out of range in self|"
         r"out of range in self|index .* is out of bounds for|"
         r"selected (?:index|number) k out of range|start out of range|"
         r"select\(\): index -?\d+ out of range for tensor of size|k not in range for dimension|"
         r"Target -?\d+ is out of bounds|"
         r"start \(-?\d+\) \+ length \(-?\d+\) exceeds dimension size", "index_out_of_range"),
    Rule(r"the input is not positive-definite", "not_positive_definite"),
    Rule(r"the input matrix is singular|The diagonal element \d+ is zero|U\(\d+,\d+\) is zero", "singular_matrix"),
    Rule(r"ZeroDivisionError|integer division by zero|division by zero", "invalid_argument"),
    # The activation functions' arguments (hardtanh's bounds are checked by F.hardtanh in Python).
    Rule(r"min_val cannot be greater than max_val|lambda must be in range \[|lambda must be greater or equal to 0",
         "invalid_argument"),
    # The dropout family's ranks and rrelu's bounds (docs/ops/dropout.md, activation.md).
    Rule(r"dropout1d: Expected 2D or 3D input|Feature dropout requires at least 2 dimensions", "shape_mismatch"),
    Rule(r"Lower bound should be less than or equal to the upper bound", "invalid_argument"),
    # PyTorch 2's meta alpha_dropout of an integer input fails in its in-place affine step.
    Rule(r"Promotion of int\.add/sub_\(float\) in in-place ops are not possible", "dtype_not_supported",
         lambda case, step: step is not None and "alpha_dropout" in step.op),
    # The convolution family's attributes and shapes (docs/ops/convolution.md, SPEC OPS-16.3).
    Rule(r"non-positive (?:groups|stride) is not supported|negative padding is not supported|"
         r"dilation should be greater than zero|padding='same' is not supported for strided convolutions|"
         r"Invalid padding string|"
         r"expected \w+ to be a single integer value or a list of \d+ values to match the convolution dimensions|"
         r"output padding must be smaller than either stride or dilation|"
         r"(?:kernel[ _]size|stride|dilation) should be greater than zero|padding should be non-negative", "invalid_argument"),
    Rule(r"Kernel size can't be greater than actual input size|Output size is too small|"
         r"expected input\[.*\] to have \d+ channels|expected weight to be divisible by \d+ at dimension 0|"
         r"to have \d+ channels, but got \d+ channels instead|"
         r"Expected \d+D \(unbatched\) or \d+D \(batched\) input to conv|"
         r"weight should have at least three dimensions|expected bias to be 1-dimensional|"
         r"to match the calculated number of sliding blocks|"
         r"to be divisible by the product of kernel_size|calculated shape of the array of sliding blocks|"
         r"Expected (?:3D or 4D|2D or 3D) \(batch mode\) tensor|Input Error: Only (?:3D|4D) input Tensors are supported|"
         r"non-zero dimensions for input|Invalid channel dimensions|expected input\.size\(-1\) to be \d+ but got \d+",
         "shape_mismatch"),
    # The pools (docs/ops/pooling.md, SPEC OPS-17.3).
    Rule(r"pad should be (?:at most half of (?:effective )?kernel size|smaller than or equal to half of kernel size)|"
         r"padding should be at most half of kernel size|pad must be non-negative|padding must be non-negative|"
         r"stride should not be zero|(?:kernel_size|stride|dilation) must be greater than zero|"
         r"divisor must be not zero|elements of output_size must be greater than or equal to 0|"
         r"\w+: (?:kernel_size|stride|padding|dilation|output_size) must (?:either )?be a single int|"
         r"norm_type must be a non-zero value", "invalid_argument"),
    Rule(r"Expected \d+D or \d+D (?:\(batch mode\) )?(?:input )?tensor|Expected \d+D or \d+D input tensor|"
         r"non-empty \d+D or \d+D \(batch mode\) tensor expected|Invalid computed output size|"
         r"Expected input to have non-zero size for non-batch dimensions|"
         r"Expected tensor with optional 0 dim batch size|smaller than kernel size \(k|"
         r"Expected \d+ to \d+ dimensions, but got \d+-dimensional tensor|"
         r"Expected input's non-batch dimensions to have positive length", "shape_mismatch"),
    # max_unpool (SPEC OPS-17.4): F._unpool_output_size checks output_size in Python; the kernels check
    # the indices.
    Rule(r"output_size should be a sequence containing \d+ or \d+ elements|invalid output_size \"",
         "invalid_argument"),
    Rule(r"Expected shape of indices to be same as that of the input tensor", "shape_mismatch"),
    Rule(r"elements in indices should be type int64", "dtype_not_supported"),
    Rule(r"Found an invalid max index", "index_out_of_range"),
    # scaled_dot_product_attention (SPEC OPS-20.2); PyTorch's math path raises matmul's messages for
    # integer inputs and mismatched features.
    Rule(r"Explicit attn_mask should not be set when is_causal=True", "invalid_argument"),
    Rule(r"Expected query, key, and value to all be\s+at least 2 dim|Number of heads in key and value must divide|"
         r"a and b must have same reduction dim", "shape_mismatch",
         lambda case, step: step is not None and step.op == "scaled_dot_product_attention"),
    Rule(r"Expected query, key, and value to have the same dtype|expected m1 and m2 to have the same dtype",
         "dtype_not_supported", lambda case, step: step is not None and step.op == "scaled_dot_product_attention"),
    # exponential_ on an integer tensor (PyTorch 2; also inside gumbel_softmax's draw).
    Rule(r"Exponential distribution is a continuous probability distribution", "dtype_not_supported"),
    # multi_head_attention_forward (SPEC OPS-20.3): PyTorch's asserts, then the messages of the
    # projections' matmuls, views and expands when a shape slips past them.
    Rule(r"not divisible by num_heads", "invalid_argument",
         lambda case, step: step is not None and step.op == "multi_head_attention_forward"),
    Rule(r"query should be unbatched 2D or batched 3D|For (?:un)?batched \(\d-D\) `query`|"
         r"expecting key_padding_mask shape|Expected key_padded_mask\.shape|The shape of the [23]D attn_mask|attn_mask's dimension|"
         r"key shape .* does not match value shape|was expecting embedding dimension|"
         r"mat1 and mat2 shapes cannot be multiplied|The expanded size of the tensor|not enough values to unpack|"
         r"shape '\[[-\d, ]*\]' is invalid for input of size", "shape_mismatch",
         lambda case, step: step is not None and step.op == "multi_head_attention_forward"),
    Rule(r"only bool and floating types of (?:key_padding_mask|attn_mask) are supported|expected scalar type|"
         r"expected (?:m1 and m2|mat1 and mat2) to have the same dtype|Only float, byte, and bool types are supported",
         "dtype_not_supported", lambda case, step: step is not None and step.op == "multi_head_attention_forward"),
    # The normalization family (docs/ops/normalization.md, SPEC OPS-18.3). functorch's famous refusal
    # to write per-example statistics into unbatched running statistics (SPEC OPS-18.1, VMAP-3.1).
    Rule(r"(?:Batch|Instance) norm got a batched tensor as input while the running_mean or running_var, which "
         r"will be updated in place, were not batched", "vmap_inplace_unbatched"),
    Rule(r"Expected more than 1 value per channel when training|"
         r"Expected more than 1 spatial element when training|"
         r"running_mean must be defined in evaluation mode|"
         r"Expected running_mean and running_var to be defined when use_input_stats is false|"
         r"Expected num groups to be greater than 0|"
         r"[Pp]adding_idx must be within (?:num_embeddings|the number of embeddings)|"
         r"mode has to be one of sum, mean or max|"
         r"max mode does not support scaling the gradient by the frequency|"
         r"per_sample_weights was not None\. per_sample_weights is only supported for mode='sum'|"
         r"offsets has to be a 1D Tensor but got None|if input is 2D, then offsets has to be None|"
         r"batch_norm eps must be (?:positive during training|non-negative)|"
         r"Expected normalized_shape to be at least 1-dimensional",
         "invalid_argument"),
    Rule(r"integer division or modulo by zero", "invalid_argument",
         lambda case, step: step is not None and step.op == "group_norm"),
    Rule(r"(?:running_mean|running_var|weight|bias) should contain \d+ elements not \d+|"
         r"Expected number of channels in input to be divisible by num_groups|"
         r"Expected (?:weight|bias) to be a vector of size equal to the number of channels in input|"
         r"Expected at least 2 dimensions for input tensor but received|"
         r"Expected 3D or higher dimensionality|"
         r"'weight' must be 2-D|weight has to be a 2D Tensor|"
         r"Expected 2-dimensional tensor, but got \d+-dimensional tensor for argument #1 'self'|"
         r"offsets has to be a 1D Tensor$|input has to be 1D or 2D Tensor|"
         r"If per_sample_weights \(.*\) is not None, then it must have the same shape as the input|"
         r"Given normalized_shape=\[.*\], expected input with shape \[.*\], but got input of size|"
         r"Expected (?:weight|bias) to be of same shape as normalized_shape",
         "shape_mismatch"),
    Rule(r"Expected tensor for argument #\d+ '(?:indices|weight)' to have one of the following scalar types|"
         r"expected (?:indices|offsets) to be long or int, got|expected weight to be floating point type, got|"
         r'"(?:batch_norm|GroupNormKernelImpl)" not implemented for|'
         r"norm\(\): input dtype should be either floating point or complex", "dtype_not_supported"),
    Rule(r"Index \d+ is out of bounds: -?\d+, range 0 to \d+", "index_out_of_range"),
    # The resampling family (docs/ops/resampling.md, SPEC OPS-19.5): pad's modes, pixel_(un)shuffle,
    # F.interpolate (mostly checked in Python), grid_sample and affine_grid.
    Rule(r"Argument #\d+: Padding size should be less than the corresponding input dimension|"
         r"input \([DHW]: \d+(?:, [DHW]: \d+)*\) ?is too small\. Calculated output|"
         r"Padding mode \"\w+\" doesn't take in value argument|Unrecognised padding mode|"
         r"Padding value causes wrapping around more than once|"
         r"Negative padding value is resulting in an empty dimension|"
         r"pixel_(?:un)?shuffle expects a positive (?:up|down)scale_factor|"
         r"align_corners option can only be set with the interpolating modes|"
         r"only one of size or scale_factor should be defined|either size or scale_factor should be defined|"
         r"Input and (?:output|scale_factor) must have the same number of spatial dimensions|"
         r"recompute_scale_factor is not meaningful with an explicit size|"
         r"nn\.functional\.grid_sample\(\): expected (?:mode|padding_mode) to be|"
         r"affine_grid only supports 4D and 5D sizes|Expected non-zero, positive output size", "invalid_argument"),
    Rule(r"Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now|"
         r"Padding size \d+ is not supported for \d+D input tensor|"
         r"\d+D or \d+D \(batch mode\) tensor expected for input|"
         r"pixel_(?:un)?shuffle expects input to have at least \d+ dimensions|"
         r"pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor|"
         r"pixel_unshuffle expects (?:height|width) to be divisible by downscale_factor|"
         r"Got \d+D input, but \w+ mode needs \d+D input|"
         r"Input Error: Only 3D, 4D and 5D input Tensors supported \(got \d+D\) for the modes: .* "
         r"\(got (?:nearest|linear|bilinear|bicubic|trilinear|area|nearest-exact)\)|"
         r"Input and output sizes should be greater than 0, but got input \((?:[DHW]: \d+, )*[DHW]: 0\b|"
         r"Non-empty \d+D data tensor expected but got a tensor with sizes|"
         r"grid_sampler\(\): bicubic interpolation only supports 4D input|"
         r"grid_sampler\(\): expected \d+D input and grid with same number of dimensions|"
         r"grid_sampler\(\): expected grid and input to have same batch size|"
         r"grid_sampler\(\): expected grid to have size \d+ in last dimension|"
         r"grid_sampler\(\): expected input to have non-empty spatial dimensions|"
         r"Expected a batch of [23]D affine matrices of shape Nx[23]x[34]|"
         r"Invalid input shape for pixel_shuffle|grid last dimension must be \d+ \(for x,y(?:,z)? coords\)",
         "shape_mismatch"),
    Rule(r"Input Error: Only 3D, 4D and 5D input Tensors supported \(got \d+D\) for the modes: .* \(got [^)]*\)|"
         r"Input and output sizes should be greater than 0", "invalid_argument"),
    Rule(r"grid_sampler\(\): expected input and grid to have same dtype|grid_sampler_[23]d_cpu not implemented for|"
         r"Expected theta to have floating point type", "dtype_not_supported"),
    # The losses' options and shapes (docs/ops/loss.md); F.* checks many of them in Python.
    Rule(r"huber_loss does not support non-positive values for delta|"
         r"smooth_l1_loss does not support negative values for beta|only p == 1 and p == 2 supported|"
         r"is not a valid value for reduction", "invalid_argument"),
    Rule(r"Using a target size \(.*\) that is different to the input size|"
         r"Target size \(.*\) must be the same as input size|var is of incorrect size|"
         r"margin_ranking_loss : All input tensors should have same dimension|"
         r"All inputs should have same dimension but got|"
         r"The anchor, positive, and negative tensors are expected to have the same number of dimensions|"
         r"[01]D target tensor expects [12]D input tensors|"
         r"Expected non-empty vector or matrix with optional 0-dim batch size", "shape_mismatch"),
    Rule(r"multi_margin_loss.*target out of range|^RuntimeError: target out of range", "index_out_of_range",
         lambda case, step: step is not None and step.op == "multi_margin_loss"),
    Rule(r"Mismatch of parameter numbers and input channel size|"
         r"prelu: Expected `weight` to be a scalar or 1D tensor|"
         r"Halving dimension must be even|glu does not support (?:scalars|0-dimensional tensors)", "shape_mismatch"),
    Rule(r"Bool inputs not supported for hardtanh|prelu: Type promoting not supported|"
         r"torch\.finfo\(\) requires a floating point input type", "dtype_not_supported"),
    # PyTorch 1.13's prelu names a weight of another dtype this way.
    Rule(r"Found dtype \w+ but expected \w+", "dtype_not_supported",
         lambda case, step: step is not None and step.op == "prelu"),
    Rule(r"linalg\.matrix_norm: Order .* not supported|linalg\.matrix_norm: dims must be different|"
         r"linalg\.cond got an invalid norm type", "invalid_argument"),
    Rule(r"not implemented for '(?:Bool|Long|Float|Double)'|"
         r"Subtraction, the `-` operator, with (?:two bool tensors|a bool tensor) is not supported|"
         r"could not infer output dtype\. Input dtype must be either a floating point or complex dtype|"
         r"Boolean inputs not supported for|"
         r"std and var only support floating point and complex dtypes|"
         r"(?:var|std)_mean only support floating point and complex dtypes|"
         r"result type should be floating point or complex|"
         r"nanmean\(\): expected input to have floating point(?: or complex)? dtype but got|"
         r"index_select\(\): Expected dtype int(?:32|64) or int(?:32|64) for index|"
         r"\w+\(\): does not support bool input|\w+ does not support bool dtypes on CPU|"
         r"torch\.bool not supported for floor_divide|"
         r"expected predicate to be bool, got|"
         r"Negation, the `-` operator, on a bool tensor is not supported|"
         r"where expected condition to be a boolean tensor|"
         r"expected scalar type .* but found|"
         r"Expected object of scalar type .* but got scalar type|"
         r"Expected a floating point or complex tensor as input|"
         r"linalg\..*: Expected a floating point|"
         r"masked_select: expected BoolTensor for mask|"
         r"expected dtype .* for `.*` but got dtype|"
         r"Integer division with addcdiv is no longer supported|"
         r"only supports floating-point dtypes|"
         r"Expected floating point type for|"
         r"input dtype should be either floating point or complex|"
         r"can only be calculated for floating types|"
         r"gather\(\): Expected dtype int64 for index|"
         r"index_select\(\): Expected dtype int64 for index|"
         r"Expected dtype int64 for index|"
         r"gather\(\): Expected dtype int32/int64 for index|"
         r"scatter\(\): Expected self\.dtype to be equal to src\.dtype|"
         r"masked_fill_ only supports boolean masks|"
         r"linalg\.vector_norm: dtype should be floating point or complex|"
         r"linalg\.vector_norm: the dtype of the input .* should be convertible without narrowing|"
         r"cov\(\): bool dtype is not supported for input|"
         r"cov\(\): expected fweights to have integral dtype|cov\(\): expected aweights to have floating point dtype|"
         r"multi_dot\(\): all tensors must have be the same dtype|"
         r"expected common dtype to be floating point|"
         r"householder_product: tau dtype .* does not match input dtype",
         "dtype_not_supported"),
    Rule(r"rounding_mode must be one of|div expected rounding_mode to be one of|"
         r"Expected UPLO argument to be 'L' or 'U'|"
         r"torch\.clamp: At least one of 'min' or 'max' must not be None|"
         r"clamp called but both min and max are none!|"
         r"alpha argument of type <class '\w+'> cannot be safely cast to type|"
         r"reducing over zero-size dimension for reduction operation without identity|"
         r"Expected reduction dim -?\d+ to have non-zero size|"
         r"cannot compute the -?inf norm on the dimension -?\d+ ?because this dimension is empty|"
         r"linalg\.vector_norm cannot compute the -?[\w.]+ norm on (?:an empty tensor|the dimension)|"
         r"renorm: non-positive[- ]norm not supported|renorm: expected maxnorm to be >= 0|"
         r"multi_dot\(\): expected at least 2 tensors|"
         r"[cp]dist only supports non-negative p values|is not a valid value for compute_mode|"
         r"slice step must be positive|shifts and dimensions must align|duplicate value in the list of dims|"
         r"approximate argument must be either|"
         r"is not a valid value for reduction|dim \d+ appears multiple times in the list of dims|"
         r"negative dimensions are not allowed|"
         r"upper bound and larger bound inconsistent with step sign|step must be nonzero|"
         r"Trying to create tensor with negative dimension|"
         r"random_ expects 'from' to be less than 'to'|"
         r"from <= to|"
         r"number of categories cannot exceed|"
         r"cannot sample n_sample > prob_dist.size|"
         r"invalid multinomial distribution|"
         r"num_samples should be positive|"
         r"bernoulli_\(?.*\)? expects p to be in \[0, 1\]|"
         r"normal expects std >= 0.0|"
         r"exponential_ expects lambda > 0|"
         r"Padding length must be divisible by 2|Padding length too large|"
         r"dropout probability has to be between 0 and 1|"
         r"cannot be converted to type .* without overflow|value cannot be converted to type|"
         r"Boolean alpha only supported for Boolean results|"
         r"For integral input tensors, argument alpha must not be a floating point number|"
         r"diagonal dimensions cannot be identical|"
         r"qr received unrecognized mode|"
         r"The derivative of linalg\.qr depends on Q, which is not computed when mode='r'|"
         r"The QR decomposition is not differentiable when mode='complete' and nrows > ncols",
         "invalid_argument"),
    # scatter, scatter_reduce, index_reduce, index_copy, index_fill, take, put (docs/ops/index.md).
    Rule(r"(?:index_copy_|take|put_)\(\): Expected a long tensor for index|"
         r"scatter\(\): Expected dtype int32/int64 for index", "dtype_not_supported"),
    Rule(r"Index has to be a vector/scalar|Index should have dimension 1 or 0|"
         r"Index tensor must have the same number of dimensions as (?:self|src) tensor|"
         r"Expected index (?:torch\.Size\(\[[\d, ]*\]\)|\[[\d, ]*\]) to be (?:smaller|no larger) than (?:self|src)|"
         r"put_\(\): Expected source and index to have the same number of elements", "shape_mismatch"),
    Rule(r"reduce argument must be either (?:add or multiply|sum, prod, mean, amax or amin)|"
         r"index_reduce\(\): Expected reduce to be one of", "invalid_argument"),
]


def _inplace_shape_kind(error: BaseException, case: Case, step: Optional[Step]) -> Optional[str]:
    """The kind of PyTorch's in-place shape error under vmap, from the shapes of the step's examples.

    functorch reports both an example that cannot write its broadcast result into self (SPEC
    TENSOR-4.3, inplace_broadcast) and a batched result written into an unbatched self (VMAP-3.1,
    vmap_inplace_unbatched) as "output with shape [..] doesn't match the broadcast shape [..]",
    with physical or logical shapes depending on the batching path. The examples' own shapes (what a
    tensor's .shape is under vmap) tell the two apart: when they broadcast to self's shape, only the
    batch dims can be in the way.
    """
    if step is None or not _inplace(case, step) or "vmap" not in case.transform_kinds():
        return None
    if not re.search(r"output with shape (?:torch\.Size\()?\[.*\]\)? doesn't match the broadcast shape", str(error)):
        return None
    shapes = getattr(error, "funcspec_shapes", None)
    if not shapes:
        return None
    import torch

    try:
        fits = tuple(torch.broadcast_shapes(*shapes)) == tuple(shapes[0])
    except RuntimeError:
        fits = False
    return "vmap_inplace_unbatched" if fits else "inplace_broadcast"


def classify(error: BaseException, case: Case, step: Optional[Step]) -> Optional[SpecError]:
    text = f"{type(error).__name__}: {error}"
    kind = _inplace_shape_kind(error, case, step)
    if kind is not None:
        return SpecError(kind, str(error).strip().splitlines()[0])
    for rule in RULES:
        if rule.matches(text, case, step):
            return SpecError(rule.kind, str(error).strip().splitlines()[0] if str(error).strip() else text)
    return None

