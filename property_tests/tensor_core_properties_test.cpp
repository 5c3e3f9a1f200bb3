// Laws of the tensor core that every later transform relies on.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "property_tests/generators.h"
#include "reference/core/promotion.h"
#include "reference/ops/dispatch.h"

namespace funcspec::properties {
namespace {

RC_GTEST_PROP(Broadcasting, broadcastIsCommutative, ()) {
  const auto [a, b] = *gen_broadcastable_pair();
  RC_ASSERT(broadcast_shapes(std::vector<Shape>{a, b}, "p") == broadcast_shapes(std::vector<Shape>{b, a}, "p"));
}

RC_GTEST_PROP(Broadcasting, broadcastOfAShapeWithAPrefixOfOnesIsTheShape, ()) {
  const auto [full, smaller] = *gen_broadcastable_pair();
  RC_ASSERT(broadcast_shapes(std::vector<Shape>{full, smaller}, "p") == full);
}

RC_GTEST_PROP(TypePromotion, resultTypeIgnoresOperandOrder, ()) {
  const std::size_t count = *rc::gen::inRange<std::size_t>(1, 5);
  const auto dtypes = *rc::gen::container<std::vector<DType>>(count, gen_dtype());
  const auto kinds = *rc::gen::container<std::vector<int>>(dtypes.size(), rc::gen::inRange(0, 3));
  std::vector<Tensor> operands;
  for (std::size_t i = 0; i < dtypes.size(); ++i) {
    if (kinds[i] == 0)
      operands.push_back(Tensor::empty({2}, dtypes[i]));
    else if (kinds[i] == 1)
      operands.push_back(Tensor::empty({}, dtypes[i]));
    else
      operands.push_back(Tensor::wrapped_scalar(dtypes[i] == DType::Bool ? Scalar(true)
                                                : is_floating(dtypes[i]) ? Scalar(0.5)
                                                                         : Scalar(3)));
  }
  std::vector<Tensor> reversed(operands.rbegin(), operands.rend());
  RC_ASSERT(result_type(operands) == result_type(reversed));
}

RC_GTEST_PROP(TypePromotion, promoteTypesIsAssociative, ()) {
  const DType a = *gen_dtype(), b = *gen_dtype(), c = *gen_dtype();
  RC_ASSERT(promote_types(promote_types(a, b), c) == promote_types(a, promote_types(b, c)));
}

// Whenever view_strides accepts a new shape, the view addresses exactly the elements of the
// original in the same row-major order: a view is a reinterpretation, never a reordering.
RC_GTEST_PROP(Views, viewStridesPreserveRowMajorElementOrder, ()) {
  const Shape shape = *gen_shape(4, 3);
  const Tensor t = *gen_strided_tensor(shape, DType::Int64);
  const Shape flat{t.numel()};
  const std::vector<std::int64_t> regroup = *rc::gen::element(flat, Shape{t.numel(), 1}, Shape{1, t.numel()});
  const auto strides = view_strides(t.shape(), t.strides(), regroup);
  RC_PRE(strides.has_value());
  const Tensor viewed = Tensor::view_of(t, regroup, *strides, t.storage_offset());
  RC_ASSERT(viewed.to_vector<std::int64_t>() == t.to_vector<std::int64_t>());
}

RC_GTEST_PROP(CopyInPlace, copyIntoAnyLayoutPreservesValuesInLogicalOrder, ()) {
  const Shape shape = *gen_shape(4, 3);
  const DType dtype = *gen_dtype();
  const Tensor src = *gen_strided_tensor(shape, dtype);
  const Tensor dst = *gen_strided_tensor(shape, dtype);
  call("copy_", {dst, src});
  RC_ASSERT(dst.to_vector<double>() == src.to_vector<double>());
}

RC_GTEST_PROP(Add, additionCommutesExactlyUnderBroadcasting, ()) {
  const auto [a_shape, b_shape] = *gen_broadcastable_pair();
  const DType a_dtype = *gen_dtype(), b_dtype = *gen_dtype();
  const Tensor a = *gen_strided_tensor(a_shape, a_dtype);
  const Tensor b = *gen_strided_tensor(b_shape, b_dtype);
  const Tensor ab = call_one("add", {a, b});
  const Tensor ba = call_one("add", {b, a});
  RC_ASSERT(ab.shape() == ba.shape());
  RC_ASSERT(ab.dtype() == ba.dtype());
  RC_ASSERT(ab.to_vector<double>() == ba.to_vector<double>());
}

RC_GTEST_PROP(Meta, addOnMetaGivesTheShapeAndDtypeOfCpu, ()) {
  const auto [a_shape, b_shape] = *gen_broadcastable_pair();
  const DType a_dtype = *gen_dtype(), b_dtype = *gen_dtype();
  const Tensor on_cpu = call_one("add", {Tensor::empty(a_shape, a_dtype), Tensor::empty(b_shape, b_dtype)});
  const Tensor on_meta =
      call_one("add", {Tensor::empty(a_shape, a_dtype, Device::Meta), Tensor::empty(b_shape, b_dtype, Device::Meta)});
  RC_ASSERT(on_meta.shape() == on_cpu.shape());
  RC_ASSERT(on_meta.dtype() == on_cpu.dtype());
  RC_ASSERT(!on_meta.has_storage());
}

}  // namespace
}  // namespace funcspec::properties
