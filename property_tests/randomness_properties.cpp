// The randomness properties (NOTE: [vmap randomness]): programs with a random op of the catalogue
// under vmap, nested vmaps and jacfwd, where
//   - randomness='error' at any level refuses the draw (VMAP-2.1);
//   - 'same' is one draw shared by the examples of its level and 'different' the unbatched draw
//     over the batch dims of the 'different' levels, outer first (VMAP-2.2, VMAP-2.3, under
//     chunk_size too, VMAP-1.6, and as jacfwd's flag, AD-3.3);
//   - each slice of a large 'different' draw follows the op's distribution, the slices differ, and
//     a 'same' draw's slices are one (NOTE: [randomness statistics]).
// Two kinds of program carry the draw: a random op alone, on its sample database inputs mapped or
// not at each level (every random op, distribution arguments and in-place draws included), and a
// generated program (NOTE: [generated programs]) whose first result shapes a draw that is then
// multiplied into it, so the draw flows through float ops and, under jacfwd, into derivatives.
//
// The truth for 'same' and 'different' is the loop over every example of every level: unbatched
// cases the backend runs with the case's seed, whose random step draws over the sizes of the
// 'different' levels that enclose it (a jacfwd level's size is its basis) and keeps the example's
// block. That is VMAP-2.3's "the unbatched call over [B1, B2, *shape]" taken one example at a time;
// it needs no one else's arguments because an element of a draw depends on its own arguments and
// its position alone (GEN-2.1: element i comes from block offset + i; multinomial per row), so an
// example expands its own arguments over the batch dims. A jacfwd level is the loop of jvps along
// its basis (AD-3.3), column j being example j of its vmap.

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <rapidcheck.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <variant>

#include "conformance/case/evaluate.h"
#include "conformance/oracles/loop_and_stack.h"
#include "conformance/samples/op_samples.h"
#include "conformance/samples/sample_checks.h"
#include "conformance/suite/op_sample_cases.h"
#include "conformance/suite/tensor_to_case.h"
#include "property_tests/case_inputs.h"
#include "property_tests/generators.h"
#include "property_tests/law_checks.h"
#include "property_tests/program_generator.h"
#include "property_tests/property.h"
#include "property_tests/randomness_statistics.h"
#include "property_tests/transform_stack.h"
#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"
#include "reference/ops/schema.h"
#include "reference/random/generator.h"

