#include "testing/composite_compliance.h"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "reference/core/wrapper_walk.h"
#include "reference/ops/dispatch.h"
#include "reference/random/generator.h"
#include "reference/transforms/autodiff.h"

namespace funcspec::transforms {
namespace {

namespace rule = compliance_rule;

template <typename... Args>
[[noreturn]] void refuse(std::string_view broken, fmt::format_string<Args...> format, Args&&... args) {
  throw ComplianceError(broken, fmt::format(format, std::forward<Args>(args)...));
}

// The name of tensor input `position` of `op`, for messages.
std::string tensor_arg_name(const OpDef& op, std::size_t position) {
  const std::vector<const ArgSpec*> args = op.schema.tensor_args();
  if (args.size() == 1 && args[0]->type == ArgType::TensorListArg)
    return fmt::format("{}[{}]", args[0]->name, position);
  return position < args.size() ? args[position]->name : fmt::format("#{}", position);
}

// How `wrapper` no longer mirrors `value`; empty when it does.
std::string geometry_mismatch(const Tensor& wrapper, const Tensor& value) {
  if (wrapper.shape() != value.shape()) {
    return fmt::format("the shape {} but its value the shape {}", shape_to_string(wrapper.shape()),
                       shape_to_string(value.shape()));
  }
  if (wrapper.strides() != value.strides()) {
    return fmt::format("the strides {} but its value the strides {}", shape_to_string(wrapper.strides()),
                       shape_to_string(value.strides()));
  }
  if (wrapper.storage_offset() != value.storage_offset()) {
    return fmt::format("the storage offset {} but its value {}", wrapper.storage_offset(), value.storage_offset());
  }
  if (wrapper.dtype() != value.dtype()) {
    return fmt::format("the dtype {} but its value {}", dtype_name(wrapper.dtype()), dtype_name(value.dtype()));
  }
  if (wrapper.device() != value.device()) {
    return fmt::format("the device {} but its value {}", device_name(wrapper.device()), device_name(value.device()));
  }
  if (wrapper.is_wrapped_number() != value.is_wrapped_number()) return "a wrapped-number flag its value does not have";
  if (wrapper.has_storage()) return "a storage of its own";
  return {};
}

// PyTorch checks the same after every op on a CompositeCompliantTensor: a wrapper that stopped
// mirroring its value was changed by something other than an op.
void check_geometry(const std::string& composite, std::string_view where, const Tensor& wrapper,
                    const CheckedPayload& payload) {
  const std::string mismatch = geometry_mismatch(wrapper, payload.value());
  if (mismatch.empty()) return;
  refuse(rule::kMetadataChange,
         "[{}] is not composite-compliant (metadata change): a checked tensor {} has {}, so its metadata was "
         "changed outside the op layer; a composite must make new views through ops (view, reshape, ...) and never "
         "change a tensor's shape, strides, offset or storage itself",
         composite, where, mismatch);
}

class AccessRefuser final : public DirectAccessObserver {
 public:
  explicit AccessRefuser(std::string composite) : composite_(std::move(composite)) {}
  void on_direct_access(const Tensor& tensor, std::string_view what) override {
    refuse(rule::kDataAccess,
           "[{}] is not composite-compliant (data access): {} of {}; a transform's tensors have no elements of "
           "their own, so a composite must compute with ops only",
           composite_, what, tensor.payload()->description());
  }

