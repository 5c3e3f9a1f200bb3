#include "property_tests/generators.h"

#include <stdexcept>
#include <string>

namespace funcspec::properties {

namespace {

using transforms::PyTree;

// Structures are read off a list of small codes, consumed in order (0 once it runs out): RapidCheck
// shrinks the list towards fewer and smaller codes, and code 0 always means the simplest choice.
class CodeReader {
 public:
  explicit CodeReader(const std::vector<unsigned>& codes) : codes_(codes) {}
  unsigned next() { return at_ < codes_.size() ? codes_[at_++] : 0u; }

 private:
  const std::vector<unsigned>& codes_;
  std::size_t at_ = 0;
};

rc::Gen<std::vector<unsigned>> gen_codes() {
  return rc::gen::container<std::vector<unsigned>>(rc::gen::inRange(0u, 64u));
}

// kind 1: tuple, 2: list, 3: dict.
PyTree container(unsigned kind, std::vector<PyTree> children) {
  if (kind == 2) return PyTree::list(std::move(children));
  if (kind == 3) {
    std::vector<std::pair<std::string, PyTree>> items;
    for (std::size_t i = 0; i < children.size(); ++i)
      items.emplace_back(std::string(1, static_cast<char>('a' + i % 26)) + (i >= 26 ? std::to_string(i) : ""),
                         std::move(children[i]));
    return PyTree::dict(std::move(items));
  }
  return PyTree::tuple(std::move(children));
}

// `count` leaves as consecutive items, each a leaf or a container of the next few leaves.
std::vector<PyTree> items(CodeReader& codes, std::size_t count, int depth_left) {
  std::vector<PyTree> out;
  for (std::size_t placed = 0; placed < count;) {
    const unsigned code = codes.next();
    if (depth_left <= 0 || code % 4 == 0) {
      out.push_back(PyTree::none());
      ++placed;
      continue;
    }
    const std::size_t group = 1 + (code / 4) % (count - placed);
    out.push_back(container(code % 4, items(codes, group, depth_left - 1)));
    placed += group;
  }
  return out;
}

// The same container as `like` (kind and keys) over `children`.
PyTree same_container(const PyTree& like, std::vector<PyTree> children) {
  switch (like.kind()) {
    case PyTree::Kind::List: return PyTree::list(std::move(children));
    case PyTree::Kind::Dict: {
      std::vector<std::pair<std::string, PyTree>> items;
      for (std::size_t i = 0; i < children.size(); ++i) items.emplace_back(like.keys()[i], std::move(children[i]));
      return PyTree::dict(std::move(items));
    }
    default: return PyTree::tuple(std::move(children));
  }
}

class PrefixBuilder {
 public:
  PrefixBuilder(const std::vector<unsigned>& codes, const std::vector<std::optional<std::int64_t>>& ranks,
                bool allow_none)
      : codes_(codes), ranks_(ranks), allow_none_(allow_none) {}

  PyTree prefix(const PyTree& node) {
    if (node.is_leaf()) return leaf_option(codes_.next(), ranks_.at(next_leaf_++));
    const std::size_t first = next_leaf_;
    const std::size_t count = node.leaf_count();
    const unsigned code = codes_.next();
    bool all_tensors = count > 0;
    std::int64_t min_rank = 0;
    for (std::size_t i = first; i < first + count; ++i) {
      all_tensors = all_tensors && ranks_.at(i).has_value();
      if (ranks_.at(i)) min_rank = i == first ? *ranks_.at(i) : std::min(min_rank, *ranks_.at(i));
    }
    if (all_tensors && code % 3 == 0) {  // one option for the whole subtree
      next_leaf_ += count;
      return leaf_option(code / 3, min_rank);  // a dim in range for every leaf below
    }
    std::vector<PyTree> children;
    for (const PyTree& child : node.children()) children.push_back(prefix(child));
    return same_container(node, std::move(children));
  }

 private:
  PyTree leaf_option(unsigned code, std::optional<std::int64_t> rank) {
    if (!rank || (allow_none_ && code % 4 == 3)) return PyTree::none();
    return PyTree(batch_dim_choice(code / 4, *rank));
  }

  CodeReader codes_;
  const std::vector<std::optional<std::int64_t>>& ranks_;
  bool allow_none_;
  std::size_t next_leaf_ = 0;
};

// The full (not prefix) tree over `structure` with the first tensor leaf mapped at 0 and every other
// leaf None.
PyTree first_tensor_mapped(const PyTree& structure, const std::vector<std::optional<std::int64_t>>& ranks,
                           std::size_t& next_leaf, bool& placed) {
  if (structure.is_leaf()) {
    const bool here = !placed && ranks.at(next_leaf++).has_value();
    placed = placed || here;
    return here ? PyTree(0) : PyTree::none();
  }
  std::vector<PyTree> children;
  for (const PyTree& child : structure.children())
    children.push_back(first_tensor_mapped(child, ranks, next_leaf, placed));
  return same_container(structure, std::move(children));
}

}  // namespace

std::int64_t batch_dim_choice(unsigned pick, std::int64_t rank) {
  const auto j = static_cast<std::int64_t>(pick % static_cast<unsigned>(2 * (rank + 1)));
  return j <= rank ? j : -(j - rank);
}

rc::Gen<PyTree> gen_argument_structure(std::size_t leaves, int max_depth) {
  return rc::gen::map(gen_codes(), [leaves, max_depth](const std::vector<unsigned>& codes) {
    CodeReader reader(codes);
    return PyTree::tuple(items(reader, leaves, max_depth));
  });
}

rc::Gen<PyTree> gen_result_structure(std::size_t leaves, int max_depth) {
  return rc::gen::map(gen_codes(), [leaves, max_depth](const std::vector<unsigned>& codes) {
    CodeReader reader(codes);
    const unsigned code = reader.next();
    if (leaves == 1 && code % 4 == 0) return PyTree::none();
    return container(code % 4 == 0 ? 1 : code % 4, items(reader, leaves, max_depth - 1));
  });
}

rc::Gen<PyTree> gen_dims_prefix(const PyTree& structure, const std::vector<std::optional<std::int64_t>>& ranks,
                                bool allow_none) {
  if (ranks.size() != structure.leaf_count())
    throw std::invalid_argument("gen_dims_prefix: one rank per leaf of the structure is needed");
  return rc::gen::map(gen_codes(), [structure, ranks, allow_none](const std::vector<unsigned>& codes) {
    PrefixBuilder builder(codes, ranks, allow_none);
    PyTree dims = builder.prefix(structure);
    const std::vector<std::optional<std::int64_t>> per_leaf =
        transforms::broadcast_dims(dims, structure, "dims", ErrorKind::Internal);
    if (std::none_of(per_leaf.begin(), per_leaf.end(), [](const auto& d) { return d.has_value(); })) {
      std::size_t next_leaf = 0;
      bool placed = false;
      dims = first_tensor_mapped(structure, ranks, next_leaf, placed);
    }
    return dims;
  });
}

}  // namespace funcspec::properties
