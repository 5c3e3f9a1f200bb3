#include "reference/transforms/functionalize.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "reference/core/wrapper_walk.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"
#include "reference/transforms/interpreter.h"

namespace funcspec::transforms {

// NOTE: [functionalization]
// functionalize(f) runs f under a level (NOTE: [interpreter stack]) whose tensors are *functional*:
// wrappers (NOTE: [transform payloads]) whose value, below the level, is never written. Memory
// shared in f is modelled by an alias group, which stands for a storage: the group holds the
// current value of its *base* (an argument of f, or the result of a non-view op), and each member
// holds the chain of view ops (with their attributes) that takes the base to it. Then:
//  - a non-view op computes on the members' values below the level; each result starts a group;
//  - a view op adds a step to its input's chain and computes the step on the input's value: the
//    view op itself under remove='mutations', its copying twin under 'mutations_and_views' (NOTE:
//    [view copies]);
//  - a write copy_(self, src) (every in-place op and out= variant is one, NOTE: [derived variants])
//    computes self's new value functionally (src converted to self's dtype and expanded to its
//    shape, as a copy), then the base's new value by walking self's chain back from self to the
//    base, each step undone by its inverse: select, slice and diagonal scatter the new values into
//    the step's input (select_scatter, ...), permute permutes back, the reshaping views (view,
//    squeeze, unsqueeze, expand) reshape back, detach passes the values through. The group's
//    version goes up, and every other member recomputes its value from the new base, by replaying
//    its chain, the next time an op reads it.
// So below the level nothing is ever written, and every read sees what it would see in f. What f
// sees of a tensor besides its values is kept too: each wrapper has the shape, strides and offset
// the tensor has in f (a view's geometry comes from the view's own geometry function applied to a
// storage-less mirror of its input), so composites decide as in f (reshape views or copies,
// contiguous copies or not) and views and writes raise what they raise in f (view_incompatible,
// internal_overlap, ...). A replayed `view` is computed as reshape (or view_copy), since a value
// recomputed after a write may be laid out differently from the tensor f sees.
//
// At the end, the result's tensors are unwrapped (each is its current value), and every argument
// whose group was written receives its final value through one copy_, below the level, as
// torch.func.functionalize does. If f raises, nothing is written.
//
// What the reference refuses rather than guess: a write into a tensor that is neither an argument
// nor made inside f (functionalize_captured_mutation: the write could not reach it, or could only
// by being the in-place op functionalize removes); a write into an argument that shares memory
// with another argument (functionalize_aliased_inputs: the arguments are separate groups, so the
// other would not see the write; the same tensor passed twice is one argument and is fine); and a
// write through a view of a tensor whose own elements share memory (an expanded tensor:
// internal_overlap, since one element written changes several of its elements, which no inverse
// of the view can say).
namespace {

struct FunctionalViewStep {
  const OpDef* op = nullptr;
  Attrs attrs;
};

// An alias group: what f sees as one storage.
struct FunctionalStorage {
  Tensor base;         // the base's current value, below the level
  Tensor base_mirror;  // the base as f sees it (geometry and dtype only, on meta)
  std::uint64_t version = 0;
  std::string argument;                        // "args[0]" when the base is an argument of f
  std::vector<std::string> aliased_arguments;  // the other arguments that share its memory
  // A copy of a view of a tensor from outside f (under 'mutations_and_views'): in f a write into
  // it would reach that tensor, so it is refused as one.
  bool captured = false;
};

class FunctionalPayload final : public TransformPayload {
 public:
  FunctionalPayload(int level, std::shared_ptr<FunctionalStorage> storage, std::vector<FunctionalViewStep> chain,
                    Tensor value)
      : TransformPayload(level),
        storage_(std::move(storage)),
        chain_(std::move(chain)),
        value_(std::move(value)),
        version_(storage_->version) {}
  const std::shared_ptr<FunctionalStorage>& storage() const { return storage_; }
  const std::vector<FunctionalViewStep>& chain() const { return chain_; }
  bool current() const { return version_ == storage_->version; }
  const Tensor& value() const { return value_; }
  // The values as last computed: value_of() brings them up to date after a write to the group.
  const Tensor* wrapped_values() const override { return &value_; }
  // What f sees as one storage.
  const void* own_memory() const override { return storage_.get(); }
  std::string_view description() const override { return "a tensor of a functionalize level"; }
  // The value is a cache of the chain replayed on the base, renewed after a write to the group.
  void renew(Tensor value) const {
    value_ = std::move(value);
    version_ = storage_->version;
  }

