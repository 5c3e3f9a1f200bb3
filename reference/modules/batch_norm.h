#pragma once
// BatchNorm1d(num_features) and BatchNorm2d(num_features), as torch.nn's, over inputs [N, C] or
// [N, C, L] (1d) and [N, C, H, W] (2d) with C = num_features; both are BatchNorm, which reduces
// over every dim but the channel's. NOTE: [batch norm] in batch_norm.cpp states the rules; in short:
//   training mode: normalize with the batch's mean and biased variance per channel, and (with
//     track_running_stats) update the buffers in place:
//       running_mean <- momentum * mean + (1 - momentum) * running_mean
//       running_var  <- momentum * unbiased_var + (1 - momentum) * running_var
//       num_batches_tracked <- num_batches_tracked + 1
//     where momentum = None means the cumulative average, 1 / num_batches_tracked (after the +1);
//   evaluation mode: normalize with running_mean and running_var (the batch's statistics when the
//     running statistics were removed).
// Then scale by weight (ones) and shift by bias (zeros) when affine.
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "reference/modules/module.h"

namespace funcspec::modules {

struct BatchNormOptions {
  double eps = 1e-5;
  std::optional<double> momentum = 0.1;  // nullopt: cumulative moving average
  bool affine = true;                    // weight and bias exist
  bool track_running_stats = true;       // running_mean, running_var, num_batches_tracked exist
};

class BatchNorm : public TensorModule {
 public:
  Tensor forward_tensor(const Tensor& input) override;

  std::int64_t num_features() const { return num_features_; }
  bool track_running_stats() const { return track_running_stats_; }
  // Empties the running-statistic slots and stops tracking: the module then always normalizes
  // with the batch's statistics and writes nothing (torch.func's batch_norm_without_running_stats).
  void remove_running_stats();

 protected:
  // `ranks`: the input ranks the layer takes ({2, 3} for 1d, {4} for 2d).
  BatchNorm(std::int64_t num_features, std::vector<std::int64_t> ranks, BatchNormOptions batch_norm,
            ModuleOptions options);
  BatchNorm(const BatchNorm&) = default;

 private:
  std::int64_t num_features_;
  std::vector<std::int64_t> ranks_;
  double eps_;
  std::optional<double> momentum_;
  bool track_running_stats_;
};

class BatchNorm1d : public BatchNorm {
 public:
  explicit BatchNorm1d(std::int64_t num_features, BatchNormOptions batch_norm = {}, ModuleOptions options = {})
      : BatchNorm(num_features, {2, 3}, batch_norm, options) {}
  std::string_view type_name() const override { return "BatchNorm1d"; }

 protected:
  BatchNorm1d(const BatchNorm1d&) = default;
  std::shared_ptr<Module> shallow_copy() const override { return std::shared_ptr<Module>(new BatchNorm1d(*this)); }
};

class BatchNorm2d : public BatchNorm {
 public:
  explicit BatchNorm2d(std::int64_t num_features, BatchNormOptions batch_norm = {}, ModuleOptions options = {})
      : BatchNorm(num_features, {4}, batch_norm, options) {}
  std::string_view type_name() const override { return "BatchNorm2d"; }

 protected:
  BatchNorm2d(const BatchNorm2d&) = default;
  std::shared_ptr<Module> shallow_copy() const override { return std::shared_ptr<Module>(new BatchNorm2d(*this)); }
};

// Calls remove_running_stats on every BatchNorm of the tree and returns `root`, as
// torch.func.replace_all_batch_norm_modules_. What it is for: under vmap, a BatchNorm in training
// mode writes each example's statistics into running buffers shared by the whole batch, which is
// vmap_inplace_unbatched; without running statistics nothing is written and each example is
// normalized by its own batch statistics, so vmap equals the loop over examples.
Module& replace_all_batch_norm_modules(Module& root);

}  // namespace funcspec::modules
