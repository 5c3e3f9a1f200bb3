#pragma once
// NOTE: [op recorder]
// Which ops a program executes, as the ops reach one point of the interpreter stack. An OpRecorder
// pushes a transparent level (NOTE: [interpreter stack]) for as long as it lives: every op call
// that reaches the level is logged and passed on, untouched, to the levels below. Since composites
// and derived variants decompose before any interpreter sees them (NOTE: [dispatch]), the log
// holds what actually runs: primitives, views, and copy_ for every in-place write.
//
// Placed under a transform, it shows what the transform hands down. functionalize's claims are
// shown this way (docs/functionalize.md):
//
//   OpRecorder recorder;
//   functionalize(f)(args);
//   recorder.count(OpKind::InPlace);  // the copy_ of each mutated argument, at the end, and no other
//
// Under vmap, make the recorder inside the vmapped function to see what reaches vmap, or outside
// the vmap to see what vmap's rules execute. Recorders nest like transforms.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "reference/ops/op_def.h"
#include "reference/transforms/interpreter.h"

namespace funcspec::transforms {

struct RecordedOp {
  std::string name;
  OpKind kind = OpKind::Primitive;
};

class OpRecorder {
 public:
  OpRecorder();
  ~OpRecorder();
  OpRecorder(const OpRecorder&) = delete;
  OpRecorder& operator=(const OpRecorder&) = delete;

  // Every op that reached the level, in order.
  const std::vector<RecordedOp>& ops() const;
  std::vector<std::string> names() const;
  // How many recorded ops are of `kind`.
  std::size_t count(OpKind kind) const;
  // How many recorded ops are named `name`.
  std::size_t count(const std::string& name) const;

 private:
  class Level;
  std::shared_ptr<Level> level_;
  std::unique_ptr<InterpreterGuard> guard_;
};

}  // namespace funcspec::transforms
