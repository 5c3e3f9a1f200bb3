#include "reference/transforms/interpreter.h"

#include <algorithm>
#include <atomic>
#include <vector>

#include "reference/core/error.h"
#include "reference/ops/op_def.h"

namespace funcspec::transforms {
namespace {

struct ThreadStack {
  std::vector<std::shared_ptr<Interpreter>> interpreters;  // outermost first
  std::size_t visible = 0;                                 // how many, from the bottom, the dispatcher sees
};

ThreadStack& stack() {
  thread_local ThreadStack instance;
  return instance;
}

int fresh_level() {
  static std::atomic<int> next{1};
  return next.fetch_add(1);
}

}  // namespace

Interpreter::Interpreter(TransformKind kind) : kind_(kind), level_(fresh_level()) {}

InterpreterGuard::InterpreterGuard(std::shared_ptr<Interpreter> interpreter) : interpreter_(std::move(interpreter)) {
  ThreadStack& s = stack();
  // A transform entered from inside a rule's computation would see a partial stack.
  FUNCSPEC_INTERNAL_ASSERT(s.visible == s.interpreters.size(), "a transform was entered inside a lowered op call");
  s.interpreters.push_back(interpreter_);
  s.visible = s.interpreters.size();
}

InterpreterGuard::~InterpreterGuard() {
  ThreadStack& s = stack();
  if (!s.interpreters.empty() && s.interpreters.back() == interpreter_) s.interpreters.pop_back();
  s.visible = std::min(s.visible, s.interpreters.size());
}

LowerScope::LowerScope(const Interpreter& interpreter) : saved_visible_(stack().visible) {
  ThreadStack& s = stack();
  const auto it = std::find_if(s.interpreters.begin(), s.interpreters.end(),
                               [&](const std::shared_ptr<Interpreter>& i) { return i.get() == &interpreter; });
  FUNCSPEC_INTERNAL_ASSERT(it != s.interpreters.end(), "lowering below an interpreter that is not on the stack");
  s.visible = std::min(s.visible, static_cast<std::size_t>(it - s.interpreters.begin()));
}

LowerScope::~LowerScope() { stack().visible = saved_visible_; }

NoTransformScope::NoTransformScope() : saved_visible_(stack().visible) { stack().visible = 0; }

NoTransformScope::~NoTransformScope() { stack().visible = saved_visible_; }

Interpreter* visible_interpreter() {
  const ThreadStack& s = stack();
  return s.visible == 0 ? nullptr : s.interpreters[s.visible - 1].get();
}

Interpreter* active_interpreter(int level) {
  for (const std::shared_ptr<Interpreter>& i : stack().interpreters) {
    if (i->level() == level) return i.get();
  }
  return nullptr;
}

void check_out_variant(const OpDef& op, const TensorList& inputs) {
  // Hidden levels are asked too: an input may carry a tensor of any level on the stack. Innermost
  // first, the order in which the call would reach them, so a refusal names the level nearest the caller.
  const std::vector<std::shared_ptr<Interpreter>>& interpreters = stack().interpreters;
  for (auto it = interpreters.rbegin(); it != interpreters.rend(); ++it) (*it)->check_out_variant(op, inputs);
}

std::vector<std::size_t> written_inputs(const OpDef& op) {
  std::vector<std::size_t> positions;
  const std::vector<const ArgSpec*> args = op.schema.tensor_args();
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i]->mutated) positions.push_back(i);
  }
  return positions;
}

std::optional<std::size_t> returned_written_input(const OpDef& op, std::size_t k, std::size_t input_count) {
  if (k >= op.schema.returns.size() || op.schema.returns[k].alias.empty()) return std::nullopt;
  const std::vector<const ArgSpec*> args = op.schema.tensor_args();
  for (std::size_t i = 0; i < args.size() && i < input_count; ++i) {
    if (args[i]->mutated && args[i]->alias == op.schema.returns[k].alias) return i;
  }
  return std::nullopt;
}

void check_not_escaped(std::string_view op, const TensorList& inputs) {
  for (const Tensor& t : inputs) {
    if (!t.defined() || t.payload() == nullptr) continue;
    FUNCSPEC_CHECK(active_interpreter(t.payload()->level()) != nullptr, ErrorKind::TransformEscaped,
                   "[{}] a tensor created inside a transform was used after the transform returned; return it "
                   "from the transformed function instead of storing it outside",
                   op);
  }
}

}  // namespace funcspec::transforms