namespace funcspec::properties {

using conformance::Case;
using conformance::CaseInput;
using conformance::OpCall;
using conformance::Randomness;
using conformance::TensorData;

namespace {

constexpr std::string_view kErrorRefuses = "PROP-RANDOM/error-refuses";
constexpr std::string_view kSameAndDifferent = "PROP-RANDOM/same-and-different-draws";
constexpr std::string_view kSliceDistributions = "PROP-RANDOM/slice-distributions";

// ---------------------------------------------------------------------------------------------
// How each random op draws: the spec's classes of arguments (VMAP-2.2).

struct RandomOpTraits {
  const OpDef* op = nullptr;
  std::string draws_with;          // the op that draws: the op itself, or an in-place op's functional op
  bool in_place = false;           // writes its draw into its first argument
  bool sized = false;              // no tensor inputs: the `size` attribute is the draw's shape
  bool sets_distribution = false;  // its tensor inputs set the distribution: 'same' refuses them batched
  bool per_row = false;            // draws per row of its input (multinomial), not per element
};

// The random ops whose arguments VMAP-2.2 classifies. A random op registered from outside has no
// class, and the 'same' rule cannot be stated for it, so these laws leave it out.
std::optional<RandomOpTraits> classify(const OpDef& op) {
  static const std::set<std::string, std::less<>> sized = {"rand", "randn", "randint"};
  static const std::set<std::string, std::less<>> shape_giving = {"uniform",     "normal_functional", "exponential",
                                                                  "bernoulli.p", "dropout",           "gumbel_softmax"};
  static const std::set<std::string, std::less<>> distribution = {"bernoulli", "normal", "multinomial"};
  // register_random_inplace does not record the functional op it writes with.
  static const std::map<std::string, std::string, std::less<>> in_place = {{"uniform_", "uniform"},
                                                                           {"normal_", "normal_functional"},
                                                                           {"exponential_", "exponential"},
                                                                           {"bernoulli_", "bernoulli.p"}};
  if (!op.random) return std::nullopt;
  RandomOpTraits traits;
  traits.op = &op;
  traits.draws_with = op.name();
  if (sized.count(op.name()) > 0) {
    traits.sized = true;
  } else if (distribution.count(op.name()) > 0) {
    traits.sets_distribution = true;
    traits.per_row = op.name() == "multinomial";
  } else if (auto it = in_place.find(op.name()); it != in_place.end()) {
    traits.in_place = true;
    traits.draws_with = op.functional.empty() ? it->second : op.functional;
  } else if (shape_giving.count(op.name()) == 0) {
    return std::nullopt;
  }
  return traits;
}

// The classified random ops with samples, in catalogue order.
std::vector<RandomOpTraits> random_ops(const std::function<bool(const RandomOpTraits&)>& admits) {
  std::vector<RandomOpTraits> out;
  for (const OpDef* op : OpRegistry::instance().all()) {
    if (samples::OpSampleRegistry::instance().find(op->name()) == nullptr) continue;
    std::optional<RandomOpTraits> traits = classify(*op);
    if (traits && admits(*traits)) out.push_back(*traits);
  }
  return out;
}

std::vector<samples::OpSample> op_samples(const std::string& op, DType floating, std::uint64_t seed, int draw) {
  const samples::OpSampleSpec* spec = samples::OpSampleRegistry::instance().find(op);
  if (spec == nullptr) return {};
  std::vector<samples::OpSample> out;
  for (conformance::SampleCall& call : conformance::draw_samples(*spec, floating, seed, draw).calls)
    out.push_back(std::move(call.sample));
  return out;
}

// ---------------------------------------------------------------------------------------------
// The loop side: an example's program drawing over the enclosing batch dims.

// The random step of a case's program and the example shape each of its tensor arguments is
// expanded to before the batch dims go in front (the draw's shape for elementwise draws, the
// argument's own for per-row draws).
struct RandomStep {
  std::size_t index = 0;
  RandomOpTraits traits;
  std::vector<std::optional<Shape>> expand_to;  // per argument of the step; nullopt: left alone
};

// One enclosing 'different' level: its size and this example's index in it.
struct DrawBlock {
  std::int64_t size = 0;
  std::int64_t index = 0;
};

Attrs select_attrs(std::int64_t index) { return Attrs{{"dim", std::int64_t{0}}, {"index", index}}; }

// `example` with its random step drawing over [sizes of `blocks`, *shape] and keeping block
// (indices of `blocks`); an in-place draw becomes its functional draw written with copy_.
Case with_draw_over(Case example, const RandomStep& step, const std::vector<DrawBlock>& blocks) {
  if (blocks.empty()) return example;
  std::vector<std::int64_t> lead;
  for (const DrawBlock& b : blocks) lead.push_back(b.size);
  const OpCall original = example.program.at(step.index);
  std::vector<OpCall> replacement;
  OpCall draw = original;
  draw.op = step.traits.draws_with;
  draw.outs = {"draw_over_batch"};
  if (step.traits.sized) {
    std::vector<std::int64_t> size = lead;
    for (std::int64_t s : original.attrs.get_int_list("size")) size.push_back(s);
    draw.attrs.set("size", size);
  } else {
    // An op that reduces along a dim of the example (gumbel_softmax's softmax) must keep reducing
    // along it: the batch dims in front move a non-negative dim right. A rank-0 example's dim is
    // its one element, which the draw over the batch gets as a trailing dim of size 1 (the same
    // elements in the same order, so the same bits), squeezed away after the draw.
    // The attributes as the op reads them: a dim left out is the schema's default.
    const Attrs bound = bind_attrs(OpRegistry::instance().get(draw.op).schema, draw.attrs);
    const bool reads_a_dim = bound.has("dim") && std::holds_alternative<std::int64_t>(bound.at("dim"));
    bool any_expanded = false, all_rank_0 = true;
    for (std::size_t k = 0; k < draw.args.size(); ++k) {
      if (!draw.args[k] || k >= step.expand_to.size() || !step.expand_to[k]) continue;
      any_expanded = true;
      all_rank_0 = all_rank_0 && step.expand_to[k]->empty();
    }
    const bool scalar_example = reads_a_dim && any_expanded && all_rank_0;
    for (std::size_t k = 0; k < draw.args.size(); ++k) {
      if (!draw.args[k] || k >= step.expand_to.size() || !step.expand_to[k]) continue;
      std::vector<std::int64_t> size = lead;
      size.insert(size.end(), step.expand_to[k]->begin(), step.expand_to[k]->end());
      if (scalar_example) size.push_back(1);
      const std::string name = fmt::format("draw_argument_{}", k);
      replacement.push_back(OpCall{{name}, "expand", {draw.args[k]}, Attrs{{"size", size}}, false});
      draw.args[k] = name;
    }
    if (reads_a_dim) {
      const std::int64_t dim = bound.get_int("dim");
      if (dim >= 0) draw.attrs.set("dim", dim + static_cast<std::int64_t>(lead.size()));
    }
    if (scalar_example) {
      draw.outs = {"draw_with_unit_dim"};
      replacement.push_back(draw);
      draw = OpCall{{"draw_over_batch"},
                    "squeeze",
                    {std::string("draw_with_unit_dim")},
                    Attrs{{"dim", std::vector<std::int64_t>{-1}}},
                    false};
    }
  }
  replacement.push_back(draw);
  std::string current = "draw_over_batch";
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    const bool last = i + 1 == blocks.size();
    const std::string next = !last                  ? fmt::format("draw_of_block_{}", i)
                             : step.traits.in_place ? "draw_of_example"
                                                    : original.outs.at(0);
    replacement.push_back(OpCall{{next}, "select", {current}, select_attrs(blocks[i].index), false});
    current = next;
  }
  if (step.traits.in_place)
    replacement.push_back(OpCall{original.outs, "copy_", {original.args.at(0), current}, {}, false});
  auto at = example.program.begin() + static_cast<std::ptrdiff_t>(step.index);
  at = example.program.erase(at);
  example.program.insert(at, replacement.begin(), replacement.end());
  return example;
}

// What the loop concluded: the stacked results, or the error an example raised, or why it could
// not run.
struct Truth {
  std::optional<NamedResults> values;
  std::optional<ErrorKind> error;
  std::optional<std::string> unsupported;
  std::string fault;
};

Truth truth_of(const Answer& answer, const std::string& where) {
  Truth t;
  if (answer.unsupported) t.unsupported = answer.unsupported;
  if (!answer.fault.empty()) t.fault = fmt::format("{} got no answer: {}", where, answer.fault);
  t.error = answer.error;
  t.values = answer.outputs;
  return t;
}

bool settled(const Truth& t) { return t.values.has_value(); }

Tensor one_hot(const Shape& shape, DType dtype, std::int64_t at) {
  std::vector<double> values(static_cast<std::size_t>(numel_of(shape)), 0.0);
  values.at(static_cast<std::size_t>(at)) = 1.0;
  return from_vector(values, shape, dtype);
}

Truth loop_truth(const PropertyContext& context, const Case& c, const RandomStep& step, std::vector<DrawBlock> blocks);

Truth vmap_loop(const PropertyContext& context, const Case& c, const RandomStep& step,
                const std::vector<DrawBlock>& blocks) {
  const auto& vmap = std::get<conformance::VmapTransform>(c.transforms.front());
  if (vmap.randomness == Randomness::Error) throw std::logic_error("the loop of a randomness='error' vmap");
  std::vector<std::optional<std::int64_t>> dims(c.inputs.size());
  std::int64_t batch = -1;
  for (std::size_t i = 0; i < c.inputs.size() && i < vmap.in_dims.by_position.size(); ++i) {
    const std::optional<std::int64_t>& d = vmap.in_dims.by_position[i];
    if (!d || c.inputs[i].is_literal()) continue;
    const Shape& shape = spec_of(c.inputs[i]).data.shape;
    dims[i] = *d < 0 ? *d + static_cast<std::int64_t>(shape.size()) : *d;
    batch = shape.at(static_cast<std::size_t>(*dims[i]));
  }
  if (batch < 1)
    return Truth{std::nullopt, std::nullopt, std::string("the draws laws need a batch of at least one"), ""};
  Case inner = c;
  inner.transforms.erase(inner.transforms.begin());
  // An example's truth that is not values (an error, or none) is the loop's.
  struct Unsettled {
    Truth truth;
  };
  std::vector<std::string> names;
  oracles::LoopAndStack loop;
  try {
    loop = oracles::loop_and_stack({{batch, vmap.out_dims.all.value_or(0)}}, [&](std::int64_t b) {
      Case example = inner;
      example.inputs = slice_inputs(c.inputs, dims, b);
      std::vector<DrawBlock> mine = blocks;
      if (vmap.randomness == Randomness::Different) mine.push_back({batch, b});
      Truth t = loop_truth(context, example, step, mine);
      if (!settled(t)) throw Unsettled{std::move(t)};
      names.clear();
      TensorList outputs;
      for (const auto& [name, data] : *t.values) {
        names.push_back(name);
        outputs.push_back(tensor_of(data));
      }
      return outputs;
    });
  } catch (Unsettled& unsettled) {
    return std::move(unsettled.truth);
  }
  if (loop.error) throw *loop.error;  // not an example's answer (those are Unsettled) but a failure to ask
  NamedResults stacked;
  for (std::size_t k = 0; k < loop.results.size(); ++k) stacked.emplace_back(names[k], data_of(loop.results[k]));
  return Truth{std::move(stacked), std::nullopt, std::nullopt, ""};
}

// jacfwd innermost: block (y, x) of the Jacobian stacks the tangents of y along x's basis, each
// the jvp of one unbatched example.
Truth jacfwd_loop(const PropertyContext& context, const Case& c, const RandomStep& step,
                  const std::vector<DrawBlock>& blocks) {
  const auto& jac = std::get<conformance::JacobianTransform>(c.transforms.front());
  if (jac.randomness == Randomness::Error) throw std::logic_error("the loop of a randomness='error' jacfwd");
  Case inner = c;
  inner.transforms.erase(inner.transforms.begin());
  if (!inner.transforms.empty()) return Truth{std::nullopt, std::nullopt, std::string("jacfwd must be innermost"), ""};
  std::vector<std::size_t> wrt;
  for (const auto& selector : jac.argnums.selectors) {
    const auto* position = std::get_if<std::int64_t>(&selector);
    if (position == nullptr) return Truth{std::nullopt, std::nullopt, std::string("argnums by name"), ""};
    wrt.push_back(static_cast<std::size_t>(*position));
  }
  std::int64_t basis = 0;
  for (std::size_t p : wrt) basis += spec_of(c.inputs.at(p)).data.numel();
  Case named = c;
  named.transforms = {c.transforms.front()};
  const std::vector<std::string> names = conformance::result_names(named);

  // The results' shapes and dtypes, which no draw changes.
  Truth plain = truth_of(ask(context, with_draw_over(inner, step, blocks)), "the unbatched program");
  if (!settled(plain)) return plain;
  const NamedResults& like = *plain.values;
  const std::size_t outputs = like.size();

  std::vector<std::vector<TensorList>> columns(outputs, std::vector<TensorList>(wrt.size()));
  std::int64_t column = 0;
  for (std::size_t w = 0; w < wrt.size(); ++w) {
    const conformance::TensorSpec& x = spec_of(c.inputs.at(wrt[w]));
    for (std::int64_t e = 0; e < x.data.numel(); ++e, ++column) {
      Case leaf = inner;
      conformance::JvpTransform jvp;
      for (std::size_t q : wrt) {
        const conformance::TensorSpec& input = spec_of(c.inputs.at(q));
        const Tensor tangent = q == wrt[w] ? one_hot(input.data.shape, input.data.dtype, e)
                                           : ops::zeros(input.data.shape, input.data.dtype);
        jvp.tangents.push_back({c.inputs.at(q).name, conformance::tensor_spec_of(tangent)});
      }
      leaf.transforms = {jvp};
      std::vector<DrawBlock> mine = blocks;
      if (jac.randomness == Randomness::Different) mine.push_back({basis, column});
      Truth t = truth_of(ask(context, with_draw_over(leaf, step, mine)), fmt::format("the jvp along basis {}", column));
      if (!settled(t)) return t;
      for (std::size_t k = 0; k < outputs; ++k) columns[k][w].push_back(tensor_of(t.values->at(outputs + k).second));
    }
  }
  NamedResults out;
  for (std::size_t k = 0; k < outputs; ++k) {
    const TensorData& y = like[k].second;
    for (std::size_t w = 0; w < wrt.size(); ++w) {
      const Shape& x_shape = spec_of(c.inputs.at(wrt[w])).data.shape;
      Shape block_shape = y.shape;
      block_shape.insert(block_shape.end(), x_shape.begin(), x_shape.end());
      Tensor block;
      if (columns[k][w].empty()) {
        block = ops::zeros(block_shape, y.dtype);
      } else {
        block = ops::reshape(ops::stack(columns[k][w], static_cast<std::int64_t>(y.shape.size())), block_shape);
      }
      out.emplace_back(names.at(k * wrt.size() + w), data_of(ops::contiguous(block)));
    }
  }
  return Truth{std::move(out), std::nullopt, std::nullopt, ""};
}

Truth loop_truth(const PropertyContext& context, const Case& c, const RandomStep& step, std::vector<DrawBlock> blocks) {
  if (c.transforms.empty()) return truth_of(ask(context, with_draw_over(c, step, blocks)), "an unbatched example");
  if (std::holds_alternative<conformance::VmapTransform>(c.transforms.front()))
    return vmap_loop(context, c, step, blocks);
  const auto* jac = std::get_if<conformance::JacobianTransform>(&c.transforms.front());
  if (jac != nullptr && jac->forward) return jacfwd_loop(context, c, step, blocks);
  return Truth{std::nullopt, std::nullopt,
               fmt::format("no loop for a {} level", conformance::transform_name(c.transforms.front())), ""};
}

// ---------------------------------------------------------------------------------------------
// The generated cases.

struct RandomCase {
  Case c;
  RandomStep step;
  std::set<std::string> exact_outputs;  // draws themselves: compared bit for bit (GEN-2.1)
  // What the spec's rules say the case raises whatever the draws: vmap_randomness for an 'error'
  // level or a distribution argument batched under 'same' (VMAP-2.1, VMAP-2.2), and
  // vmap_inplace_unbatched for an in-place draw into a tensor a 'different' level does not batch
  // (VMAP-2.3). The draw comes before the write, so vmap_randomness wins.
  std::optional<ErrorKind> spec_error;
};

enum class Flags { SameOrDifferent, SomeError };

std::vector<Randomness> draw_flags(std::size_t levels, Flags which) {
  std::vector<Randomness> flags;
  for (std::size_t l = 0; l < levels; ++l) {
    flags.push_back(which == Flags::SameOrDifferent
                        ? *rc::gen::element(Randomness::Same, Randomness::Different)
                        : *rc::gen::element(Randomness::Error, Randomness::Same, Randomness::Different));
  }
  if (which == Flags::SomeError && std::find(flags.begin(), flags.end(), Randomness::Error) == flags.end())
    flags[*rc::gen::inRange<std::size_t>(0, levels)] = Randomness::Error;
  return flags;
}

std::string flags_text(const Case& c) {
  std::vector<std::string> parts;
  for (const conformance::Transform& t : c.transforms) {
    if (const auto* v = std::get_if<conformance::VmapTransform>(&t)) {
      parts.push_back(fmt::format("vmap '{}'", conformance::randomness_name(v->randomness)));
    } else if (const auto* j = std::get_if<conformance::JacobianTransform>(&t)) {
      parts.push_back(fmt::format("jacfwd '{}'", conformance::randomness_name(j->randomness)));
    }
  }
  return fmt::format("{}", fmt::join(parts, " ∘ "));
}

std::string step_text(const OpCall& step) {
  std::vector<std::string> args;
  for (const auto& a : step.args) args.push_back(a ? *a : "None");
  return fmt::format("{} = {}({}){}", fmt::join(step.outs, ", "), step.op, fmt::join(args, ", "),
                     step.attrs.values().empty() ? "" : " " + step.attrs.to_string());
}

struct VmapLevel {
  std::int64_t batch = 1;
  std::int64_t out_dim = 0;
  std::optional<std::int64_t> chunk;
};

// A random op alone, on its sample's inputs, each mapped or not at each of one or two vmap levels
// (an unused input mapped at every level gives each level its batch).
RandomCase draw_lone_random_op(Flags which, bool composites) {
  const std::vector<RandomOpTraits> ops = random_ops([&](const RandomOpTraits& t) {
    // A composite may or may not draw, depending on its attributes (dropout with train=False or
    // p = 0 draws nothing), so 'error' says nothing about it.
    return composites || t.op->kind != OpKind::Composite;
  });
  RC_PRE(!ops.empty());
  const RandomOpTraits traits = ops[*rc::gen::inRange<std::size_t>(0, ops.size())];
  const DType floating = *rc::gen::element(DType::Float64, DType::Float32);
  const std::uint32_t sample_seed = *rc::gen::arbitrary<std::uint32_t>();
  const std::vector<samples::OpSample> first = op_samples(traits.op->name(), floating, sample_seed, 0);
  RC_PRE(!first.empty());
  const std::size_t sample_index = *rc::gen::inRange<std::size_t>(0, first.size());
  samples::OpSample sample = first[sample_index];
  if (traits.sized) sample.attrs.set("size", *gen_shape(3, 3));

  const std::size_t level_count = *rc::gen::inRange<std::size_t>(1, 3);
  const std::vector<Randomness> flags = draw_flags(level_count, which);
  std::vector<VmapLevel> levels;
  for (std::size_t l = 0; l < level_count; ++l) {
    VmapLevel level;
    level.batch = *rc::gen::inRange<std::int64_t>(1, 4);
    level.out_dim = *rc::gen::element<std::int64_t>(0, -1);
    const int chunk = *rc::gen::inRange(0, 3);
    if (chunk > 0) level.chunk = chunk;
    levels.push_back(level);
  }
  std::vector<std::size_t> slots;  // the sample's tensor inputs
  for (std::size_t k = 0; k < sample.inputs.size(); ++k) {
    if (sample.inputs[k].defined() && !sample.inputs[k].is_wrapped_number()) slots.push_back(k);
  }
  std::vector<std::vector<bool>> mapped(level_count, std::vector<bool>(slots.size()));
  for (std::size_t l = 0; l < level_count; ++l) {
    for (std::size_t s = 0; s < slots.size(); ++s) mapped[l][s] = *rc::gen::arbitrary<bool>();
  }

  // Example values: a further draw of the same sample per combination of the indices of the
  // levels that map the input (draw 0's own value, with its layout, for an input never mapped).
  std::map<int, std::vector<samples::OpSample>> draws{{0, first}};
  auto example_value = [&](std::size_t s, const std::vector<std::int64_t>& index) -> Tensor {
    int draw = 0;
    int stride = 1;
    for (std::size_t l = 0; l < level_count; ++l, stride *= 4) {
      if (mapped[l][s]) draw += stride * static_cast<int>(index[l] + 1);
    }
    auto it = draws.find(draw);
    if (it == draws.end()) it = draws.emplace(draw, op_samples(traits.op->name(), floating, sample_seed, draw)).first;
    RC_PRE(sample_index < it->second.size());
    const Tensor& value = it->second[sample_index].inputs.at(slots[s]);
    const Tensor& like = sample.inputs[slots[s]];
    RC_PRE(value.shape() == like.shape() && value.dtype() == like.dtype());
    return value;
  };
  std::function<Tensor(std::size_t, std::size_t, std::vector<std::int64_t>&)> batched =
      [&](std::size_t s, std::size_t level, std::vector<std::int64_t>& index) -> Tensor {
    if (level == level_count) return example_value(s, index);
    if (!mapped[level][s]) {
      index.push_back(0);
      Tensor t = batched(s, level + 1, index);
      index.pop_back();
      return t;
    }
    TensorList parts;
    for (std::int64_t b = 0; b < levels[level].batch; ++b) {
      index.push_back(b);
      parts.push_back(ops::contiguous(batched(s, level + 1, index)));
      index.pop_back();
    }
    return ops::stack(parts, 0);
  };

  RandomCase out;
  Case& c = out.c;
  c.id = "generated";
  c.seed = *rc::gen::arbitrary<std::uint32_t>();
  OpCall step{{"r"}, traits.op->name(), {}, sample.attrs, false};
  std::vector<std::vector<std::optional<std::int64_t>>> in_dims(level_count);
  for (std::size_t k = 0; k < sample.inputs.size(); ++k) {
    const Tensor& t = sample.inputs[k];
    if (!t.defined()) {
      step.args.push_back(std::nullopt);
      continue;
    }
    const std::string name = conformance::sample_input_name(k);
    step.args.push_back(name);
    const auto slot = std::find(slots.begin(), slots.end(), k);
    if (slot == slots.end()) {
      c.inputs.push_back(conformance::case_input_of(name, t));
      for (auto& dims : in_dims) dims.emplace_back(std::nullopt);
      continue;
    }
    const std::size_t s = static_cast<std::size_t>(slot - slots.begin());
    std::vector<std::int64_t> index;
    c.inputs.push_back(conformance::case_input_of(name, batched(s, 0, index)));
    for (std::size_t l = 0; l < level_count; ++l)
      in_dims[l].push_back(mapped[l][s] ? std::optional<std::int64_t>(0) : std::nullopt);
  }
  Shape batch_shape;
  for (const VmapLevel& level : levels) batch_shape.push_back(level.batch);
  c.inputs.push_back(conformance::case_input_of("batch", ops::zeros(batch_shape, DType::Float64)));
  for (auto& dims : in_dims) dims.emplace_back(0);
  c.program.push_back(step);
  c.outputs = {"r"};
  for (std::size_t l = 0; l < level_count; ++l) {
    conformance::VmapTransform vmap;
    vmap.in_dims.form = conformance::DimSpec::Form::ByPosition;
    vmap.in_dims.by_position = in_dims[l];
    vmap.out_dims.form = conformance::DimSpec::Form::All;
    vmap.out_dims.all = levels[l].out_dim;
    vmap.randomness = flags[l];
    vmap.chunk_size = levels[l].chunk;
    c.transforms.push_back(vmap);
  }

  // The draw's example shape (what elementwise arguments are expanded to).
  std::optional<Shape> drawn_shape;
  try {
    random::GeneratorScope scope(0);
    drawn_shape = call(*traits.op, samples::clone_inputs(sample.inputs), sample.attrs).at(0).shape();
  } catch (const Error&) {
  }
  out.step.index = 0;
  out.step.traits = traits;
  for (std::size_t k = 0; k < sample.inputs.size(); ++k) {
    const Tensor& t = sample.inputs[k];
    if (!t.defined() || t.is_wrapped_number()) {
      out.step.expand_to.emplace_back(std::nullopt);
    } else {
      out.step.expand_to.emplace_back(traits.per_row || !drawn_shape ? t.shape() : *drawn_shape);
    }
  }
  if (traits.op->kind != OpKind::Composite) out.exact_outputs = {"r"};

  for (std::size_t l = 0; l < level_count && !out.spec_error; ++l) {
    if (flags[l] == Randomness::Error) out.spec_error = ErrorKind::VmapRandomness;
    if (flags[l] == Randomness::Same && traits.sets_distribution &&
        std::find(mapped[l].begin(), mapped[l].end(), true) != mapped[l].end())
      out.spec_error = ErrorKind::VmapRandomness;
  }
  if (traits.in_place && !out.spec_error && !slots.empty() && slots.front() == 0) {
    for (std::size_t l = 0; l < level_count; ++l) {
      if (flags[l] == Randomness::Different && !mapped[l][0]) out.spec_error = ErrorKind::VmapInplaceUnbatched;
    }
  }
  RC_LOG() << fmt::format("{} [{}] ({}, sample seed {}), seed {}, {}\n", traits.op->name(), sample.label,
                          dtype_name(floating), sample_seed, c.seed, flags_text(c));
  RC_LOG() << "transforms: " << describe_transforms(c) << "\n";
  return out;
}

// A generated program whose first result v shapes a draw r that is multiplied into it:
// combined = v * r. The stack is vmap, vmap ∘ vmap, jacfwd or vmap ∘ jacfwd.
RandomCase draw_program_with_draw(Flags which) {
  const std::vector<RandomOpTraits> ops = random_ops([&](const RandomOpTraits& t) {
    // As in draw_lone_random_op, 'error' says nothing of a composite that may not draw.
    const bool draws_for_sure = which == Flags::SameOrDifferent || t.op->kind != OpKind::Composite;
    return draws_for_sure && !t.in_place && !t.sets_distribution && (t.sized || t.op->schema.tensor_args().size() == 1);
  });
  RC_PRE(!ops.empty());
  ProgramOptions program_options;
  program_options.max_steps = 3;
  program_options.floating_outputs_only = true;
  const GeneratedProgram program = draw_program(program_options);

  const int shape_kind = *rc::gen::inRange(0, 4);  // vmap, vmap ∘ vmap, jacfwd, vmap ∘ jacfwd
  const bool jacobian = shape_kind >= 2;
  const int depth = shape_kind == 0 || shape_kind == 2 ? 1 : 2;
  std::vector<StackLevelPlan> plan = *gen_stack_plan(depth, depth, {StackTransform::Vmap});
  if (jacobian) plan.back().transform = StackTransform::Jacfwd;
  std::vector<Randomness> flags = draw_flags(plan.size(), which);

  std::optional<Case> stacked = apply_stack(program, plan);
  RC_PRE(stacked.has_value());
  const conformance::ProgramResult plain = conformance::run_on_reference(program.program);
  RC_PRE(!plain.error && plain.broken.empty() && !plain.unsupported && !plain.outputs.empty());
  const TensorData& v = plain.outputs.front().second;
  RC_PRE(is_floating(v.dtype));

  const RandomOpTraits traits = ops[*rc::gen::inRange<std::size_t>(0, ops.size())];
  const std::vector<samples::OpSample> samples = op_samples(traits.op->name(), v.dtype, 1, 0);
  RC_PRE(!samples.empty());
  const samples::OpSample& sample = samples[*rc::gen::inRange<std::size_t>(0, samples.size())];

  RandomCase out;
  out.c = *stacked;
  Case& c = out.c;
  c.seed = *rc::gen::arbitrary<std::uint32_t>();
  const std::string value = program.program.outputs.front();
  OpCall draw{{"random_draw"}, traits.op->name(), {}, sample.attrs, false};
  if (traits.sized) {
    draw.attrs.set("size", v.shape);
    if (traits.op->name() != "randint") draw.attrs.set("dtype", v.dtype);
    out.step.expand_to = {};
  } else {
    draw.args = {value};
    out.step.expand_to = {v.shape};
  }
  out.step.index = c.program.size();
  out.step.traits = traits;
  c.program.push_back(draw);
  c.program.push_back(OpCall{{"combined"}, "mul", {value, std::string("random_draw")}, {}, false});
  c.outputs = jacobian ? std::vector<std::string>{"combined"} : std::vector<std::string>{"combined", "random_draw"};
  if (!jacobian && traits.op->kind != OpKind::Composite) out.exact_outputs = {"random_draw"};
  for (std::size_t l = 0; l < c.transforms.size(); ++l) {
    if (auto* v_level = std::get_if<conformance::VmapTransform>(&c.transforms[l])) v_level->randomness = flags[l];
    if (auto* j_level = std::get_if<conformance::JacobianTransform>(&c.transforms[l])) j_level->randomness = flags[l];
  }
  if (std::find(flags.begin(), flags.end(), Randomness::Error) != flags.end())
    out.spec_error = ErrorKind::VmapRandomness;
  RC_LOG() << program.describe();
  RC_LOG() << fmt::format("then {}; combined = mul({}, random_draw); seed {}, {}\n", step_text(draw), value, c.seed,
                          flags_text(c));
  RC_LOG() << "transforms: " << describe_transforms(c) << "\n";
  return out;
}

RandomCase draw_random_case(Flags which) {
  if (*rc::gen::arbitrary<bool>()) return draw_lone_random_op(which, which == Flags::SameOrDifferent);
  return draw_program_with_draw(which);
}

PropertyCheck check_draws(const PropertyContext& context, const RandomCase& drawn) {
  if (drawn.spec_error)
    return judge_law(context, expecting_error(drawn.c, *drawn.spec_error),
                     fmt::format("the spec's randomness rules say {}", error_kind_name(*drawn.spec_error)));
  const Truth truth = loop_truth(context, drawn.c, drawn.step, {});
  if (truth.unsupported) return PropertyCheck::unsupported(*truth.unsupported);
  if (!truth.fault.empty()) return PropertyCheck::violated(truth.fault, std::nullopt);
  if (truth.error)
    return judge_law(context, expecting_error(drawn.c, *truth.error),
                     "an unbatched example raises, so the batched draw must raise the same");
  Case expectation = expecting_values(drawn.c, kSameAndDifferent, *truth.values);
  for (conformance::ExpectedValue& value : expectation.expect.values) {
    if (drawn.exact_outputs.count(value.name) > 0) value.tolerance = conformance::Tolerance{};
  }
  expectation.description =
      "vmap/jacfwd randomness: 'same' shares the unbatched draw made with the case's seed, 'different' is the "
      "unbatched draw over the batch dims of the 'different' levels (outer first); the expectation is the loop of "
      "the backend's own unbatched examples";
  return judge_law(context, std::move(expectation),
                   "the draws differ from the unbatched draws over the 'different' batch dims");
}

// ---------------------------------------------------------------------------------------------
// The statistics of large draws (NOTE: [randomness statistics]).

constexpr std::int64_t kSlices = 8;
constexpr std::int64_t kSliceElements = 4096;
constexpr int kSlicePrCases = 40;
constexpr std::int64_t kMostCategories = 12;  // randint's high - low is at most this
// False alarms: a correct backend fails a run with probability below 1e-9. A run checks at most
// 50 * kSlicePrCases programs (the exhaustive tier), each with kSlices slices and at most
// kMostCategories bounds per slice (one KS statistic for continuous draws, one count for Bernoulli
// draws, one count per value for randint): M = 50 * 40 * 8 * 12 = 192000 bounds, each at level
// alpha = 1e-9 / M ~ 5.2e-15 (Bonferroni). For n = 4096 draws per slice, 2 exp(-2 n t^2) = alpha at
// t = sqrt(ln(2 / alpha) / (2 n)) ~ 0.0640. The identity checks (slices of a 'different' draw differ,
// those of a 'same' draw are one) add no false alarm worth counting: two independent slices of 4096
// draws coincide with probability prod (p_i^2 + (1 - p_i)^2) <= 0.905^4096 < 1e-177 for Bernoulli
// draws with p in [0.05, 0.95] (and about e^-1100 for p uniform in [0, 1) per element), at most
// (1/2)^4096 for randint over at least two values, and less still for continuous draws.
constexpr double kFalseAlarmPerRun = 1e-9;
constexpr double kBoundsPerRun = 50.0 * kSlicePrCases * kSlices * kMostCategories;

enum class Law { Uniform, Normal, Exponential, Bernoulli, Integers };

struct StatisticCase {
  Case c;
  std::string op;
  Law law = Law::Uniform;
  Randomness flag = Randomness::Different;
  // Per slice, per element: (from, to), (mean, std), (rate, unused), (p, unused) or (low, high).
  std::vector<std::vector<double>> first, second;
};

// Parameters of one slice: a mapped input gives row b, an unmapped one the same values.
std::vector<double> slice_values(const Tensor& t, bool mapped, std::int64_t b) {
  const Tensor row = ops::contiguous(mapped ? ops::select(t, 0, b) : t);
  const TensorData data = data_of(row);
  std::vector<double> out(static_cast<std::size_t>(data.numel()));
  for (std::int64_t i = 0; i < data.numel(); ++i) out[static_cast<std::size_t>(i)] = data.element_as_double(i);
  return out;
}

StatisticCase draw_statistic_case() {
  static const std::vector<std::string> candidates = {
      "rand",    "randn",       "randint",      "uniform",     "uniform_",   "normal_functional",
      "normal_", "exponential", "exponential_", "bernoulli.p", "bernoulli_", "bernoulli",
      "normal"};
  std::vector<std::string> ops;
  for (const std::string& name : candidates) {
    if (OpRegistry::instance().find(name) != nullptr) ops.push_back(name);
  }
  RC_PRE(!ops.empty());
  StatisticCase out;
  out.op = ops[*rc::gen::inRange<std::size_t>(0, ops.size())];
  const DType floating = *rc::gen::element(DType::Float64, DType::Float32);
  const Shape example = *rc::gen::element(Shape{kSliceElements}, Shape{64, 64}, Shape{16, 256});
  out.flag = *rc::gen::element(Randomness::Different, Randomness::Same);
  const bool different = out.flag == Randomness::Different;
  samples::SampleRng rng(*rc::gen::arbitrary<std::uint32_t>());
  const std::vector<std::int64_t> size(example.begin(), example.end());
  Shape batched_shape{kSlices};
  batched_shape.insert(batched_shape.end(), example.begin(), example.end());

  Case& c = out.c;
  c.id = "generated";
  c.seed = *rc::gen::arbitrary<std::uint32_t>();
  OpCall step{{"r"}, out.op, {}, {}, false};
  std::vector<std::optional<std::int64_t>> in_dims;
  // Parameters given by attributes become constant tensors, so every law reads them per element.
  auto add_input = [&](const std::string& name, const Tensor& value, bool mapped) {
    c.inputs.push_back(conformance::case_input_of(name, value));
    in_dims.push_back(mapped ? std::optional<std::int64_t>(0) : std::nullopt);
    step.args.push_back(name);
  };
  auto constant = [&](double value) {
    return from_vector(std::vector<double>(static_cast<std::size_t>(kSliceElements), value), example, DType::Float64);
  };
  Tensor first, second;
  bool first_mapped = false, second_mapped = false;
  // Distribution arguments may be batched only under 'different' (VMAP-2.2).
  if (out.op == "rand" || out.op == "randn") {
    step.attrs = {{"size", size}, {"dtype", floating}};
    out.law = out.op == "rand" ? Law::Uniform : Law::Normal;
    first = constant(0);
    second = constant(1);
  } else if (out.op == "randint") {
    const std::int64_t low = *rc::gen::inRange<std::int64_t>(-5, 6);
    const std::int64_t high = low + *rc::gen::inRange<std::int64_t>(2, kMostCategories + 1);
    step.attrs = {{"low", low}, {"high", high}, {"size", size}};
    out.law = Law::Integers;
    first = constant(static_cast<double>(low));
    second = constant(static_cast<double>(high));
  } else if (out.op == "bernoulli" || out.op == "normal") {
    const bool normal = out.op == "normal";
    out.law = normal ? Law::Normal : Law::Bernoulli;
    const bool map_first = different && *rc::gen::arbitrary<bool>();
    const bool map_second = normal && different && *rc::gen::arbitrary<bool>();
    const Tensor p_or_mean =
        rng.tensor(map_first ? batched_shape : example, floating, normal ? -2.0 : 0.0, normal ? 2.0 : 1.0);
    add_input(normal ? "mean" : "p", p_or_mean, map_first);
    first = p_or_mean;
    first_mapped = map_first;
    if (normal) {
      const Tensor std = rng.tensor(map_second ? batched_shape : example, floating, 0.25, 2.0);
      add_input("std", std, map_second);
      second = std;
      second_mapped = map_second;
    } else {
      second = constant(0);
    }
  } else {
    // Ops drawing in the shape of self, with scalar parameters: self may be batched under 'same'. An
    // in-place draw under 'different' needs a batched self (VMAP-2.3).
    const bool in_place = out.op.back() == '_';
    const bool map_self = (in_place && different) || *rc::gen::arbitrary<bool>();
    add_input("self", ops::zeros(map_self ? batched_shape : example, floating), map_self);
    if (out.op == "uniform" || out.op == "uniform_") {
      const double from = *rc::gen::inRange(-12, 13) / 4.0;
      const double to = from + *rc::gen::inRange(1, 17) / 4.0;
      step.attrs = {{"from", from}, {"to", to}};
      out.law = Law::Uniform;
      first = constant(from);
      second = constant(to);
    } else if (out.op == "exponential" || out.op == "exponential_") {
      const double rate = *rc::gen::inRange(1, 17) / 4.0;
      step.attrs = {{"lambd", rate}};
      out.law = Law::Exponential;
      first = constant(rate);
      second = constant(0);
    } else if (out.op == "normal_functional" || out.op == "normal_") {
      const double mean = *rc::gen::inRange(-8, 9) / 4.0;
      const double std = *rc::gen::inRange(1, 13) / 4.0;
      step.attrs = {{"mean", mean}, {"std", std}};
      out.law = Law::Normal;
      first = constant(mean);
      second = constant(std);
    } else {
      const double p = *rc::gen::inRange(1, 20) / 20.0;
      step.attrs = {{"p", p}};
      out.law = Law::Bernoulli;
      first = constant(p);
      second = constant(0);
    }
  }
  c.inputs.push_back(conformance::case_input_of("batch", ops::zeros({kSlices}, DType::Float64)));
  in_dims.emplace_back(0);
  c.program.push_back(step);
  c.outputs = {"r"};
  conformance::VmapTransform vmap;
  vmap.in_dims.form = conformance::DimSpec::Form::ByPosition;
  vmap.in_dims.by_position = in_dims;
  vmap.out_dims.form = conformance::DimSpec::Form::All;
  vmap.out_dims.all = 0;
  vmap.randomness = out.flag;
  if (*rc::gen::arbitrary<bool>()) vmap.chunk_size = 3;
  c.transforms.push_back(vmap);
  for (std::int64_t b = 0; b < kSlices; ++b) {
    out.first.push_back(slice_values(first, first_mapped, b));
    out.second.push_back(slice_values(second, second_mapped, b));
  }
  RC_LOG() << fmt::format("{} {} over {} slices of {}, {}, seed {}: {}\n", out.op, step.attrs.to_string(), kSlices,
                          fmt::join(example, "x"), dtype_name(floating), c.seed, describe_transforms(c));
  return out;
}

// Why slice `values` does not follow the law, or "" when it does.
std::string slice_misfit(const StatisticCase& sc, std::size_t b, const std::vector<double>& values, double threshold) {
  const std::vector<double>& a = sc.first[b];
  const std::vector<double>& z = sc.second[b];
  const std::int64_t n = static_cast<std::int64_t>(values.size());
  switch (sc.law) {
    case Law::Uniform:
    case Law::Normal:
    case Law::Exponential: {
      std::vector<double> u(values.size());
      for (std::size_t i = 0; i < values.size(); ++i) {
        const double x = values[i];
        if (!std::isfinite(x)) return fmt::format("element {} is {}", i, x);
        if (sc.law == Law::Uniform) {
          // GEN-3.1: rand in [0, 1), uniform in [from, to].
          if (x < a[i] || x > z[i] || (sc.op == "rand" && x >= 1))
            return fmt::format("element {} = {} lies outside [{}, {}]", i, x, a[i], z[i]);
          u[i] = (x - a[i]) / (z[i] - a[i]);
        } else if (sc.law == Law::Exponential) {
          // GEN-3.1: exponential draws are >= 0; the CDF is 1 - exp(-rate x).
          if (x < 0) return fmt::format("element {} = {} is negative", i, x);
          u[i] = -std::expm1(-a[i] * x);
        } else {
          u[i] = standard_normal_cdf((x - a[i]) / z[i]);
        }
      }
      const double d = ks_statistic_uniform(std::move(u));
      if (d > threshold)
        return fmt::format("the Kolmogorov–Smirnov distance to its CDF is {:.4f}, above the bound {:.4f}", d,
                           threshold);
      return "";
    }
    case Law::Bernoulli: {
      double ones = 0, expected = 0;
      for (std::size_t i = 0; i < values.size(); ++i) {
        if (values[i] != 0 && values[i] != 1) return fmt::format("element {} is {}, not 0 or 1", i, values[i]);
        ones += values[i];
        expected += a[i];
      }
      const double gap = std::abs(ones - expected) / static_cast<double>(n);
      if (gap > threshold)
        return fmt::format("{} ones where p gives {:.1f}: a mean off by {:.4f}, above the bound {:.4f}", ones, expected,
                           gap, threshold);
      return "";
    }
    case Law::Integers: {
      const auto low = static_cast<std::int64_t>(a.front());
      const auto high = static_cast<std::int64_t>(z.front());
      std::vector<double> counts(static_cast<std::size_t>(high - low), 0.0);
      for (std::size_t i = 0; i < values.size(); ++i) {
        const double x = values[i];
        if (x != std::floor(x) || x < static_cast<double>(low) || x >= static_cast<double>(high))
          return fmt::format("element {} = {} is not an integer in [{}, {})", i, x, low, high);
        counts[static_cast<std::size_t>(static_cast<std::int64_t>(x) - low)] += 1;
      }
      const double share = 1.0 / static_cast<double>(high - low);
      for (std::size_t k = 0; k < counts.size(); ++k) {
        const double gap = std::abs(counts[k] / static_cast<double>(n) - share);
        if (gap > threshold)
          return fmt::format("value {} has frequency {:.4f} where {:.4f} is due, off by more than {:.4f}",
                             low + static_cast<std::int64_t>(k), counts[k] / static_cast<double>(n), share, threshold);
      }
      return "";
    }
  }
  return "";
}

PropertyCheck check_slice_statistics(const PropertyContext& context, const StatisticCase& sc) {
  const Answer answer = ask(context, sc.c);
  if (answer.unsupported) return PropertyCheck::unsupported(*answer.unsupported);
  std::string problem;
  if (!answer.fault.empty()) {
    problem = fmt::format("the backend gave no answer: {}", answer.fault);
  } else if (answer.error) {
    problem = fmt::format("the backend raised {}", error_kind_name(*answer.error));
  } else {
    const TensorData& r = answer.outputs->front().second;
    const std::int64_t per_slice = r.shape.empty() ? 0 : r.numel() / kSlices;
    if (r.shape.empty() || r.shape.front() != kSlices || per_slice != kSliceElements) {
      problem = fmt::format("the result has shape [{}], not {} slices of {}", fmt::join(r.shape, ", "), kSlices,
                            kSliceElements);
    } else {
      const double threshold = two_sided_threshold(kSliceElements, kFalseAlarmPerRun / kBoundsPerRun);
      const std::size_t bytes_per_slice = r.bytes.size() / static_cast<std::size_t>(kSlices);
      auto slice_bytes = [&](std::int64_t b) {
        const auto start = r.bytes.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(b) * bytes_per_slice);
        return std::vector<std::uint8_t>(start, start + static_cast<std::ptrdiff_t>(bytes_per_slice));
      };
      for (std::int64_t b = 0; b < kSlices && problem.empty(); ++b) {
        std::vector<double> values(static_cast<std::size_t>(per_slice));
        for (std::int64_t i = 0; i < per_slice; ++i)
          values[static_cast<std::size_t>(i)] = r.element_as_double(b * per_slice + i);
        const std::string misfit = slice_misfit(sc, static_cast<std::size_t>(b), values, threshold);
        if (!misfit.empty()) problem = fmt::format("slice {} of {}: {}", b, sc.op, misfit);
      }
      for (std::int64_t b = 1; b < kSlices && problem.empty(); ++b) {
        for (std::int64_t other = 0; other < b && problem.empty(); ++other) {
          const bool equal = slice_bytes(b) == slice_bytes(other);
          if (sc.flag == Randomness::Different && equal)
            problem = fmt::format("slices {} and {} of a randomness='different' draw are identical", other, b);
          if (sc.flag == Randomness::Same && !equal)
            problem = fmt::format("slices {} and {} of a randomness='same' draw differ", other, b);
        }
      }
    }
  }
  if (problem.empty()) return PropertyCheck::holds();
  // GEN-2.1 fixes a draw bit for bit, so the reference's draw for this seed is the expectation.
  const conformance::ProgramResult truth = conformance::run_on_reference(sc.c);
  if (truth.error || truth.unsupported || !truth.broken.empty())
    return PropertyCheck::violated(problem + " (and the reference cannot state the expected draw)", std::nullopt);
  Case expectation = expecting_values(sc.c, kSliceDistributions, truth.outputs);
  for (conformance::ExpectedValue& value : expectation.expect.values) value.tolerance = conformance::Tolerance{};
  expectation.description = fmt::format(
      "a large vmapped draw whose slices fail their distribution's bound ({}); the expectation is the reference's "
      "draw for the case's seed, which GEN-2.1 fixes bit for bit",
      problem);
  return PropertyCheck::violated(problem, std::move(expectation));
}

}  // namespace