 private:
  std::shared_ptr<FunctionalStorage> storage_;
  std::vector<FunctionalViewStep> chain_;
  mutable Tensor value_;
  mutable std::uint64_t version_;
};

const FunctionalPayload* functional_payload_at(const Tensor& tensor, int level) {
  if (!tensor.defined() || tensor.payload() == nullptr || tensor.payload()->level() != level) return nullptr;
  return dynamic_cast<const FunctionalPayload*>(tensor.payload());
}

// A storage-less tensor with `t`'s geometry as f sees it: what view functions and copy_'s checks
// are given, so that they decide and raise as in f.
Tensor geometry_mirror(const Tensor& t) {
  Tensor mirror(
      std::make_shared<TensorImpl>(nullptr, t.shape(), t.strides(), t.storage_offset(), t.dtype(), Device::Meta));
  if (t.is_wrapped_number()) mirror.impl_ptr()->set_wrapped_number(true);
  return mirror;
}

Tensor mirror_of_view(const FunctionalViewStep& step, const Tensor& mirror) {
  const std::vector<ViewGeometry> geometry = step.op->view(mirror, step.attrs);
  return Tensor::view_of(mirror, geometry.at(0).shape, geometry.at(0).strides, geometry.at(0).offset);
}

// Whether a write into a tensor of this geometry would change several of its elements at once,
// by the rule copy_ itself applies to its target (TENSOR-4.x).
bool elements_share_memory(const Tensor& mirror) {
  try {
    OpRegistry::instance().get("copy_").infer({mirror, mirror}, {});
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::InternalOverlap) return true;
    throw;
  }
  return false;
}

class FunctionalizeInterpreter final : public Interpreter {
 public:
  explicit FunctionalizeInterpreter(FunctionalizeRemove remove)
      : Interpreter(TransformKind::Functionalize), remove_(remove) {}

  TensorList process(const OpDef& op, const TensorList& inputs, const Attrs& attrs) override {
    if (op.kind == OpKind::View) return process_view(op, inputs, attrs);
    if (!written_inputs(op).empty()) return process_write(op, inputs, attrs);
    TensorList values;
    for (const Tensor& t : inputs) values.push_back(value_of(t));
    TensorList outputs;
    {
      LowerScope lower(*this);
      outputs = call(op, values, attrs);
    }
    if (op.kind == OpKind::ScalarExtraction) return outputs;  // host values, not tensors of any level
    for (Tensor& out : outputs) {
      if (out.defined()) out = new_group(out);
    }
    return outputs;
  }

  // An argument of f, as the base of its own group.
  Tensor wrap_argument(const Tensor& argument, std::string path, std::vector<std::string> aliased) {
    Tensor wrapper = new_group(argument);
    FunctionalStorage& storage = *functional_payload_at(wrapper, level())->storage();
    storage.argument = std::move(path);
    storage.aliased_arguments = std::move(aliased);
    return wrapper;
  }

  // What `t` holds now, below the level: a tensor of this level is brought up to date with its
  // group's writes; any other tensor is itself.
  Tensor value_of(const Tensor& t) {
    const FunctionalPayload* payload = functional_payload_at(t, level());
    if (payload == nullptr) return t;
    if (!payload->current()) {
      Tensor value = payload->storage()->base;
      LowerScope lower(*this);
      for (const FunctionalViewStep& step : payload->chain()) value = apply_view(step, value);
      payload->renew(std::move(value));
    }
    return payload->value();
  }

  bool written(const Tensor& t) const {
    const FunctionalPayload* payload = functional_payload_at(t, level());
    return payload != nullptr && payload->storage()->version > 0;
  }

 private:
  Tensor new_group(const Tensor& value) {
    Tensor wrapper = new_group(value, {value.shape(), value.strides(), value.storage_offset()}, false);
    if (value.is_wrapped_number()) wrapper.impl_ptr()->set_wrapped_number(true);
    return wrapper;
  }

