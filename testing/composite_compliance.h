#pragma once
// NOTE: [composite compliance]
// A composite (NOTE: [op kinds]) gets every transform rule for free because it only calls ops, so
// every transform sees its parts. That holds only if it really does nothing but call ops: a
// composite that reads elements, calls item(), writes through out=, changes a tensor's metadata by
// hand or stores a transform's value into a plain tensor works on plain tensors and breaks under
// vmap or jvp. The checking mode finds such composites without any transform's help, as PyTorch's
// CompositeCompliantTensor does: an interpreter level (ComplianceInterpreter) whose wrappers,
// *checked* tensors, hold a real value and mirror its geometry, compute through every op by
// unwrapping, calling the op below and rewrapping, and refuse everything else:
//   data access              data(), storage(), Tensor::view_of of a checked tensor (NOTE: [direct access])
//   item()                   a ScalarExtraction op (item, is_nonzero) on a checked tensor
//   out=                     an out= variant called with a checked tensor, as an argument or as out
//   metadata change          a checked tensor whose geometry no longer matches its value's, or an input
//                            whose shape, strides, offset, storage or payload changed during the call
//   in-place into unchecked  an in-place op writing into a plain tensor from a checked one
// check_composite_compliance runs a composite with every checked/plain choice of its tensors, also
// under jvp and vjp (whose rules then meet checked primals, tangents and cotangents), and reports
// each rule broken, besides inputs written into and results that differ from the plain run's.
// docs/composite-compliance.md says why each rule exists and what PyTorch does.
//
// A test harness, not part of the engine: it lives in the testing library (funcspec_testing) that the
// tests and the property laws link. The engine only offers what any checking mode needs: payloads
// that say what they wrap (NOTE: [wrapper walk]), the out= hook of interpreters and the direct-access
// observer (NOTE: [direct access]).
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "reference/core/error.h"
#include "reference/ops/op_def.h"
#include "reference/transforms/interpreter.h"

namespace funcspec::transforms {

// The rules, as ComplianceViolation::rule names them.
namespace compliance_rule {
inline constexpr std::string_view kDataAccess = "data access";
inline constexpr std::string_view kItem = "item()";
inline constexpr std::string_view kOut = "out=";
inline constexpr std::string_view kMetadataChange = "metadata change";
inline constexpr std::string_view kInplaceIntoUnchecked = "in-place into unchecked";
// Found after a call rather than raised during it.
inline constexpr std::string_view kInputWritten = "in-place write to input";
inline constexpr std::string_view kResultMismatch = "result mismatch";
// The checked and the plain call disagree about raising: one raised and the other did not, or the
// kinds differ.
inline constexpr std::string_view kError = "error";
}  // namespace compliance_rule

// What a checked run raises (kind composite_noncompliant); `rule` is one of compliance_rule.
class ComplianceError final : public Error {
 public:
  ComplianceError(std::string_view rule, const std::string& message)
      : Error(ErrorKind::CompositeNoncompliant, message), rule_(rule) {}
  const std::string& rule() const noexcept { return rule_; }

 private:
  std::string rule_;
};

class CheckedPayload final : public TransformPayload {
 public:
  CheckedPayload(int level, Tensor value) : TransformPayload(level), value_(std::move(value)) {}
  const Tensor& value() const { return value_; }
  const Tensor* wrapped_values() const override { return &value_; }
  std::string_view description() const override { return "a checked tensor"; }

 private:
  Tensor value_;
};

class ComplianceInterpreter final : public Interpreter {
 public:
  // `composite`: the op under check, named in every error.
  explicit ComplianceInterpreter(std::string composite)
      : Interpreter(TransformKind::Compliance), composite_(std::move(composite)) {}
  const std::string& composite() const { return composite_; }
  TensorList process(const OpDef& op, const TensorList& inputs, const Attrs& attrs) override;
  // Raises the out= rule when an input carries a checked tensor of this level, looking through the
  // wrappers of the transforms above it (vjp and jvp checks put theirs there).
  void check_out_variant(const OpDef& op, const TensorList& inputs) const override;

 private:
  std::string composite_;
};

// `value` (a plain tensor, or one of a lower level) as a checked tensor of `level`: same geometry,
// dtype, device and wrapped-number flag, no storage.
Tensor make_checked(const Tensor& value, int level);
// The payload of `tensor` when it is a checked tensor of `level`, else nullptr.
const CheckedPayload* checked_payload(const Tensor& tensor, int level);

// While alive: a ComplianceInterpreter on the stack and data access of wrappers refused.
class ComplianceScope {
 public:
  explicit ComplianceScope(std::string composite);
  ~ComplianceScope();
  ComplianceScope(const ComplianceScope&) = delete;
  ComplianceScope& operator=(const ComplianceScope&) = delete;
  const ComplianceInterpreter& interpreter() const { return *interpreter_; }
  Tensor check(const Tensor& value) const { return make_checked(value, interpreter_->level()); }

 private:
  std::shared_ptr<ComplianceInterpreter> interpreter_;
  std::unique_ptr<DirectAccessObserver> refuser_;
  std::unique_ptr<DirectAccessScope> access_scope_;
  std::unique_ptr<InterpreterGuard> guard_;
};

enum class ComplianceMode { Forward, Vjp, Jvp };
std::string_view compliance_mode_name(ComplianceMode mode);

struct ComplianceViolation {
  std::string op;  // the composite
  ComplianceMode mode;
  std::string combination;  // e.g. "x0:checked x1:plain ct0:checked" (x: inputs, t: tangents, ct: cotangents)
  std::string rule;         // one of compliance_rule
  std::string message;      // the error raised, or what the check after the call found
};

// Runs `op` (a composite) on `inputs`/`attrs` for every checked/plain combination of its tensor
// inputs (Forward), of inputs and cotangents (Vjp: vjp of the op at its floating inputs, pulled
// back with cotangents drawn from the results' shapes and `seed`), or of inputs and tangents (Jvp:
// one per floating input, drawn from `seed`). Integer and bool inputs get no tangent or cotangent;
// an op without floating inputs has nothing to check in Vjp and Jvp. Up to 6 tensors all 2^n
// combinations run; beyond, a deterministic subset of 64 (all plain, all checked, each one alone
// checked, each one alone plain, then masks drawn from `seed`). Every run starts from fresh copies
// of the inputs (same geometry) and the random generator seeded with `seed`, and its results
// (primal results, tangents or input cotangents) must equal the plain run's exactly; when the
// plain run raises (a sample the op rejects), every run must raise the same kind. Returns every
// violation; empty means compliant.
std::vector<ComplianceViolation> check_composite_compliance(const OpDef& op, const TensorList& inputs,
                                                            const Attrs& attrs, ComplianceMode mode,
                                                            std::uint64_t seed);

}  // namespace funcspec::transforms
