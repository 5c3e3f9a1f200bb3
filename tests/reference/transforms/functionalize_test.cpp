// functionalize (docs/functionalize.md, docs/SPEC.md FUNC): the torch.func documentation's
// examples, writes through views and into arguments checked against values worked out by hand,
// what the functionalized program executes (the op recorder), what it refuses, and its composition
// with vmap (against the loop over examples) and with grad and jvp (against central differences in
// the oracle dtype).
#include <gtest/gtest.h>

#include <algorithm>

#include "reference/api/ops.h"
#include "reference/random/generator.h"
#include "reference/transforms/autodiff.h"
#include "reference/transforms/functionalize.h"
#include "reference/transforms/op_recorder.h"
#include "reference/transforms/vmap.h"
#include "tests/reference/test_support.h"
#include "tests/reference/transforms/pyfunction_support.h"

namespace funcspec::transforms {
namespace functionalize_test {
namespace {

using testing_support::call1;
using testing_support::error_kind_of;
using testing_support::expect_error_kind;
using testing_support::lift;
using testing_support::matrix23;
using testing_support::transposed_matrix23;
using testing_support::values;

constexpr FunctionalizeRemove kMutations = FunctionalizeRemove::Mutations;
constexpr FunctionalizeRemove kMutationsAndViews = FunctionalizeRemove::MutationsAndViews;
constexpr std::array<FunctionalizeRemove, 2> kBothModes{kMutations, kMutationsAndViews};

std::string mode_name(FunctionalizeRemove remove) { return std::string(functionalize_remove_name(remove)); }

Tensor fresh(const Tensor& t) { return ops::clone(t); }

// The results of `f` (a PyFunction of tensors returning a tuple of tensors) as value lists.
std::vector<std::vector<double>> run_values(const PyFunction& f, const TensorList& args) {
  std::vector<PyTree> trees;
  for (const Tensor& t : args) trees.emplace_back(t);
  std::vector<std::vector<double>> out;
  for (const PyTree& leaf : f(trees).leaves()) out.push_back(values(leaf.tensor()));
  return out;
}

// The in-place ops a recorder saw, by name, in order.
std::vector<std::string> writes(const OpRecorder& recorder) {
  std::vector<std::string> out;
  for (const RecordedOp& op : recorder.ops()) {
    if (op.kind == OpKind::InPlace) out.push_back(op.name);
  }
  return out;
}

// ---- The op recorder ---------------------------------------------------------------------------

TEST(FunctionalizeOpRecorder, RecordsWhatRunsAfterDecompositionAndChangesNothing) {
  const Tensor x = testing_support::f64({1, 2, 3});
  const Tensor w = testing_support::f64({10, 20, 30});
  std::vector<std::string> names;
  {
    OpRecorder recorder;
    ops::add_(x, w);                           // a derived in-place op: add, then copy_
    ops::reshape(transposed_matrix23(), {6});  // a composite: clone (no view fits the strides), view
    names = recorder.names();
    EXPECT_EQ(recorder.count(OpKind::InPlace), 1u);
    EXPECT_EQ(recorder.count("view"), 1u);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"add", "copy_", "clone", "view"}));
  EXPECT_EQ(values(x), (std::vector<double>{11, 22, 33}));
  // Gone with its scope: a later recorder starts empty and sees only what runs in its own.
  OpRecorder later;
  ops::neg(x);
  EXPECT_EQ(later.names(), (std::vector<std::string>{"neg"}));
}

// ---- The torch.func.functionalize documentation's examples -------------------------------------

// def f(a):
//     b = a + 1
//     c = b.view(-1)
//     c.add_(1)
//     return b
Tensor docs_example(const Tensor& a) {
  const Tensor b = ops::add(a, ops::lit(1.0));
  const Tensor c = ops::view(b, {-1});
  ops::add_(c, ops::lit(1.0));
  return b;
}

TEST(FunctionalizeSeed, SemanticsAreTheSameAndTheProgramHasNoMutation) {
  const Tensor inpt = testing_support::f64({0.5, -1.25});
  const Tensor out1 = call1(lift(docs_example), inpt);
  EXPECT_EQ(values(out1), (std::vector<double>{2.5, 0.75}));
  for (FunctionalizeRemove remove : kBothModes) {
    SCOPED_TRACE(mode_name(remove));
    OpRecorder recorder;
    const Tensor out2 = call1(functionalize(lift(docs_example), remove), inpt);
    EXPECT_EQ(values(out2), values(out1));
    EXPECT_EQ(recorder.count(OpKind::InPlace), 0u);
    // The literal 1 broadcast by the op layer, a + 1, the view; then c + 1 (its literal broadcast
    // again), the written value as a copy, and the way back from c to b.
    if (remove == kMutations) {
      EXPECT_EQ(recorder.names(),
                (std::vector<std::string>{"expand", "add", "view", "expand", "add", "expand_copy", "view"}));
    } else {
      EXPECT_EQ(recorder.count(OpKind::View), 0u);
      EXPECT_EQ(recorder.names(), (std::vector<std::string>{"expand_copy", "add", "view_copy", "expand_copy", "add",
                                                            "expand_copy", "view_copy"}));
    }
  }
  // Unfunctionalized, the same program writes: the recorder sees it.
  OpRecorder recorder;
  call1(lift(docs_example), inpt);
  EXPECT_EQ(recorder.names(), (std::vector<std::string>{"expand", "add", "view", "expand", "add", "copy_"}));
}

// def f(a):
//     a.add_(1)
//     return a + 1
// Input mutations are applied at the end: the traced program is add, add, copy_(a, add).
Tensor docs_input_example(const Tensor& a) {
  ops::add_(a, ops::lit(1.0));
  return ops::add(a, ops::lit(1.0));
}

TEST(FunctionalizeSeed, InputMutationsAreAppliedToTheInputsAtTheEnd) {
  const Tensor inpt1 = testing_support::f64({1.0, 2.0});
  const Tensor inpt2 = fresh(inpt1);
  const Tensor out1 = call1(lift(docs_input_example), inpt1);
  for (FunctionalizeRemove remove : kBothModes) {
    SCOPED_TRACE(mode_name(remove));
    const Tensor inpt = fresh(inpt2);
    OpRecorder recorder;
    const Tensor out2 = call1(functionalize(lift(docs_input_example), remove), inpt);
    EXPECT_EQ(values(out2), (std::vector<double>{3.0, 4.0}));
    EXPECT_EQ(values(out2), values(out1));
    EXPECT_EQ(values(inpt), (std::vector<double>{2.0, 3.0}));
    EXPECT_EQ(values(inpt), values(inpt1));
    // add, add, then copy_(a, the first add) once f has returned, as in torch.func's traced graph.
    const std::string broadcast = remove == kMutations ? "expand" : "expand_copy";
    EXPECT_EQ(recorder.names(), (std::vector<std::string>{broadcast, "add", "expand_copy", broadcast, "add", "copy_"}));
  }
}

// ---- Writes, aliases and arguments --------------------------------------------------------------

// base = clone(x) of [[1, 2, 3], [4, 5, 6]]; row = base[1]; diag = base.diagonal(); t = base.T;
// row *= 10 gives base [[1, 2, 3], [40, 50, 60]]: diag reads [1, 50] and t the transpose.
PyTree aliases_program(const std::vector<PyTree>& args) {
  const Tensor base = ops::clone(args[0].tensor());
  const Tensor row = ops::select(base, 0, 1);
  const Tensor diag = ops::diagonal(base);
  const Tensor t = ops::transpose(base, 0, 1);
  ops::mul_(row, ops::lit(10.0));
  return PyTree::tuple({PyTree(base), PyTree(row), PyTree(diag), PyTree(t)});
}

TEST(FunctionalizeWrites, EveryAliasReadsAWriteThroughAView) {
  const std::vector<std::vector<double>> expected{{1, 2, 3, 40, 50, 60}, {40, 50, 60}, {1, 50}, {1, 40, 2, 50, 3, 60}};
  EXPECT_EQ(run_values(aliases_program, {matrix23()}), expected);
  for (FunctionalizeRemove remove : kBothModes) {
    SCOPED_TRACE(mode_name(remove));
    EXPECT_EQ(run_values(functionalize(aliases_program, remove), {matrix23()}), expected);
  }
}

// A write at the end of a chain of views reaches the base and every other view: x of shape
// [2, 3, 2] holding 0..11, v = x.view(6, 2), s = v[1::2] (rows 1, 3, 5), e = s[:, 0]
// (elements 2, 6, 10 of x), e.fill_(-1); w = x.permute(2, 0, 1) reads the same memory.
PyTree chain_program(const std::vector<PyTree>& args) {
  const Tensor x = args[0].tensor();
  const Tensor v = ops::view(x, {6, 2});
  const Tensor s = ops::slice(v, 0, 1, std::nullopt, 2);
  const Tensor e = ops::select(s, 1, 0);
  const Tensor w = ops::permute(x, {2, 0, 1});
  ops::fill_(e, Scalar(-1.0));
  return PyTree::tuple({PyTree(v), PyTree(e), PyTree(w)});
}

TEST(FunctionalizeWrites, AWriteAtTheEndOfAChainOfViewsReachesTheBaseAndTheArgument) {
  std::vector<double> x_after(12);
  for (int i = 0; i < 12; ++i) x_after[static_cast<std::size_t>(i)] = i;
  for (int i : {2, 6, 10}) x_after[static_cast<std::size_t>(i)] = -1;
  std::vector<double> w_after;  // w[k, i, j] = x[i, j, k]
  for (int k = 0; k < 2; ++k) {
    for (int i = 0; i < 2; ++i) {
      for (int j = 0; j < 3; ++j) w_after.push_back(x_after[static_cast<std::size_t>(i * 6 + j * 2 + k)]);
    }
  }
  const std::vector<std::vector<double>> expected{x_after, {-1, -1, -1}, w_after};
  const auto input = [] { return ops::to_dtype(ops::reshape(ops::arange(Scalar(12.0)), {2, 3, 2}), DType::Float64); };

  const Tensor plain = input();
  EXPECT_EQ(run_values(chain_program, {plain}), expected);
  EXPECT_EQ(values(plain), x_after);
  for (FunctionalizeRemove remove : kBothModes) {
    SCOPED_TRACE(mode_name(remove));
    const Tensor x = input();
    OpRecorder recorder;
    EXPECT_EQ(run_values(functionalize(chain_program, remove), {x}), expected);
    EXPECT_EQ(values(x), x_after);
    EXPECT_EQ(writes(recorder), (std::vector<std::string>{"copy_"}));
    EXPECT_EQ(recorder.names().back(), "copy_");
    if (remove == kMutationsAndViews) {
      EXPECT_EQ(recorder.count(OpKind::View), 0u);
    }
  }
}

TEST(FunctionalizeWrites, AnArgumentNeverWrittenIsNotWrittenBack) {
  const PyFunction f = [](const std::vector<PyTree>& args) {
    const Tensor y = ops::clone(args[0].tensor());
    ops::add_(y, args[1].tensor());
    return PyTree(y);
  };
  const Tensor x = testing_support::f64({1, 2});
  const Tensor w = testing_support::f64({3, 4});
  OpRecorder recorder;
  const PyTree r = functionalize(f)({PyTree(x), PyTree(w)});
  EXPECT_EQ(values(r.tensor()), (std::vector<double>{4, 6}));
  EXPECT_EQ(recorder.count(OpKind::InPlace), 0u);
  EXPECT_EQ(values(x), (std::vector<double>{1, 2}));
}

// out=, fill_, zero_ and a random in-place draw are all copy_ underneath: each becomes functional.
TEST(FunctionalizeWrites, OutVariantsFillsAndDrawsBecomeFunctionalAndAgreeWithF) {
  const PyFunction f = [](const std::vector<PyTree>& args) {
    const Tensor x = args[0].tensor();
    const Tensor out = ops::zeros({2, 3}, DType::Float64);
    ops::add_out(x, ops::lit(1.0), out);
    ops::zero_(ops::select(out, 1, 0));
    ops::fill_(ops::slice(out, 0, 1), Scalar(7.0));
    const Tensor noise = ops::zeros({3}, DType::Float64);
    ops::normal_(noise);
    return PyTree::tuple({PyTree(out), PyTree(noise)});
  };
  std::vector<std::vector<double>> expected;
  {
    const random::GeneratorScope generator(5);
    expected = run_values(f, {matrix23()});
  }
  EXPECT_EQ(expected[0], (std::vector<double>{0, 3, 4, 7, 7, 7}));
  for (FunctionalizeRemove remove : kBothModes) {
    SCOPED_TRACE(mode_name(remove));
    const random::GeneratorScope generator(5);
    OpRecorder recorder;
    EXPECT_EQ(run_values(functionalize(f, remove), {matrix23()}), expected);
    EXPECT_EQ(recorder.count(OpKind::InPlace), 0u);
  }
}

TEST(FunctionalizeWrites, TheWrittenValueIsConvertedAsCopyConvertsIt) {
  // float -> int64 truncates, anything -> bool is x != 0.
  const PyFunction f = [](const std::vector<PyTree>& args) {
    const Tensor n = ops::zeros({3}, DType::Int64);
    const Tensor b = ops::zeros({3}, DType::Bool);
    ops::copy_(n, args[0].tensor());
    ops::copy_(b, args[0].tensor());
    return PyTree::tuple({PyTree(n), PyTree(b)});
  };
  const std::vector<std::vector<double>> expected{{2, -1, 0}, {1, 1, 0}};
  EXPECT_EQ(run_values(f, {testing_support::f64({2.75, -1.5, 0.0})}), expected);
  for (FunctionalizeRemove remove : kBothModes) {
    EXPECT_EQ(run_values(functionalize(f, remove), {testing_support::f64({2.75, -1.5, 0.0})}), expected);
  }
}

// What f sees of a tensor besides its values survives its writes: a transposed argument stays
// transposed, so view(-1) is refused and reshape copies, as in f.
TEST(FunctionalizeWrites, TheFunctionSeesTheGeometryItWouldSeeUnfunctionalized) {
  for (FunctionalizeRemove remove : kBothModes) {
    SCOPED_TRACE(mode_name(remove));
    const PyFunction refuses_view = functionalize(lift([](const Tensor& x) {
                                                    ops::add_(x, ops::lit(1.0));
                                                    EXPECT_FALSE(x.is_contiguous());
                                                    EXPECT_EQ(x.strides(), (Strides{1, 2}));
                                                    return ops::view(x, {-1});
                                                  }),
                                                  remove);
    expect_error_kind(ErrorKind::ViewIncompatible, [&] { call1(refuses_view, transposed_matrix23()); });
    const Tensor x = transposed_matrix23();
    OpRecorder recorder;
    const Tensor r = call1(functionalize(lift([](const Tensor& t) {
                                           ops::add_(t, ops::lit(1.0));
                                           const Tensor flat = ops::reshape(t, {-1});  // a copy, as in f
                                           ops::mul_(flat, ops::lit(2.0));
                                           return flat;
                                         }),
                                         remove),
                           x);
    EXPECT_EQ(values(r), (std::vector<double>{4, 6, 8, 10, 12, 14}));
    EXPECT_EQ(values(x), (std::vector<double>{2, 3, 4, 5, 6, 7}));  // the copy's write does not reach x
    EXPECT_EQ(x.strides(), (Strides{1, 2}));
    EXPECT_EQ(recorder.count("clone"), 1u);
  }
}

TEST(FunctionalizeWrites, TheSameTensorPassedTwiceIsOneArgument) {
  const PyFunction f = [](const std::vector<PyTree>& args) {
    ops::add_(args[0].tensor(), ops::lit(1.0));
    return PyTree(ops::mul(args[1].tensor(), ops::lit(2.0)));
  };
  const Tensor x = testing_support::f64({1, 2});
  OpRecorder recorder;
  const PyTree r = functionalize(f)({PyTree(x), PyTree(x)});
  EXPECT_EQ(values(r.tensor()), (std::vector<double>{4, 6}));  // the second sees the first's write
  EXPECT_EQ(values(x), (std::vector<double>{2, 3}));
  EXPECT_EQ(writes(recorder), (std::vector<std::string>{"copy_"}));
}

// A result is the final value, never the argument itself: writing the argument again afterwards
// does not change it (as in torch.func, whose results are the values functionalization computed).
TEST(FunctionalizeWrites, AResultIsAFreshTensorEvenWhenFReturnsAnArgumentItWrote) {
  const Tensor x = testing_support::f64({1, 2});
  const Tensor r = call1(functionalize(lift([](const Tensor& t) { return ops::mul_(t, ops::lit(2.0)); })), x);
  EXPECT_EQ(values(r), (std::vector<double>{2, 4}));
  EXPECT_EQ(values(x), (std::vector<double>{2, 4}));
  EXPECT_FALSE(r.shares_storage_with(x));
  ops::add_(x, ops::lit(1.0));
  EXPECT_EQ(values(r), (std::vector<double>{2, 4}));
}

TEST(FunctionalizeWrites, AliasesShareOneGroupAndNestedFunctionalizeIsFunctionalizeOnce) {
  const auto groups = [](const Tensor& x) {
    const Tensor row = ops::select(x, 0, 0);
    const Tensor t = ops::transpose(x, 0, 1);
    const Tensor fresh_tensor = ops::neg(x);
    EXPECT_NE(functional_alias_group(x), nullptr);
    EXPECT_EQ(functional_alias_group(row), functional_alias_group(x));
    EXPECT_EQ(functional_alias_group(t), functional_alias_group(x));
    EXPECT_NE(functional_alias_group(fresh_tensor), functional_alias_group(x));
    return fresh_tensor;
  };
  call1(functionalize(lift(groups)), matrix23());
  EXPECT_EQ(functional_alias_group(matrix23()), nullptr);

  const std::vector<std::vector<double>> expected = run_values(aliases_program, {matrix23()});
  for (FunctionalizeRemove outer : kBothModes) {
    for (FunctionalizeRemove inner : kBothModes) {
      SCOPED_TRACE(mode_name(outer) + " over " + mode_name(inner));
      OpRecorder recorder;
      EXPECT_EQ(run_values(functionalize(functionalize(aliases_program, inner), outer), {matrix23()}), expected);
      EXPECT_EQ(recorder.count(OpKind::InPlace), 0u);
      if (outer == kMutationsAndViews) {
        EXPECT_EQ(recorder.count(OpKind::View), 0u);
      }
    }
  }
}

// ---- What functionalize refuses -----------------------------------------------------------------

TEST(FunctionalizeRefuses, AWriteIntoATensorFromOutside) {
  const Tensor captured = testing_support::f64({0, 0});
  for (FunctionalizeRemove remove : kBothModes) {
    const PyFunction f = functionalize(lift([&captured](const Tensor& x) {
                                         ops::add_(ops::select(captured, 0, 1), ops::sum(x));
                                         return x;
                                       }),
                                       remove);
    expect_error_kind(ErrorKind::FunctionalizeCapturedMutation, [&] { call1(f, testing_support::f64({1, 2})); });
  }
  EXPECT_EQ(values(captured), (std::vector<double>{0, 0}));
}

TEST(FunctionalizeRefuses, AWriteIntoAnArgumentSharingMemoryWithAnother) {
  const Tensor base = matrix23();
  const Tensor first = ops::select(base, 0, 0);
  const Tensor second = ops::select(base, 0, 1);
  const PyFunction writes_first = functionalize([](const std::vector<PyTree>& args) {
    ops::mul_(args[0].tensor(), ops::lit(2.0));
    return PyTree(args[1].tensor());
  });
  expect_error_kind(ErrorKind::FunctionalizeAliasedInputs, [&] { writes_first({PyTree(first), PyTree(second)}); });
  EXPECT_EQ(values(base), values(matrix23()));
  // Reading aliased arguments is fine.
  const PyFunction reads = functionalize(
      [](const std::vector<PyTree>& args) { return PyTree(ops::add(args[0].tensor(), args[1].tensor())); });
  EXPECT_EQ(values(reads({PyTree(first), PyTree(second)}).tensor()), (std::vector<double>{5, 7, 9}));
}

TEST(FunctionalizeRefuses, AWriteThroughAViewOfATensorWhoseElementsShareMemory) {
  const auto through_row = [](const Tensor& x) {
    const Tensor e = ops::expand(x, {2, 3});
    ops::add_(ops::select(e, 0, 1), ops::lit(1.0));
    return e;
  };
  // f writes x itself (both rows of e are x); functionalize cannot say which row the write meant.
  const Tensor x = testing_support::f64({1, 2, 3});
  EXPECT_EQ(values(call1(lift(through_row), x)), (std::vector<double>{2, 3, 4, 2, 3, 4}));
  expect_error_kind(ErrorKind::InternalOverlap, [&] {
    call1(functionalize(lift(through_row)), testing_support::f64({1, 2, 3}));
  });
  // A write into the expanded tensor itself is refused by f and by functionalize alike.
  const auto into_expanded = [](const Tensor& t) { return ops::add_(ops::expand(t, {2, 3}), ops::lit(1.0)); };
  expect_error_kind(ErrorKind::InternalOverlap, [&] { call1(lift(into_expanded), testing_support::f64({1, 2, 3})); });
  expect_error_kind(ErrorKind::InternalOverlap, [&] {
    call1(functionalize(lift(into_expanded)), testing_support::f64({1, 2, 3}));
  });
}

TEST(FunctionalizeRefuses, AnUnknownRemoveAndAnEscapedTensor) {
  expect_error_kind(ErrorKind::InvalidArgument,
                    [] { functionalize(lift([](const Tensor& t) { return t; }), "views"); });
  Tensor escaped;
  call1(functionalize(lift([&escaped](const Tensor& t) {
          escaped = ops::mul(t, ops::lit(2.0));
          return t;
        })),
        testing_support::f64({1}));
  expect_error_kind(ErrorKind::TransformEscaped, [&] { ops::neg(escaped); });
}

// f raises after a write: functionalize has written nothing into its argument (f itself has).
TEST(FunctionalizeRefuses, NothingIsWrittenBackWhenTheFunctionRaises) {
  const auto f = [](const Tensor& x) {
    ops::add_(x, ops::lit(1.0));
    return ops::view(x, {5});
  };
  const Tensor x = testing_support::f64({1, 2});
  expect_error_kind(ErrorKind::ShapeMismatch, [&] { call1(functionalize(lift(f)), x); });
  EXPECT_EQ(values(x), (std::vector<double>{1, 2}));
}

// ---- Composition ----------------------------------------------------------------------------------

// One example: x [3] is written through a slice and used after; a fresh tensor is written through
// a diagonal of its view.
PyTree example_program(const std::vector<PyTree>& args) {
  const Tensor x = args[0].tensor();
  const Tensor tail = ops::slice(x, 0, 1);
  ops::mul_(tail, ops::select(x, 0, 0));
  const Tensor square = ops::mul(ops::unsqueeze(x, 1), ops::unsqueeze(x, 0));
  ops::add_(ops::diagonal(square), ops::lit(1.0));
  return PyTree::tuple({PyTree(ops::sum(ops::sin(square))), PyTree(ops::exp(x))});
}

TEST(FunctionalizeComposes, VmapOfFunctionalizeAndFunctionalizeOfVmapEqualTheLoop) {
  const Tensor batch = from_values({0.5, -1.0, 2.0, 1.5, 0.25, -0.75, -2.0, 1.0, 0.125, 0.3, 0.6, -0.9}, {4, 3});
  // The loop: f on each example, each written into its own row.
  const Tensor looped = fresh(batch);
  std::vector<std::vector<double>> sums;
  std::vector<std::vector<double>> exps;
  for (std::int64_t b = 0; b < 4; ++b) {
    const std::vector<std::vector<double>> r = run_values(example_program, {ops::select(looped, 0, b)});
    sums.push_back(r[0]);
    exps.push_back(r[1]);
  }
  std::vector<double> sum_column;
  std::vector<double> exp_rows;
  for (std::size_t b = 0; b < 4; ++b) {
    sum_column.push_back(sums[b][0]);
    exp_rows.insert(exp_rows.end(), exps[b].begin(), exps[b].end());
  }
  for (FunctionalizeRemove remove : kBothModes) {
    SCOPED_TRACE(mode_name(remove));
    // vmap(functionalize(f)), recording what the functionalized function hands to vmap.
    std::vector<RecordedOp> seen;
    const PyFunction recorded = [&seen, remove](const std::vector<PyTree>& args) {
      OpRecorder recorder;
      const PyTree r = functionalize(example_program, remove)(args);
      seen = recorder.ops();
      return r;
    };
    const Tensor x1 = fresh(batch);
    EXPECT_EQ(run_values(vmap(recorded), {x1}), (std::vector<std::vector<double>>{sum_column, exp_rows}));
    EXPECT_EQ(values(x1), values(looped));
    ASSERT_FALSE(seen.empty());
    EXPECT_EQ(seen.back().name, "copy_");
    EXPECT_EQ(std::count_if(seen.begin(), seen.end(), [](const RecordedOp& op) { return op.kind == OpKind::InPlace; }),
              1);
    if (remove == kMutationsAndViews) {
      EXPECT_EQ(std::count_if(seen.begin(), seen.end(), [](const RecordedOp& op) { return op.kind == OpKind::View; }),
                0);
    }
    // functionalize(vmap(f)): vmap's own writes (its copy_ rule writes through a view) become functional.
    const Tensor x2 = fresh(batch);
    OpRecorder recorder;
    EXPECT_EQ(run_values(functionalize(vmap(example_program), remove), {x2}),
              (std::vector<std::vector<double>>{sum_column, exp_rows}));
    EXPECT_EQ(values(x2), values(looped));
    EXPECT_EQ(writes(recorder), (std::vector<std::string>{"copy_"}));
  }
}

// d/dx of sum(f(x)) by central differences in the oracle dtype (their error is far below
// float64's), rounded to float64. f may write into its argument: each point is a fresh tensor.
std::vector<double> oracle_gradient(const std::function<Tensor(const Tensor&)>& f, const Tensor& x) {
  const double h = 1e-20;
  const Tensor point = ops::to_dtype(x, DType::Oracle);
  std::vector<double> out;
  for (std::int64_t i = 0; i < x.numel(); ++i) {
    const auto at = [&](double step) {
      const Tensor moved = ops::clone(point);
      ops::add_(ops::select(ops::view(moved, {-1}), 0, i), ops::lit(step));
      return ops::sum(f(moved));
    };
    const Tensor difference = ops::div(ops::sub(at(h), at(-h)), ops::lit(2 * h));
    out.push_back(values(ops::to_dtype(difference, DType::Float64))[0]);
  }
  return out;
}

void expect_close(const std::vector<double>& got, const std::vector<double>& want, double tolerance) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tolerance * (1 + std::abs(want[i]))) << i;
}

