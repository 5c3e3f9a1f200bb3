#include "reference/modules/batch_norm.h"

#include <algorithm>
#include <utility>

#include "reference/api/ops.h"
#include "reference/modules/init.h"

namespace funcspec::modules {

// NOTE: [batch norm]
// Follows torch.nn.BatchNorm1d/2d and their native kernel:
// - Batch statistics (training mode, or no running statistics) are per channel over the batch dim
//   and the spatial dims ([N, C, L]: L; [N, C, H, W]: H and W): n = N (or N * L, N * H * W) values. The normalization
//   uses the biased variance; the running variance is updated with the unbiased one, var * n / (n - 1). n = 1 is
//   refused (invalid_argument), as PyTorch refuses "more than 1 value per channel".
// - The running statistics are updated as momentum * batch + (1 - momentum) * running, written in
//   place into whatever tensors the buffer slots hold (the caller's under functional_call), and
//   from detached batch statistics: the update is bookkeeping, not part of the function being
//   differentiated (PyTorch updates them inside the kernel, outside autograd). num_batches_tracked
//   is incremented after the running statistics are written, so a write that vmap refuses
//   (vmap_inplace_unbatched: batched statistics into unbatched buffers) leaves every buffer as it
//   was. momentum = None weights the batch by 1 / num_batches_tracked (after the increment),
//   computed as a tensor rather than read as a number, so it also works under vmap and on meta.
// - Evaluation mode normalizes with the running statistics and writes nothing.

BatchNorm::BatchNorm(std::int64_t num_features, std::vector<std::int64_t> ranks, BatchNormOptions batch_norm,
                     ModuleOptions options)
    : num_features_(num_features),
      ranks_(std::move(ranks)),
      eps_(batch_norm.eps),
      momentum_(batch_norm.momentum),
      track_running_stats_(batch_norm.track_running_stats) {
  FUNCSPEC_CHECK(num_features > 0, ErrorKind::InvalidArgument, "[{}] num_features must be positive, got {}",
                 ranks_.front() == 4 ? "BatchNorm2d" : "BatchNorm1d", num_features);
  register_parameter("weight", batch_norm.affine ? init::filled({num_features}, 1, options) : Tensor());
  register_parameter("bias", batch_norm.affine ? init::filled({num_features}, 0, options) : Tensor());
  const bool track = batch_norm.track_running_stats;
  register_buffer("running_mean", track ? init::filled({num_features}, 0, options) : Tensor());
  register_buffer("running_var", track ? init::filled({num_features}, 1, options) : Tensor());
  register_buffer("num_batches_tracked", track ? init::filled({}, 0, {DType::Int64, options.device}) : Tensor());
}

void BatchNorm::remove_running_stats() {
  for (const char* name : {"running_mean", "running_var", "num_batches_tracked"}) swap_state(name, Tensor());
  track_running_stats_ = false;
}

Tensor BatchNorm::forward_tensor(const Tensor& input) {
  const bool rank_ok = std::find(ranks_.begin(), ranks_.end(), input.dim()) != ranks_.end();
  FUNCSPEC_CHECK(rank_ok, ErrorKind::ShapeMismatch, "[{}] expects an input {}, got shape {}", type_name(),
                 ranks_.front() == 4 ? "[N, C, H, W]" : "[N, C] or [N, C, L]", shape_to_string(input.shape()));
  FUNCSPEC_CHECK(input.size(1) == num_features_, ErrorKind::ShapeMismatch,
                 "[{}] input of shape {} has {} channels (dim 1) but the module has num_features {}", type_name(),
                 shape_to_string(input.shape()), input.size(1), num_features_);
  // Every dim but the channel's, and the per-channel statistics' shape against the input: [1, C, 1...].
  std::vector<std::int64_t> reduced{0};
  std::vector<std::int64_t> channel_shape{1, num_features_};
  for (std::int64_t d = 2; d < input.dim(); ++d) {
    reduced.push_back(d);
    channel_shape.push_back(1);
  }
  const Tensor& running_mean = buffer("running_mean");
  const Tensor& running_var = buffer("running_var");
  const bool use_batch_stats = training() || !running_mean.defined() || !running_var.defined();

  Tensor mean;
  Tensor variance;
  if (use_batch_stats) {
    const std::int64_t n = input.numel() / num_features_;
    FUNCSPEC_CHECK(n > 1, ErrorKind::InvalidArgument,
                   "[{}] batch statistics need more than 1 value per channel, got input shape {}", type_name(),
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
    if (auto* batch_norm = dynamic_cast<BatchNorm*>(module)) {
      if (batch_norm->track_running_stats()) batch_norm->remove_running_stats();
    }
  }
  return root;
}

}  // namespace funcspec::modules
