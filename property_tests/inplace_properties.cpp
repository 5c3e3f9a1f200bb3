// The in-place properties. An in-place binary op of the catalogue (op_(self, other), which writes
// op(self, other) into self) under vmap, with self and other each mapped or not and shapes that
// broadcast either way:
//   - raises exactly when the spec says, by a rule computed here from the shapes: a result whose
//     broadcast shape is not self's raises inplace_broadcast (TENSOR-4.3, on the examples' shapes,
//     and first, VMAP-3.5); otherwise a self the vmap does not batch with an other it does raises
//     vmap_inplace_unbatched (VMAP-3.1); otherwise vmap equals the loop of the examples, each
//     writing its result into its self, which the op returns (TENSOR-4.1);
//   - after such an error no tensor the caller can see has changed: self, other and every view of
//     their storage (VMAP-3.1, TENSOR-4.3; in-place draws under 'different' too, VMAP-2.3). A case
//     observes only results, so this law runs on the engine itself.
// The rule's per-example half is cross-checked against the backend's loop, so a rule that
// disagreed with the spec's unbatched semantics would show up as a violation rather than hide.
#include "property_tests/inplace_properties.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <rapidcheck.h>

#include <array>
#include <mutex>

#include "conformance/case/evaluate.h"
#include "conformance/oracles/loop_and_stack.h"
#include "conformance/samples/op_samples.h"
#include "conformance/suite/tensor_to_case.h"
#include "property_tests/generators.h"
#include "property_tests/law_checks.h"
#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"
#include "reference/random/generator.h"

namespace funcspec::properties {

using conformance::Case;
using conformance::TensorData;

namespace {

constexpr std::string_view kRaisesAsSpecified = "PROP-INPLACE/vmap-raises-as-specified";
constexpr std::string_view kErrorWritesNothing = "PROP-INPLACE/error-writes-nothing";

bool attributes_have_defaults(const OpDef& op) {
  for (const ArgSpec* a : op.schema.attr_args()) {
    if (!a->optional && !a->default_value) return false;
  }
  return true;
}

// The derived in-place ops of two required tensor arguments whose functional op takes floating
// tensors (checked once on the reference): the ops the in-place laws draw from.
const std::vector<const OpDef*>& binary_inplace_ops() {
  static std::once_flag once;
  static std::vector<const OpDef*> ops;
  std::call_once(once, [] {
    for (const OpDef* op : OpRegistry::instance().all()) {
      if (op->kind != OpKind::InPlace || op->functional.empty() || op->random || !attributes_have_defaults(*op))
        continue;
      const std::vector<const ArgSpec*> tensors = op->schema.tensor_args();
      if (tensors.size() != 2 || tensors[0]->optional || tensors[1]->optional) continue;
      try {
        call(*op, {from_vector(std::vector<double>{0.5, 1.5}, {2}, DType::Float64),
                   from_vector(std::vector<double>{1.25, -0.75}, {2}, DType::Float32)});
        ops.push_back(op);
      } catch (const Error&) {
      }
    }
  });
  return ops;
}

// An in-place random op's draw: the laws only need that it writes into self.
std::vector<const OpDef*> random_inplace_ops() {
  std::vector<const OpDef*> out;
  for (const OpDef* op : OpRegistry::instance().all()) {
    if (op->kind == OpKind::InPlace && op->random && op->schema.tensor_args().size() == 1 &&
        attributes_have_defaults(*op))
      out.push_back(op);
  }
  return out;
}

Shape with_batch(const Shape& shape, bool mapped, std::int64_t batch) {
  Shape out = shape;
  if (mapped) out.insert(out.begin(), batch);
  return out;
}

// One in-place call under vmap, as the law sees it.
struct InplaceCall {
  const OpDef* op = nullptr;
  Shape self_shape, other_shape;  // the examples' (other_shape empty and unused for a draw)
  DType self_dtype = DType::Float64, other_dtype = DType::Float64;
  bool self_mapped = false, other_mapped = false;
  std::int64_t batch = 1;
  std::uint32_t values_seed = 0;
  transforms::Randomness randomness = transforms::Randomness::Error;
  // The spec's verdict: the error, or nothing when the op writes.
  std::optional<ErrorKind> rule;