// Writes that the unfunctionalized transforms accept too (no view of the written tensor is alive):
// y = clone(x); y *= x; y += 1; (sum(sin(y)), exp(y)).
PyTree clone_writes_program(const std::vector<PyTree>& args) {
  const Tensor x = args[0].tensor();
  const Tensor y = ops::clone(x);
  ops::mul_(y, x);
  ops::add_(y, ops::lit(1.0));
  return PyTree::tuple({PyTree(ops::sum(ops::sin(y))), PyTree(ops::exp(y))});
}

Tensor first_result(const PyFunction& f, const Tensor& x) { return f({PyTree(x)}).children()[0].tensor(); }

TEST(FunctionalizeComposes, GradInEitherOrderAgreesWithGradAndFiniteDifferences) {
  const Tensor x = testing_support::f64({0.5, -1.25, 2.0});
  const auto f = [](const Tensor& t) { return first_result(clone_writes_program, t); };
  const std::vector<double> fd = oracle_gradient(f, x);
  const std::vector<double> plain = values(call1(grad(lift(f)), x));
  expect_close(plain, fd, 1e-12);
  for (FunctionalizeRemove remove : kBothModes) {
    SCOPED_TRACE(mode_name(remove));
    const PyFunction functionalized = functionalize(clone_writes_program, remove);
    const auto g = [&functionalized](const Tensor& t) { return first_result(functionalized, t); };
    EXPECT_EQ(values(call1(grad(lift(g)), x)), plain);
    // functionalize outside: grad's own computation (its tape, its transposes) is functionalized too.
    EXPECT_EQ(values(call1(functionalize(grad(lift(f)), remove), x)), plain);
  }
}

