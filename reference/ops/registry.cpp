#include "reference/ops/registry.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "reference/core/error.h"
#include "reference/ops/registration.h"
#include "reference/transforms/op_rules.h"

namespace funcspec {
namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string_view op_kind_name(OpKind kind) {
  switch (kind) {
    case OpKind::Primitive: return "primitive";
    case OpKind::Composite: return "composite";
    case OpKind::View: return "view";
    case OpKind::InPlace: return "in-place";
    case OpKind::OutVariant: return "out=";
    case OpKind::Random: return "random";
    case OpKind::DynamicShape: return "dynamic-shape";
    case OpKind::ScalarExtraction: return "scalar-extraction";
    case OpKind::Custom: return "custom";
  }
  return "?";
}

OpRegistry& OpRegistry::instance() {
  static OpRegistry* registry = [] {
    auto* r = new OpRegistry();
    register_conversion_ops(*r);
    register_creation_ops(*r);
    register_unary_ops(*r);
    register_binary_ops(*r);
    register_reduce_ops(*r);
    register_linalg_ops(*r);
    register_distance_ops(*r);
    register_scan_ops(*r);
    register_view_ops(*r);
    register_view_copy_ops(*r);
    register_index_ops(*r);
    register_composite_ops(*r);
    register_activation_ops(*r);
    register_loss_ops(*r);
    register_dropout_ops(*r);
    register_convolution_ops(*r);
    register_pooling_ops(*r);
    register_attention_ops(*r);
    register_normalization_ops(*r);
    register_resampling_ops(*r);
    register_special_ops(*r);
    register_random_ops(*r);
    register_dynamic_ops(*r);
    register_custom_ops(*r);
    register_variant_ops(*r);
    transforms::register_rules(*r);
    r->validate();
    return r;
  }();
  return *registry;
}

const OpDef* OpRegistry::find(std::string_view name) const {
  auto it = ops_.find(name);
  return it == ops_.end() ? nullptr : it->second.get();
}

OpDef* OpRegistry::find_mutable(std::string_view name) {
  auto it = ops_.find(name);
  return it == ops_.end() ? nullptr : it->second.get();
}

const OpDef& OpRegistry::get(std::string_view name) const {
  if (const OpDef* op = find(name)) return *op;
  std::vector<std::string> near;
  for (const auto& [other, _] : ops_) {
    if (edit_distance(name, other) <= 2) near.push_back(other);
  }
  fail(ErrorKind::UnknownOp, "unknown op '{}'{}", name,
       near.empty() ? std::string() : fmt::format(" (did you mean: {}?)", fmt::join(near, ", ")));
}

std::vector<const OpDef*> OpRegistry::all() const {
  std::vector<const OpDef*> out;
  for (const auto& [_, op] : ops_) out.push_back(op.get());
  std::stable_sort(out.begin(), out.end(), [](const OpDef* a, const OpDef* b) { return a->family < b->family; });
  return out;
}

OpDef& OpRegistry::add(std::string_view schema, OpKind kind, std::string family, std::string summary) {
  return add(parse_schema(schema), kind, std::move(family), std::move(summary));
}

OpDef& OpRegistry::add(OpSchema schema, OpKind kind, std::string family, std::string summary) {
  auto op = std::make_unique<OpDef>();
  op->schema = std::move(schema);
  op->kind = kind;
  op->family = std::move(family);
  op->summary = std::move(summary);
  op->random = kind == OpKind::Random;
  const std::string name = op->schema.name;
  FUNCSPEC_INTERNAL_ASSERT(!ops_.contains(name), fmt::format("op '{}' declared twice", name));
  OpDef& ref = *op;
  ops_.emplace(name, std::move(op));
  return ref;
}

// Every op must carry what its kind needs; a gap is a bug in the catalogue, caught at start-up.
void OpRegistry::validate() const {
  for (const auto& [name, op] : ops_) {
    switch (op->kind) {
      case OpKind::Composite:
      case OpKind::OutVariant:
        FUNCSPEC_INTERNAL_ASSERT(op->decompose != nullptr, fmt::format("{} has no decomposition", name));
        break;
      case OpKind::Custom:
        FUNCSPEC_INTERNAL_ASSERT(op->decompose != nullptr && op->rules != nullptr,
                                 fmt::format("{} lacks its forward or its rules", name));
        break;
      case OpKind::InPlace:
        FUNCSPEC_INTERNAL_ASSERT(op->decompose != nullptr || (op->infer && op->cpu_kernel),
                                 fmt::format("{} has neither a decomposition nor a kernel", name));
        break;
      case OpKind::View:
        FUNCSPEC_INTERNAL_ASSERT(op->view != nullptr, fmt::format("{} has no view function", name));
        break;
      case OpKind::Primitive:
      case OpKind::Random:
        FUNCSPEC_INTERNAL_ASSERT(op->infer && op->cpu_kernel, fmt::format("{} lacks infer or a cpu kernel", name));
        break;
      case OpKind::DynamicShape:
      case OpKind::ScalarExtraction:
        FUNCSPEC_INTERNAL_ASSERT(op->cpu_kernel != nullptr, fmt::format("{} lacks a cpu kernel", name));
        break;
    }
    for (const ArgSpec& a : op->schema.args) {
      if (a.default_value && std::holds_alternative<std::monostate>(*a.default_value)) {
        FUNCSPEC_INTERNAL_ASSERT(a.optional, fmt::format("{}: None default on non-optional '{}'", name, a.name));
      }
    }
  }
}

}  // namespace funcspec
