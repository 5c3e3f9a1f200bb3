#include <gtest/gtest.h>

#include "reference/api/conversion.h"
#include "reference/backends/cuda/cuda_device.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"
#include "tests/reference/test_support.h"

namespace funcspec {
namespace {

using testing_support::error_kind_of;
using testing_support::expect_error_kind;
using testing_support::values;

TEST(Dispatch, UnknownOpSuggestsNearNames) {
  try {
    call("ad", {});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::UnknownOp);
    EXPECT_NE(std::string(e.what()).find("did you mean"), std::string::npos) << e.what();
  }
}

TEST(Dispatch, MissingInputIsAnInvalidArgument) {
  EXPECT_EQ(error_kind_of([] { call("add", {from_values({1}, {1})}); }), ErrorKind::InvalidArgument);
  EXPECT_EQ(error_kind_of([] {
              call("add", {from_values({1}, {1}), from_values({1}, {1}), from_values({1}, {1})});
            }),
            ErrorKind::InvalidArgument);
}

TEST(Dispatch, DevicesMustAgree) {
  const Tensor on_cpu = from_values({1, 2}, {2});
  const Tensor on_meta = Tensor::empty({2}, DType::Float64, Device::Meta);
  EXPECT_EQ(error_kind_of([&] { call("add", {on_cpu, on_meta}); }), ErrorKind::DeviceMismatch);
}

TEST(Dispatch, LiteralsFollowTheTensorsDevice) {
  const Tensor on_meta = Tensor::empty({2, 3}, DType::Int64, Device::Meta);
  const Tensor sum = call_one("add", {on_meta, ops::lit(0.5)});
  EXPECT_EQ(sum.device(), Device::Meta);
  EXPECT_EQ(sum.dtype(), DType::Float32);
  EXPECT_EQ(sum.shape(), (Shape{2, 3}));
}

TEST(Dispatch, CudaTensorsWithoutAGpuFailWithCudaNotAvailable) {
  if (cuda::device_count() > 0) GTEST_SKIP() << "a GPU is present: " << cuda::device_description();
  EXPECT_EQ(error_kind_of([] { Tensor::empty({2}, DType::Float32, Device::Cuda); }), ErrorKind::CudaNotAvailable);
}

TEST(Dispatch, EveryOpOfTheCatalogueHasAParseableSchemaThatRoundTrips) {
  for (const OpDef* op : OpRegistry::instance().all()) {
    EXPECT_EQ(parse_schema(op->schema.to_string()).to_string(), op->schema.to_string()) << op->name();
  }
}

TEST(CopyInPlace, ConvertsAndBroadcastsTheSource) {
  const Tensor target = Tensor::empty({2, 2}, DType::Int64);
  ops::copy_(target, from_values({1.9, -2.9}, {2}));
  EXPECT_EQ(target.to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, -2, 1, -2}));
}

TEST(CopyInPlace, ReadsAnOverlappingSourceBeforeWriting) {
  const Tensor x = from_values({1, 2, 3, 4}, {4});
  const Tensor reversed = Tensor::view_of(x, {4}, {-1}, 3);
  ops::copy_(x, reversed);
  EXPECT_EQ(x.to_vector<double>(), (std::vector<double>{4, 3, 2, 1}));
}

TEST(CopyInPlace, RejectsATargetWithSharedElements) {
  const Tensor base = from_values({7}, {1});
  const Tensor expanded = Tensor::view_of(base, {3}, {0}, 0);
  EXPECT_EQ(error_kind_of([&] { ops::copy_(expanded, from_values({1, 2, 3}, {3})); }), ErrorKind::InternalOverlap);
  EXPECT_EQ(base.to_vector<double>(), std::vector<double>{7});
}

TEST(CopyInPlace, DetectsOverlapThatIsNotAZeroStride) {
  const Tensor base = from_values({0, 1, 2, 3, 4, 5}, {6});
  // Rows overlap: [0, 1, 2], [1, 2, 3] share elements 1 and 2.
  const Tensor sliding = Tensor::view_of(base, {2, 3}, {1, 1}, 0);
  EXPECT_EQ(error_kind_of([&] { ops::copy_(sliding, ops::lit(0.0)); }), ErrorKind::InternalOverlap);
  // Interleaved but disjoint ([2, 3] with strides [3, 2] over offsets 0..7) is fine.
  const Tensor wide = Tensor::empty({8}, DType::Float64);
  ops::copy_(Tensor::view_of(wide, {2, 3}, {3, 2}, 0), ops::lit(1.0));
  EXPECT_EQ(wide.to_vector<double>(), (std::vector<double>{1, 0, 1, 1, 1, 1, 0, 1}));
}