// z = zeros_like(x); v = z[0] (alive); z += x; sum(z * v) = x0 * sum(x). Unfunctionalized, grad
// refuses the write (ad_inplace_aliased: v's derivative would go stale); functionalized, no write
// is left to refuse, and the gradient is (sum(x) + x0, x0, x0).
Tensor aliased_write(const Tensor& x) {
  const Tensor z = ops::zeros_like(x);
  const Tensor v = ops::select(z, 0, 0);
  ops::add_(z, x);
  return ops::sum(ops::mul(z, v));
}

TEST(FunctionalizeComposes, GradOfFunctionalizeThroughWritesThatPlainGradRefuses) {
  const Tensor x = testing_support::f64({0.5, -1.25, 2.0});
  expect_error_kind(ErrorKind::AdInplaceAliased, [&] { call1(grad(lift(aliased_write)), x); });
  const std::vector<double> hand{1.75, 0.5, 0.5};
  expect_close(oracle_gradient(aliased_write, x), hand, 1e-12);
  const auto example_sum = [](const Tensor& t) { return first_result(example_program, ops::clone(t)); };
  const std::vector<double> fd = oracle_gradient(example_sum, x);
  for (FunctionalizeRemove remove : kBothModes) {
    SCOPED_TRACE(mode_name(remove));
    expect_close(values(call1(grad(functionalize(lift(aliased_write), remove)), x)), hand, 1e-12);
    expect_close(values(call1(grad(functionalize(lift(example_sum), remove)), x)), fd, 1e-12);
  }
}

