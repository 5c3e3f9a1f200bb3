#include "reference/core/error.h"

namespace funcspec {

std::string_view error_kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Internal: return "internal";
    case ErrorKind::InvalidArgument: return "invalid_argument";
    case ErrorKind::UnknownOp: return "unknown_op";
    case ErrorKind::ShapeMismatch: return "shape_mismatch";
    case ErrorKind::DimOutOfRange: return "dim_out_of_range";
    case ErrorKind::IndexOutOfRange: return "index_out_of_range";
    case ErrorKind::DtypeNotSupported: return "dtype_not_supported";
    case ErrorKind::DtypeCastNotAllowed: return "dtype_cast_not_allowed";
    case ErrorKind::InplaceBroadcast: return "inplace_broadcast";
    case ErrorKind::InternalOverlap: return "internal_overlap";
    case ErrorKind::ViewIncompatible: return "view_incompatible";
    case ErrorKind::OutShapeMismatch: return "out_shape_mismatch";
    case ErrorKind::DeviceMismatch: return "device_mismatch";
    case ErrorKind::DataDependentOnMeta: return "data_dependent_on_meta";
    case ErrorKind::ScalarConversion: return "scalar_conversion";
    case ErrorKind::SingularMatrix: return "singular_matrix";
    case ErrorKind::CudaNotAvailable: return "cuda_not_available";
    case ErrorKind::TransformEscaped: return "transform_escaped";
    case ErrorKind::VmapInvalidDims: return "vmap_invalid_dims";
    case ErrorKind::VmapBatchSizeMismatch: return "vmap_batch_size_mismatch";
    case ErrorKind::VmapNonTensorOutput: return "vmap_non_tensor_output";
    case ErrorKind::VmapRandomness: return "vmap_randomness";
    case ErrorKind::VmapInplaceUnbatched: return "vmap_inplace_unbatched";
    case ErrorKind::VmapOutVariant: return "vmap_out_variant";
    case ErrorKind::VmapDataDependent: return "vmap_data_dependent";
    case ErrorKind::VmapDynamicShape: return "vmap_dynamic_shape";
    case ErrorKind::AdNonScalarOutput: return "ad_non_scalar_output";
    case ErrorKind::AdNonDifferentiableInput: return "ad_non_differentiable_input";
    case ErrorKind::AdTangentMismatch: return "ad_tangent_mismatch";
    case ErrorKind::AdInvalidArgnums: return "ad_invalid_argnums";
    case ErrorKind::AdAuxStructure: return "ad_aux_structure";
    case ErrorKind::AdInplaceCaptured: return "ad_inplace_captured";
    case ErrorKind::AdInplaceAliased: return "ad_inplace_aliased";
    case ErrorKind::CustomRuleMissing: return "custom_rule_missing";
    case ErrorKind::CustomRuleMismatch: return "custom_rule_mismatch";
    case ErrorKind::FunctionalizeCapturedMutation: return "functionalize_captured_mutation";
    case ErrorKind::FunctionalizeAliasedInputs: return "functionalize_aliased_inputs";
    case ErrorKind::ModuleStateMismatch: return "module_state_mismatch";
    case ErrorKind::ModuleStateConflict: return "module_state_conflict";
    case ErrorKind::ModuleStructureMismatch: return "module_structure_mismatch";
    case ErrorKind::CompositeNoncompliant: return "composite_noncompliant";
    case ErrorKind::AdInputModified: return "ad_input_modified";
    case ErrorKind::AutogradApiUnderTransform: return "autograd_api_under_transform";
    case ErrorKind::NotPositiveDefinite: return "not_positive_definite";
  }
  return "internal";
}

std::optional<ErrorKind> parse_error_kind(std::string_view name) {
  for (int k = 0; k <= static_cast<int>(kLastErrorKind); ++k) {
    const auto kind = static_cast<ErrorKind>(k);
    if (error_kind_name(kind) == name) return kind;
  }
  return std::nullopt;
}

}  // namespace funcspec
