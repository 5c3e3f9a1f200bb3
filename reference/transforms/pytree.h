#pragma once
// NOTE: [pytrees]
// Transforms take and return nested structures of tensors, as torch.func and JAX do: a PyTree is
// a tensor, a scalar, None, or a tuple, list or dict (string keys, in insertion order) of PyTrees.
// A transform's per-argument options (vmap's in_dims, out_dims) are PyTrees too, and may be a
// *prefix* of the structure they describe: a leaf option applies to every leaf below that point.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "reference/core/scalar.h"
#include "reference/core/tensor.h"

namespace funcspec::transforms {

class PyTree {
 public:
  enum class Kind { Tensor, Scalar, None, Tuple, List, Dict };

  PyTree() : kind_(Kind::None) {}
  PyTree(Tensor tensor) : kind_(Kind::Tensor), tensor_(std::move(tensor)) {}  // NOLINT: a leaf converts
  PyTree(Scalar scalar) : kind_(Kind::Scalar), scalar_(scalar) {}             // NOLINT
  PyTree(std::int64_t value) : PyTree(Scalar(value)) {}                       // NOLINT: in_dims=0
  PyTree(int value) : PyTree(Scalar(static_cast<std::int64_t>(value))) {}     // NOLINT
  static PyTree none() { return PyTree(); }
  static PyTree tuple(std::vector<PyTree> items);
  static PyTree list(std::vector<PyTree> items);
  static PyTree dict(std::vector<std::pair<std::string, PyTree>> items);

  Kind kind() const { return kind_; }
  bool is_leaf() const { return kind_ == Kind::Tensor || kind_ == Kind::Scalar || kind_ == Kind::None; }
  bool is_tensor() const { return kind_ == Kind::Tensor; }
  bool is_none() const { return kind_ == Kind::None; }
  const Tensor& tensor() const;
  const Scalar& scalar() const;
  const std::vector<PyTree>& children() const { return children_; }
  const std::vector<std::string>& keys() const { return keys_; }  // a dict's, parallel to children()
  std::vector<PyTree>& mutable_children() { return children_; }

  // The leaves, depth first, in order.
  std::vector<PyTree> leaves() const;
  std::size_t leaf_count() const;
  // The same structure with `leaves` in place of this tree's leaves (as many as leaf_count()).
  PyTree with_leaves(const std::vector<PyTree>& leaves) const;
  // "(tensor[2, 3], [int, None], {'w': tensor[3]})": for error messages.
  std::string describe() const;

 private:
  Kind kind_;
  Tensor tensor_;
  Scalar scalar_;
  std::vector<PyTree> children_;
  std::vector<std::string> keys_;
};

// Broadcasts a prefix tree of options over `structure`: one option per leaf of `structure`. The
// options must be leaves that are ints or None. Throws `kind` naming `what` ("in_dims") and the
// path when `prefix` does not fit.
std::vector<std::optional<std::int64_t>> broadcast_dims(const PyTree& prefix, const PyTree& structure,
                                                        std::string_view what, ErrorKind kind);

}  // namespace funcspec::transforms