TEST(FunctionalizeComposes, JvpInEitherOrderAgreesWithJvpAndFiniteDifferences) {
  const Tensor x = testing_support::f64({0.5, -1.25, 2.0});
  const Tensor t = testing_support::f64({1.0, 0.5, -2.0});
  const JvpResult plain = jvp(clone_writes_program, {PyTree(x)}, {PyTree(t)});
  const std::vector<double> fd =
      oracle_gradient([](const Tensor& p) { return first_result(clone_writes_program, p); }, x);
  const double directional = fd[0] * 1.0 + fd[1] * 0.5 + fd[2] * -2.0;
  EXPECT_NEAR(values(plain.tangent.children()[0].tensor())[0], directional, 1e-12 * (1 + std::abs(directional)));
  for (FunctionalizeRemove remove : kBothModes) {
    SCOPED_TRACE(mode_name(remove));
    const JvpResult r = jvp(functionalize(clone_writes_program, remove), {PyTree(x)}, {PyTree(t)});
    for (std::size_t k = 0; k < 2; ++k) {
      EXPECT_EQ(values(r.output.children()[k].tensor()), values(plain.output.children()[k].tensor()));
      EXPECT_EQ(values(r.tangent.children()[k].tensor()), values(plain.tangent.children()[k].tensor()));
    }
    const PyFunction inner_jvp = [&t](const std::vector<PyTree>& args) {
      const JvpResult j = jvp(clone_writes_program, {args[0]}, {PyTree(t)});
      return PyTree::tuple({j.output.children()[0], j.tangent.children()[0]});
    };
    const std::vector<std::vector<double>> outer = run_values(functionalize(inner_jvp, remove), {x});
    EXPECT_EQ(outer[1], values(plain.tangent.children()[0].tensor()));
  }
  // Through writes that plain jvp refuses, jvp(functionalize(f)) is the directional derivative.
  const auto example_sum = [](const Tensor& p) { return first_result(example_program, ops::clone(p)); };
  const std::vector<double> example_fd = oracle_gradient(example_sum, x);
  const double example_directional = example_fd[0] * 1.0 + example_fd[1] * 0.5 + example_fd[2] * -2.0;
  for (FunctionalizeRemove remove : kBothModes) {
    const JvpResult r = jvp(functionalize(lift(example_sum), remove), {PyTree(x)}, {PyTree(t)});
    EXPECT_NEAR(values(r.tangent.tensor())[0], example_directional, 1e-12 * (1 + std::abs(example_directional)));
  }
}

}  // namespace
}  // namespace functionalize_test
}  // namespace funcspec::transforms
