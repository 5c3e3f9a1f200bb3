#pragma once
#include <fmt/format.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace funcspec {

// NOTE: [error kinds]
// Every user-visible error carries a stable kind, so that conformance can require the kind and let
// the message vary. Kinds are named in snake_case (`error_kind_name`) and never renamed; new ones
// are appended. Messages name the op and the offending values ("[add] shapes [2, 3] and [4] are not
// broadcastable"). Internal invariants use FUNCSPEC_INTERNAL_ASSERT, whose kind is `internal`.
enum class ErrorKind {
  Internal,             // a bug in funcspec itself
  InvalidArgument,      // an attribute of the wrong type or value (negative size, unknown mode)
  UnknownOp,            // no op of that name in the catalogue
  ShapeMismatch,        // shapes that must broadcast or agree do not
  DimOutOfRange,        // a dim outside [-rank, rank)
  IndexOutOfRange,      // an index value outside the indexed dim
  DtypeNotSupported,    // an op given a dtype it is not defined for
  DtypeCastNotAllowed,  // an in-place or out= result that cannot be cast to the target's dtype
  InplaceBroadcast,     // an in-place op whose broadcast result has another shape than its target
  InternalOverlap,      // a write into a tensor with several elements sharing one memory location
  ViewIncompatible,     // a view whose size cannot be expressed over the input's strides
  OutShapeMismatch,     // an out= tensor whose shape differs from the result's
  DeviceMismatch,       // tensors on different devices in one op
  DataDependentOnMeta,  // an op whose result depends on values (item, nonzero) run on meta
  ScalarConversion,     // item()/bool conversion of a tensor that does not have one element
  SingularMatrix,       // inverse/solve of a singular matrix
  CudaNotAvailable,     // a cuda tensor requested in a build or on a machine without CUDA
  // vmap and automatic differentiation (docs/SPEC.md, VMAP and AD).
  TransformEscaped,          // a tensor of a transform used after the transform returned
  VmapInvalidDims,           // in_dims / out_dims that do not fit the arguments / results
  VmapBatchSizeMismatch,     // mapped inputs whose batch sizes differ
  VmapNonTensorOutput,       // a vmapped function returning something other than tensors where a dim is mapped
  VmapRandomness,            // a random op vmap's randomness flag forbids, or cannot honour
  VmapInplaceUnbatched,      // an in-place write of a batched result into a tensor with fewer batch dims
  VmapOutVariant,            // an out= op on batched tensors
  VmapDataDependent,         // item() or a bool conversion of a batched tensor (data-dependent control flow)
  VmapDynamicShape,          // an op whose result shape depends on values (nonzero) on a batched tensor
  AdNonScalarOutput,         // grad of a function whose (first) result is not a rank-0 floating tensor
  AdNonDifferentiableInput,  // a derivative taken with respect to an integer or bool tensor, or a non-tensor
  AdTangentMismatch,         // a tangent or cotangent whose structure, shape or dtype differs from its primal's
  AdInvalidArgnums,          // argnums out of range or repeated
  AdAuxStructure,            // has_aux with a function that does not return (output, aux)
  AdInplaceCaptured,         // an in-place write of a differentiated value into a tensor from outside the transform
  AdInplaceAliased,          // an in-place write of a differentiated value into a view, or a tensor that has views
  // Custom transform rules (docs/SPEC.md, CUSTOM; docs/custom-rules.md).
  CustomRuleMissing,   // a transform needs a rule that the custom function does not define (a jvp for forward mode)
  CustomRuleMismatch,  // a custom function's forward or rule returned results that do not fit its declaration
  // Functionalize (docs/SPEC.md, FUNC).
  FunctionalizeCapturedMutation,  // a write, inside a functionalized function, into a tensor it neither received nor
                                  // created
  FunctionalizeAliasedInputs,  // a write into an argument of a functionalized function that shares memory with another
  // Modules (docs/SPEC.md, MOD; docs/modules.md).
  ModuleStateMismatch,      // functional_call state that does not fit the module (name missing or unknown, shape)
  ModuleStateConflict,      // functional_call state giving a name two values (a key in two dicts, tied names)
  ModuleStructureMismatch,  // stack_module_state over models whose state names, shapes, dtypes or classes differ
  // Checking modes (docs/composite-compliance.md).
  CompositeNoncompliant,  // a composite broke a compliance rule on a checked tensor (data access, item(), out=, ...)
  // A vjp_fn or linearize jvp_fn called after an argument it was built at was written (docs/SPEC.md, AD-2.5).
  AdInputModified,
  // A global autograd call (torch.autograd.grad, Tensor.backward) inside a transformed function
  // (docs/SPEC.md, AD-5.6).
  AutogradApiUnderTransform,
  // A Cholesky factorization of a matrix that is not positive-definite (docs/SPEC.md, ERR-2.8).
  NotPositiveDefinite,
};

// The last kind declared; kinds are appended, so [Internal, kLastErrorKind] names every kind.
inline constexpr ErrorKind kLastErrorKind = ErrorKind::NotPositiveDefinite;

std::string_view error_kind_name(ErrorKind kind);
// The kind with this snake_case name (case files and protocols name kinds this way).
std::optional<ErrorKind> parse_error_kind(std::string_view name);

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const noexcept { return kind_; }

 private:
  ErrorKind kind_;
};

template <typename... Args>
[[noreturn]] void fail(ErrorKind kind, fmt::format_string<Args...> format, Args&&... args) {
  throw Error(kind, fmt::format(format, std::forward<Args>(args)...));
}

#define FUNCSPEC_CHECK(cond, kind, ...)                           \
  do {                                                            \
    if (!(cond)) ::funcspec::fail(::funcspec::kind, __VA_ARGS__); \
  } while (false)

#define FUNCSPEC_INTERNAL_ASSERT(cond, msg)                                                                          \
  do {                                                                                                               \
    if (!(cond))                                                                                                     \
      ::funcspec::fail(::funcspec::ErrorKind::Internal, "internal error at {}:{}: {} ({})", __FILE__, __LINE__, msg, \
                       #cond);                                                                                       \
  } while (false)

// Marks a path the code never takes (an exhaustive switch's fall-through); fails as `internal`.
#define FUNCSPEC_UNREACHABLE(msg) \
  ::funcspec::fail(::funcspec::ErrorKind::Internal, "internal error at {}:{}: {}", __FILE__, __LINE__, msg)

}  // namespace funcspec
