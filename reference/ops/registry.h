#pragma once
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "reference/ops/op_def.h"

namespace funcspec {

// The op catalogue: every op declared once (NOTE: [op schema], NOTE: [op kinds]) with its transform
// rules (NOTE: [op rules]). Built on first use by calling each family's registration function, then
// the families' rule registrations; immutable after, but for ops that tests declare themselves.
class OpRegistry {
 public:
  static OpRegistry& instance();

  const OpDef* find(std::string_view name) const;
  // Like find, but an unknown name is an `unknown_op` error that suggests near names.
  const OpDef& get(std::string_view name) const;
  // Every op, ordered by family then name.
  std::vector<const OpDef*> all() const;

  // Declares an op from its schema; the caller fills in the functions its kind needs.
  OpDef& add(std::string_view schema, OpKind kind, std::string family, std::string summary);
  OpDef& add(OpSchema schema, OpKind kind, std::string family, std::string summary);
  // A declared op, to attach what another layer defines for it (its transform rules); nullptr when
  // the catalogue does not declare it.
  OpDef* find_mutable(std::string_view name);

 private:
  OpRegistry() = default;
  void validate() const;
  std::map<std::string, std::unique_ptr<OpDef>, std::less<>> ops_;
};

}  // namespace funcspec