  bool draws() const { return op->random; }
  // An input the vmap maps at dim 0 when neither self nor other is mapped, so the batch exists.
  bool needs_batch_input() const { return !self_mapped && (draws() || !other_mapped); }
  std::string describe() const {
    const auto dim = [](bool mapped) { return mapped ? std::string("0") : std::string("None"); };
    if (draws())
      return fmt::format("vmap({}, in_dims=({}, 0), randomness='{}') over B = {}: self {}{}", op->name(),
                         dim(self_mapped), transforms::randomness_name(randomness), batch, dtype_name(self_dtype),
                         shape_to_string(self_shape));
    return fmt::format("vmap({}, in_dims=({}, {}{})) over B = {}: self {}{}, other {}{}", op->name(), dim(self_mapped),
                       dim(other_mapped), needs_batch_input() ? ", 0" : "", batch, dtype_name(self_dtype),
                       shape_to_string(self_shape), dtype_name(other_dtype), shape_to_string(other_shape));
  }
};

// The spec's rule for a binary in-place op (see the top of the file).
std::optional<ErrorKind> binary_rule(const InplaceCall& call) {
  const std::array<Shape, 2> shapes{call.self_shape, call.other_shape};
  if (broadcast_shapes(shapes, call.op->name()) != call.self_shape) return ErrorKind::InplaceBroadcast;
  if (!call.self_mapped && call.other_mapped) return ErrorKind::VmapInplaceUnbatched;
  return std::nullopt;
}

InplaceCall draw_binary_call() {
  const std::vector<const OpDef*>& ops = binary_inplace_ops();
  RC_PRE(!ops.empty());
  InplaceCall call;
  call.op = ops[*rc::gen::inRange<std::size_t>(0, ops.size())];
  const auto [full, reduced] = *gen_broadcastable_pair();
  const bool self_is_full = *rc::gen::arbitrary<bool>();
  call.self_shape = self_is_full ? full : reduced;
  call.other_shape = self_is_full ? reduced : full;
  call.self_dtype = *rc::gen::element(DType::Float64, DType::Float32);
  call.other_dtype = *rc::gen::element(DType::Float64, DType::Float32);
  call.self_mapped = *rc::gen::arbitrary<bool>();
  call.other_mapped = *rc::gen::arbitrary<bool>();
  call.batch = *rc::gen::inRange<std::int64_t>(1, 4);
  call.values_seed = *rc::gen::arbitrary<std::uint32_t>();
  call.rule = binary_rule(call);
  RC_LOG() << call.describe() << "\n";
  return call;
}

// An in-place draw into a self that the 'different' vmap does not batch: always
// vmap_inplace_unbatched (VMAP-2.3).
InplaceCall draw_unbatched_random_call() {
  const std::vector<const OpDef*> ops = random_inplace_ops();
  RC_PRE(!ops.empty());
  InplaceCall call;
  call.op = ops[*rc::gen::inRange<std::size_t>(0, ops.size())];
  call.self_shape = *gen_shape(3, 3);
  call.self_dtype = *rc::gen::element(DType::Float64, DType::Float32);
  call.batch = *rc::gen::inRange<std::int64_t>(1, 4);
  call.values_seed = *rc::gen::arbitrary<std::uint32_t>();
  call.randomness = transforms::Randomness::Different;
  call.rule = ErrorKind::VmapInplaceUnbatched;
  RC_LOG() << call.describe() << "\n";
  return call;
}

Case inplace_case(const InplaceCall& call) {
  samples::SampleRng rng(call.values_seed);
  Case c;
  c.id = "generated";
  c.inputs.push_back(conformance::case_input_of(
      "self", rng.tensor(with_batch(call.self_shape, call.self_mapped, call.batch), call.self_dtype)));
  c.inputs.push_back(conformance::case_input_of(
      "other", rng.tensor(with_batch(call.other_shape, call.other_mapped, call.batch), call.other_dtype)));
  conformance::VmapTransform vmap;
  vmap.in_dims.form = conformance::DimSpec::Form::ByPosition;
  vmap.in_dims.by_position = {call.self_mapped ? std::optional<std::int64_t>(0) : std::nullopt,
                              call.other_mapped ? std::optional<std::int64_t>(0) : std::nullopt};
  if (call.needs_batch_input()) {
    c.inputs.push_back(conformance::case_input_of("batch", ops::zeros({call.batch}, DType::Float64)));
    vmap.in_dims.by_position.emplace_back(0);
  }
  vmap.out_dims.form = conformance::DimSpec::Form::All;
  vmap.out_dims.all = 0;
  c.transforms.push_back(vmap);
  c.program.push_back(conformance::OpCall{{"written"}, call.op->name(), {"self", "other"}, {}, false});
  c.outputs = {"written"};
  return c;
}

PropertyCheck check_raises_as_specified(const PropertyContext& context, const InplaceCall& call) {
  const Case c = inplace_case(call);
  const auto& vmap = std::get<conformance::VmapTransform>(c.transforms.front());
  Case inner = c;
  inner.transforms.clear();
  const bool examples_raise = call.rule == ErrorKind::InplaceBroadcast;
  std::vector<Answer> examples;  // every one with outputs
  for (std::int64_t b = 0; b < call.batch; ++b) {
    Case example = inner;
    example.inputs = slice_inputs(c.inputs, vmap.in_dims.by_position, b);
    const Answer answer = ask(context, example);
    if (answer.unsupported) return PropertyCheck::unsupported(*answer.unsupported);
    if (!answer.fault.empty())
      return PropertyCheck::violated(fmt::format("the loop's example {} got no answer: {}", b, answer.fault),
                                     std::nullopt);
    if (examples_raise) {
      if (answer.error == ErrorKind::InplaceBroadcast) continue;
      return judge_law(context, expecting_error(example, ErrorKind::InplaceBroadcast),
                       "an in-place op whose broadcast result is not self's shape must raise inplace_broadcast");
    }
    if (answer.error) {
      // The rule says this example writes. The reference states what it writes, unless it raises
      // too: then the rule, not the backend, is wrong, and there is no truth to expect.
      const conformance::ProgramResult truth = conformance::run_on_reference(example);
      if (truth.error || truth.unsupported || !truth.broken.empty())
        return PropertyCheck::violated(
            fmt::format("the spec's rule says example {} writes, but it raises {} on the backend and on the reference",
                        b, error_kind_name(*answer.error)),
            std::nullopt);
      return judge_law(context, expecting_values(example, kRaisesAsSpecified, truth.outputs),
                       "an unbatched in-place op the spec allows raised");
    }
    examples.push_back(answer);
  }
  if (call.rule)
    return judge_law(context, expecting_error(c, *call.rule),
                     fmt::format("the spec's in-place rules say {}", error_kind_name(*call.rule)));
  // The examples' answers (each checked above against the spec's rule) stacked by the oracle.
  std::vector<std::string> names;
  const oracles::LoopAndStack truth = oracles::loop_and_stack({{call.batch, 0}}, [&](std::int64_t b) {
    return example_outputs(examples[static_cast<std::size_t>(b)], b, names);
  });
  return judge_law(context, expecting_loop_results(c, names, truth.results),
                   "vmap of an in-place op differs from the loop of its examples, each written into its self");
}

// A tensor of `shape` the caller keeps, viewing every other row of a larger buffer (so a write
// that strays outside the view shows in the buffer), with the buffer.
struct KeptTensor {
  Tensor buffer;
  Tensor view;
};

KeptTensor kept_tensor(samples::SampleRng& rng, const Shape& shape, DType dtype) {
  if (shape.empty()) {
    const Tensor t = rng.tensor(shape, dtype);
    return {t, t};
  }
  Shape wide = shape;
  wide[0] = wide[0] * 2 + 1;
  const Tensor buffer = rng.tensor(wide, dtype);
  return {buffer, ops::slice(buffer, 0, 1, std::nullopt, 2)};
}

PropertyCheck check_error_writes_nothing(const VmapFunction& vmap, const InplaceCall& call) {
  samples::SampleRng rng(call.values_seed);
  const KeptTensor self = kept_tensor(rng, with_batch(call.self_shape, call.self_mapped, call.batch), call.self_dtype);
  const KeptTensor other =
      kept_tensor(rng, with_batch(call.other_shape, call.other_mapped, call.batch), call.other_dtype);
  const TensorData self_before = data_of(self.buffer);
  const TensorData other_before = data_of(other.buffer);

  const std::string op = call.op->name();
  const bool draws = call.draws();
  transforms::PyFunction f = [op, draws](const std::vector<transforms::PyTree>& args) {
    if (draws) return transforms::PyTree(call_one(op, {args[0].tensor()}));
    return transforms::PyTree(call_one(op, {args[0].tensor(), args[1].tensor()}));
  };
  transforms::VmapOptions options;
  const auto dim = [](bool mapped) { return mapped ? transforms::PyTree(0) : transforms::PyTree::none(); };
  std::vector<transforms::PyTree> in_dims{dim(call.self_mapped), dim(call.other_mapped && !draws)};
  std::vector<transforms::PyTree> args{self.view, other.view};
  if (call.needs_batch_input()) {
    in_dims.emplace_back(0);
    args.emplace_back(ops::zeros({call.batch}, DType::Float64));
  }
  options.in_dims = transforms::PyTree::tuple(in_dims);
  options.randomness = call.randomness;
  std::optional<ErrorKind> raised;
  try {
    const random::GeneratorScope generator(call.values_seed);
    vmap(f, options)(args);
  } catch (const Error& e) {
    raised = e.kind();
  }
  if (raised != call.rule)
    return PropertyCheck::violated(
        fmt::format("{}: the spec's rules say {}, but vmap {}", call.describe(),
                    call.rule ? error_kind_name(*call.rule) : std::string_view("it writes"),
                    raised ? fmt::format("raised {}", error_kind_name(*raised)) : std::string("returned")),
        std::nullopt);
  if (!raised) return PropertyCheck::holds();
  std::vector<std::string> changed;
  if (data_of(self.buffer) != self_before) changed.push_back("self (or the buffer it views)");
  if (data_of(other.buffer) != other_before) changed.push_back("other (or the buffer it views)");
  if (changed.empty()) return PropertyCheck::holds();
  return PropertyCheck::violated(fmt::format("{}: vmap raised {} but had already written into {}", call.describe(),
                                             error_kind_name(*raised), fmt::join(changed, " and ")),
                                 std::nullopt);
}

}  // namespace

PropertyDef inplace_error_writes_nothing_property(VmapFunction vmap) {
  return {std::string(kErrorWritesNothing),
          "an in-place op under vmap that raises inplace_broadcast or vmap_inplace_unbatched has changed no tensor "
          "the caller can see (self, other, and the storage they view)",
          {"VMAP-3.1", "TENSOR-4.3", "VMAP-2.3"},
          150,
          "it reads the caller's tensors after the error, which a case cannot observe",
          [vmap](PropertyContext&) {
            const InplaceCall call = *rc::gen::arbitrary<bool>() ? draw_binary_call() : draw_unbatched_random_call();
            RC_PRE(call.rule.has_value());
            return check_error_writes_nothing(vmap, call);
          }};
}

void add_inplace_properties(std::vector<PropertyDef>& out) {
  out.push_back({std::string(kRaisesAsSpecified),
                 "an in-place binary op under vmap raises inplace_broadcast when its broadcast result is not self's "
                 "shape, else vmap_inplace_unbatched when only other is batched, else equals the loop writing each "
                 "example into its self",
                 {"VMAP-3.1", "VMAP-3.5", "TENSOR-4.3", "TENSOR-4.1"},
                 300,
                 "",
                 [](PropertyContext& context) { return check_raises_as_specified(context, draw_binary_call()); }});
  out.push_back(inplace_error_writes_nothing_property([](transforms::PyFunction f, transforms::VmapOptions options) {
    return transforms::vmap(std::move(f), std::move(options));
  }));
}

}  // namespace funcspec::properties
