#pragma once
// NOTE: [interpreter stack]
// Each running transform (one vmap, one grad, one jvp call) is an Interpreter with its own integer
// level, pushed on this thread's stack by an InterpreterGuard for as long as the transformed
// function runs. The dispatcher hands every op call to the innermost *visible* interpreter
// (composites decompose first, so interpreters only see what has rules). An interpreter computes
// on the values its tensors wrap by calling ops inside a LowerScope, which hides it and the levels
// above it, so those calls reach the interpreters below: vmap(vmap(f)) batches twice, and
// grad(vmap(f)) records a tape of batched computations.
//
// Levels are never reused. A tensor whose level is no longer on the stack escaped its transform
// (it was stored outside the function and used after the transform returned): using it raises
// transform_escaped rather than computing with a meaningless wrapper.
#include <cstddef>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "reference/core/tensor.h"
#include "reference/ops/attrs.h"

namespace funcspec {
struct OpDef;
}

namespace funcspec::transforms {

// Jvp carries tangents (forward mode; grad and vjp run it over a Linear trace, NOTE: [reverse mode]).
// Compliance is not a transform users call but a checking mode (NOTE: [composite compliance]).
// Functionalize rewrites mutations (and views) into functional ops.
enum class TransformKind { Vmap, Jvp, Linear, Compliance, Functionalize };

class Interpreter {
 public:
  explicit Interpreter(TransformKind kind);  // takes a fresh level
  virtual ~Interpreter() = default;
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  TransformKind kind() const { return kind_; }
  int level() const { return level_; }

  // One op call made while this interpreter is the innermost visible one. `inputs` may hold
  // tensors of this level, of lower levels and plain tensors.
  virtual TensorList process(const OpDef& op, const TensorList& inputs, const Attrs& attrs) = 0;

  // An out= variant is about to be called while this interpreter is on the stack. It decomposes into
  // its functional op and a copy_ into `out` before any interpreter sees it (NOTE: [derived
  // variants]); an interpreter for which out= cannot work says so here, before the copy_ would raise
  // something that hides the cause. Raises, or returns to let the call go on.
  virtual void check_out_variant(const OpDef& /*op*/, const TensorList& /*inputs*/) const {}

 private:
  TransformKind kind_;
  int level_;
};

// Pushes `interpreter` for the guard's lifetime; guards nest strictly.
class InterpreterGuard {
 public:
  explicit InterpreterGuard(std::shared_ptr<Interpreter> interpreter);
  ~InterpreterGuard();
  InterpreterGuard(const InterpreterGuard&) = delete;
  InterpreterGuard& operator=(const InterpreterGuard&) = delete;

 private:
  std::shared_ptr<Interpreter> interpreter_;
};

// Hides `interpreter` (and anything above it) from the dispatcher for the scope's lifetime.
class LowerScope {
 public:
  explicit LowerScope(const Interpreter& interpreter);
  ~LowerScope();
  LowerScope(const LowerScope&) = delete;
  LowerScope& operator=(const LowerScope&) = delete;

 private:
  std::size_t saved_visible_;
};

// Hides every interpreter: ops run on plain tensors (and on meta placeholders of wrapped ones).
class NoTransformScope {
 public:
  NoTransformScope();
  ~NoTransformScope();
  NoTransformScope(const NoTransformScope&) = delete;
  NoTransformScope& operator=(const NoTransformScope&) = delete;

 private:
  std::size_t saved_visible_;
};

// The innermost interpreter visible to the dispatcher, or nullptr when none is.
Interpreter* visible_interpreter();

// The interpreter of `level` while it is on the stack, else nullptr.
Interpreter* active_interpreter(int level);

// Asks every interpreter on the stack, innermost first, whether out= variant `op` may be called on
// `inputs` (Interpreter::check_out_variant); the dispatcher calls it while an interpreter is visible.
void check_out_variant(const OpDef& op, const TensorList& inputs);

// NOTE: [written inputs]
// An op that writes into inputs (`Tensor(a!) self`: in-place ops, out= variants, copy_) returns the
// very tensors it wrote into, as the results annotated with the same letter (`-> Tensor(a!)`). An
// interpreter computes such an op on the values below its level, whose results are new tensors
// there; it hands back the caller's tensors themselves for those results, and wraps the others.

// Positions of the tensor inputs `op` writes into (`Tensor(a!)`).
std::vector<std::size_t> written_inputs(const OpDef& op);

// The position of the input that result `k` of `op` is, when it is one `op` wrote into; nullopt for
// a result `op` computes, and for an input beyond the `input_count` given.
std::optional<std::size_t> returned_written_input(const OpDef& op, std::size_t k, std::size_t input_count);

// The results an interpreter hands back for `op` called on `inputs`: for each of `result_count`
// results, the input it is where it is a written input, else `make(k)` (NOTE: [written inputs]).
template <typename T, typename Make>
std::vector<T> results_returning_written_inputs(const OpDef& op, const std::vector<T>& inputs, std::size_t result_count,
                                                Make&& make) {
  std::vector<T> results;
  results.reserve(result_count);
  for (std::size_t k = 0; k < result_count; ++k) {
    const std::optional<std::size_t> written = returned_written_input(op, k, inputs.size());
    results.push_back(written ? inputs[*written] : make(k));
  }
  return results;
}

// Raises transform_escaped when an input belongs to a transform that has returned.
void check_not_escaped(std::string_view op, const TensorList& inputs);

}  // namespace funcspec::transforms
