// Transform rules of the linalg family: det, einsum, inverse, slogdet, solve, tril, triu.
// Batching: these ops act on the last two dims and take any leading dims as a batch, so the vmap
// batch goes to the front and the op runs once. einsum gives the batch a label of its own on every
// batched operand and in the output.
//
// As in the index rules, the examples' shapes and dtypes are checked first by the op itself on meta
// examples: a batch of rank-1 examples must not pass for one matrix; the data errors
// (singular_matrix) are the kernels', on the batched values.
#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <vector>

#include "reference/api/ops.h"
#include "reference/backends/common/einsum_plan.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"
#include "reference/rules/batching_helpers.h"
#include "reference/rules/registration.h"
#include "reference/transforms/op_rules.h"
#include "reference/transforms/vmap_interpreter.h"

namespace funcspec::transforms {
namespace {

using rules::check_examples;

// The first letter the equation does not use, or '\0' when it uses all 52.
char unused_label(const std::string& equation) {
  for (const char* letters : {"abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}) {
    for (const char* c = letters; *c != '\0'; ++c) {
      if (equation.find(*c) == std::string::npos) return *c;
    }
  }
  return '\0';
}

// A valid `equation` with `label` leading the terms of the batched operands and the output. An
// implicit output is written out first (the ellipsis, then the letters used once, in ASCII order):
// left implicit, a label shared by two operands would be summed.
std::string with_batch_label(const std::string& equation, const std::vector<bool>& batched, char label) {
  std::string compact;
  for (char c : equation) {
    if (std::isspace(static_cast<unsigned char>(c)) == 0) compact.push_back(c);
  }
  const std::size_t arrow = compact.find("->");
  const std::string inputs = compact.substr(0, arrow);
  std::string output;
  if (arrow != std::string::npos) {
    output = compact.substr(arrow + 2);
  } else {
    std::map<char, int> uses;
    for (char c : inputs) {
      if (std::isalpha(static_cast<unsigned char>(c)) != 0) ++uses[c];
    }
    if (inputs.find("...") != std::string::npos) output = "...";
    for (const auto& [letter, count] : uses) {
      if (count == 1) output.push_back(letter);
    }
  }
  std::string labelled;
  std::size_t operand = 0;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = inputs.find(',', start);
    if (operand > 0) labelled.push_back(',');
    if (batched.at(operand)) labelled.push_back(label);
    labelled += inputs.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    ++operand;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return labelled + "->" + label + output;
}

BatchedValues einsum_rule(const BatchedValues& in, const Attrs& attrs, const BatchContext& context) {
  check_examples("einsum", in, attrs);
  const std::string& equation = attrs.get_string("equation");
  const char label = unused_label(equation);
  // An equation naming 52 labels leaves none for the batch: computed example by example.
  if (label == '\0') return vmap_fallback(OpRegistry::instance().get("einsum"), in, attrs, context);
  std::vector<bool> batched;
  TensorList operands;
  for (const BatchedValue& input : in) {
    batched.push_back(input.batched());
    operands.push_back(rules::batch_to_front(input));
  }
  return {{call_one("einsum", operands, {{"equation", with_batch_label(equation, batched, label)}}), 0}};
}

// NOTE: [einsum transpose]
// einsum is linear in each operand. Its plan gives every dim of every operand and of the result an
// iteration dim, so the transpose with respect to operand k is written with one letter per
// iteration dim, leaving no ellipsis, implicit output or broadcasting to interpret again:
//  1. the cotangent times the other operands, summed onto the iteration dims of k that occur in the
//     cotangent or in another operand (an einsum); where k has size 1 and the label a larger size
//     (k was broadcast), the dim is summed too and comes back as size 1;
//  2. along a dim of k that the forward summed away and that occurs nowhere else, every element of
//     k met the same cotangent: it is expanded along that dim;
//  3. a label repeated in k (a diagonal, "ii") only read the diagonal, which alone gets the
//     cotangent: an einsum with an identity matrix per repetition.
constexpr std::string_view kLetters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

char letter(std::size_t index, const std::string& equation) {
  FUNCSPEC_CHECK(index < kLetters.size(), ErrorKind::InvalidArgument,
                 "[einsum] differentiating '{}' needs more than {} labels (one per iteration dim)", equation,
                 kLetters.size());
  return kLetters[index];
}

std::string term_of(const std::vector<std::size_t>& dims, const std::string& equation) {
  std::string term;
  for (std::size_t d : dims) term.push_back(letter(d, equation));
  return term;
}

Tensor identity_matrix(std::int64_t n, DType dtype, Device device) {
  const Tensor index = ops::arange(0, n, 1, DType::Int64, std::string(device_name(device)));
  return ops::to_dtype(ops::eq(ops::unsqueeze(index, 1), index), dtype);
}

Tensor einsum_transpose(const TransposeCall& c, std::size_t linear_operand) {
  const std::string& equation = c.attrs.get_string("equation");
  const Tensor& cotangent = c.cotangents[0];
  std::vector<Shape> shapes;
  for (const TensorMeta& meta : c.metas) shapes.push_back(meta.shape);
  const common::EinsumPlan plan = common::plan_einsum(equation, shapes);
  const std::vector<std::size_t>& dims = plan.operand_dims[linear_operand];
  const Shape& shape = c.metas[linear_operand].shape;

  // Step 1.
  std::vector<bool> elsewhere(plan.sizes.size(), false);
  std::vector<std::size_t> output_dims;
  for (std::size_t d = 0; d < plan.output_rank; ++d) output_dims.push_back(d);
  std::string terms = term_of(output_dims, equation);
  std::fill(elsewhere.begin(), elsewhere.begin() + static_cast<std::ptrdiff_t>(plan.output_rank), true);
  TensorList operands{cotangent};
  for (std::size_t m = 0; m < c.inputs.size(); ++m) {
    if (m == linear_operand) continue;
    terms += "," + term_of(plan.operand_dims[m], equation);
    for (std::size_t d : plan.operand_dims[m]) elsewhere[d] = true;
    operands.push_back(c.inputs[m]);
  }
  std::vector<std::size_t> distinct;  // the iteration dims of the linear operand, once each
  std::vector<std::int64_t> distinct_sizes;
  for (std::size_t j = 0; j < dims.size(); ++j) {
    if (std::find(distinct.begin(), distinct.end(), dims[j]) != distinct.end()) continue;
    distinct.push_back(dims[j]);
    distinct_sizes.push_back(shape[j]);
  }
  std::vector<bool> kept(distinct.size());
  std::string kept_term;
  for (std::size_t i = 0; i < distinct.size(); ++i) {
    const bool broadcast = distinct_sizes[i] != plan.sizes[distinct[i]];
    kept[i] = elsewhere[distinct[i]] && !broadcast;
    if (kept[i]) kept_term.push_back(letter(distinct[i], equation));
  }
  Tensor spread = ops::einsum(terms + "->" + kept_term, operands);

  // Step 2.
  for (std::size_t i = 0; i < distinct.size(); ++i) {
    if (!kept[i]) spread = ops::unsqueeze(spread, static_cast<std::int64_t>(i));
  }
  spread = ops::expand(spread, distinct_sizes);
  if (distinct.size() == dims.size()) return spread;

  // Step 3.
  std::string spread_terms = term_of(distinct, equation);
  std::string result_term;
  TensorList diagonal_operands{spread};
  std::size_t fresh = plan.sizes.size();
  for (std::size_t j = 0; j < dims.size(); ++j) {
    const char label = letter(dims[j], equation);
    if (std::find(dims.begin(), dims.begin() + static_cast<std::ptrdiff_t>(j), dims[j]) ==
        dims.begin() + static_cast<std::ptrdiff_t>(j)) {
      result_term.push_back(label);
      continue;
    }
    const char repeated = letter(fresh++, equation);
    result_term.push_back(repeated);
    spread_terms += std::string{',', label, repeated};
    diagonal_operands.push_back(identity_matrix(shape[j], c.metas[linear_operand].dtype, cotangent.device()));
  }
  return ops::einsum(spread_terms + "->" + result_term, diagonal_operands);
}

// The cofactor matrix of each [n, n] matrix (n >= 1), C[i][j] = (-1)^(i+j) det(A without row i and
// column j): the exact gradient of det, singular matrices included. Returned as the minors' dets and
// the [n, n] sign pattern, which the caller contracts with the tangent in one einsum.
std::pair<Tensor, Tensor> cofactors(const Tensor& a) {
  const std::int64_t n = a.size(-1);
  const std::string device(device_name(a.device()));
  const Tensor index = ops::arange(0, n, 1, DType::Int64, device);
  const Tensor removed = ops::view(index, {n, 1, 1});
  const Tensor minor_row = ops::view(ops::arange(0, n - 1, 1, DType::Int64, device), {1, n - 1, 1});
  // Row r of the minor without row i is row r + (r >= i) of the matrix.
  const Tensor source_row = ops::add(minor_row, ops::to_dtype(ops::ge(minor_row, removed), DType::Int64));
  const Tensor selection = ops::to_dtype(ops::eq(ops::view(index, {1, 1, n}), source_row), a.dtype());
  const Tensor minors = ops::einsum("iap,...pq,jbq->...ijab", {selection, a, selection});
  const Tensor parity = ops::remainder(ops::add(ops::unsqueeze(index, 1), index), ops::lit(2));
  const Tensor sign = ops::to_dtype(ops::add(ops::mul(parity, ops::lit(-2)), ops::lit(1)), a.dtype());
  return {ops::det(minors), sign};
}

// A transpose of the last two dims written as an einsum, which has every derivative rule, so that
// higher derivatives through these rules need no other family's.
Tensor matrix_transpose(const Tensor& a) { return ops::einsum("...ij->...ji", {a}); }

}  // namespace

void register_linalg_rules(RuleAttacher& attach) {
  // Batching.
  // One matrix input, any leading dims.
  for (const char* name : {"det", "inverse", "slogdet", "tril", "triu"}) {
    const std::string op = name;
    attach.batch(op, [op](const BatchedValues& in, const Attrs& attrs, const BatchContext&) -> BatchedValues {
      check_examples(op, in, attrs);
      return rules::batched_at_front(call(op, {rules::batch_to_front(in.at(0))}, attrs));
    });
  }
  // The op layer has checked A and B and broadcast their batch dims on the examples, so with both
  // batched at the front B is still a vector right-hand side exactly when its examples are.
  attach.batch("solve", [](const BatchedValues& in, const Attrs& attrs, const BatchContext& context) -> BatchedValues {
    const Tensor a = rules::materialize_batch(in.at(0), context.batch_size);
    const Tensor b = rules::materialize_batch(in.at(1), context.batch_size);
    return rules::batched_at_front(call("solve", {a, b}, attrs));
  });
  attach.batch("einsum", einsum_rule);

  // Derivatives.
  // Multilinear: the sum over operands of the einsum with that operand replaced by its tangent.
  attach.jvp("einsum", [](const JvpCall& c) -> TensorList {
    Tensor tangent;
    for (std::size_t k = 0; k < c.primals.size(); ++k) {
      if (!c.tangents[k].defined()) continue;
      TensorList operands = c.primals;
      operands[k] = c.tangents[k];
      tangent = add_tangents(tangent, call_one("einsum", operands, c.attrs));
    }
    return {tangent};
  });
  attach.transpose("einsum", [](const TransposeCall& c) -> TensorList {
    const auto linear_count = std::count(c.linear.begin(), c.linear.end(), true);
    FUNCSPEC_INTERNAL_ASSERT(linear_count == 1, "einsum is linear in one operand at a time, not in several");
    const auto linear_operand =
        static_cast<std::size_t>(std::find(c.linear.begin(), c.linear.end(), true) - c.linear.begin());
    TensorList cotangents(c.inputs.size());
    cotangents[linear_operand] = ops::to_dtype(einsum_transpose(c, linear_operand), c.metas[linear_operand].dtype);
    return cotangents;
  });

  for (const char* name : {"tril", "triu"}) {
    const std::string op = name;
    attach.jvp(op, [op](const JvpCall& c) -> TensorList { return {call_one(op, {c.tangents[0]}, c.attrs)}; });
    // A mask is its own transpose.
    attach.transpose(op,
                     [op](const TransposeCall& c) -> TensorList { return {call_one(op, {c.cotangents[0]}, c.attrs)}; });
  }

  // d det(A) = sum_ij cofactor(A)_ij dA_ij (Jacobi's formula), which PyTorch writes det(A) tr(A^-1 dA)
  // for invertible A; the cofactors are also right for singular A. A 0x0 matrix has the constant
  // det 1.
  attach.jvp("det", [](const JvpCall& c) -> TensorList {
    if (c.primals[0].size(-1) == 0) return {Tensor()};
    const auto [minor_dets, sign] = cofactors(c.primals[0]);
    return {ops::einsum("...ij,ij,...ij->...", {minor_dets, sign, c.tangents[0]})};
  });
  // d log|det A| = tr(A^-1 dA); the sign is piecewise constant.
  attach.jvp("slogdet", [](const JvpCall& c) -> TensorList {
    return {Tensor(), ops::einsum("...ij,...ji->...", {ops::inverse(c.primals[0]), c.tangents[0]})};
  });
  // d A^-1 = -A^-1 dA A^-1.
  attach.jvp("inverse", [](const JvpCall& c) -> TensorList {
    const Tensor& inverse = c.outputs[0];
    return {ops::einsum("...ij,...jk,...kl->...il", {ops::neg(inverse), c.tangents[0], inverse})};
  });
  // A X = B gives A dX = dB - dA X (X A = B: dX A = dB - X dA): dX solves the same system with the
  // right-hand side moved by dA. The inputs are canonical: A and B share their batch dims.
  attach.jvp("solve", [](const JvpCall& c) -> TensorList {
    const Tensor& a = c.primals[0];
    const Tensor& x = c.outputs[0];
    const bool left = c.attrs.get_bool("left");
    Tensor rhs = c.tangents[1];
    if (c.tangents[0].defined()) {
      const bool vector_rhs = x.dim() == a.dim() - 1;
      const Tensor moved =
          left ? ops::einsum(vector_rhs ? "...ij,...j->...i" : "...ij,...jk->...ik", {c.tangents[0], ops::neg(x)})
               : ops::einsum(vector_rhs ? "...j,...jk->...k" : "...ij,...jk->...ik", {ops::neg(x), c.tangents[0]});
      rhs = add_tangents(rhs, moved);
    }
    if (!rhs.defined()) return {Tensor()};
    return {call_one("solve", {a, rhs}, c.attrs)};
  });
  // Linear in B for a constant A: X = A^-1 B pulls a cotangent G back to A^-T G (X = B A^-1: to
  // G A^-T), which is solve with A^T on the same side.
  attach.transpose("solve", [](const TransposeCall& c) -> TensorList {
    FUNCSPEC_INTERNAL_ASSERT(!c.linear[0], "solve is linear in B only, with A constant");
    return {Tensor(), call_one("solve", {matrix_transpose(c.inputs[0]), c.cotangents[0]}, c.attrs)};
  });

  register_linalg_lu_rules(attach);
  register_linalg_triangular_rules(attach);
  register_linalg_qr_rules(attach);
  register_linalg_pinv_rules(attach);
}

}  // namespace funcspec::transforms