  // A group whose base f sees with `geometry`.
  Tensor new_group(const Tensor& value, const ViewGeometry& geometry, bool captured) {
    auto storage = std::make_shared<FunctionalStorage>();
    storage->base = value;
    storage->captured = captured;
    Tensor wrapper = member(value, storage, {}, geometry);
    storage->base_mirror = geometry_mirror(wrapper);
    return wrapper;
  }

  Tensor member(const Tensor& value, std::shared_ptr<FunctionalStorage> storage, std::vector<FunctionalViewStep> chain,
                const ViewGeometry& geometry) {
    auto payload = std::make_shared<FunctionalPayload>(level(), std::move(storage), std::move(chain), value);
    return Tensor::transform_wrapper(geometry.shape, geometry.strides, value.dtype(), value.device(),
                                     std::move(payload), geometry.offset);
  }

  bool copies_views() const { return remove_ == FunctionalizeRemove::MutationsAndViews; }

  // One step of a chain computed on a value (below the level).
  Tensor apply_view(const FunctionalViewStep& step, const Tensor& value) const {
    const std::string& name = step.op->name();
    if (copies_views()) return call_one(name + "_copy", {value}, step.attrs);
    if (name == "view") return call_one("reshape", {value}, {{"shape", step.attrs.get_int_list("size")}});
    return call(*step.op, {value}, step.attrs).at(0);
  }

  Tensor reshaped(const Tensor& value, const Shape& shape) const {
    if (copies_views()) return call_one("view_copy", {value}, {{"size", shape}});
    return call_one("reshape", {value}, {{"shape", shape}});
  }

  // The value of a step's input once the step's result has become `updated`; `before` is the
  // input's value before the write (below the level).
  Tensor undo_view(const FunctionalViewStep& step, const Tensor& before, const Tensor& updated) const {
    const std::string& name = step.op->name();
    if (name == "select" || name == "slice" || name == "diagonal")
      return call_one(name + "_scatter", {before, updated}, step.attrs);
    if (name == "permute") {
      const std::vector<std::int64_t> dims = wrap_dims(step.attrs.get_int_list("dims"), before.dim(), "permute");
      std::vector<std::int64_t> inverse(dims.size());
      for (std::size_t k = 0; k < dims.size(); ++k) inverse[as_index(dims[k])] = static_cast<std::int64_t>(k);
      return call_one(copies_views() ? "permute_copy" : "permute", {updated}, {{"dims", inverse}});
    }
    // Elements in the same row-major order; expand, refused when it repeats elements (see
    // check_not_through_overlap), only adds dims of size 1 or has no elements at all.
    if (name == "expand" && updated.numel() == 0) return before;
    if (name == "view" || name == "squeeze" || name == "unsqueeze" || name == "expand")
      return reshaped(updated, before.shape());
    if (name == "detach") return updated;
    FUNCSPEC_UNREACHABLE(fmt::format("functionalize has no inverse for the view {}", name));
  }

  TensorList process_view(const OpDef& op, const TensorList& inputs, const Attrs& attrs) {
    const Tensor& self = inputs.at(0);
    const FunctionalPayload* payload = functional_payload_at(self, level());
    if (payload == nullptr && !copies_views()) {
      // A view of a tensor from outside f stays outside: a write through it is refused as one.
      LowerScope lower(*this);
      return call(op, inputs, attrs);
    }
    // The view's own checks and geometry, on what f sees.
    const std::vector<ViewGeometry> geometries = op.view(geometry_mirror(self), attrs);
    FUNCSPEC_INTERNAL_ASSERT(geometries.size() == 1, fmt::format("the view {} has several results", op.name()));
    const FunctionalViewStep step{&op, attrs};
    if (payload == nullptr) {
      // Under 'mutations_and_views' it is a copy, still refused as a target of writes.
      Tensor value;
      {
        LowerScope lower(*this);
        value = apply_view(step, self);
      }
      return {new_group(value, geometries.front(), true)};
    }
    const Tensor input = value_of(self);
    Tensor value;
    {
      LowerScope lower(*this);
      value = apply_view(step, input);
    }
    std::vector<FunctionalViewStep> chain = payload->chain();
    chain.push_back(step);
    return {member(value, payload->storage(), std::move(chain), geometries.front())};
  }