void add_randomness_properties(std::vector<PropertyDef>& out) {
  out.push_back({std::string(kErrorRefuses),
                 "a random op under any level with randomness='error' (vmap or jacfwd, nested or not) raises "
                 "vmap_randomness",
                 {"VMAP-2.1", "AD-3.3"},
                 200,
                 "",
                 [](PropertyContext& context) {
                   const RandomCase drawn = draw_random_case(Flags::SomeError);
                   return judge_law(context, expecting_error(drawn.c, ErrorKind::VmapRandomness),
                                    "a random op under randomness='error' did not raise vmap_randomness");
                 }});
  out.push_back(
      {std::string(kSameAndDifferent),
       "under vmap (nested, chunked, and over jacfwd), randomness='same' shares the unbatched draw of the "
       "case's seed and 'different' is the unbatched draw over the batch dims of the 'different' levels, "
       "outer first",
       {"VMAP-2.2", "VMAP-2.3", "VMAP-1.6", "AD-3.3"},
       300,
       "",
       [](PropertyContext& context) { return check_draws(context, draw_random_case(Flags::SameOrDifferent)); }});
  out.push_back({std::string(kSliceDistributions),
                 "each slice of a large vmapped draw follows its op's distribution (Kolmogorov–Smirnov and Hoeffding "
                 "bounds, false alarms below 1e-9 per run); 'different' slices differ and 'same' slices are one",
                 {"VMAP-2.2", "VMAP-2.3", "GEN-3.1"},
                 kSlicePrCases,
                 "",
                 [](PropertyContext& context) { return check_slice_statistics(context, draw_statistic_case()); }});
}

}  // namespace funcspec::properties