 private:
  std::string composite_;
};

}  // namespace

Tensor make_checked(const Tensor& value, int level) {
  Tensor checked = Tensor::transform_wrapper(value.shape(), value.strides(), value.dtype(), value.device(),
                                             std::make_shared<CheckedPayload>(level, value), value.storage_offset());
  // Literals count for less in type promotion; a checked literal must promote as the literal does.
  if (value.is_wrapped_number()) checked.impl_ptr()->set_wrapped_number(true);
  return checked;
}

const CheckedPayload* checked_payload(const Tensor& tensor, int level) {
  if (!tensor.defined() || tensor.payload() == nullptr || tensor.payload()->level() != level) return nullptr;
  return dynamic_cast<const CheckedPayload*>(tensor.payload());
}

TensorList ComplianceInterpreter::process(const OpDef& op, const TensorList& inputs, const Attrs& attrs) {
  TensorList values;
  values.reserve(inputs.size());
  std::vector<bool> checked(inputs.size(), false);
  bool any_checked = false;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const CheckedPayload* payload = checked_payload(inputs[i], level());
    if (payload == nullptr) {
      values.push_back(inputs[i]);
      continue;
    }
    check_geometry(composite_, fmt::format("passed to {} as '{}'", op.name(), tensor_arg_name(op, i)), inputs[i],
                   *payload);
    values.push_back(payload->value());
    checked[i] = any_checked = true;
  }
  if (any_checked && op.kind == OpKind::ScalarExtraction) {
    refuse(rule::kItem,
           "[{}] is not composite-compliant (item()): it called {} on a checked tensor; under a transform there "
           "is no single value to hand to host code (each vmap example has its own), so a composite must keep "
           "values in tensors and choose with ops (where) rather than branch on them",
           composite_, op.name());
  }
  for (std::size_t position : written_inputs(op)) {
    if (!any_checked || position >= inputs.size() || !inputs[position].defined() || checked[position]) continue;
    refuse(rule::kInplaceIntoUnchecked,
           "[{}] is not composite-compliant (in-place into unchecked): {} writes a value computed from a checked "
           "tensor into a plain one ('{}'); a plain tensor cannot hold a transform's value (vmap would need room "
           "for the whole batch, jvp for a tangent), so compute the result out of place instead",
           composite_, op.name(), tensor_arg_name(op, position));
  }

  TensorList outputs;
  {
    LowerScope lower(*this);
    outputs = call(op, values, attrs);
  }
  // As under vmap: what involves no checked tensor stays plain, so a plain tensor created inside
  // the composite is one that a checked value must not be written into.
  if (!any_checked || op.kind == OpKind::ScalarExtraction) return outputs;
  return results_returning_written_inputs(op, inputs, outputs.size(), [&](std::size_t k) {
    return outputs[k].defined() ? make_checked(outputs[k], level()) : outputs[k];
  });
}

ComplianceScope::ComplianceScope(std::string composite)
    : interpreter_(std::make_shared<ComplianceInterpreter>(composite)),
      refuser_(std::make_unique<AccessRefuser>(std::move(composite))),
      access_scope_(std::make_unique<DirectAccessScope>(*refuser_)),
      guard_(std::make_unique<InterpreterGuard>(interpreter_)) {}

ComplianceScope::~ComplianceScope() = default;

void ComplianceInterpreter::check_out_variant(const OpDef& op, const TensorList& inputs) const {
  const auto checked_here = [this](const TransformPayload& payload) {
    return payload.level() == level() && dynamic_cast<const CheckedPayload*>(&payload) != nullptr;
  };
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (find_wrapper(inputs[i], checked_here) == nullptr) continue;
    refuse(rule::kOut,
           "[{}] is not composite-compliant (out=): it called {} with a checked tensor as '{}'; out= writes into a "
           "tensor the caller made, which cannot hold a transform's value (vmap's batch, jvp's tangent) and whose "
           "shape the op does not choose, so call the functional op and return its result",
           composite_, op.name(), tensor_arg_name(op, i));
  }
}

std::string_view compliance_mode_name(ComplianceMode mode) {
  switch (mode) {
    case ComplianceMode::Forward: return "forward";
    case ComplianceMode::Vjp: return "vjp";
    case ComplianceMode::Jvp: return "jvp";
  }
  return "?";
}

