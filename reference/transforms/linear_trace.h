#pragma once
// NOTE: [reverse mode]
// Reverse mode is linearize-and-transpose, as in JAX: grad, vjp and jacrev run f under a jvp level
// whose tangents are not numbers but *linear variables* of a LinearInterpreter one level below.
// The jvp rules compute tangents with linear ops (NOTE: [derivative rules]); each such op reaches
// the linear level, which records it on a tape, with its primal-derived operands as constants,
// instead of computing it. The tape is then a program for the linear map t -> J t:
//  - linearize's jvp_fn evaluates it on new tangents (f is not run again: the tape holds every
//    intermediate it needs);
//  - vjp's vjp_fn runs it backwards, each op through its transpose rule, giving u -> J^T u.
// Ops on constants alone pass through the linear level untouched, so the primal computation runs
// once, eagerly, as f would without transforms. Nested transforms need nothing special: an outer
// transform's wrappers are constants of an inner tape, and replaying or transposing the tape calls
// ordinary ops that the outer transforms (still running) see.
#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "reference/ops/op_def.h"
#include "reference/transforms/interpreter.h"

namespace funcspec::transforms {

struct LinearNode {
  const OpDef* op = nullptr;
  // Owns `op` when it is not the catalogue's: the step a custom function records, made for the
  // one call (NOTE: [custom functions on the tape] in custom_function.h).
  std::shared_ptr<const OpDef> owned_op;
  Attrs attrs;
  TensorList constants;                 // undefined where the input is a linear variable
  std::vector<std::int64_t> input_ids;  // the variable at each input, -1 for a constant
  std::vector<TensorMeta> input_metas;
  std::vector<std::int64_t> output_ids;
  std::vector<TensorMeta> output_metas;
};

class LinearTape {
 public:
  std::int64_t new_variable(TensorMeta meta, Device device);
  const TensorMeta& meta(std::int64_t id) const { return metas_.at(static_cast<std::size_t>(id)); }
  Device device(std::int64_t id) const { return devices_.at(static_cast<std::size_t>(id)); }
  std::size_t variable_count() const { return metas_.size(); }
  void record(LinearNode node) { nodes_.push_back(std::move(node)); }
  // Replaces every saved constant whose values live in `memory` (memory_identity, NOTE: [wrapper walk])
  // by `copy` of it (before an in-place write into that memory).
  void snapshot_constants_sharing(const void* memory, const std::function<Tensor(const Tensor&)>& copy);
  const std::vector<LinearNode>& nodes() const { return nodes_; }

  // The values of `outputs` given the values of `inputs` (undefined: zero): the forward linear map.
  TensorList evaluate(const std::vector<std::int64_t>& inputs, const TensorList& input_values,
                      const std::vector<std::int64_t>& outputs) const;
  // The cotangents of `inputs` given those of `outputs` (undefined: zero): the transposed map.
  // Inputs that nothing reaches get undefined cotangents.
  TensorList transpose(const std::vector<std::int64_t>& inputs, const std::vector<std::int64_t>& outputs,
                       const TensorList& output_cotangents) const;

 private:
  std::vector<TensorMeta> metas_;
  std::vector<Device> devices_;
  std::vector<LinearNode> nodes_;
};

class LinearPayload final : public TransformPayload {
 public:
  LinearPayload(int level, std::int64_t id) : TransformPayload(level), id_(id) {}
  std::int64_t id() const { return id_; }
  const Tensor* wrapped_values() const override { return nullptr; }  // a variable of the tape, no values
  std::string_view description() const override { return "a linear variable of a vjp trace"; }

 private:
  std::int64_t id_;
};

class LinearInterpreter final : public Interpreter {
 public:
  explicit LinearInterpreter(std::shared_ptr<LinearTape> tape)
      : Interpreter(TransformKind::Linear), tape_(std::move(tape)) {}
  TensorList process(const OpDef& op, const TensorList& inputs, const Attrs& attrs) override;

  // A fresh linear variable, as a tensor of this level.
  Tensor variable(const TensorMeta& meta, Device device);
  // The variable `tensor` is at this level, or -1 when it is not one of this level's.
  std::int64_t variable_id(const Tensor& tensor) const;
  const std::shared_ptr<LinearTape>& tape() const { return tape_; }

 private:
  std::shared_ptr<LinearTape> tape_;
};

}  // namespace funcspec::transforms
