#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reference/ops/attrs.h"

namespace funcspec {

enum class ArgType {
  TensorArg,
  TensorListArg,
  BoolArg,
  IntArg,
  FloatArg,
  StringArg,
  IntListArg,
  ScalarArg,
  DTypeArg,
  FloatListArg,  // `float[]`: per-dim factors (interpolate's scale_factor)
};

struct ArgSpec {
  std::string name;
  ArgType type = ArgType::TensorArg;
  bool optional = false;  // `T?`: may be None (an undefined tensor, or monostate)
  std::string alias;      // `Tensor(a)`: the result may alias this input
  bool mutated = false;   // `Tensor(a!)`: the op writes into this input
  std::optional<AttrValue> default_value;
  bool keyword_only = false;  // declared after `*`

  bool is_tensor() const { return type == ArgType::TensorArg || type == ArgType::TensorListArg; }
};

struct ReturnSpec {
  ArgType type = ArgType::TensorArg;
  std::string name;
  std::string alias;  // aliases the input annotated with the same letter
};

// NOTE: [op schema]
// Every op is declared once by a schema string in PyTorch's notation, e.g.
//   "sum(Tensor self, int[]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor"
// Tensor-typed arguments are the op's *inputs*, passed positionally in declaration order (a
// `Tensor[]` takes the rest of the list; an optional one may be an undefined Tensor); every other
// argument is an *attribute*, passed by name. Operands that take part in type promotion are
// declared Tensor even where a literal is usual (`add(Tensor self, Tensor other)`): a literal is
// passed as a wrapped-number tensor.
struct OpSchema {
  std::string name;
  std::vector<ArgSpec> args;
  std::vector<ReturnSpec> returns;

  std::vector<const ArgSpec*> tensor_args() const;
  std::vector<const ArgSpec*> attr_args() const;
  const ArgSpec* find_arg(std::string_view arg_name) const;
  std::string to_string() const;
};

OpSchema parse_schema(std::string_view text);

// Checks `given` against the schema's attributes and returns them complete: defaults filled in and
// values coerced to the declared type (an int where a float or an int list is declared, a number
// where a Scalar is). Unknown names, missing required attributes and wrong types are
// `invalid_argument` errors naming the op.
Attrs bind_attrs(const OpSchema& schema, const Attrs& given);

}  // namespace funcspec
