// Samples of the normalization family (docs/ops/normalization.md): every form of batch_norm and
// instance_norm (training and evaluation, with and without running statistics, with and without
// weight and bias, inputs of rank 2 to 5), group_norm, local_response_norm (3-D, 4-D and 5-D inputs,
// odd and even windows, a window wider than the channels), normalize over every order kind (1, 2,
// inf, 3, 1.5, 0.5), embedding, embedding_renorm and embedding_bag (every mode, offsets with and
// without include_last_offset, 2-D inputs, per_sample_weights, padding_idx hits, empty bags and bags
// of padding only); transposed inputs, empty batches and every rejected input. Each attribute set's
// first sample is an ordinary call, so the pr tier's vmap and AD families run something
// representative; the forms are told apart by their attributes where their inputs alone would
// differ (eps and momentum vary). Special points (special_point_declarations.cpp): constant
// channels and groups (variance exactly 0), normalize's zero vector, its norm exactly at eps and
// an inf-norm tie, a row norm exactly at max_norm, embedding_bag's max ties and NaNs. Data-dependent
// errors (an index outside the weight's rows) are case files: meta cannot see them; a weight of
// another dtype than the input is a unit test, since the oracle runs every floating input in one dtype.
//
// Tolerances, in ulps of the result:
//   - the norms (batch, instance, group): a mean and a sum of squared deviations over <= 16 values,
//     rsqrt, a product with weight and a sum with bias; the result is O(|weight| + |bias|), and an
//     implementation that folds the statistics into weight and bias (PyTorch's x * alpha + beta)
//     cancels terms of |x| * |weight| / sqrt(var + eps): 16 ulps against 2 max|input| and a floor of 1;
//   - local_response_norm: a window mean of <= 5 squares, pow and a division: 16 against |result|;
//   - normalize: vector_norm (16 ulps for the pow-based orders) and one division: 16;
//   - embedding reads rows: exact; embedding_renorm scales rows by max_norm / (norm + 1e-7): 16;
//   - embedding_bag sums <= 4 products of per_sample_weights and rows: 8 against 4 max|input|.
#include <fmt/format.h>

#include <limits>

#include "conformance/samples/op_samples.h"