  TensorList process_write(const OpDef& op, const TensorList& inputs, const Attrs& attrs) {
    // Every in-place op and out= variant decomposes into its functional op and copy_ (NOTE:
    // [derived variants]), so copy_ is the one write that reaches an interpreter.
    FUNCSPEC_INTERNAL_ASSERT(op.name() == "copy_",
                             fmt::format("functionalize has no functional form of {}", op.name()));
    const Tensor& self = inputs.at(0);
    const Tensor& src = inputs.at(1);
    const FunctionalPayload* target = functional_payload_at(self, level());
    FUNCSPEC_CHECK(target != nullptr && !target->storage()->captured, ErrorKind::FunctionalizeCapturedMutation,
                   "[{}] under functionalize writes into a tensor of shape {} that the functionalized function "
                   "neither received as an argument nor created; functionalize can only remove writes into its "
                   "own tensors. Pass the tensor as an argument (its final value is then written back), or write "
                   "into a clone",
                   op.name(), shape_to_string(self.shape()));
    // copy_'s op layer ran at this level already (broadcasting src to self, device checks); its
    // target check runs on self as f sees it.
    if (op.infer) op.infer({geometry_mirror(self), geometry_mirror(src)}, attrs);
    FunctionalStorage& storage = *target->storage();
    FUNCSPEC_CHECK(storage.aliased_arguments.empty(), ErrorKind::FunctionalizeAliasedInputs,
                   "[{}] under functionalize writes into the argument {}, which shares memory with {}; functionalize "
                   "treats its arguments as separate tensors, so the others would not see the write. Pass the "
                   "shared tensor once and take the views inside the function",
                   op.name(), storage.argument, fmt::join(storage.aliased_arguments, " and "));
    check_not_through_overlap(op, *target);

    const Tensor value = value_of(src);
    Tensor written;
    {
      LowerScope lower(*this);
      const Tensor converted =
          value.dtype() == self.dtype() ? value : call_one("to_dtype", {value}, {{"dtype", self.dtype()}});
      // A copy even when no broadcast is needed: the group's new values must not alias src's.
      written = call_one("expand_copy", {converted}, {{"size", self.shape()}});
    }
    write(*target, written);
    return {self};
  }

  void check_not_through_overlap(const OpDef& op, const FunctionalPayload& target) const {
    const std::vector<FunctionalViewStep>& chain = target.chain();
    Tensor mirror = target.storage()->base_mirror;
    for (std::size_t i = 0; i < chain.size(); ++i) {
      FUNCSPEC_CHECK(!elements_share_memory(mirror), ErrorKind::InternalOverlap,
                     "[{}] under functionalize writes through a view of a tensor of shape {} and strides {} whose "
                     "elements share memory, so the write would change several of that tensor's elements at once, "
                     "which functionalize cannot express; write into a clone of it instead",
                     op.name(), shape_to_string(mirror.shape()), shape_to_string(mirror.strides()));
      mirror = mirror_of_view(chain[i], mirror);
    }
  }

  // `target` now holds `value`: the group's base is updated through the inverse of target's chain.
  void write(const FunctionalPayload& target, const Tensor& value) {
    FunctionalStorage& storage = *target.storage();
    const std::vector<FunctionalViewStep>& chain = target.chain();
    Tensor updated = value;
    {
      LowerScope lower(*this);
      // The value of each step's input before the write: base, base.step0, ...
      TensorList before{storage.base};
      for (std::size_t i = 0; i + 1 < chain.size(); ++i) before.push_back(apply_view(chain[i], before.back()));
      for (std::size_t i = chain.size(); i-- > 0;) updated = undo_view(chain[i], before[i], updated);
    }
    storage.base = updated;
    ++storage.version;
    target.renew(value);
  }

  FunctionalizeRemove remove_;
};

// "args[0]", "args[1]['w']": where each leaf of `tree` sits.
void functionalize_leaf_paths(const PyTree& tree, const std::string& prefix, std::vector<std::string>& out) {
  if (tree.is_leaf()) {
    out.push_back(prefix);
    return;
  }
  for (std::size_t i = 0; i < tree.children().size(); ++i) {
    const std::string child = tree.kind() == PyTree::Kind::Dict ? fmt::format("{}['{}']", prefix, tree.keys()[i])
                                                                : fmt::format("{}[{}]", prefix, i);
    functionalize_leaf_paths(tree.children()[i], child, out);
  }
}

}  // namespace

