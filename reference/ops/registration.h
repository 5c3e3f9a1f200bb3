#pragma once
// One registration function per op family; registry.cpp calls each once.
namespace funcspec {
class OpRegistry;
void register_conversion_ops(OpRegistry& registry);
void register_creation_ops(OpRegistry& registry);
void register_unary_ops(OpRegistry& registry);
void register_binary_ops(OpRegistry& registry);
void register_reduce_ops(OpRegistry& registry);
void register_linalg_ops(OpRegistry& registry);
// Norms and distances (distance.cpp), composites over norm and the linalg products.
void register_distance_ops(OpRegistry& registry);
// The spectral linalg ops (eigh, eigvalsh), registered by register_linalg_ops.
void register_linalg_spectral_ops(OpRegistry& registry);
// svd (linalg_svd.cpp), registered by register_linalg_ops.
void register_linalg_svd_ops(OpRegistry& registry);
// lu_factor, lu, lu_solve, matrix_exp (linalg_lu_ops.cpp); called by register_linalg_ops.
void register_linalg_lu_ops(OpRegistry& registry);
// The triangular and Cholesky ops (linalg_triangular.cpp), called by register_linalg_ops.
void register_linalg_triangular_ops(OpRegistry& registry);
// inv, inv_ex, matrix_power (linalg_inverse.cpp), called by register_linalg_ops.
void register_linalg_inverse_ops(OpRegistry& registry);
// qr and householder_product (linalg_qr.cpp), called by register_linalg_ops.
void register_linalg_qr_ops(OpRegistry& registry);
// pinv, pinv_with_tolerances, lstsq, matrix_rank (linalg_pinv.cpp), called by register_linalg_ops.
void register_linalg_pinv_ops(OpRegistry& registry);
void register_scan_ops(OpRegistry& registry);
void register_view_ops(OpRegistry& registry);
// The copying twins of the views and their scatters (NOTE: [view copies]); after the views.
void register_view_copy_ops(OpRegistry& registry);
void register_index_ops(OpRegistry& registry);
void register_composite_ops(OpRegistry& registry);
// The activation functions of torch.nn.functional (activation.cpp), composites.
void register_activation_ops(OpRegistry& registry);
// The losses of torch.nn.functional beyond nll_loss, cross_entropy and mse_loss (loss.cpp), composites.
void register_loss_ops(OpRegistry& registry);
// dropout, dropout1d/2d/3d, alpha_dropout and feature_alpha_dropout (dropout.cpp), random composites.
void register_dropout_ops(OpRegistry& registry);
// conv1d/2d/3d, conv_transpose1d/2d/3d, unfold and fold (convolution.cpp), composites over sliding windows.
void register_convolution_ops(OpRegistry& registry);
// max, average, adaptive and power-average pools (pooling.cpp), composites over sliding windows.
void register_pooling_ops(OpRegistry& registry);
// scaled_dot_product_attention (attention.cpp), a composite of matmul and softmax.
void register_attention_ops(OpRegistry& registry);
// batch_norm, instance_norm (in-place: they write their running statistics) and their functional
// forms, group_norm, local_response_norm, normalize, embedding, embedding_renorm and embedding_bag
// (normalization.cpp), composites.
void register_normalization_ops(OpRegistry& registry);
// pixel_shuffle/unshuffle, interpolate, grid_sample and affine_grid (resampling.cpp), composites over
// index_select and gather; pad's reflect, replicate and circular modes live there too (resampling.h).
void register_resampling_ops(OpRegistry& registry);
// clamp_min, clamp_max, sinc, logit, lerp, addcmul, addcdiv (special.cpp), the special-function
// family's composites; its primitives are rows of the unary and binary families.
void register_special_ops(OpRegistry& registry);
void register_random_ops(OpRegistry& registry);
void register_dynamic_ops(OpRegistry& registry);
// The spec-defined custom functions (docs/SPEC.md, CUSTOM), in custom_ops.cpp.
void register_custom_ops(OpRegistry& registry);
// Runs last: derives the in-place (`add_`) and out= (`add.out`) variants of ops registered above.
void register_variant_ops(OpRegistry& registry);
}  // namespace funcspec
