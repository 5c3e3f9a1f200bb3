#pragma once
// NOTE: [interpreter stack]
// Each running transform (one vmap, one grad, one jvp call) is an Interpreter with its own integer
// level, pushed on this thread's stack by an InterpreterGuard for as long as the transformed
// function runs. The dispatcher hands every op call to the innermost *visible* interpreter
// (composites decompose first, so interpreters only see what has rules). An interpreter computes
// on the values its tensors wrap by calling ops inside a LowerScope, which hides it and the levels
// above it, so those calls reach the interpreters below: vmap(vmap(f)) batches twice, and later
// grad(vmap(f)) records a tape of batched computations.
//
// Levels are never reused. A tensor whose level is no longer on the stack escaped its transform
// (it was stored outside the function and used after the transform returned): using it raises
// transform_escaped rather than computing with a meaningless wrapper.
#include <memory>
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

// Positions of the tensor inputs `op` writes into (`Tensor(a!)`); the k-th is returned as result k.
std::vector<std::size_t> written_inputs(const OpDef& op);

// Raises transform_escaped when an input belongs to a transform that has returned.
void check_not_escaped(std::string_view op, const TensorList& inputs);

}  // namespace funcspec::transforms
