#pragma once
// The model of a conformance case (docs/case-format.md): a program over the op catalogue, a stack
// of transforms, inputs, a seed and an expectation. The JSON form is parsed and written by
// case_json.h; this header holds plain data only, so backends other than the reference can use it.
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "reference/core/device.h"
#include "reference/core/dtype.h"
#include "reference/core/scalar.h"
#include "reference/core/shape.h"
#include "reference/ops/attrs.h"
#include "reference/transforms/randomness.h"

namespace funcspec::conformance {

inline constexpr std::string_view kCaseFormat = "funcspec-case/1";
// Format 1.1 adds the fields of NOTE: [case features]; a case that uses one of them says so with this
// version, which a reader of format 1 refuses, so no reader runs it without them.
inline constexpr std::string_view kCaseFormat11 = "funcspec-case/1.1";

// A malformed case file or .npy file. `file` and `json_path` locate the problem
// (`program[2].attrs.dim`); either may be empty when unknown.
class CaseError : public std::runtime_error {
 public:
  CaseError(std::string file, std::string json_path, std::string problem);
  const std::string& file() const { return file_; }
  const std::string& json_path() const { return json_path_; }
  const std::string& problem() const { return problem_; }

 private:
  std::string file_;
  std::string json_path_;
  std::string problem_;
};

// The most elements a case tensor (or the buffer behind a laid-out input) may have: far more than
// a hand-written case needs, and small enough that a hostile shape cannot overflow a size.
inline constexpr std::int64_t kMaxCaseElements = std::int64_t{1} << 32;

// The number of elements of `shape`, or nothing when it exceeds kMaxCaseElements.
std::optional<std::int64_t> bounded_numel(std::span<const std::int64_t> shape);

// The dtypes a case file can hold (the ones .npy and every backend share); the oracle dtype is the
// reference's own and never appears in a case.
bool is_case_dtype(DType dtype);

// The values of a tensor: dtype, shape and the elements in C order as little-endian bytes (the
// layout of .npy files and of the external-process protocol).
struct TensorData {
  DType dtype = DType::Float64;
  Shape shape;
  std::vector<std::uint8_t> bytes;

  std::int64_t numel() const { return numel_of(shape); }
  // Element i converted to double (bool and int64 exactly where representable).
  double element_as_double(std::int64_t i) const;
  std::int64_t element_as_int(std::int64_t i) const;
  bool operator==(const TensorData& other) const = default;
};

// How an input is laid out in memory: its values stay those of `data`, in logical order, but the
// tensor handed to the program is a strided view: of a larger buffer (slice: the element at index
// i of dim d lives at start[d] + i*step[d] of the buffer) and/or of a buffer with permuted dims
// (permute: the input is permute(buffer, permute)). Empty vectors mean "no such step".
// Alternatively, explicit `strides` (>= 0, in elements) and a storage `offset` into a buffer just
// large enough: the general form, which also expresses expanded inputs (stride 0), as
// torch.as_strided does. Strides exclude permute and slice.
struct TensorLayout {
  std::vector<std::int64_t> permute;
  std::vector<std::int64_t> slice_start;
  std::vector<std::int64_t> slice_step;
  std::optional<std::vector<std::int64_t>> strides;
  std::int64_t offset = 0;