namespace {

// What a call must leave as it was: a tensor's own metadata (the handle's TensorImpl).
struct Snapshot {
  bool defined = false;
  Shape shape;
  Strides strides;
  std::int64_t offset = 0;
  DType dtype = DType::Float32;
  Device device = Device::Cpu;
  const Storage* storage = nullptr;
  const TransformPayload* payload = nullptr;
  bool wrapped_number = false;
};

Snapshot snapshot(const Tensor& t) {
  if (!t.defined()) return {};
  return {true,
          t.shape(),
          t.strides(),
          t.storage_offset(),
          t.dtype(),
          t.device(),
          t.impl_ptr()->storage().get(),
          t.payload(),
          t.is_wrapped_number()};
}

std::string snapshot_difference(const Snapshot& before, const Tensor& after) {
  const Snapshot now = snapshot(after);
  if (before.shape != now.shape) {
    return fmt::format("its shape changed from {} to {}", shape_to_string(before.shape), shape_to_string(now.shape));
  }
  if (before.strides != now.strides) {
    return fmt::format("its strides changed from {} to {}", shape_to_string(before.strides),
                       shape_to_string(now.strides));
  }
  if (before.offset != now.offset) {
    return fmt::format("its storage offset changed from {} to {}", before.offset, now.offset);
  }
  if (before.dtype != now.dtype) {
    return fmt::format("its dtype changed from {} to {}", dtype_name(before.dtype), dtype_name(now.dtype));
  }
  if (before.device != now.device) return "its device changed";
  if (before.storage != now.storage) return "it was given another storage";
  if (before.payload != now.payload) return "it was made to wrap another value";
  if (before.wrapped_number != now.wrapped_number) return "its wrapped-number flag changed";
  return {};
}

// Floats must agree bit for bit (NaN with NaN, -0 with -0 only): the checked run computes the same
// ops on the same values, so any difference means the composite took another path.
template <typename T>
bool identical(const T& a, const T& b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return a == b && std::signbit(a) == std::signbit(b);
  } else if constexpr (is_oracle_v<T>) {
    const bool a_nan = !(a == a);  // NOLINT(misc-redundant-expression): NaN test
    const bool b_nan = !(b == b);  // NOLINT(misc-redundant-expression)
    return a_nan || b_nan ? a_nan && b_nan : a == b;
  } else {
    return a == b;
  }
}

// How `got` differs from `want`; empty when identical.
std::string value_difference(const Tensor& got, const Tensor& want) {
  if (got.defined() != want.defined()) return got.defined() ? "a tensor where None was expected" : "None";
  if (!got.defined()) return {};
  if (got.shape() != want.shape() || got.dtype() != want.dtype()) {
    return fmt::format("{} {} instead of {} {}", dtype_name(got.dtype()), shape_to_string(got.shape()),
                       dtype_name(want.dtype()), shape_to_string(want.shape()));
  }
  if (got.device() != Device::Cpu || want.device() != Device::Cpu) return {};
  return visit_dtype(got.dtype(), [&]<typename T>() -> std::string {
    const std::vector<T> a = got.to_vector<T>();
    const std::vector<T> b = want.to_vector<T>();
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!identical(a[i], b[i])) return fmt::format("element {} differs", i);
    }
    return {};
  });
}

// Copies sharing nothing with `inputs`, with their geometry (which composites may branch on, as
// reshape and contiguous do) and their aliasing among themselves, so that one run's writes never
// reach the next.
TensorList fresh_copies(const TensorList& inputs) {
  NoTransformScope no_transforms;
  std::map<const Storage*, Tensor> bases;
  TensorList copies;
  for (const Tensor& t : inputs) {
    if (!t.defined()) {
      copies.emplace_back();
      continue;
    }
    FUNCSPEC_CHECK(t.payload() == nullptr, ErrorKind::InvalidArgument,
                   "[check_composite_compliance] inputs must be plain tensors, not a transform's");
    if (!t.has_storage()) {
      copies.emplace_back(std::make_shared<TensorImpl>(*t.impl_ptr()));
      continue;
    }
    Tensor& base = bases[t.storage().get()];
    if (!base.defined()) base = call_one("clone", {Tensor::view_of(t, {t.storage()->numel()}, {1}, 0)});
    Tensor copy = Tensor::view_of(base, t.shape(), t.strides(), t.storage_offset());
    copy.impl_ptr()->set_wrapped_number(t.is_wrapped_number());
    copies.push_back(copy);
  }
  return copies;
}

