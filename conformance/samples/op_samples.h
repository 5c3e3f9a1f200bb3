#pragma once
// NOTE: [op samples]
// For every op of the catalogue, a generator of sample calls (inputs and attributes) that exercise
// it: ordinary shapes, size-0 and size-1 dims, rank 0, non-contiguous inputs, broadcasting. The
// samples drive the catalogue-wide checks: meta agrees with cpu on shape and dtype, float64 and
// float32 agree with the oracle dtype within the op's stated tolerance, derived variants agree with
// their functional op. Every random choice flows from the seed passed in.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "conformance/samples/sample_program.h"
#include "reference/core/tensor.h"
#include "reference/ops/attrs.h"

namespace funcspec::samples {

// A portable deterministic source of sample values (the same numbers on every platform).
class SampleRng {
 public:
  explicit SampleRng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next_u64();
  double uniform(double lo, double hi);                    // in [lo, hi)
  std::int64_t integer(std::int64_t lo, std::int64_t hi);  // in [lo, hi)
  // A tensor of `shape` with values uniform in [lo, hi) rounded to `dtype` (integers for int64,
  // `value != 0` at probability 1/2 for bool).
  Tensor tensor(const Shape& shape, DType dtype, double lo = -2.0, double hi = 2.0);
  // Values laid out non-contiguously: the last two dims of a contiguous tensor transposed (rank >= 2),
  // or every other element of a larger one (rank 1). Built with the permute and slice views.
  Tensor strided_tensor(const Shape& shape, DType dtype, double lo = -2.0, double hi = 2.0);

 private:
  std::uint64_t state_;
};

struct OpSample {
  TensorList inputs;
  Attrs attrs;
  std::string label;  // what the sample exercises, for failure messages
  // Non-empty when the sample sits at a special point of the op (a kink, a tie, a pole's
  // neighbourhood, saturation, underflow, an infinite input): names that point, as the op's
  // declaration does. Every tier runs such samples through the value, vmap and AD families.
  std::string special_point = {};
  // The op on the inputs as given, without its spec's domain map (NOTE: [non-unique results]): an
  // error the op raises itself, or the op's values off its domain (eigh of a non-symmetric input).
  bool without_domain_map = false;
  // Non-empty where the op's results are defined but have no derivative (inv_ex of an exactly
  // singular matrix, where info jumps under any perturbation): says why. The value, meta and vmap
  // families check the sample; the AD families, which would differentiate across the jump, skip it.
  std::string no_derivative = {};
  // Set where the op computes the sample but its derivative there raises this kind (qr with mode
  // 'r', SPEC OPS-10.3): the value, meta and vmap families check the sample, the AD families leave
  // it to the case files that check the error (conformance/cases/ad/errors/).
  std::optional<ErrorKind> derivative_error = std::nullopt;
};

// How far a float64 (or float32) result may lie from the oracle result rounded to it. The error of
// an element is |got - oracle| / (eps * magnitude), where eps is the dtype's machine epsilon and
// magnitude = max(|oracle|, absolute_floor, input_scale * max |floating input element|). Exact
// ops state ulps = 0.5 (correctly rounded); ops that cancel (sums, products of matrices) scale
// by their inputs so that cancellation is not mistaken for error.
struct OracleTolerance {
  double ulps64 = 0.5;
  double ulps32 = 0.5;
  double absolute_floor = 0.0;
  double input_scale = 0.0;
  // max(absolute_floor, input_scale * max |finite floating input element|): the least magnitude an
  // element's error is measured against for a call on `inputs` (the oracle value may be larger).
  double magnitude_floor(const TensorList& inputs) const;
};

// The machine epsilon of float32, or else of float64: the unit stated tolerances count in.
double machine_epsilon(DType floating);

struct OpSampleSpec {
  std::string op;
  // Samples whose floating inputs have dtype `floating` (float32, float64 or oracle).
  std::function<std::vector<OpSample>(DType floating, SampleRng& rng)> generate;
  OracleTolerance tolerance;
  // Ops whose float results are not a function of the inputs' float values (argmax of ties, ...)
  // would state why here; empty means the oracle comparison applies.
  std::string oracle_exemption;
  // Where the op's results are not unique or its domain is smaller than its inputs': the program
  // (domain map and readout) every check runs instead of the bare op (NOTE: [non-unique results]).
  // Empty: the bare op.
  std::function<SampleProgram(const OpSample& sample)> program = {};
  // Where the bare op's derivative is, on some inputs, a convention of PyTorch's and not the
  // derivative of the function it computes (svd's full_matrices completion, pinv at a threshold
  // that drops a singular value, cholesky_ex past a failed pivot): why, for the call `op(inputs,
  // attrs) = results`, or "" where its derivative is the function's. The samples' own checks go
  // through their program and flags; this is for the programs of the gradient laws, which feed the
  // op other inputs and compare its derivative with finite differences (NOTE: [derivative
  // conventions in generated programs]).
  std::function<std::string(const TensorList& inputs, const Attrs& attrs, const TensorList& results)>
      derivative_convention = {};
  // For an in-place op that writes only on some calls, or computes what it writes from only some of
  // its inputs (batch_norm writes its running statistics in training only, from the input and those
  // statistics): for the call `sample`, each input it writes (by position) with the positions of the
  // inputs its new value is computed from; an input the call does not write is absent. Empty: every
  // `Tensor(a!)` input is written from every input, as by the derived in-place ops. The vmap oracle
  // predicts vmap_inplace_unbatched from it (SPEC VMAP-3.1).
  std::function<std::map<std::size_t, std::vector<std::size_t>>(const OpSample& sample)> writes = {};
};

class OpSampleRegistry {
 public:
  static const OpSampleRegistry& instance();
  const OpSampleSpec* find(const std::string& op) const;
  const std::map<std::string, OpSampleSpec>& all() const { return specs_; }
  void add(OpSampleSpec spec);
  // Appends what `extra` generates to the op's own samples (its special points, NOTE: [special
  // points]); the op must have samples already.
  void extend(const std::string& op, std::function<std::vector<OpSample>(DType floating)> extra);

