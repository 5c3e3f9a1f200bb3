// The normalization family of torch.nn.functional (docs/ops/normalization.md): batch_norm and
// instance_norm (with their functional forms, which return the updated running statistics instead
// of writing them), group_norm, local_response_norm, normalize, embedding, embedding_renorm and
// embedding_bag, as composites (layer_norm is in composite.cpp). Decompositions read shapes, dtypes
// and attributes for their checks and never data; the two ops that write their running statistics
// are in-place ops (NOTE: [running statistics]).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {
namespace normalization {
namespace {

using Dims = std::vector<std::int64_t>;

constexpr double kInf = std::numeric_limits<double>::infinity();

// NOTE: [running statistics]
// F.batch_norm in training and F.instance_norm with use_input_stats write the batch's statistics
// into the running_mean and running_var they are given, in place, as PyTorch's kernels do: the
// catalogue's batch_norm and instance_norm are in-place ops whose schema marks those two arguments
// written (`Tensor(a!)?`). Everything they compute is their functional form's (batch_norm_functional,
// instance_norm_functional: the normalized output and the new statistics, written nowhere, as ATen's
// _native_batch_norm_legit_functional), and then copy_ writes the new statistics, so transforms see
// one kind of mutation (NOTE: [derived variants]). The forms that write nothing (evaluation, no
// running statistics) compute the output alone. The new statistics are momentum * batch +
// (1 - momentum) * running, the variance unbiased (sum of squares over n - 1); an empty batch (no
// value per channel) leaves them as they are, as PyTorch's cpu kernel. The functional forms return
// them with their formula's derivative; the in-place forms write them detached (PyTorch updates them
// inside its kernel, outside autograd), so that grad of a training batch_norm writes its statistics
// and differentiates its output alone.
//
// Under vmap a write of per-example statistics into unbatched running statistics is
// vmap_inplace_unbatched (VMAP-3.1; the functorch error "Batch norm got a batched tensor as input
// while the running_mean or running_var, which will be updated in place, were not batched"). Both
// statistics are written from the input, so either both writes are refused or neither: running_var is
// first written with its own values through a where that depends on its new value, which raises
// exactly where its real write would, before running_mean is touched.

struct NormInput {
  std::int64_t channels;
  std::int64_t rank;
};

// input (N, C, *) floating, and every given per-channel tensor 1-D of C elements of input's dtype.
NormInput checked_norm_input(std::string_view op, const Tensor& input, std::int64_t least_rank) {
  check_dtype(op, "input", input.dtype(), DTypeSet::Floating);
  FUNCSPEC_CHECK(input.dim() >= least_rank, ErrorKind::ShapeMismatch,
                 "[{}] expected an input of at least {} dims (N, C, ...) but got shape {}", op, least_rank,
                 shape_to_string(input.shape()));
  return {input.size(1), input.dim()};
}

void check_per_channel(std::string_view op, std::string_view name, const Tensor& t, const Tensor& input,
                       std::int64_t channels) {
  if (!t.defined()) return;
  FUNCSPEC_CHECK(t.dtype() == input.dtype(), ErrorKind::DtypeNotSupported,
                 "[{}] {} has dtype {} but input has dtype {} (mixed dtypes are not supported)", op, name,
                 dtype_name(t.dtype()), dtype_name(input.dtype()));
  FUNCSPEC_CHECK(t.dim() == 1 && t.size(0) == channels, ErrorKind::ShapeMismatch,
                 "[{}] {} should be a vector of the input's {} channels but has shape {} (input shape {})", op, name,
                 channels, shape_to_string(t.shape()), shape_to_string(input.shape()));
}

// A per-channel vector [C] shaped to broadcast along dim 1 of a rank-`rank` tensor: [1, C, 1, ...].
Tensor along_channels(const Tensor& t, std::int64_t rank) {
  Shape shape(static_cast<std::size_t>(rank), 1);
  shape[1] = t.size(0);
  return ops::reshape(t, shape);
}

Tensor affine(Tensor out, const Tensor& weight, const Tensor& bias, std::int64_t rank) {
  if (weight.defined()) out = ops::mul(out, along_channels(weight, rank));
  if (bias.defined()) out = ops::add(out, along_channels(bias, rank));
  return out;
}

// The biased statistics of `x` over `dims` (kept): the mean and the sum of squared deviations, as
// PyTorch's cpu kernels accumulate them (var = sum / n, the running update's unbiased var = sum / (n - 1)).
struct Moments {
  Tensor mean, centered, squares;
};

Moments moments(const Tensor& x, const Dims& dims) {
  Moments m;
  m.mean = ops::mean(x, dims, true);
  m.centered = ops::sub(x, m.mean);
  m.squares = ops::sum(ops::mul(m.centered, m.centered), dims, true);
  return m;
}

Tensor blend(const Tensor& running, const Tensor& batch, double momentum) {
  return ops::add(ops::mul(batch, ops::lit(momentum)), ops::mul(running, ops::lit(1.0 - momentum)));
}

Dims all_but_channels(std::int64_t rank) {
  Dims dims{0};
  for (std::int64_t d = 2; d < rank; ++d) dims.push_back(d);
  return dims;
}

std::int64_t values_per_channel(const Tensor& input) {
  std::int64_t n = input.size(0);
  for (std::int64_t d = 2; d < input.dim(); ++d) n *= input.size(d);
  return n;
}

struct Normalized {
  Tensor out;
  Tensor running_mean, running_var;  // the new statistics, where the call updates them
};

// batch_norm's arguments: (input, running_mean, running_var, weight, bias).
Normalized batch_norm_of(std::string_view op, const TensorList& in, const Attrs& attrs, bool statistics_required) {
  const Tensor &input = in[0], &running_mean = in[1], &running_var = in[2], &weight = in[3], &bias = in[4];
  const NormInput shape = checked_norm_input(op, input, 2);
  if (statistics_required) {
    FUNCSPEC_CHECK(running_mean.defined() && running_var.defined(), ErrorKind::InvalidArgument,
                   "[{}] needs running_mean and running_var", op);
  }
  check_per_channel(op, "running_mean", running_mean, input, shape.channels);
  check_per_channel(op, "running_var", running_var, input, shape.channels);
  check_per_channel(op, "weight", weight, input, shape.channels);
  check_per_channel(op, "bias", bias, input, shape.channels);
  FUNCSPEC_CHECK(running_mean.defined() == running_var.defined(), ErrorKind::InvalidArgument,
                 "[{}] running_mean and running_var must be given together", op);
  const bool training = attrs.get_bool("training");
  const double momentum = attrs.get_float("momentum"), eps = attrs.get_float("eps");
  const bool stats = running_mean.defined();
  FUNCSPEC_CHECK(training || stats, ErrorKind::InvalidArgument,
                 "[{}] running_mean and running_var must be defined in evaluation mode (training=False)", op);
  const std::int64_t n = values_per_channel(input);
  // F.batch_norm's _verify_batch_size: the batch's statistics of one value per channel are refused.
  FUNCSPEC_CHECK(!training || n != 1, ErrorKind::InvalidArgument,
                 "[{}] expected more than 1 value per channel when training, got input shape {}", op,
                 shape_to_string(input.shape()));
  // PyTorch 2's F.batch_norm: batch statistics divide by sqrt(var + eps), var possibly 0.
  FUNCSPEC_CHECK(eps >= 0 && (!training || eps > 0), ErrorKind::InvalidArgument, "[{}] eps must be {} but is {}", op,
                 training ? "positive in training" : "non-negative", eps);
  Normalized result;
  if (!training) {
    const Tensor centered = ops::sub(input, along_channels(running_mean, shape.rank));
    const Tensor inverse_std = ops::rsqrt(ops::add(along_channels(running_var, shape.rank), ops::lit(eps)));
    result.out = affine(ops::mul(centered, inverse_std), weight, bias, shape.rank);
    if (stats) {
      result.running_mean = ops::clone(running_mean);
      result.running_var = ops::clone(running_var);
    }
    return result;
  }
  const Dims dims = all_but_channels(shape.rank);
  const Moments m = moments(input, dims);
  const Tensor variance = ops::div(m.squares, ops::lit(static_cast<double>(n)));
  result.out = affine(ops::mul(m.centered, ops::rsqrt(ops::add(variance, ops::lit(eps)))), weight, bias, shape.rank);
  if (stats) {
    if (n == 0) {
      result.running_mean = ops::clone(running_mean);
      result.running_var = ops::clone(running_var);
    } else {
      const Tensor batch_mean = ops::reshape(m.mean, {shape.channels});
      const Tensor unbiased = ops::div(ops::reshape(m.squares, {shape.channels}), ops::lit(static_cast<double>(n - 1)));
      result.running_mean = blend(running_mean, batch_mean, momentum);
      result.running_var = blend(running_var, unbiased, momentum);
    }
  }
  return result;
}

// instance_norm's arguments: (input, running_mean, running_var, weight, bias). PyTorch's
// instance_norm is batch_norm over (1, N * C, *) with the per-channel tensors repeated N times, the
// running statistics then written back as the mean over N of the N updated copies.
Normalized instance_norm_of(std::string_view op, const TensorList& in, const Attrs& attrs, bool statistics_required) {
  const Tensor &input = in[0], &running_mean = in[1], &running_var = in[2], &weight = in[3], &bias = in[4];
  const NormInput shape = checked_norm_input(op, input, 2);
  if (statistics_required) {
    FUNCSPEC_CHECK(running_mean.defined() && running_var.defined(), ErrorKind::InvalidArgument,
                   "[{}] needs running_mean and running_var", op);
  }
  check_per_channel(op, "running_mean", running_mean, input, shape.channels);
  check_per_channel(op, "running_var", running_var, input, shape.channels);
  check_per_channel(op, "weight", weight, input, shape.channels);
  check_per_channel(op, "bias", bias, input, shape.channels);
  FUNCSPEC_CHECK(running_mean.defined() == running_var.defined(), ErrorKind::InvalidArgument,
                 "[{}] running_mean and running_var must be given together", op);
  const bool use_input_stats = attrs.get_bool("use_input_stats");
  const double momentum = attrs.get_float("momentum"), eps = attrs.get_float("eps");
  const bool stats = running_mean.defined();
  FUNCSPEC_CHECK(use_input_stats || stats, ErrorKind::InvalidArgument,
                 "[{}] expected running_mean and running_var to be defined when use_input_stats is false", op);
  std::int64_t n = 1;
  for (std::int64_t d = 2; d < shape.rank; ++d) n *= input.size(d);
  // F.instance_norm's _verify_spatial_size.
  FUNCSPEC_CHECK(!use_input_stats || n != 1, ErrorKind::InvalidArgument,
                 "[{}] expected more than 1 spatial element when training, got input shape {}", op,
                 shape_to_string(input.shape()));
  Normalized result;
  if (!use_input_stats) {
    const Tensor centered = ops::sub(input, along_channels(running_mean, shape.rank));
    const Tensor inverse_std = ops::rsqrt(ops::add(along_channels(running_var, shape.rank), ops::lit(eps)));
    result.out = affine(ops::mul(centered, inverse_std), weight, bias, shape.rank);
    result.running_mean = ops::clone(running_mean);
    result.running_var = ops::clone(running_var);
    return result;
  }
  Dims spatial;
  for (std::int64_t d = 2; d < shape.rank; ++d) spatial.push_back(d);
  const Moments m = moments(input, spatial);
  const Tensor variance = ops::div(m.squares, ops::lit(static_cast<double>(n)));
  result.out = affine(ops::mul(m.centered, ops::rsqrt(ops::add(variance, ops::lit(eps)))), weight, bias, shape.rank);
  if (stats) {
    if (n == 0 || input.size(0) == 0) {
      result.running_mean = ops::clone(running_mean);
      result.running_var = ops::clone(running_var);
    } else {
      // [N, C]: each instance's update of its copy, then their mean over N.
      const Shape instances{input.size(0), shape.channels};
      const Tensor batch_mean = ops::reshape(m.mean, instances);
      const Tensor unbiased = ops::div(ops::reshape(m.squares, instances), ops::lit(static_cast<double>(n - 1)));
      result.running_mean = ops::mean(blend(running_mean, batch_mean, momentum), Dims{0});
      result.running_var = ops::mean(blend(running_var, unbiased, momentum), Dims{0});
    }
  }
  return result;
}

// Writes the new statistics of an in-place norm (NOTE: [running statistics]): running_var is
// written first with its own values through a where that depends on its new value, so that vmap
// refuses a batched update of either before anything changes.
void write_statistics(const TensorList& in, const Normalized& r) {
  if (!r.running_mean.defined()) return;
  const Tensor &running_mean = in[1], &running_var = in[2];
  const Tensor new_mean = ops::detach(r.running_mean), new_var = ops::detach(r.running_var);
  ops::copy_(running_var, ops::where(ops::lit(false), new_var, running_var));
  ops::copy_(running_mean, new_mean);
  ops::copy_(running_var, new_var);
}

// ---- group_norm, local_response_norm, normalize -------------------------------------------------

Tensor group_norm(const TensorList& in, const Attrs& attrs) {
  const Tensor &input = in[0], &weight = in[1], &bias = in[2];
  const NormInput shape = checked_norm_input("group_norm", input, 2);
  const std::int64_t groups = attrs.get_int("num_groups");
  FUNCSPEC_CHECK(groups > 0, ErrorKind::InvalidArgument, "[group_norm] num_groups must be positive but is {}", groups);
  FUNCSPEC_CHECK(shape.channels % groups == 0, ErrorKind::ShapeMismatch,
                 "[group_norm] expected the number of channels of input {} to be divisible by num_groups={}",
                 shape_to_string(input.shape()), groups);
  check_per_channel("group_norm", "weight", weight, input, shape.channels);
  check_per_channel("group_norm", "bias", bias, input, shape.channels);
  // F.group_norm's _verify_batch_size over (N * C / G, G, *): one value per channel of that view.
  std::int64_t values = input.size(0) * shape.channels / groups;
  for (std::int64_t d = 2; d < shape.rank; ++d) values *= input.size(d);
  FUNCSPEC_CHECK(values != 1, ErrorKind::InvalidArgument,
                 "[group_norm] expected more than 1 value per channel when training, got input shape {} with "
                 "num_groups={}",
                 shape_to_string(input.shape()), groups);
  const double eps = attrs.get_float("eps");
  // [N, G, C / G * spatial]: each group's values in one row.
  std::int64_t per_group = shape.channels / groups;
  for (std::int64_t d = 2; d < shape.rank; ++d) per_group *= input.size(d);
  const Tensor rows = ops::reshape(input, {input.size(0), groups, per_group});
  const Moments m = moments(rows, Dims{2});
  const Tensor variance = ops::div(m.squares, ops::lit(static_cast<double>(per_group)));
  const Tensor normalized = ops::mul(m.centered, ops::rsqrt(ops::add(variance, ops::lit(eps))));
  return affine(ops::reshape(normalized, input.shape()), weight, bias, shape.rank);
}

// F.local_response_norm's composite: the squares averaged over a window of `size` channels (zeros
// padded, size / 2 before and (size - 1) / 2 after) by avg_pool2d (3-D input) or avg_pool3d (the
// spatial dims after the first flattened), then input / (k + alpha * average)^beta.
Tensor local_response_norm(const TensorList& in, const Attrs& attrs) {
  const Tensor& input = in[0];
  check_dtype("local_response_norm", "input", input.dtype(), DTypeSet::Floating);
  FUNCSPEC_CHECK(input.dim() >= 3, ErrorKind::ShapeMismatch,
                 "[local_response_norm] expected an input of 3 or more dims (N, C, ...) but got shape {}",
                 shape_to_string(input.shape()));
  const std::int64_t size = attrs.get_int("size");
  FUNCSPEC_CHECK(size > 0, ErrorKind::InvalidArgument, "[local_response_norm] size must be positive but is {}", size);
  const double alpha = attrs.get_float("alpha"), beta = attrs.get_float("beta"), k = attrs.get_float("k");
  if (input.numel() == 0) return ops::clone(input);
  const Tensor squares = ops::unsqueeze(ops::mul(input, input), 1);
  const std::int64_t before = size / 2, after = (size - 1) / 2;
  Tensor average;
  if (input.dim() == 3) {
    const Tensor padded = ops::pad(squares, {0, 0, before, after}, Scalar(0.0));
    average =
        call_one("avg_pool2d", {padded}, {{"kernel_size", Dims{size, 1}}, {"stride", Dims{1}}, {"padding", Dims{0}}});
  } else {
    const Tensor grouped = ops::reshape(squares, {input.size(0), 1, input.size(1), input.size(2), -1});
    const Tensor padded = ops::pad(grouped, {0, 0, 0, 0, before, after}, Scalar(0.0));
    average = call_one("avg_pool3d", {padded},
                       {{"kernel_size", Dims{size, 1, 1}}, {"stride", Dims{1}}, {"padding", Dims{0}}});
  }
  average = ops::reshape(ops::squeeze(average, Dims{1}), input.shape());
  const Tensor divisor = ops::pow(ops::add(ops::mul(average, ops::lit(alpha)), ops::lit(k)), ops::lit(beta));
  return ops::div(input, divisor);
}

// F.normalize: input / max(vector_norm(input, p, dim, keepdim), eps), the clamp passing the norm's
// derivative at the bound (clamp's bounds are included, docs/ops/binary.md).
Tensor normalize(const TensorList& in, const Attrs& attrs) {
  const Tensor& input = in[0];
  check_dtype("normalize", "input", input.dtype(), DTypeSet::Floating);
  const std::int64_t dim = wrap_dim(attrs.get_int("dim"), input.dim(), "normalize");
  const Tensor norm =
      call_one("vector_norm", {input}, {{"ord", Scalar(attrs.get_float("p"))}, {"dim", Dims{dim}}, {"keepdim", true}});
  return ops::div(input, ops::clamp(norm, ops::lit(attrs.get_float("eps")), Tensor()));
}

// ---- embedding, embedding_renorm, embedding_bag -------------------------------------------------

void check_indices(std::string_view op, std::string_view name, const Tensor& t) {
  FUNCSPEC_CHECK(t.dtype() == DType::Int64, ErrorKind::DtypeNotSupported, "[{}] expected {} of dtype int64 but got {}",
                 op, name, dtype_name(t.dtype()));
}

void check_weight(std::string_view op, const Tensor& weight) {
  FUNCSPEC_CHECK(weight.dim() == 2, ErrorKind::ShapeMismatch,
                 "[{}] weight must be 2-D (num_embeddings, embedding_dim) but has shape {}", op,
                 shape_to_string(weight.shape()));
}

// padding_idx as a row of weight: a negative one counts from the end, as F.embedding normalizes it.
std::optional<std::int64_t> padding_row(std::string_view op, const Attrs& attrs, std::int64_t rows) {
  const std::optional<std::int64_t> padding_idx = attrs.get_optional_int("padding_idx");
  if (!padding_idx) return std::nullopt;
  FUNCSPEC_CHECK(*padding_idx >= -rows && *padding_idx < rows, ErrorKind::InvalidArgument,
                 "[{}] padding_idx must be within the number of embeddings, {} through {}, but is {}", op, -rows,
                 rows - 1, *padding_idx);
  return *padding_idx < 0 ? *padding_idx + rows : *padding_idx;
}

// NOTE: [embedding gradient conventions]
// PyTorch's embedding_backward gives the padding_idx row no gradient and, with scale_grad_by_freq,
// divides each index's gradient by the number of times it occurs in the call's indices. Neither is
// the derivative of the value (the padding row is read like any other, and the value is linear in
// weight). The spec makes both the derivative in every mode, so jvp and vjp stay transposes
// (PyTorch's forward mode differentiates the value instead): the rows read at padding positions are
// detached, and with scale_grad_by_freq each read row r becomes r_d - (r_d - r) * s, with r_d
// detached and s = 1 / count: the value r (r_d - r is exactly 0 for a finite r, and -0 keeps its
// sign), the derivative s * dr. A non-finite row is left as it is (r_d - r would be NaN).
Tensor gradient_conventions(const Tensor& rows, const Tensor& flat_indices, std::optional<std::int64_t> padding,
                            bool scale_grad_by_freq) {
  if (!is_floating(rows.dtype())) return rows;
  Tensor out = rows;
  if (scale_grad_by_freq && flat_indices.numel() > 0) {
    // count[l] = #{j : idx[j] == idx[l]}
    const Tensor same = ops::eq(ops::unsqueeze(flat_indices, 1), ops::unsqueeze(flat_indices, 0));
    const Tensor counts = ops::sum(ops::to_dtype(same, rows.dtype()), Dims{1}, true);
    const Tensor detached = ops::detach(out);
    const Tensor finite = ops::eq(ops::sub(detached, detached), ops::lit(0.0));
    const Tensor scaled = ops::sub(detached, ops::div(ops::sub(detached, out), counts));
    out = ops::where(finite, scaled, out);
  }
  if (padding) {
    const Tensor kept = ops::unsqueeze(ops::ne(flat_indices, ops::lit(*padding)), 1);
    out = ops::where(kept, out, ops::detach(out));
  }
  return out;
}

Tensor embedding(const TensorList& in, const Attrs& attrs) {
  const Tensor &input = in[0], &weight = in[1];
  check_indices("embedding", "input", input);
  check_weight("embedding", weight);
  const std::optional<std::int64_t> padding = padding_row("embedding", attrs, weight.size(0));
  const Tensor flat = ops::reshape(input, {-1});
  const Tensor rows =
      gradient_conventions(ops::index_select(weight, 0, flat), flat, padding, attrs.get_bool("scale_grad_by_freq"));
  Shape shape = input.shape();
  shape.push_back(weight.size(1));
  return ops::reshape(rows, shape);
}

// embedding_renorm_'s value, as PyTorch's cpu kernel: each row of self that indices name (once, however
// often it is named) whose norm_type-norm exceeds max_norm is scaled by max_norm / (norm + 1e-7)
// (NOTE: [renorm threshold]: a row at exactly max_norm is kept, and the derivative is the composite's).
Tensor embedding_renorm(const TensorList& in, const Attrs& attrs) {
  const Tensor &self = in[0], &indices = in[1];
  check_dtype("embedding_renorm", "self", self.dtype(), DTypeSet::Floating);
  check_indices("embedding_renorm", "indices", indices);
  FUNCSPEC_CHECK(self.dim() == 2, ErrorKind::ShapeMismatch, "[embedding_renorm] self must be 2-D but has shape {}",
                 shape_to_string(self.shape()));
  const double max_norm = attrs.get_float("max_norm"), norm_type = attrs.get_float("norm_type");
  // Which rows are named: index_add of ones, which raises for an index outside the rows.
  const std::string device(device_name(self.device()));
  const Tensor flat = ops::reshape(indices, {-1});
  const Tensor named = ops::gt(ops::index_add(ops::zeros({self.size(0)}, DType::Int64, device), 0, flat,
                                              ops::ones({flat.numel()}, DType::Int64, device)),
                               ops::lit(std::int64_t{0}));
  const Tensor norm =
      call_one("vector_norm", {self}, {{"ord", Scalar(norm_type)}, {"dim", Dims{1}}, {"keepdim", true}});
  const Tensor scale = ops::div(ops::lit(max_norm), ops::add(norm, ops::lit(1e-7)));
  const Tensor exceeds = ops::logical_and(ops::unsqueeze(named, 1), ops::gt(norm, ops::lit(max_norm)));
  return ops::mul(self, ops::where(exceeds, scale, ops::lit(1.0)));
}

enum class BagMode { Sum, Mean, Max };

BagMode bag_mode(const Attrs& attrs) {
  const std::string& mode = attrs.get_string("mode");
  if (mode == "sum") return BagMode::Sum;
  if (mode == "mean") return BagMode::Mean;
  FUNCSPEC_CHECK(mode == "max", ErrorKind::InvalidArgument,
                 "[embedding_bag] mode has to be one of 'sum', 'mean' or 'max' but is '{}'", mode);
  return BagMode::Max;
}

// The bags as a membership mask [B, L] over the flat positions of the input, from offsets (each bag
// from its offset to the next, the last to the end of the input or, with include_last_offset, to the
// last offset). Positions outside every bag belong to none.
Tensor bag_membership(const Tensor& offsets, std::int64_t positions, std::int64_t bags, bool include_last_offset) {
  const std::string device(device_name(offsets.device()));
  const Tensor starts = ops::narrow(offsets, 0, 0, bags);
  const Tensor ends =
      include_last_offset
          ? ops::narrow(offsets, 0, 1, bags)
          : ops::cat({ops::narrow(offsets, 0, 1, bags - 1), ops::full({1}, Scalar(positions), DType::Int64, device)},
                     0);
  const Tensor position = ops::unsqueeze(ops::arange(0, positions, 1, DType::Int64, device), 0);
  return ops::logical_and(ops::ge(position, ops::unsqueeze(starts, 1)), ops::lt(position, ops::unsqueeze(ends, 1)));
}

// The bag's pick of mode 'max' for each embedding dim, as PyTorch's cpu kernel scans a bag: its first
// element, replaced by any later element that is greater (so a NaN that comes first stays, a later
// NaN never replaces; ties keep the first). rows [1, L, D], member [B, L, 1]; int64 [B, 1, D].
Tensor bag_pick(const Tensor& rows, const Tensor& member) {
  const std::int64_t bags = member.size(0), positions = rows.size(1), dim = rows.size(2);
  const Tensor is_nan = ops::expand(ops::ne(rows, rows), {bags, positions, dim});
  const Tensor comparable = ops::logical_and(member, ops::logical_not(is_nan));
  const Tensor largest = ops::amax(ops::where(comparable, rows, ops::lit(-kInf)), Dims{1}, true);
  const Tensor first_largest =
      ops::argmax(ops::to_dtype(ops::logical_and(comparable, ops::eq(rows, largest)), DType::Int64), 1, true);
  const Tensor first =
      ops::expand(ops::argmax(ops::to_dtype(member, DType::Int64), 1, true), {bags, 1, dim});  // first member
  const Tensor first_is_nan = ops::take_along_dim(is_nan, first, 1);
  return ops::where(first_is_nan, first, first_largest);
}

Tensor embedding_bag(const TensorList& in, const Attrs& attrs) {
  constexpr std::string_view op = "embedding_bag";
  const Tensor &input = in[0], &weight = in[1], &given_offsets = in[2], &per_sample_weights = in[3];
  check_indices(op, "input", input);
  check_weight(op, weight);
  check_dtype(op, "weight", weight.dtype(), DTypeSet::Floating);
  const BagMode mode = bag_mode(attrs);
  const bool scale_grad_by_freq = attrs.get_bool("scale_grad_by_freq");
  const bool include_last_offset = attrs.get_bool("include_last_offset");
  FUNCSPEC_CHECK(input.dim() == 1 || input.dim() == 2, ErrorKind::ShapeMismatch,
                 "[{}] input has to be 1-D or 2-D but has shape {}", op, shape_to_string(input.shape()));
  if (input.dim() == 2) {
    // Each row is a bag; include_last_offset, which reads offsets, does not apply (PyTorch 2).
    FUNCSPEC_CHECK(!given_offsets.defined(), ErrorKind::InvalidArgument,
                   "[{}] a 2-D input is a batch of fixed-length bags: offsets must be None", op);
  } else {
    FUNCSPEC_CHECK(given_offsets.defined(), ErrorKind::InvalidArgument, "[{}] a 1-D input needs offsets", op);
    check_indices(op, "offsets", given_offsets);
    FUNCSPEC_CHECK(given_offsets.dim() == 1, ErrorKind::ShapeMismatch, "[{}] offsets has to be 1-D but has shape {}",
                   op, shape_to_string(given_offsets.shape()));
    FUNCSPEC_CHECK(!include_last_offset || given_offsets.size(0) >= 1, ErrorKind::ShapeMismatch,
                   "[{}] include_last_offset needs at least one offset", op);
  }
  FUNCSPEC_CHECK(mode != BagMode::Max || !scale_grad_by_freq, ErrorKind::InvalidArgument,
                 "[{}] mode 'max' does not support scaling the gradient by the frequency", op);
  if (per_sample_weights.defined()) {
    FUNCSPEC_CHECK(mode == BagMode::Sum, ErrorKind::InvalidArgument,
                   "[{}] per_sample_weights is only supported for mode 'sum' (got mode '{}')", op,
                   attrs.get_string("mode"));
    FUNCSPEC_CHECK(per_sample_weights.dtype() == weight.dtype(), ErrorKind::DtypeNotSupported,
                   "[{}] per_sample_weights has dtype {} but weight has dtype {}", op,
                   dtype_name(per_sample_weights.dtype()), dtype_name(weight.dtype()));
    FUNCSPEC_CHECK(per_sample_weights.shape() == input.shape(), ErrorKind::ShapeMismatch,
                   "[{}] per_sample_weights of shape {} must have input's shape {}", op,
                   shape_to_string(per_sample_weights.shape()), shape_to_string(input.shape()));
  }
  const std::optional<std::int64_t> padding = padding_row(op, attrs, weight.size(0));
  const std::string device(device_name(input.device()));
  const Tensor flat = ops::reshape(input, {-1});
  const std::int64_t positions = flat.numel();
  Tensor member;  // [B, L]
  std::int64_t bags = 0;
  if (input.dim() == 2) {
    bags = input.size(0);
    const Tensor bag_of = ops::div(ops::arange(0, positions, 1, DType::Int64, device),
                                   ops::lit(std::max<std::int64_t>(input.size(1), 1)), std::string("floor"));
    member = ops::eq(ops::unsqueeze(ops::arange(0, bags, 1, DType::Int64, device), 1), ops::unsqueeze(bag_of, 0));
  } else {
    bags = include_last_offset ? given_offsets.size(0) - 1 : given_offsets.size(0);
    member = bags == 0 ? ops::zeros({0, positions}, DType::Bool, device)
                       : bag_membership(given_offsets, positions, bags, include_last_offset);
  }
  if (padding) member = ops::logical_and(member, ops::unsqueeze(ops::ne(flat, ops::lit(*padding)), 0));
  const std::int64_t dim = weight.size(1);
  // padding_idx entries are left out of the bags (value and derivative alike): no convention needed.
  Tensor rows = gradient_conventions(ops::index_select(weight, 0, flat), flat, std::nullopt, scale_grad_by_freq);
  if (per_sample_weights.defined()) rows = ops::mul(rows, ops::unsqueeze(ops::reshape(per_sample_weights, {-1}), 1));
  const Tensor each = ops::unsqueeze(rows, 0);                                          // [1, L, D]
  const Tensor inside = ops::unsqueeze(member, 2);                                      // [B, L, 1]
  const Tensor count = ops::sum(ops::to_dtype(member, weight.dtype()), Dims{1}, true);  // [B, 1]
  if (mode == BagMode::Max) {
    if (positions == 0) return ops::zeros({bags, dim}, weight.dtype(), device);
    const Tensor pick = bag_pick(each, inside);
    const Tensor picked =
        ops::squeeze(ops::take_along_dim(ops::expand(each, {bags, positions, dim}), pick, 1), Dims{1});
    return ops::where(ops::gt(count, ops::lit(0.0)), picked, ops::lit(0.0));
  }
  const Tensor sums = ops::sum(ops::where(inside, each, ops::lit(0.0)), Dims{1});
  if (mode == BagMode::Sum) return sums;
  return ops::div(sums, ops::clamp(count, ops::lit(1.0), Tensor()));
}

const char* const kBatchNormArgs =
    "Tensor input, Tensor(a!)? running_mean, Tensor(b!)? running_var, Tensor? weight=None, Tensor? bias=None, *, "
    "bool training=False, float momentum=0.1, float eps=1e-05";
const char* const kInstanceNormArgs =
    "Tensor input, Tensor(a!)? running_mean=None, Tensor(b!)? running_var=None, Tensor? weight=None, Tensor? "
    "bias=None, *, bool use_input_stats=True, float momentum=0.1, float eps=1e-05";

}  // namespace
}  // namespace normalization

