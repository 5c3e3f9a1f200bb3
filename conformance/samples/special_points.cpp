#include "conformance/samples/special_points.h"

#include "reference/core/error.h"

namespace funcspec::samples {
namespace {

Tensor operand_tensor(const PointOperand& operand, DType floating) {
  if (operand.absent) return Tensor();
  if (operand.literal) return Tensor::wrapped_scalar(Scalar(operand.values.at(0)));
  const DType dtype = operand.dtype.value_or(floating);
  const bool float32_point = dtype == DType::Float32 && !operand.float32_values.empty();
  const std::vector<double>& values = float32_point ? operand.float32_values : operand.values;
  const Shape shape = operand.shape.value_or(Shape{static_cast<std::int64_t>(values.size())});
  FUNCSPEC_INTERNAL_ASSERT(numel_of(shape) == static_cast<std::int64_t>(values.size()),
                           "a special point's values do not fill its shape");
  return from_vector(values, shape, dtype);
}

OpSample sample_at(const SpecialPoint& point, DType floating) {
  OpSample sample;
  std::int64_t floating_elements = 0;
  for (const PointOperand& operand : point.operands) {
    Tensor t = operand_tensor(operand, floating);
    if (t.defined() && is_floating(t.dtype())) floating_elements += t.numel();
    sample.inputs.push_back(std::move(t));
  }
  // Small enough for the hessian and third-order checks, which grow as the square and cube.
  FUNCSPEC_INTERNAL_ASSERT(floating_elements <= kMaxSpecialPointElements, "a special-point sample is too large");
  sample.attrs = point.attrs;
  sample.special_point = point.name;
  sample.label = "special point: " + point.name;
  if (!point.attrs.values().empty()) sample.label += " (" + point.attrs.to_string() + ")";
  return sample;
}

}  // namespace

std::vector<OpSample> special_point_samples(const std::string& op, DType floating) {
  std::vector<OpSample> out;
  const auto& declarations = special_point_declarations();
  auto it = declarations.find(op);
  if (it == declarations.end()) return out;
  for (const SpecialPoint& point : it->second) out.push_back(sample_at(point, floating));
  return out;
}

void add_special_point_samples(OpSampleRegistry& registry) {
  for (const auto& [op, points] : special_point_declarations()) {
    registry.extend(op, [op = op](DType floating) { return special_point_samples(op, floating); });
  }
}

}  // namespace funcspec::samples