// Deterministic values for tangents, cotangents and subsets of combinations (splitmix64).
class Draws {
 public:
  explicit Draws(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // In [-1, 1), on a grid of 2^-10 so that float32 holds the values exactly.
  double uniform() { return static_cast<double>(static_cast<std::int64_t>(next() >> 53) - 1024) / 1024.0; }

 private:
  std::uint64_t state_;
};

Tensor drawn_like(const Tensor& like, Draws& draws) {
  std::vector<double> values(static_cast<std::size_t>(like.numel()));
  for (double& v : values) v = draws.uniform();
  if (like.device() == Device::Meta) return Tensor::empty(like.shape(), like.dtype(), Device::Meta);
  return from_vector(values, like.shape(), like.dtype());
}

using Mask = std::vector<bool>;

// Every mask when there are at most 6 tensors; otherwise 64 chosen deterministically: the extremes,
// each tensor checked alone and plain alone, then masks drawn from the seed.
std::vector<Mask> combinations(std::size_t n, std::uint64_t seed) {
  constexpr std::size_t kLimit = 64;
  std::vector<Mask> masks;
  if (n <= 6) {
    for (std::uint64_t bits = 0; bits < (std::uint64_t{1} << n); ++bits) {
      Mask m(n);
      for (std::size_t j = 0; j < n; ++j) m[j] = ((bits >> j) & 1U) != 0;
      masks.push_back(m);
    }
    return masks;
  }
  std::set<Mask> seen;
  const auto add = [&](const Mask& m) {
    if (masks.size() < kLimit && seen.insert(m).second) masks.push_back(m);
  };
  add(Mask(n, false));
  add(Mask(n, true));
  for (std::size_t j = 0; j < n; ++j) {
    Mask m(n, false);
    m[j] = true;
    add(m);
  }
  for (std::size_t j = 0; j < n; ++j) {
    Mask m(n, true);
    m[j] = false;
    add(m);
  }
  Draws draws(seed ^ 0x636f6d706c79ULL);
  for (int attempt = 0; attempt < 4096 && masks.size() < kLimit; ++attempt) {
    Mask m(n);
    for (std::size_t j = 0; j < n; ++j) m[j] = (draws.next() >> 63) != 0;
    add(m);
  }
  return masks;
}

TensorList tensors_of(const std::vector<PyTree>& leaves) {
  TensorList out;
  for (const PyTree& leaf : leaves) out.push_back(leaf.is_tensor() ? leaf.tensor() : Tensor());
  return out;
}

PyTree tree_of(const TensorList& tensors) {
  std::vector<PyTree> items;
  for (const Tensor& t : tensors) items.push_back(t.defined() ? PyTree(t) : PyTree::none());
  return PyTree::tuple(items);
}

class Checker {
 public:
  Checker(const OpDef& op, const TensorList& inputs, const Attrs& attrs, ComplianceMode mode, std::uint64_t seed)
      : op_(op), inputs_(inputs), attrs_(attrs), mode_(mode), seed_(seed) {
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      if (!inputs[i].defined()) continue;
      tensor_positions_.push_back(i);
      if (is_floating(inputs[i].dtype())) floating_positions_.push_back(i);
    }
  }