void register_normalization_ops(OpRegistry& registry) {
  using namespace normalization;
  {
    OpDef& op = registry.add(
        fmt::format("batch_norm({}) -> Tensor", kBatchNormArgs), OpKind::InPlace, "normalization",
        "F.batch_norm: (x - mean) / sqrt(var + eps) * weight + bias per channel (dim 1), batch statistics in "
        "training (writing running_mean/running_var), the running ones in evaluation");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Normalized r = batch_norm_of("batch_norm", in, attrs, false);
      if (attrs.get_bool("training")) write_statistics(in, r);
      return {r.out};
    };
  }
  {
    OpDef& op = registry.add(
        "batch_norm_functional(Tensor input, Tensor running_mean, Tensor running_var, Tensor? weight=None, Tensor? "
        "bias=None, *, bool training=False, float momentum=0.1, float eps=1e-05) -> (Tensor output, Tensor "
        "running_mean_out, Tensor running_var_out)",
        OpKind::Composite, "normalization",
        "batch_norm's output and the running statistics it would write (unchanged in evaluation), written nowhere");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Normalized r = batch_norm_of("batch_norm_functional", in, attrs, true);
      return {r.out, r.running_mean, r.running_var};
    };
  }
  {
    OpDef& op = registry.add(
        fmt::format("instance_norm({}) -> Tensor", kInstanceNormArgs), OpKind::InPlace, "normalization",
        "F.instance_norm: each (sample, channel) normalized by its own statistics (use_input_stats, writing the "
        "mean over N of the updated running statistics) or by the running ones");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Normalized r = instance_norm_of("instance_norm", in, attrs, false);
      if (attrs.get_bool("use_input_stats")) write_statistics(in, r);
      return {r.out};
    };
  }
  {
    OpDef& op = registry.add(
        "instance_norm_functional(Tensor input, Tensor running_mean, Tensor running_var, Tensor? weight=None, "
        "Tensor? bias=None, *, bool use_input_stats=True, float momentum=0.1, float eps=1e-05) -> (Tensor output, "
        "Tensor running_mean_out, Tensor running_var_out)",
        OpKind::Composite, "normalization",
        "instance_norm's output and the running statistics it would write (unchanged without use_input_stats)");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Normalized r = instance_norm_of("instance_norm_functional", in, attrs, true);
      return {r.out, r.running_mean, r.running_var};
    };
  }
  {
    OpDef& op = registry.add(
        "group_norm(Tensor input, Tensor? weight=None, Tensor? bias=None, *, int num_groups, float eps=1e-05) -> "
        "Tensor",
        OpKind::Composite, "normalization",
        "(x - mean) / sqrt(var + eps) over each group of C / num_groups channels (and the spatial dims) of each "
        "sample, then weight and bias per channel");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList { return {group_norm(in, attrs)}; };
  }
  {
    OpDef& op = registry.add(
        "local_response_norm(Tensor input, *, int size, float alpha=0.0001, float beta=0.75, float k=1.0) -> Tensor",
        OpKind::Composite, "normalization",
        "x / (k + alpha * mean of x^2 over a window of size channels, zeros padded)^beta, as F.local_response_norm");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      return {local_response_norm(in, attrs)};
    };
  }
  {
    OpDef& op =
        registry.add("normalize(Tensor input, *, float p=2.0, int dim=1, float eps=1e-12) -> Tensor", OpKind::Composite,
                     "normalization", "x / max(vector_norm(x, p, dim, keepdim=True), eps), as F.normalize");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList { return {normalize(in, attrs)}; };
  }
  {
    OpDef& op = registry.add(
        "embedding(Tensor input, Tensor weight, *, int? padding_idx=None, bool scale_grad_by_freq=False) -> Tensor",
        OpKind::Composite, "normalization",
        "weight's rows at the int64 indices of input, shape input.shape + [embedding_dim]; the padding_idx row gets "
        "no derivative, scale_grad_by_freq divides a row's derivative by its index's count");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList { return {embedding(in, attrs)}; };
  }
  {
    OpDef& op = registry.add(
        "embedding_renorm(Tensor self, Tensor indices, *, float max_norm, float norm_type) -> Tensor",
        OpKind::Composite, "normalization",
        "self with each row that indices name scaled by max_norm / (norm + 1e-7) where its norm_type-norm exceeds "
        "max_norm (F.embedding's max_norm)");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList { return {embedding_renorm(in, attrs)}; };
    op.derive_inplace = true;
  }
  {
    OpDef& op = registry.add(
        "embedding_bag(Tensor input, Tensor weight, Tensor? offsets=None, Tensor? per_sample_weights=None, *, bool "
        "scale_grad_by_freq=False, str mode='mean', bool include_last_offset=False, int? padding_idx=None) -> Tensor",
        OpKind::Composite, "normalization",
        "the sum, mean or max of weight's rows over each bag of indices (offsets, or the rows of a 2-D input); "
        "padding_idx entries are left out, an empty bag gives zeros");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList { return {embedding_bag(in, attrs)}; };
  }
}

}  // namespace funcspec