  bool is_contiguous() const { return permute.empty() && slice_start.empty() && !strides; }
  bool operator==(const TensorLayout& other) const = default;
};

// The number of buffer elements a strided layout spans: offset + sum((size-1)*stride) + 1 (and
// offset + 1 for an empty tensor), or nothing when that exceeds kMaxCaseElements.
std::optional<std::int64_t> strided_extent(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                                           std::int64_t offset);

struct TensorSpec {
  TensorData data;
  std::string npy_file;  // non-empty when the values came from (and are written back to) a .npy file
  bool base64 = false;   // written back as base64 rather than a list of numbers
  TensorLayout layout;
  // Only dtype and shape: an input or expected value of a meta case, which has no values.
  // data.bytes is then empty.
  bool values_omitted = false;
  bool operator==(const TensorSpec& other) const = default;
};

// A literal operand (the 2.5 of `x + 2.5`): a wrapped number, see NOTE: [tensor model].
struct LiteralSpec {
  Scalar value;
  bool operator==(const LiteralSpec& other) const = default;
};

struct CaseInput {
  std::string name;
  std::variant<TensorSpec, LiteralSpec> value;
  // Format 1.1: the earlier input whose memory this one is a view of (`layout.strides` and
  // `layout.offset` into that input's storage); its values are read from there.
  std::string alias_of{};
  bool is_literal() const { return std::holds_alternative<LiteralSpec>(value); }
  bool operator==(const CaseInput& other) const = default;
};

// Format 1.1: a grad mode that a transformed function is called under (`with torch.no_grad():`
// around the call, Case::call_modes) or that a region of f runs in (OpCall::grad_modes); NOTE:
// [no_grad] in reference/transforms/grad_mode.h.
enum class CallMode { Plain, NoGrad, EnableGrad, InferenceMode };
std::string_view call_mode_name(CallMode mode);
std::optional<CallMode> parse_call_mode(std::string_view name);

// One SSA step: `outs = op(args..., **attrs)`. An absent optional tensor input is std::nullopt.
struct OpCall {
  std::vector<std::string> outs;
  std::string op;
  std::vector<std::optional<std::string>> args;
  Attrs attrs;
  // Runs inside a no_grad region (NOTE: [no_grad] in reference/transforms/grad_mode.h).
  bool no_grad = false;
  // Format 1.1: runs inside these nested grad-mode regions of f, outermost first (`with no_grad():
  // with enable_grad(): ...`); never Plain. The innermost decides (SPEC AD-5.5).
  std::vector<CallMode> grad_modes{};
  // Format 1.1: the (single) result is also stored in a variable outside the function under this
  // name, as the seeds' `global intermediate`; the case's `after` steps can read it.
  std::string stored_as{};
  // Format 1.1 (feature autograd_api): a call of the global autograd API rather than of an op,
  // `op` being kAutogradGrad or kAutogradBackward; its args are names (the differentiated output, then the
  // inputs for autograd.grad) and it has no attrs.
  bool is_autograd_call() const;
};
// The global autograd API a case can call inside f (docs/SPEC.md, AD-5.6): torch.autograd.grad(y,
// [x...]) with one result per input, and y.backward() with none.
inline constexpr std::string_view kAutogradGrad = "autograd.grad";
inline constexpr std::string_view kAutogradBackward = "autograd.backward";
// Attrs has no equality of its own; two calls are equal when their attribute values are.
bool operator==(const OpCall& a, const OpCall& b);

// --- Transforms (docs/case-format.md, *Transforms*) ---

// A dim for each argument (in_dims) or result (out_dims) of a vmapped function: one value for all,
// a list by position, or an object by name (names not listed get std::nullopt, "not batched").
struct DimSpec {
  enum class Form { All, ByPosition, ByName };
  Form form = Form::All;
  std::optional<std::int64_t> all = 0;
  std::vector<std::optional<std::int64_t>> by_position;
  std::vector<std::pair<std::string, std::optional<std::int64_t>>> by_name;
  bool operator==(const DimSpec& other) const = default;
};

// Which arguments a derivative is taken with respect to: positions or input names, written as one
// value or a list.
struct ArgNums {
  std::vector<std::variant<std::int64_t, std::string>> selectors{std::int64_t{0}};
  bool written_as_list = false;
  bool operator==(const ArgNums& other) const = default;
};

// vmap's randomness flag: the engine's own, so a case's flag needs no translation.
using transforms::Randomness;
using transforms::randomness_name;

struct NamedTensor {
  std::string name;
  TensorSpec tensor;
  bool operator==(const NamedTensor& other) const = default;
};

struct VmapTransform {
  DimSpec in_dims;
  DimSpec out_dims;
  Randomness randomness = Randomness::Error;
  std::optional<std::int64_t> chunk_size;
  bool operator==(const VmapTransform& other) const = default;
};
struct GradTransform {
  bool and_value = false;  // grad_and_value
  ArgNums argnums;
  bool has_aux = false;
  bool operator==(const GradTransform& other) const = default;
};
struct VjpTransform {
  std::vector<NamedTensor> cotangents;  // keyed by the inner function's (non-aux) results
  bool has_aux = false;
  // Format 1.1: steps run after vjp returned and before vjp_fn is called, over the function's
  // arguments by input name (writes into them, NOTE: Storage::version).
  std::vector<OpCall> before_call{};
  bool operator==(const VjpTransform& other) const = default;
};
struct JvpTransform {
  bool linearize = false;             // linearize(f, primals) then apply the linear map to the tangents
  std::vector<NamedTensor> tangents;  // keyed by tensor inputs; inputs without one are held constant
  bool has_aux = false;
  std::vector<OpCall> before_call{};  // linearize only: as VjpTransform::before_call, before jvp_fn
  bool operator==(const JvpTransform& other) const = default;
};
struct JacobianTransform {
  bool forward = false;  // jacfwd (vmap of jvp) rather than jacrev (vmap of vjp)
  ArgNums argnums;
  bool has_aux = false;
  std::optional<std::int64_t> chunk_size;     // jacrev only
  Randomness randomness = Randomness::Error;  // jacfwd only
  bool operator==(const JacobianTransform& other) const = default;
};
struct HessianTransform {
  ArgNums argnums;
  bool operator==(const HessianTransform& other) const = default;
};
struct FunctionalizeTransform {
  std::string remove = "mutations";  // or "mutations_and_views"
  bool operator==(const FunctionalizeTransform& other) const = default;
};
struct FunctionalCallTransform {
  std::vector<std::string> parameters;  // inputs that form the module's state, in this order
  std::vector<std::string> buffers;
  bool strict = false;
  bool tie_weights = true;
  bool operator==(const FunctionalCallTransform& other) const = default;
};

using Transform = std::variant<VmapTransform, GradTransform, VjpTransform, JvpTransform, JacobianTransform,
                               HessianTransform, FunctionalizeTransform, FunctionalCallTransform>;

// The name a transform has in case files ("vmap", "grad_and_value", "jacfwd", ...).
std::string_view transform_name(const Transform& transform);

enum class Tier { Smoke, Pr, Nightly, Exhaustive };
std::string_view tier_name(Tier tier);
std::optional<Tier> parse_tier(std::string_view name);

// An element passes when |actual - expected| <= atol + rtol*|expected|, or when the two are at most
// `ulps` units in the last place apart in the expected dtype. All zero: exact equality.
struct Tolerance {
  double atol = 0;
  double rtol = 0;
  std::int64_t ulps = 0;
  bool operator==(const Tolerance& other) const = default;
};

struct ExpectedValue {
  std::string name;
  TensorSpec tensor;
  std::optional<Tolerance> tolerance;  // overrides the expectation's default
  bool operator==(const ExpectedValue& other) const = default;
};

struct Expectation {
  std::vector<ExpectedValue> values;  // empty when an error is expected
  Tolerance tolerance;
  std::optional<ErrorKind> error;
  bool operator==(const Expectation& other) const = default;
};

struct Case {
  std::string id;
  std::vector<std::string> clauses;
  std::string description;
  std::uint64_t seed = 0;
  Tier tier = Tier::Pr;
  // Where the inputs live and the program runs. On meta only dtypes and shapes exist, so every
  // expected value of a meta case gives dtype and shape alone.
  Device device = Device::Cpu;
  std::vector<CaseInput> inputs;
  std::vector<OpCall> program;
  std::vector<std::string> outputs;
  std::vector<Transform> transforms;  // outermost first
  // Format 1.1: the mode each transformed function is called under, parallel to `transforms`
  // (shorter, or empty: Plain).
  std::vector<CallMode> call_modes{};
  // Format 1.1: steps run in the caller after the transformed function returned, over its results
  // (by result name), the caller's inputs as the call left them, and the stored values (OpCall::
  // stored_as); `after_outputs` name what they add to the results.
  std::vector<OpCall> after{};
  std::vector<std::string> after_outputs{};
  Expectation expect;

  const CaseInput* find_input(std::string_view name) const;
  CallMode call_mode(std::size_t transform) const {
    return transform < call_modes.size() ? call_modes[transform] : CallMode::Plain;
  }
};

// NOTE: [case features]
// The fields of format 1.1, each a feature a backend states in its hello (docs/protocol.md,
// `capabilities.features`): "aliased_inputs" (CaseInput::alias_of), "stored_values"
// (OpCall::stored_as and the `after` steps), "call_modes" (Case::call_modes), "before_call"
// (writes between vjp or linearize and the call of the function they return), "grad_mode_regions"
// (OpCall::grad_modes) and "autograd_api" (OpCall::is_autograd_call). A case using one is
// unsupported on a backend that does not state it, so an older backend is never sent a case it
// would misread.
std::vector<std::string_view> case_features(const Case& c);

// The names of what the transformed function returns, innermost transform first (see the naming
// rules in docs/case-format.md), then the `after_outputs`: the keys `expect.values` must have. Throws CaseError (with
// an empty file) when a transform does not fit the function it wraps.
std::vector<std::string> result_names(const Case& c);

}  // namespace funcspec::conformance