  std::vector<ComplianceViolation> run() {
    if (mode_ != ComplianceMode::Forward && floating_positions_.empty()) return {};
    draw_extras();
    try {
      AccessRefuser refuser(op_.name());
      DirectAccessScope access(refuser);
      reference_ = compute(fresh_copies(inputs_), extras_);
    } catch (const ComplianceError&) {
      // Even the plain run reached into a transform's tensor (vjp and jvp wrap every input): each
      // combination reports it, and there is nothing to compare with.
    } catch (const Error& e) {
      // A sample the op rejects: every combination must reject it alike, since checking an
      // argument must not depend on what kind of tensor holds it.
      reference_error_ = e.kind();
      reference_message_ = e.what();
    }
    std::vector<std::string> names;
    for (std::size_t p : tensor_positions_) names.push_back(fmt::format("x{}", p));
    for (std::size_t k = 0; k < extras_.size(); ++k) {
      if (extras_[k].defined()) names.push_back(fmt::format("{}{}", extra_prefix(), extra_owner_[k]));
    }
    for (const Mask& mask : combinations(names.size(), seed_)) {
      std::string label;
      for (std::size_t j = 0; j < names.size(); ++j) {
        label += fmt::format("{}{}:{}", j == 0 ? "" : " ", names[j], mask[j] ? "checked" : "plain");
      }
      run_combination(mask, label);
    }
    return std::move(violations_);
  }

 private:
  std::string_view extra_prefix() const { return mode_ == ComplianceMode::Jvp ? "t" : "ct"; }

  // Jvp: a tangent per floating input. Vjp: a cotangent per floating result, shaped like the plain
  // forward call's results.
  void draw_extras() {
    Draws draws(seed_);
    if (mode_ == ComplianceMode::Jvp) {
      for (std::size_t p : floating_positions_) {
        extras_.push_back(drawn_like(inputs_[p], draws));
        extra_owner_.push_back(p);
      }
    } else if (mode_ == ComplianceMode::Vjp) {
      TensorList results;
      try {
        random::GeneratorScope generator(seed_);
        results = call(op_, fresh_copies(inputs_), attrs_);
      } catch (const Error&) {
        return;  // a rejected sample: no results, so no cotangents; the runs must raise alike
      }
      for (std::size_t k = 0; k < results.size(); ++k) {
        const bool floating = results[k].defined() && is_floating(results[k].dtype());
        extras_.push_back(floating ? drawn_like(results[k], draws) : Tensor());
        extra_owner_.push_back(k);
      }
    }
  }

  // The results a run is judged by: the op's results, then (Jvp) their tangents or (Vjp) the
  // cotangents of the floating inputs.
  TensorList compute(const TensorList& inputs, const TensorList& extras) const {
    random::GeneratorScope generator(seed_);
    if (mode_ == ComplianceMode::Forward) return call(op_, inputs, attrs_);
    const PyFunction f = [&](const std::vector<PyTree>& args) {
      TensorList all = inputs;
      for (std::size_t k = 0; k < floating_positions_.size(); ++k) all[floating_positions_[k]] = args[k].tensor();
      return tree_of(call(op_, all, attrs_));
    };
    std::vector<PyTree> primals;
    for (std::size_t p : floating_positions_) primals.emplace_back(inputs[p]);
    TensorList out;
    if (mode_ == ComplianceMode::Jvp) {
      std::vector<PyTree> tangents;
      for (const Tensor& t : extras) tangents.emplace_back(t);
      const JvpResult r = jvp(f, primals, tangents);
      out = tensors_of(r.output.leaves());
      const TensorList tangent_out = tensors_of(r.tangent.leaves());
      out.insert(out.end(), tangent_out.begin(), tangent_out.end());
      return out;
    }
    const VjpResult r = vjp(f, primals);
    out = tensors_of(r.output.leaves());
    const TensorList pulled = tensors_of(r.vjp_fn(tree_of(extras)).leaves());
    out.insert(out.end(), pulled.begin(), pulled.end());
    return out;
  }

  void add(std::string_view broken, const std::string& label, std::string message) {
    violations_.push_back({op_.name(), mode_, label, std::string(broken), std::move(message)});
  }