TEST(CopyInPlace, SourceLargerThanTargetIsAnInplaceBroadcastError) {
  const Tensor target = from_values({5}, {1});
  EXPECT_EQ(error_kind_of([&] { ops::copy_(target, from_values({1, 2, 3}, {3})); }), ErrorKind::InplaceBroadcast);
  EXPECT_EQ(target.to_vector<double>(), std::vector<double>{5});
}

TEST(CopyInPlace, OnMetaChecksWithoutWriting) {
  const Tensor target = Tensor::empty({2}, DType::Float32, Device::Meta);
  EXPECT_EQ(ops::copy_(target, Tensor::empty({2}, DType::Float64, Device::Meta)).device(), Device::Meta);
  EXPECT_EQ(error_kind_of([&] {
              ops::copy_(target, Tensor::empty({2, 2}, DType::Float64, Device::Meta));
            }),
            ErrorKind::InplaceBroadcast);
}

TEST(DerivedVariants, InPlaceWritesIntoSelfAndReturnsIt) {
  const Tensor x = from_values({1, 2}, {2});
  const Tensor result = call_one("add_", {x, from_values({10, 20}, {2})}, {{"alpha", 2.0}});
  EXPECT_TRUE(result.is_same(x));
  EXPECT_EQ(x.to_vector<double>(), (std::vector<double>{21, 42}));
}

TEST(DerivedVariants, InPlaceRejectsAResultWithMoreElementsAndLeavesSelfUntouched) {
  const Tensor x = from_values({1}, {1});
  EXPECT_EQ(error_kind_of([&] { call("add_", {x, from_values({1, 2, 3}, {3})}); }), ErrorKind::InplaceBroadcast);
  EXPECT_EQ(x.to_vector<double>(), std::vector<double>{1});
}

// TENSOR-4.3 is about shapes, not element counts: [1, 0] += [3, 1] broadcasts to [3, 0].
TEST(DerivedVariants, InPlaceRejectsAnEmptyResultOfAnotherShape) {
  const Tensor x = Tensor::empty({1, 0}, DType::Float64);
  EXPECT_EQ(error_kind_of([&] { call("add_", {x, from_values({1, 2, 3}, {3, 1})}); }), ErrorKind::InplaceBroadcast);
}

TEST(DerivedVariants, InPlaceRejectsAResultOfAHigherCategory) {
  const Tensor x = from_values({1, 2}, {2}, DType::Int64);
  EXPECT_EQ(error_kind_of([&] { call("add_", {x, ops::lit(0.5)}); }), ErrorKind::DtypeCastNotAllowed);
  EXPECT_EQ(x.to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 2}));
}

TEST(DerivedVariants, OutWritesIntoOutAndChecksItsShape) {
  const Tensor out = Tensor::empty({2}, DType::Float64);
  const Tensor result = call_one("add.out", {from_values({1, 2}, {2}), from_values({3, 4}, {2}), out});
  EXPECT_TRUE(result.is_same(out));
  EXPECT_EQ(out.to_vector<double>(), (std::vector<double>{4, 6}));
  const Tensor wrong = Tensor::empty({3}, DType::Float64);
  EXPECT_EQ(error_kind_of([&] {
              call("add.out", {from_values({1, 2}, {2}), from_values({3, 4}, {2}), wrong});
            }),
            ErrorKind::OutShapeMismatch);
  EXPECT_EQ(wrong.to_vector<double>(), std::vector<double>(3, 0.0));
}

TEST(DerivedVariants, OutMayBeOfAWiderDtypeButNotALowerCategory) {
  const Tensor wide = Tensor::empty({1}, DType::Float64);
  call("add.out", {from_values({1}, {1}, DType::Float32), from_values({2}, {1}, DType::Float32), wide});
  EXPECT_EQ(wide.to_vector<double>(), std::vector<double>{3});
  const Tensor narrow_category = Tensor::empty({1}, DType::Int64);
  EXPECT_EQ(error_kind_of([&] {
              call("add.out",
                   {from_values({1}, {1}, DType::Float32), from_values({2}, {1}, DType::Float32), narrow_category});
            }),
            ErrorKind::DtypeCastNotAllowed);
}

TEST(DerivedVariants, OutMayAliasAnInput) {
  const Tensor x = from_values({1, 2}, {2});
  call("add.out", {x, x, x});
  EXPECT_EQ(x.to_vector<double>(), (std::vector<double>{2, 4}));
}

}  // namespace
}  // namespace funcspec
