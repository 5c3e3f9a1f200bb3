#include "reference/transforms/pytree.h"

#include <fmt/format.h>

#include "reference/core/error.h"

namespace funcspec::transforms {

PyTree PyTree::tuple(std::vector<PyTree> items) {
  PyTree t;
  t.kind_ = Kind::Tuple;
  t.children_ = std::move(items);
  return t;
}

PyTree PyTree::list(std::vector<PyTree> items) {
  PyTree t;
  t.kind_ = Kind::List;
  t.children_ = std::move(items);
  return t;
}

PyTree PyTree::dict(std::vector<std::pair<std::string, PyTree>> items) {
  PyTree t;
  t.kind_ = Kind::Dict;
  for (auto& [key, value] : items) {
    t.keys_.push_back(std::move(key));
    t.children_.push_back(std::move(value));
  }
  return t;
}

const Tensor& PyTree::tensor() const {
  FUNCSPEC_INTERNAL_ASSERT(kind_ == Kind::Tensor, "PyTree::tensor() of a non-tensor");
  return tensor_;
}

const Scalar& PyTree::scalar() const {
  FUNCSPEC_INTERNAL_ASSERT(kind_ == Kind::Scalar, "PyTree::scalar() of a non-scalar");
  return scalar_;
}

std::vector<PyTree> PyTree::leaves() const {
  if (is_leaf()) return {*this};
  std::vector<PyTree> out;
  for (const PyTree& child : children_) {
    std::vector<PyTree> below = child.leaves();
    out.insert(out.end(), std::make_move_iterator(below.begin()), std::make_move_iterator(below.end()));
  }
  return out;
}

std::size_t PyTree::leaf_count() const {
  if (is_leaf()) return 1;
  std::size_t count = 0;
  for (const PyTree& child : children_) count += child.leaf_count();
  return count;
}

namespace {

PyTree rebuild(const PyTree& structure, const std::vector<PyTree>& leaves, std::size_t& next) {
  if (structure.is_leaf()) return leaves.at(next++);
  PyTree copy = structure;
  for (PyTree& child : copy.mutable_children()) child = rebuild(child, leaves, next);
  return copy;
}

}  // namespace

PyTree PyTree::with_leaves(const std::vector<PyTree>& leaves) const {
  FUNCSPEC_INTERNAL_ASSERT(leaves.size() == leaf_count(), "with_leaves: wrong number of leaves");
  std::size_t next = 0;
  return rebuild(*this, leaves, next);
}

std::string PyTree::describe() const {
  switch (kind_) {
    case Kind::Tensor: return fmt::format("tensor{}", shape_to_string(tensor_.shape()));
    case Kind::Scalar: return fmt::format("{}", scalar_.to_string());
    case Kind::None: return "None";
    case Kind::Tuple:
    case Kind::List: {
      std::string out = kind_ == Kind::Tuple ? "(" : "[";
      for (std::size_t i = 0; i < children_.size(); ++i) out += (i ? ", " : "") + children_[i].describe();
      if (kind_ == Kind::Tuple && children_.size() == 1) out += ",";
      return out + (kind_ == Kind::Tuple ? ")" : "]");
    }
    case Kind::Dict: {
      std::string out = "{";
      for (std::size_t i = 0; i < children_.size(); ++i)
        out += fmt::format("{}'{}': {}", i ? ", " : "", keys_[i], children_[i].describe());
      return out + "}";
    }
  }
  return "?";
}

namespace {

std::optional<std::int64_t> dim_of(const PyTree& option, const std::string& path, std::string_view what,
                                   ErrorKind kind) {
  if (option.is_none()) return std::nullopt;
  if (option.kind() == PyTree::Kind::Scalar && option.scalar().is_integral()) return option.scalar().to<std::int64_t>();
  fail(kind, "[vmap] {} at {} must be an int or None, got {}", what, path.empty() ? "the top" : path,
       option.describe());
}

void broadcast_into(const PyTree& prefix, const PyTree& structure, const std::string& path, std::string_view what,
                    ErrorKind kind, std::vector<std::optional<std::int64_t>>& out) {
  if (prefix.is_leaf()) {
    const std::optional<std::int64_t> dim = dim_of(prefix, path, what, kind);
    for (std::size_t i = 0; i < structure.leaf_count(); ++i) out.push_back(dim);
    return;
  }
  const bool same_container =
      prefix.kind() == structure.kind() ||
      (prefix.kind() != PyTree::Kind::Dict && structure.kind() != PyTree::Kind::Dict && !structure.is_leaf());
  if (!same_container || prefix.children().size() != structure.children().size())
    fail(kind, "[vmap] {} {} does not match the structure {} at {}", what, prefix.describe(), structure.describe(),
         path.empty() ? "the top" : path);
  for (std::size_t i = 0; i < prefix.children().size(); ++i) {
    std::string child_path = prefix.kind() == PyTree::Kind::Dict ? fmt::format("{}['{}']", path, prefix.keys()[i])
                                                                 : fmt::format("{}[{}]", path, i);
    if (prefix.kind() == PyTree::Kind::Dict)
      if (prefix.keys()[i] != structure.keys()[i])
        fail(kind, "[vmap] {} has the key '{}' where {} has '{}'", what, prefix.keys()[i], structure.describe(),
             structure.keys()[i]);
    broadcast_into(prefix.children()[i], structure.children()[i], child_path, what, kind, out);
  }
}

}  // namespace

std::vector<std::optional<std::int64_t>> broadcast_dims(const PyTree& prefix, const PyTree& structure,
                                                        std::string_view what, ErrorKind kind) {
  std::vector<std::optional<std::int64_t>> out;
  broadcast_into(prefix, structure, "", what, kind, out);
  return out;
}

}  // namespace funcspec::transforms
