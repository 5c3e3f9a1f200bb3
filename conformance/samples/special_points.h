#pragma once
// NOTE: [special points]
// Random samples almost never land where an op needs care: a kink (relu at 0), a tie (amax of
// equal elements), a bound of clamp, a zero of a product, a pole's neighbourhood, a point where a
// function is defined by a series or a limit (expm1 near 0), or a region where implementations
// switch formulas or lose precision (saturation and underflow of exp, tanh, sigmoid, softplus; rows
// of infinities). So every op declares its special points once, as data: a name and the operand
// values there (special_point_declarations.cpp). The generator below turns each declaration into a
// small sample (at most 8 floating elements, so the second- and third-order gradient checks run on
// it too), in the sample's floating dtype, labelled with the point's name and carrying it in
// OpSample::special_point; every op's sample generator is extended with them, so they flow into
// every family that draws samples (values, meta, vmap, gradients) without a family knowing.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "conformance/samples/op_samples.h"

namespace funcspec::samples {

// One operand of a call at a special point.
struct PointOperand {
  std::vector<double> values;
  // Where float32 reaches the region at other values (exp overflows past 88.7, not 709.8); empty:
  // the same values as float64.
  std::vector<double> float32_values = {};
  std::optional<Shape> shape = std::nullopt;  // none: 1-D, one element per value
  std::optional<DType> dtype = std::nullopt;  // a fixed dtype (int64 targets); none: the sample's floating dtype
  bool absent = false;                        // an omitted optional tensor (clamp without min)
  bool literal = false;                       // a Python number (values[0]): a constant of every transform
};

struct SpecialPoint {
  std::string name;  // "kink at 0", "tie", "saturation x=+20": the sample's special_point
  std::vector<PointOperand> operands;
  Attrs attrs = {};
};

// The declarations, by op name (functional ops only: derived variants run their op's samples).
const std::map<std::string, std::vector<SpecialPoint>>& special_point_declarations();

// The samples of `op`'s declared special points with `floating` inputs (none when it declares none).
std::vector<OpSample> special_point_samples(const std::string& op, DType floating);

// Extends the generator of every op that declares special points with their samples. Declaring
// points for an op without samples is an internal error.
void add_special_point_samples(OpSampleRegistry& registry);

// The most floating elements a special-point sample may hold.
inline constexpr std::int64_t kMaxSpecialPointElements = 8;

}  // namespace funcspec::samples
