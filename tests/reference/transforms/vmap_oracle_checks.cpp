#include "tests/reference/transforms/vmap_oracle_checks.h"

#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "reference/core/error.h"
#include "reference/ops/dispatch.h"

namespace funcspec::testing_support {

transforms::PyFunction op_function(const std::string& op, const Attrs& attrs) {
  return [op, attrs](const std::vector<transforms::PyTree>& args) {
    TensorList inputs;
    for (const transforms::PyTree& arg : args) inputs.push_back(arg.is_tensor() ? arg.tensor() : Tensor());
    const TensorList results = call(op, inputs, attrs);
    if (results.size() == 1) return transforms::PyTree(results[0]);
    return transforms::PyTree::tuple(std::vector<transforms::PyTree>(results.begin(), results.end()));
  };
}

TensorList tensors_of(const transforms::PyTree& tree) {
  TensorList out;
  for (const transforms::PyTree& leaf : tree.leaves()) out.push_back(leaf.tensor());
  return out;
}

TensorList on_meta(const TensorList& inputs) {
  TensorList out;
  for (const Tensor& t : inputs) {
    out.push_back(!t.defined() || t.is_wrapped_number() ? t : Tensor::empty(t.shape(), t.dtype(), Device::Meta));
  }
  return out;
}

void expect_vmap_equals_loop(const std::string& what, const std::function<TensorList()>& vmapped,
                             const oracles::LoopAndStack& loop, const oracles::VmapComparison& comparison) {
  if (loop.error) {
    try {
      vmapped();
      ADD_FAILURE() << what << ": expected " << error_kind_name(loop.error->kind()) << " (" << loop.error->what()
                    << "), nothing was thrown";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), loop.error->kind()) << what << ": " << e.what();
    }
    return;
  }
  TensorList got;
  try {
    got = vmapped();
  } catch (const Error& e) {
    ADD_FAILURE() << what << ": raised " << e.what() << " where the loop answers";
    return;
  }
  ASSERT_EQ(got.size(), loop.results.size()) << what;
  for (std::size_t k = 0; k < got.size(); ++k) {
    const conformance::Tolerance tolerance = oracles::vmap_oracle_tolerance(comparison, loop.results[k]);
    if (const std::optional<std::string> differs = oracles::vmap_difference(got[k], loop.results[k], tolerance))
      ADD_FAILURE() << what << ", result " << k << ": " << *differs;
  }
}

}  // namespace funcspec::testing_support