namespace funcspec::samples {
namespace normalization {
namespace {

using Ints = std::vector<std::int64_t>;

constexpr double kInf = std::numeric_limits<double>::infinity();

Tensor indices(std::initializer_list<double> values, const Shape& shape) {
  return from_values(values, shape, DType::Int64);
}

// ---- batch_norm and instance_norm ---------------------------------------------------------------

struct NormCall {
  Shape shape;
  bool stats;
  bool weight;
  bool bias;
  Attrs attrs;
  std::string label;
  bool transposed = false;
};

OpSample norm_sample(DType f, SampleRng& rng, const NormCall& c) {
  const std::int64_t channels = c.shape.size() >= 2 ? c.shape[1] : 1;
  OpSample s;
  s.inputs.push_back(c.transposed ? rng.strided_tensor(c.shape, f) : rng.tensor(c.shape, f));
  s.inputs.push_back(c.stats ? rng.tensor({channels}, f, -0.5, 0.5) : Tensor());
  s.inputs.push_back(c.stats ? rng.tensor({channels}, f, 0.5, 2.0) : Tensor());
  s.inputs.push_back(c.weight ? rng.tensor({channels}, f, 0.5, 2.0) : Tensor());
  s.inputs.push_back(c.bias ? rng.tensor({channels}, f) : Tensor());
  s.attrs = c.attrs;
  s.label = c.label;
  return s;
}

Attrs training(bool on, Attrs more = {}) {
  more.set("training", on);
  return more;
}

Attrs with_input_stats(bool on, Attrs more = {}) {
  more.set("use_input_stats", on);
  return more;
}

// batch_norm's calls; `functional`: only those with running statistics (batch_norm_functional's).
std::vector<OpSample> batch_norm_samples(DType f, SampleRng& rng, bool functional) {
  const std::vector<NormCall> calls{
      {{4, 3}, true, true, true, training(true), "training, running stats, affine, [N, C]"},
      {{2, 3, 3}, true, false, false, training(true, {{"momentum", 0.3}}), "training, running stats, [N, C, L]"},
      {{2, 2, 2, 3}, false, true, true, training(true, {{"eps", 1e-3}}), "training without running stats, 4-D"},
      {{2, 2, 2, 2, 2},
       true,
       true,
       true,
       training(true, {{"momentum", 0.5}, {"eps", 1e-4}}),
       "training, running stats, affine, 5-D"},
      {{3, 3}, true, true, true, training(false), "evaluation, affine, [N, C]"},
      {{2, 3, 2}, true, false, false, training(false, {{"eps", 1e-3}}), "evaluation, [N, C, L]"},
      {{2, 2, 2, 2}, true, true, false, training(false, {{"eps", 1e-4}}), "evaluation, weight only, 4-D"},
      {{3, 2, 2}, false, false, true, training(true, {{"eps", 1e-2}}), "training without running stats, bias only"},
      {{2, 3, 4}, true, true, true, training(true, {{"eps", 1e-3}, {"momentum", 0.2}}), "transposed input", true},
      {{1, 2, 3, 1}, true, false, false, training(true, {{"momentum", 1.0}}), "momentum 1: the batch's statistics"},
      {{0, 3}, true, true, true, training(true), "size-0 batch: running stats unchanged"},
      {{2, 2, 0}, true, false, false, training(true, {{"momentum", 0.3}}), "no value per channel (L = 0)"},
      {{0, 2, 3}, true, true, true, training(false), "size-0 batch, evaluation"},
      {{1, 3}, true, true, true, training(true), "one value per channel in training (rejected)"},
      {{1, 2, 1, 1},
       false,
       false,
       false,
       training(true, {{"eps", 1e-3}}),
       "one value per channel in training, 4-D (rejected)"},
      {{4}, false, false, false, training(true, {{"eps", 1e-3}}), "1-D input shape-mismatch"},
      {{3, 2}, true, false, false, training(true, {{"eps", 0.0}}), "eps 0 in training (rejected)"},
      {{3, 2}, true, true, true, training(false, {{"eps", -1e-3}}), "negative eps (rejected)"},
  };
  std::vector<OpSample> out;
  for (const NormCall& c : calls) {
    if (functional && !c.stats) continue;
    out.push_back(norm_sample(f, rng, c));
  }
  // One value per channel is fine in evaluation.
  out.push_back(norm_sample(f, rng, {{1, 3}, true, true, true, training(false), "one value per channel, evaluation"}));
  if (!functional) {
    out.push_back(norm_sample(f, rng,
                              {{3, 2},
                               false,
                               true,
                               true,
                               training(false),
                               "evaluation without running stats "
                               "(rejected)"}));
  }
  {
    OpSample wrong = norm_sample(f, rng, {{4, 3}, true, true, true, training(true), "running_mean of 2 elements"});
    wrong.inputs[1] = rng.tensor({2}, f);
    wrong.label += " shape-mismatch";
    out.push_back(std::move(wrong));
  }
  {
    OpSample wrong = norm_sample(f, rng, {{4, 3}, true, true, true, training(false), "weight of 4 elements"});
    wrong.inputs[3] = rng.tensor({4}, f);
    wrong.label += " shape-mismatch";
    out.push_back(std::move(wrong));
  }
  {
    OpSample integer = norm_sample(f, rng, {{4, 3}, functional, false, false, training(true), "int64 input"});
    integer.inputs[0] = rng.tensor({4, 3}, DType::Int64, -3, 3);
    integer.label += " (rejected)";
    out.push_back(std::move(integer));
  }
  return out;
}

std::vector<OpSample> instance_norm_samples(DType f, SampleRng& rng, bool functional) {
  const std::vector<NormCall> calls{
      {{2, 3, 4}, true, true, true, with_input_stats(true), "input stats, running stats, affine, [N, C, L]"},
      {{2, 2, 2, 3}, false, true, true, with_input_stats(true, {{"eps", 1e-3}}), "input stats, no running stats, 4-D"},
      {{3, 2, 4}, true, true, true, with_input_stats(false), "running stats only (evaluation)"},
      {{2, 2, 2, 2, 2},
       true,
       false,
       false,
       with_input_stats(true, {{"momentum", 0.3}}),
       "input stats, running stats, 5-D"},
      {{2, 3, 4}, true, false, true, with_input_stats(true, {{"eps", 1e-2}}), "transposed input, bias only", true},
      {{3, 2, 3}, true, true, false, with_input_stats(false, {{"eps", 1e-4}}), "evaluation, weight only"},
      {{0, 2, 3}, true, true, true, with_input_stats(true), "size-0 batch: running stats unchanged"},
      {{1, 2, 3}, true, true, true, with_input_stats(true, {{"momentum", 0.2}}), "small"},
      {{2, 3}, true, true, true, with_input_stats(true), "one spatial element (rejected)"},
      {{2, 3, 1}, false, false, false, with_input_stats(true, {{"eps", 1e-3}}), "one spatial element, 3-D (rejected)"},
  };
  std::vector<OpSample> out;
  for (const NormCall& c : calls) {
    if (functional && !c.stats) continue;
    out.push_back(norm_sample(f, rng, c));
  }
  if (!functional) {
    out.push_back(norm_sample(f, rng,
                              {{2, 3, 2},
                               false,
                               false,
                               false,
                               with_input_stats(false),
                               "no running stats "
                               "without input stats "
                               "(rejected)"}));
  }
  {
    OpSample wrong = norm_sample(f, rng, {{2, 3, 2}, true, true, true, with_input_stats(true), "running_var of 2"});
    wrong.inputs[2] = rng.tensor({2}, f, 0.5, 2.0);
    wrong.label += " elements shape-mismatch";
    out.push_back(std::move(wrong));
  }
  {
    OpSample integer = norm_sample(f, rng, {{2, 3, 2}, functional, false, false, with_input_stats(true), "int64"});
    integer.inputs[0] = rng.tensor({2, 3, 2}, DType::Int64, -3, 3);
    integer.label += " input (rejected)";
    out.push_back(std::move(integer));
  }
  return out;
}

// What batch_norm and instance_norm write, from what (OpSampleSpec::writes, NOTE: [running
// statistics]): in training (use_input_stats) with running statistics, each from the input and
// itself; from itself alone where there is no value to take statistics of.
std::function<std::map<std::size_t, std::vector<std::size_t>>(const OpSample&)> statistics_writes(
    const char* mode_attribute, bool instance) {
  return [mode_attribute, instance](const OpSample& s) -> std::map<std::size_t, std::vector<std::size_t>> {
    // training defaults to False, use_input_stats to True.
    const bool writing = s.attrs.has(mode_attribute) ? s.attrs.get_bool(mode_attribute) : instance;
    if (!writing || s.inputs.size() < 3 || !s.inputs[1].defined()) return {};
    const Tensor& input = s.inputs[0];
    std::int64_t values = instance ? 1 : input.size(0);
    for (std::int64_t d = 2; d < input.dim(); ++d) values *= input.size(d);
    if (values == 0 || input.size(0) == 0) return {{1, {1}}, {2, {2}}};
    return {{1, {0, 1}}, {2, {0, 2}}};
  };
}

// ---- group_norm, local_response_norm, normalize -------------------------------------------------

std::vector<OpSample> group_norm_samples(DType f, SampleRng& rng) {
  const auto groups = [](std::int64_t g, Attrs more = {}) {
    more.set("num_groups", g);
    return more;
  };
  std::vector<OpSample> out{
      {{rng.tensor({2, 4, 3}, f), rng.tensor({4}, f, 0.5, 2), rng.tensor({4}, f)}, groups(2), "2 groups, affine"},
      {{rng.tensor({3, 6}, f)}, groups(3), "[N, C], 3 groups"},
      {{rng.tensor({2, 4, 2, 2}, f), rng.tensor({4}, f, 0.5, 2)}, groups(4), "a group per channel, weight only, 4-D"},
      {{rng.tensor({1, 2, 2, 1, 3}, f), Tensor(), rng.tensor({2}, f)}, groups(1), "one group, bias only, 5-D"},
      {{rng.strided_tensor({2, 4, 3}, f), rng.tensor({4}, f, 0.5, 2), rng.tensor({4}, f)},
       groups(2, {{"eps", 1e-3}}),
       "transposed input"},
      {{rng.tensor({2, 4}, f)}, groups(4, {{"eps", 1e-2}}), "one value per group (N * C / G > 1 is allowed)"},
      {{rng.tensor({0, 4, 2}, f)}, groups(2), "size-0 batch"},
      {{rng.tensor({2, 4, 3}, f)}, groups(3), "groups not dividing the channels shape-mismatch"},
      {{rng.tensor({2, 4, 3}, f)}, groups(0), "num_groups 0 (rejected)"},
      {{rng.tensor({1, 4, 1}, f)}, groups(4), "one value per channel of the (N * C / G, G) view (rejected)"},
      {{rng.tensor({2, 4, 3}, f), rng.tensor({3}, f)}, groups(2), "weight of 3 elements shape-mismatch"},
      {{rng.tensor({2, 4, 3}, DType::Int64, -3, 3)}, groups(2), "int64 (rejected)"},
      {{rng.tensor({4}, f)}, groups(2), "1-D input shape-mismatch"},
  };
  return out;
}

std::vector<OpSample> local_response_norm_samples(DType f, SampleRng& rng) {
  const auto lrn = [](std::int64_t size, Attrs more = {}) {
    more.set("size", size);
    return more;
  };
  return {
      {{rng.tensor({2, 4, 3}, f)}, lrn(3), "3-D, size 3"},
      {{rng.tensor({1, 5, 2, 2}, f)}, lrn(2, {{"alpha", 0.5}}), "4-D, even size 2"},
      {{rng.tensor({1, 3, 2, 2, 2}, f)}, lrn(3, {{"alpha", 0.2}, {"beta", 0.5}, {"k", 2.0}}), "5-D"},
      {{rng.strided_tensor({2, 3, 4}, f)}, lrn(4, {{"alpha", 1.0}}), "transposed input, size 4"},
      {{rng.tensor({1, 2, 3}, f)}, lrn(5, {{"alpha", 0.3}, {"beta", 1.5}}), "window wider than the channels"},
      {{rng.tensor({1, 3, 2}, f)}, lrn(1, {{"alpha", 2.0}, {"k", 0.5}}), "size 1, small"},
      {{rng.tensor({0, 3, 2}, f)}, lrn(2), "size-0 batch"},
      {{rng.tensor({2, 4}, f)}, lrn(2), "2-D input shape-mismatch"},
      {{rng.tensor({1, 3, 2}, f)}, lrn(0), "size 0 (rejected)"},
      {{rng.tensor({1, 3, 2}, DType::Int64, -3, 3)}, lrn(2), "int64 (rejected)"},
  };
}

std::vector<OpSample> normalize_samples(DType f, SampleRng& rng) {
  const auto norm = [](double p, Attrs more = {}) {
    more.set("p", p);
    return more;
  };
  return {
      {{rng.tensor({3, 4}, f)}, {}, "p 2 along dim 1"},
      {{rng.tensor({2, 3}, f)}, norm(1.0, {{"dim", std::int64_t{0}}}), "p 1 along dim 0"},
      {{rng.tensor({2, 3, 2}, f)}, norm(kInf, {{"dim", std::int64_t{-1}}}), "p inf along the last dim"},
      {{rng.tensor({4}, f)}, norm(1.5, {{"dim", std::int64_t{0}}}), "p 1.5, 1-D"},
      {{rng.tensor({2, 3}, f)}, norm(3.0, {{"eps", 1e-3}}), "p 3, eps 1e-3"},
      {{rng.tensor({2, 3}, f, 0.25, 2)}, norm(0.5), "p 0.5"},
      {{rng.strided_tensor({3, 4}, f)}, norm(2.0, {{"dim", std::int64_t{0}}}), "transposed input"},
      {{rng.tensor({0, 3}, f)}, {}, "size-0 batch"},
      {{rng.tensor({2, 0}, f)}, {}, "size-0 normalized dim"},
      {{rng.tensor({3}, f)}, {}, "dim 1 of a 1-D input dim-out-of-range"},
      {{rng.tensor({2, 3}, DType::Int64, -3, 3)}, {}, "int64 (rejected)"},
  };
}

// ---- embedding, embedding_renorm, embedding_bag --------------------------------------------------

// NOTE: [embedding gradient conventions] in normalization.cpp: where a padding_idx is read or an
// index repeats under scale_grad_by_freq, the derivative is PyTorch's convention, not the
// function's; the AD families (finite differences) skip those samples, the AD-SPECIAL cases check them.
constexpr const char* kEmbeddingConvention =
    "the padding row's derivative is 0 and scale_grad_by_freq divides a row's derivative by its index's count "
    "(PyTorch's embedding_backward), which is not the derivative of the value; AD-SPECIAL/embedding* check it";

// `padding_counts`: embedding's padding row is a convention; embedding_bag leaves padding entries
// out of its bags, value and derivative alike.
std::string embedding_convention(const TensorList& inputs, const Attrs& attrs, std::size_t weight_at,
                                 bool padding_counts) {
  const Tensor& input = inputs[0];
  if (!inputs[weight_at].defined() || input.dtype() != DType::Int64) return "";
  const std::vector<std::int64_t> idx = input.to_vector<std::int64_t>();
  const std::int64_t rows = inputs[weight_at].dim() == 2 ? inputs[weight_at].size(0) : 0;
  if (padding_counts && attrs.has("padding_idx")) {
    if (const std::optional<std::int64_t> p = attrs.get_optional_int("padding_idx")) {
      const std::int64_t row = *p < 0 ? *p + rows : *p;
      for (std::int64_t i : idx) {
        if (i == row) return kEmbeddingConvention;
      }
    }
  }
  if (attrs.has("scale_grad_by_freq") && attrs.get_bool("scale_grad_by_freq")) {
    for (std::size_t a = 0; a < idx.size(); ++a) {
      for (std::size_t b = a + 1; b < idx.size(); ++b) {
        if (idx[a] == idx[b]) return kEmbeddingConvention;
      }
    }
  }
  return "";
}

OpSample with_convention(OpSample s, bool padding_counts) {
  s.no_derivative = embedding_convention(s.inputs, s.attrs, 1, padding_counts);
  return s;
}

std::vector<OpSample> embedding_samples(DType f, SampleRng& rng) {
  const auto padding = [](std::int64_t p, Attrs more = {}) {
    more.set("padding_idx", p);
    return more;
  };
  const Attrs scaled{{"scale_grad_by_freq", true}};
  std::vector<OpSample> out{
      {{indices({0, 3, 4, 1, 3, 2}, {2, 3}), rng.tensor({5, 3}, f)}, {}, "[2, 3] indices into 5 rows"},
      {{indices({1, 0, 1, 2}, {4}), rng.tensor({4, 2}, f)}, padding(1), "padding_idx 1 read twice"},
      {{indices({2, 0, 3}, {3}), rng.tensor({4, 2}, f)}, padding(-3), "padding_idx -3 (row 1) not read"},
      {{indices({1, 1, 2, 1}, {2, 2}), rng.tensor({3, 2}, f)}, scaled, "scale_grad_by_freq, an index three times"},
      {{indices({0, 2}, {2}), rng.tensor({3, 2}, f)},
       {{"scale_grad_by_freq", true}, {"padding_idx", std::int64_t{1}}},
       "scale_grad_by_freq and padding_idx, no repeat"},
      {{indices({2}, {}), rng.tensor({3, 4}, f)}, {}, "rank-0 index"},
      {{indices({4, 0, 2}, {3}), rng.strided_tensor({5, 3}, f)}, {}, "transposed weight"},
      {{indices({1, 0}, {2}), rng.tensor({3, 2}, DType::Int64, -5, 5)}, {}, "int64 weight"},
      {{rng.tensor({0, 2}, DType::Int64, 0, 3), rng.tensor({3, 2}, f)}, {}, "no indices"},
      {{indices({0, 1}, {2}), rng.tensor({3, 2}, f)}, padding(3), "padding_idx past the rows (rejected)"},
      {{indices({0, 1}, {2}), rng.tensor({3, 2}, f)}, padding(-4), "padding_idx before the rows (rejected)"},
      {{rng.tensor({2}, f, 0, 2), rng.tensor({3, 2}, f)}, {}, "floating indices (rejected)"},
      {{indices({0, 1}, {2}), rng.tensor({3}, f)}, {}, "1-D weight shape-mismatch"},
      {{indices({1, 0}, {2}), rng.tensor({3, 2}, f)}, {}, "two indices, small"},
  };
  for (OpSample& s : out) s = with_convention(std::move(s), true);
  return out;
}

std::vector<OpSample> embedding_renorm_samples(DType f, SampleRng& rng) {
  const auto renorm = [](double max_norm, double norm_type) {
    return Attrs{{"max_norm", max_norm}, {"norm_type", norm_type}};
  };
  return {
      {{rng.tensor({5, 3}, f), indices({0, 3, 0}, {3})}, renorm(1.0, 2.0), "rows 0 and 3, max_norm 1"},
      {{rng.tensor({4, 2}, f), indices({1, 2, 3, 1}, {2, 2})}, renorm(1.5, 1.0), "2-D indices, norm_type 1"},
      {{rng.tensor({4, 3}, f), indices({2, 0}, {2})}, renorm(1.0, kInf), "norm_type inf"},
      {{rng.tensor({3, 2}, f), indices({0, 1, 2}, {3})}, renorm(10.0, 2.0), "no row above max_norm"},
      {{rng.strided_tensor({4, 3}, f), indices({3, 1}, {2})}, renorm(0.5, 3.0), "transposed self, norm_type 3"},
      {{rng.tensor({3, 2}, f), rng.tensor({0}, DType::Int64, 0, 3)}, renorm(1.0, 2.0), "no indices"},
      {{rng.tensor({3, 2}, f), rng.tensor({2}, f, 0, 2)}, renorm(1.0, 2.0), "floating indices (rejected)"},
      {{rng.tensor({3}, f), indices({0}, {1})}, renorm(1.0, 2.0), "1-D self shape-mismatch"},
      {{rng.tensor({3, 2}, DType::Int64, -3, 3), indices({0}, {1})}, renorm(1.0, 2.0), "int64 self (rejected)"},
  };
}

std::vector<OpSample> embedding_bag_samples(DType f, SampleRng& rng) {
  const auto bag = [](const char* mode, Attrs more = {}) {
    more.set("mode", std::string(mode));
    return more;
  };
  std::vector<OpSample> out{
      {{indices({0, 2, 4, 1, 3, 3}, {6}), rng.tensor({5, 3}, f), indices({0, 2, 5}, {3})}, {}, "mean over 3 bags"},
      {{indices({1, 0, 2, 2, 0, 1}, {3, 2}), rng.tensor({3, 2}, f)}, bag("sum"), "sum, 2-D input"},
      {{indices({0, 1, 2, 3, 1, 0}, {6}), rng.tensor({4, 2}, f), indices({0, 2, 4, 6}, {4}), rng.tensor({6}, f)},
       bag("sum", {{"include_last_offset", true}}),
       "sum, per_sample_weights, include_last_offset"},
      {{indices({3, 1, 0, 2, 4}, {5}), rng.tensor({5, 2}, f), indices({0, 2, 2}, {3})},
       bag("max"),
       "max, an empty bag gives zeros"},
      {{indices({1, 0, 1, 1, 2}, {5}), rng.tensor({3, 2}, f), indices({0, 2, 4}, {3})},
       bag("max", {{"padding_idx", std::int64_t{1}}}),
       "max, padding_idx 1, a bag of padding only"},
      {{indices({0, 2, 0, 0, 1, 3}, {6}), rng.tensor({4, 2}, f), indices({0, 2, 4, 4}, {4})},
       bag("mean", {{"padding_idx", std::int64_t{0}}}),
       "mean, padding_idx 0 left out of the count, a bag of padding only, an empty bag"},
      {{indices({1, 1, 2, 1, 0}, {5}), rng.tensor({3, 2}, f), indices({0, 3}, {2})},
       bag("mean", {{"scale_grad_by_freq", true}}),
       "mean, scale_grad_by_freq, an index three times"},
      {{indices({0, 2, 1}, {3}), rng.tensor({4, 2}, f), indices({0, 1}, {2})},
       bag("sum", {{"scale_grad_by_freq", true}, {"padding_idx", std::int64_t{-1}}}),
       "sum, scale_grad_by_freq without repeats, padding_idx -1 not read"},
      {{indices({2, 0, 1, 3}, {4}), rng.strided_tensor({4, 3}, f), indices({0, 1}, {2}), rng.strided_tensor({4}, f)},
       bag("sum", {{"include_last_offset", false}}),
       "transposed weight and per_sample_weights"},
      {{indices({0, 1, 2, 3}, {2, 2}), rng.tensor({4, 2}, f)},
       bag("max", {{"padding_idx", std::int64_t{3}}}),
       "max, 2-D input, padding_idx 3"},
      {{rng.tensor({0}, DType::Int64, 0, 3), rng.tensor({3, 2}, f), indices({0, 0}, {2})},
       bag("mean"),
       "no indices, two empty bags"},
      {{rng.tensor({0, 2}, DType::Int64, 0, 3), rng.tensor({3, 2}, f)}, bag("sum"), "2-D input of no bags"},
      {{rng.tensor({2, 0}, DType::Int64, 0, 3), rng.tensor({3, 2}, f)}, bag("max"), "2-D input of two empty bags"},
      {{indices({0, 1}, {2}), rng.tensor({3, 2}, f), indices({0}, {1})}, bag("min"), "mode 'min' (rejected)"},
      {{indices({0, 1}, {2}), rng.tensor({3, 2}, f), indices({0}, {1})},
       bag("max", {{"scale_grad_by_freq", true}}),
       "max with scale_grad_by_freq (rejected)"},
      {{indices({0, 1}, {2}), rng.tensor({3, 2}, f), indices({0}, {1}), rng.tensor({2}, f)},
       bag("mean"),
       "per_sample_weights with mode 'mean' (rejected)"},
      {{indices({0, 1}, {2}), rng.tensor({3, 2}, f), indices({0}, {1}), rng.tensor({3}, f)},
       bag("sum"),
       "per_sample_weights of another shape shape-mismatch"},
      {{indices({0, 1}, {2}), rng.tensor({3, 2}, f)}, bag("mean"), "1-D input without offsets (rejected)"},
      {{indices({0, 1}, {1, 2}), rng.tensor({3, 2}, f), indices({0}, {1})},
       bag("mean"),
       "2-D input with offsets (rejected)"},
      {{indices({0, 1, 2, 1}, {2, 2}), rng.tensor({3, 2}, f)},
       bag("mean", {{"include_last_offset", true}}),
       "2-D input: include_last_offset does not apply"},
      {{indices({0, 1}, {1, 1, 2}), rng.tensor({3, 2}, f)}, bag("sum"), "3-D input shape-mismatch"},
      {{indices({0, 1}, {2}), rng.tensor({3, 2}, f), indices({0}, {1, 1})}, bag("sum"), "2-D offsets shape-mismatch"},
      {{indices({0, 1}, {2}), rng.tensor({3, 2}, f), indices({0}, {1})},
       bag("sum", {{"padding_idx", std::int64_t{3}}}),
       "padding_idx past the rows (rejected)"},
      {{rng.tensor({2}, f, 0, 2), rng.tensor({3, 2}, f), indices({0}, {1})}, bag("sum"), "floating input (rejected)"},
      {{indices({0, 1}, {2}), rng.tensor({3, 2}, DType::Int64, -3, 3), indices({0}, {1})},
       bag("sum"),
       "int64 weight (rejected)"},
      {{indices({1, 0}, {2}), rng.tensor({2, 2}, f), indices({0, 1}, {2})}, bag("sum"), "two bags, small"},
  };
  for (OpSample& s : out) s = with_convention(std::move(s), false);
  return out;
}

}  // namespace
}  // namespace normalization

void register_normalization_samples(OpSampleRegistry& registry) {
  using namespace normalization;
  constexpr OracleTolerance norms{16.0, 16.0, 1.0, 2.0};
  {
    OpSampleSpec spec{"batch_norm", [](DType f, SampleRng& rng) { return batch_norm_samples(f, rng, false); }, norms,
                      ""};
    spec.writes = statistics_writes("training", false);
    registry.add(std::move(spec));
  }
  registry.add(
      {"batch_norm_functional", [](DType f, SampleRng& rng) { return batch_norm_samples(f, rng, true); }, norms, ""});
  {
    OpSampleSpec spec{"instance_norm", [](DType f, SampleRng& rng) { return instance_norm_samples(f, rng, false); },
                      norms, ""};
    spec.writes = statistics_writes("use_input_stats", true);
    registry.add(std::move(spec));
  }
  registry.add({"instance_norm_functional", [](DType f, SampleRng& rng) { return instance_norm_samples(f, rng, true); },
                norms, ""});
  registry.add({"group_norm", group_norm_samples, norms, ""});
  registry.add({"local_response_norm", local_response_norm_samples, {16.0, 16.0, 0.0, 0.0}, ""});
  registry.add({"normalize", normalize_samples, {16.0, 16.0, 0.0, 0.0}, ""});
  {
    OpSampleSpec spec{"embedding", embedding_samples, {0.5, 0.5, 0.0, 0.0}, ""};
    spec.derivative_convention = [](const TensorList& inputs, const Attrs& attrs, const TensorList&) {
      return embedding_convention(inputs, attrs, 1, true);
    };
    registry.add(std::move(spec));
  }
  registry.add({"embedding_renorm", embedding_renorm_samples, {16.0, 16.0, 0.0, 0.0}, ""});
  {
    OpSampleSpec spec{"embedding_bag", embedding_bag_samples, {8.0, 8.0, 0.0, 4.0}, ""};
    spec.derivative_convention = [](const TensorList& inputs, const Attrs& attrs, const TensorList&) {
      return embedding_convention(inputs, attrs, 1, false);
    };
    registry.add(std::move(spec));
  }
}

}  // namespace funcspec::samples
