// missing_capability and the reference's stated capabilities.
#include <gtest/gtest.h>

#include "conformance/backend/backend.h"
#include "conformance/backend/reference_backend.h"
#include "reference/ops/registry.h"
#include "tests/backend/backend_test_support.h"

namespace funcspec::conformance {
namespace {

using testing::contains;

Capabilities small_capabilities() {
  Capabilities caps;
  caps.name = "tiny";
  caps.ops = {"add", "mul"};
  caps.transforms = {"grad"};
  caps.dtypes = {DType::Float64};
  caps.devices = {"cpu"};
  return caps;
}

TEST(MissingCapability, NothingMissing) {
  EXPECT_EQ(missing_capability(small_capabilities(), testing::add_case()), std::nullopt);
}

TEST(MissingCapability, NamesTheOp) {
  const auto missing = missing_capability(small_capabilities(), testing::one_op_case("neg", false));
  ASSERT_TRUE(missing);
  EXPECT_EQ(*missing, "the case calls the op 'neg', which tiny does not implement");
}

TEST(MissingCapability, NamesTheTransform) {
  Case c = testing::add_case();
  c.transforms.push_back(VmapTransform{});
  const auto missing = missing_capability(small_capabilities(), c);
  ASSERT_TRUE(missing);
  EXPECT_TRUE(contains(*missing, "the transform 'vmap'")) << *missing;
}

TEST(MissingCapability, NamesTheDtype) {
  Capabilities caps = small_capabilities();
  caps.dtypes = {DType::Float32};
  const auto missing = missing_capability(caps, testing::add_case());
  ASSERT_TRUE(missing);
  EXPECT_TRUE(contains(*missing, "the dtype 'float64'")) << *missing;
}

TEST(MissingCapability, NamesTheDevice) {
  Case c = testing::add_case();
  c.device = Device::Meta;
  const auto missing = missing_capability(small_capabilities(), c);
  ASSERT_TRUE(missing);
  EXPECT_TRUE(contains(*missing, "the device 'meta'")) << *missing;
}

TEST(ReferenceCapabilities, EveryOpOfTheCatalogueEveryTransformAndTheHostDevices) {
  const Capabilities caps = reference_capabilities();
  EXPECT_EQ(caps.ops.size(), OpRegistry::instance().all().size());
  EXPECT_EQ(caps.transforms, reference_transforms());
  EXPECT_EQ(caps.dtypes, (std::set<DType>{DType::Bool, DType::Int64, DType::Float32, DType::Float64}));
  EXPECT_EQ(caps.devices, (std::set<std::string, std::less<>>{"cpu", "meta"}));
}

TEST(ReferenceBackend, CaseOnADeviceItLacksIsUnsupportedBeforeRunning) {
  ReferenceBackend backend;
  Case c = testing::add_case();
  c.device = Device::Cuda;  // the in-process reference is cpu and meta; cuda is the reference-cuda backend's
  const ProgramResult result = backend.evaluate(c, {});
  ASSERT_TRUE(result.unsupported);
  EXPECT_TRUE(contains(*result.unsupported, "the device 'cuda'")) << *result.unsupported;
}

}  // namespace
}  // namespace funcspec::conformance