  void run_combination(const Mask& mask, const std::string& label) {
    const TensorList copies = fresh_copies(inputs_);
    TensorList extras = fresh_copies(extras_);
    TensorList given = copies;
    std::vector<Snapshot> before;
    TensorList results;
    bool completed = false;
    {
      ComplianceScope scope(op_.name());
      std::size_t j = 0;
      for (std::size_t p : tensor_positions_) {
        if (mask[j++]) given[p] = scope.check(copies[p]);
      }
      for (Tensor& e : extras) {
        if (e.defined() && mask[j++]) e = scope.check(e);
      }
      for (const Tensor& t : given) before.push_back(snapshot(t));
      try {
        results = compute(given, extras);
        for (Tensor& r : results) {
          if (const CheckedPayload* payload = checked_payload(r, scope.interpreter().level())) {
            check_geometry(op_.name(), "returned", r, *payload);
            r = payload->value();
          }
        }
        completed = true;
      } catch (const ComplianceError& e) {
        add(e.rule(), label, e.what());
      } catch (const Error& e) {
        if (e.kind() != reference_error_) {
          add(rule::kError, label,
              fmt::format("[{}] is not composite-compliant (error): the checked run raised {} where the plain run {}: "
                          "{}",
                          op_.name(), error_kind_name(e.kind()),
                          reference_error_ ? fmt::format("raised {}", error_kind_name(*reference_error_))
                                           : std::string("did not"),
                          e.what()));
        }
      }
    }
    if (completed && reference_error_) {
      add(rule::kError, label,
          fmt::format("[{}] is not composite-compliant (error): the checked run succeeded where the plain run raised "
                      "{}: {}",
                      op_.name(), error_kind_name(*reference_error_), reference_message_));
    }
    for (std::size_t p : tensor_positions_) {
      const std::string changed = snapshot_difference(before[p], given[p]);
      if (!changed.empty()) {
        add(rule::kMetadataChange, label,
            fmt::format("[{}] is not composite-compliant (metadata change): input '{}' (x{}) was changed outside "
                        "the op layer: {}",
                        op_.name(), tensor_arg_name(op_, p), p, changed));
        continue;
      }
      const std::string written = value_difference(copies[p], inputs_[p]);
      if (!written.empty()) {
        add(rule::kInputWritten, label,
            fmt::format("[{}] is not composite-compliant (in-place write to input): it wrote into input '{}' (x{}): "
                        "{}; a composite must leave its inputs as they were",
                        op_.name(), tensor_arg_name(op_, p), p, written));
      }
    }
    if (!completed || !reference_) return;
    for (std::size_t k = 0; k < results.size() || k < reference_->size(); ++k) {
      const std::string differs = k < results.size() && k < reference_->size()
                                      ? value_difference(results[k], (*reference_)[k])
                                      : std::string("a different number of results");
      if (differs.empty()) continue;
      add(rule::kResultMismatch, label,
          fmt::format("[{}] is not composite-compliant (result mismatch): the checked run's result {} differs from "
                      "the plain run's ({}), so the composite took another path for checked tensors",
                      op_.name(), k, differs));
      return;
    }
  }

  const OpDef& op_;
  const TensorList& inputs_;
  const Attrs& attrs_;
  ComplianceMode mode_;
  std::uint64_t seed_;
  std::vector<std::size_t> tensor_positions_;
  std::vector<std::size_t> floating_positions_;
  TensorList extras_;                     // tangents (Jvp) or cotangents (Vjp); undefined: none
  std::vector<std::size_t> extra_owner_;  // the input (Jvp) or result (Vjp) each belongs to
  std::optional<TensorList> reference_;   // the plain run's results, when it completed
  std::optional<ErrorKind> reference_error_;
  std::string reference_message_;
  std::vector<ComplianceViolation> violations_;
};

}  // namespace

std::vector<ComplianceViolation> check_composite_compliance(const OpDef& op, const TensorList& inputs,
                                                            const Attrs& attrs, ComplianceMode mode,
                                                            std::uint64_t seed) {
  FUNCSPEC_CHECK(op.kind == OpKind::Composite, ErrorKind::InvalidArgument,
                 "[check_composite_compliance] {} is a {} op, not a composite", op.name(), op_kind_name(op.kind));
  return Checker(op, inputs, attrs, mode, seed).run();
}

}  // namespace funcspec::transforms