 private:
  friend void register_op_samples(OpSampleSpec spec);
  static OpSampleRegistry& mutable_instance();
  std::map<std::string, OpSampleSpec> specs_;
};

// Samples for an op registered from outside the catalogue (an op a user adds through
// OpRegistry::add): from then on every catalogue-wide check and property draws it like any other.
// Declaring samples twice for one op is an internal error.
void register_op_samples(OpSampleSpec spec);

// One per op family, each in <family>_samples.cpp.
void register_conversion_samples(OpSampleRegistry& registry);
void register_creation_samples(OpSampleRegistry& registry);
void register_unary_samples(OpSampleRegistry& registry);
void register_binary_samples(OpSampleRegistry& registry);
void register_reduce_samples(OpSampleRegistry& registry);
void register_linalg_samples(OpSampleRegistry& registry);
void register_distance_samples(OpSampleRegistry& registry);
void register_linalg_spectral_samples(OpSampleRegistry& registry);
// svd (linalg_svd_samples.cpp).
void register_linalg_svd_samples(OpSampleRegistry& registry);
// lu_factor, lu, lu_solve, matrix_exp (linalg_lu_samples.cpp).
void register_linalg_lu_samples(OpSampleRegistry& registry);
// pinv, pinv_with_tolerances, lstsq, matrix_rank (linalg_pinv_samples.cpp).
void register_linalg_pinv_samples(OpSampleRegistry& registry);
// The triangular and Cholesky ops (linalg_triangular_samples.cpp), called by register_linalg_samples.
void register_linalg_triangular_samples(OpSampleRegistry& registry);
// inv, inv_ex, matrix_power (linalg_inverse_samples.cpp), called by register_linalg_samples.
void register_linalg_inverse_samples(OpSampleRegistry& registry);
// qr and householder_product (linalg_qr_samples.cpp), called by register_linalg_samples.
void register_linalg_qr_samples(OpSampleRegistry& registry);
void register_scan_samples(OpSampleRegistry& registry);
void register_view_samples(OpSampleRegistry& registry);
void register_view_copy_samples(OpSampleRegistry& registry);
void register_index_samples(OpSampleRegistry& registry);
void register_composite_samples(OpSampleRegistry& registry);
void register_activation_samples(OpSampleRegistry& registry);
// The losses of docs/ops/loss.md (loss_samples.cpp).
void register_loss_samples(OpSampleRegistry& registry);
// The dropout family of docs/ops/dropout.md (dropout_samples.cpp).
void register_dropout_samples(OpSampleRegistry& registry);
// The convolution family of docs/ops/convolution.md (convolution_samples.cpp).
void register_convolution_samples(OpSampleRegistry& registry);
// The pooling ops of docs/ops/pooling.md (pooling_samples.cpp).
void register_pooling_samples(OpSampleRegistry& registry);
// scaled_dot_product_attention (attention_samples.cpp).
void register_attention_samples(OpSampleRegistry& registry);
// The normalization family of docs/ops/normalization.md (normalization_samples.cpp).
void register_normalization_samples(OpSampleRegistry& registry);
// The resampling ops of docs/ops/resampling.md (resampling_samples.cpp).
void register_resampling_samples(OpSampleRegistry& registry);
// pad's reflect, replicate and circular calls (resampling_samples.cpp), after pad's constant ones
// (index_samples.cpp).
std::vector<OpSample> pad_mode_samples(DType floating, SampleRng& rng);

// The calls of the softmax family along `dim` (composite_samples.cpp): layouts, rank 0, a size-0
// dim, and a row with one infinite entry, `extreme_entry` (-inf for softmax and log_softmax, +inf for
// softmin, which negates its input first).
std::vector<OpSample> softmax_samples(DType floating, SampleRng& rng, double extreme_entry);
void register_special_samples(OpSampleRegistry& registry);
void register_random_samples(OpSampleRegistry& registry);
void register_dynamic_samples(OpSampleRegistry& registry);
void register_custom_samples(OpSampleRegistry& registry);

}  // namespace funcspec::samples
