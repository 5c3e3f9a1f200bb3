#include "reference/modules/batch_norm.h"

#include "reference/api/ops.h"
#include "reference/modules/init.h"

namespace funcspec::modules {

// NOTE: [batch norm]
// Follows torch.nn.BatchNorm1d and its native kernel:
// - Batch statistics (training mode, or no running statistics) are per channel over the batch dim
//   and, for [N, C, L] inputs, the length dim: n = N (or N * L) values. The normalization uses
//   the biased variance; the running variance is updated with the unbiased one, var * n / (n - 1).
//   n = 1 is refused (invalid_argument), as PyTorch refuses "more than 1 value per channel".
// - The running statistics are updated as momentum * batch + (1 - momentum) * running, written in
//   place into whatever tensors the buffer slots hold (the caller's under functional_call), and
//   from detached batch statistics: the update is bookkeeping, not part of the function being
//   differentiated (PyTorch updates them inside the kernel, outside autograd). num_batches_tracked
//   is incremented after the running statistics are written, so a write that vmap refuses
//   (vmap_inplace_unbatched: batched statistics into unbatched buffers) leaves every buffer as it
//   was. momentum = None weights the batch by 1 / num_batches_tracked (after the increment),
//   computed as a tensor rather than read as a number, so it also works under vmap and on meta.
// - Evaluation mode normalizes with the running statistics and writes nothing.

BatchNorm1d::BatchNorm1d(std::int64_t num_features, BatchNormOptions batch_norm, ModuleOptions options)
    : num_features_(num_features),
      eps_(batch_norm.eps),
      momentum_(batch_norm.momentum),
      track_running_stats_(batch_norm.track_running_stats) {
  FUNCSPEC_CHECK(num_features > 0, ErrorKind::InvalidArgument, "[BatchNorm1d] num_features must be positive, got {}",
                 num_features);
  register_parameter("weight", batch_norm.affine ? init::filled({num_features}, 1, options) : Tensor());
  register_parameter("bias", batch_norm.affine ? init::filled({num_features}, 0, options) : Tensor());
  const bool track = batch_norm.track_running_stats;
  register_buffer("running_mean", track ? init::filled({num_features}, 0, options) : Tensor());
  register_buffer("running_var", track ? init::filled({num_features}, 1, options) : Tensor());
  register_buffer("num_batches_tracked", track ? init::filled({}, 0, {DType::Int64, options.device}) : Tensor());
}

void BatchNorm1d::remove_running_stats() {
  for (const char* name : {"running_mean", "running_var", "num_batches_tracked"}) swap_state(name, Tensor());
  track_running_stats_ = false;
}

Tensor BatchNorm1d::forward_tensor(const Tensor& input) {
  FUNCSPEC_CHECK(input.dim() == 2 || input.dim() == 3, ErrorKind::ShapeMismatch,
                 "[BatchNorm1d] expects an input [N, C] or [N, C, L], got shape {}", shape_to_string(input.shape()));
  FUNCSPEC_CHECK(input.size(1) == num_features_, ErrorKind::ShapeMismatch,
                 "[BatchNorm1d] input of shape {} has {} channels (dim 1) but the module has num_features {}",
                 shape_to_string(input.shape()), input.size(1), num_features_);
  const bool with_length = input.dim() == 3;
  const std::vector<std::int64_t> reduced =
      with_length ? std::vector<std::int64_t>{0, 2} : std::vector<std::int64_t>{0};
  // Per-channel statistics broadcast against the input: [1, C] or [1, C, 1].
  const std::vector<std::int64_t> channel_shape =
      with_length ? std::vector<std::int64_t>{1, num_features_, 1} : std::vector<std::int64_t>{1, num_features_};
  const Tensor& running_mean = buffer("running_mean");
  const Tensor& running_var = buffer("running_var");
  const bool use_batch_stats = training() || !running_mean.defined() || !running_var.defined();

  Tensor mean;
  Tensor variance;
  if (use_batch_stats) {
    const std::int64_t n = input.size(0) * (with_length ? input.size(2) : 1);
    FUNCSPEC_CHECK(n > 1, ErrorKind::InvalidArgument,
                   "[BatchNorm1d] batch statistics need more than 1 value per channel, got input shape {}",
                   shape_to_string(input.shape()));
    mean = ops::mean(input, reduced);
    const Tensor centered = ops::sub(input, ops::reshape(mean, channel_shape));
    variance = ops::mean(ops::mul(centered, centered), reduced);
    if (training() && track_running_stats_ && running_mean.defined() && running_var.defined()) {
      const Tensor& batches = buffer("num_batches_tracked");
      const Tensor unbiased =
          ops::mul(ops::detach(variance), ops::lit(static_cast<double>(n) / static_cast<double>(n - 1)));
      const auto blend = [&](const Tensor& running, const Tensor& batch) {
        if (momentum_) {
          return ops::add(ops::mul(batch, ops::lit(*momentum_)), ops::mul(running, ops::lit(1.0 - *momentum_)));
        }
        // The cumulative average: running + (batch - running) / (batches + 1).
        const Tensor count = ops::to_dtype(ops::add(batches, ops::lit(std::int64_t{1})), running.dtype());
        return ops::add(running, ops::div(ops::sub(batch, running), count));
      };
      const Tensor new_mean = blend(running_mean, ops::detach(mean));
      const Tensor new_var = blend(running_var, unbiased);
      ops::copy_(running_mean, new_mean);
      ops::copy_(running_var, new_var);
      if (batches.defined()) ops::add_(batches, ops::lit(std::int64_t{1}));
    }
  } else {
    mean = running_mean;
    variance = running_var;
  }
  Tensor out = ops::mul(ops::sub(input, ops::reshape(mean, channel_shape)),
                        ops::rsqrt(ops::add(ops::reshape(variance, channel_shape), ops::lit(eps_))));
  const Tensor& weight = parameter("weight");
  const Tensor& bias = parameter("bias");
  if (weight.defined()) out = ops::mul(out, ops::reshape(weight, channel_shape));
  if (bias.defined()) out = ops::add(out, ops::reshape(bias, channel_shape));
  return out;
}

Module& replace_all_batch_norm_modules(Module& root) {
  for (const auto& [name, module] : root.named_modules()) {
    if (auto* batch_norm = dynamic_cast<BatchNorm1d*>(module)) {
      if (batch_norm->track_running_stats()) batch_norm->remove_running_stats();
    }
  }
  return root;
}

}  // namespace funcspec::modules