std::string_view functionalize_remove_name(FunctionalizeRemove remove) {
  switch (remove) {
    case FunctionalizeRemove::Mutations: return "mutations";
    case FunctionalizeRemove::MutationsAndViews: return "mutations_and_views";
  }
  return "mutations";
}

std::optional<FunctionalizeRemove> parse_functionalize_remove(std::string_view name) {
  for (FunctionalizeRemove remove : {FunctionalizeRemove::Mutations, FunctionalizeRemove::MutationsAndViews}) {
    if (functionalize_remove_name(remove) == name) return remove;
  }
  return std::nullopt;
}

PyFunction functionalize(PyFunction f, std::string_view remove) {
  const std::optional<FunctionalizeRemove> parsed = parse_functionalize_remove(remove);
  FUNCSPEC_CHECK(parsed.has_value(), ErrorKind::InvalidArgument,
                 "[functionalize] remove must be 'mutations' or 'mutations_and_views' but is '{}'", remove);
  return functionalize(std::move(f), *parsed);
}

PyFunction functionalize(PyFunction f, FunctionalizeRemove remove) {
  return [f = std::move(f), remove](const std::vector<PyTree>& args) -> PyTree {
    const PyTree arguments = PyTree::tuple(args);
    std::vector<PyTree> leaves = arguments.leaves();
    std::vector<std::string> paths;
    functionalize_leaf_paths(arguments, "args", paths);
    // The tensor arguments, each once: the same tensor passed twice is one argument.
    TensorList distinct;
    std::vector<std::string> distinct_paths;
    std::vector<std::size_t> distinct_of(leaves.size(), 0);
    for (std::size_t i = 0; i < leaves.size(); ++i) {
      if (!leaves[i].is_tensor()) continue;
      const Tensor& t = leaves[i].tensor();
      std::size_t k = 0;
      while (k < distinct.size() && !distinct[k].is_same(t)) ++k;
      if (k == distinct.size()) {
        distinct.push_back(t);
        distinct_paths.push_back(paths[i]);
      }
      distinct_of[i] = k;
    }

    auto interpreter = std::make_shared<FunctionalizeInterpreter>(remove);
    PyTree result;
    std::vector<std::pair<Tensor, Tensor>> write_backs;  // (argument, its final value)
    {
      InterpreterGuard guard(interpreter);
      TensorList wrappers;
      for (std::size_t k = 0; k < distinct.size(); ++k) {
        // Arguments with one memory may alias (NOTE: [wrapper walk]).
        std::vector<std::string> aliased;
        const void* memory = memory_identity(distinct[k]);
        for (std::size_t j = 0; j < distinct.size() && memory != nullptr; ++j) {
          if (j != k && memory_identity(distinct[j]) == memory) aliased.push_back(distinct_paths[j]);
        }
        wrappers.push_back(interpreter->wrap_argument(distinct[k], distinct_paths[k], std::move(aliased)));
      }
      for (std::size_t i = 0; i < leaves.size(); ++i) {
        if (leaves[i].is_tensor()) leaves[i] = PyTree(wrappers[distinct_of[i]]);
      }
      const PyTree out = f(arguments.with_leaves(leaves).children());
      std::vector<PyTree> out_leaves = out.leaves();
      for (PyTree& leaf : out_leaves) {
        if (leaf.is_tensor()) leaf = PyTree(interpreter->value_of(leaf.tensor()));
      }
      result = out.with_leaves(out_leaves);
      for (std::size_t k = 0; k < distinct.size(); ++k) {
        if (interpreter->written(wrappers[k]))
          write_backs.emplace_back(distinct[k], interpreter->value_of(wrappers[k]));
      }
    }
    for (const auto& [argument, final_value] : write_backs) call("copy_", {argument, final_value});
    return result;
  };
}

const void* functional_alias_group(const Tensor& tensor) {
  if (!tensor.defined()) return nullptr;
  const auto* payload = dynamic_cast<const FunctionalPayload*>(tensor.payload());
  return payload == nullptr ? nullptr : payload->storage().get();
}

}  // namespace funcspec::transforms
