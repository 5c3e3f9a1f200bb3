#include "reference/transforms/op_recorder.h"

#include <algorithm>

#include "reference/ops/dispatch.h"

namespace funcspec::transforms {

// The recording level wraps nothing: it logs the call and makes it again below itself, so what it
// returns is exactly what the levels below return. It takes the Functionalize kind because it
// exists to show what functionalize executes; no code dispatches on an interpreter's kind.
class OpRecorder::Level final : public Interpreter {
 public:
  Level() : Interpreter(TransformKind::Functionalize) {}
  TensorList process(const OpDef& op, const TensorList& inputs, const Attrs& attrs) override {
    ops_.push_back({op.name(), op.kind});
    LowerScope lower(*this);
    return call(op, inputs, attrs);
  }
  const std::vector<RecordedOp>& ops() const { return ops_; }

 private:
  std::vector<RecordedOp> ops_;
};

OpRecorder::OpRecorder() : level_(std::make_shared<Level>()), guard_(std::make_unique<InterpreterGuard>(level_)) {}

OpRecorder::~OpRecorder() = default;

const std::vector<RecordedOp>& OpRecorder::ops() const { return level_->ops(); }

std::vector<std::string> OpRecorder::names() const {
  std::vector<std::string> out;
  for (const RecordedOp& op : ops()) out.push_back(op.name);
  return out;
}

std::size_t OpRecorder::count(OpKind kind) const {
  return static_cast<std::size_t>(
      std::count_if(ops().begin(), ops().end(), [kind](const RecordedOp& op) { return op.kind == kind; }));
}

std::size_t OpRecorder::count(const std::string& name) const {
  return static_cast<std::size_t>(
      std::count_if(ops().begin(), ops().end(), [&name](const RecordedOp& op) { return op.name == name; }));
}

}  // namespace funcspec::transforms
