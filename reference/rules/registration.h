#pragma once
// One rule registration per op family (NOTE: [op rules]): each attaches the batching, jvp and
// transpose rules of its ops, in reference/rules/<family>.cpp. register_rules (op_rules.cpp) calls
// each once, after the catalogue's ops are declared.
namespace funcspec::transforms {
class RuleAttacher;
void register_unary_rules(RuleAttacher& attach);
void register_binary_rules(RuleAttacher& attach);
void register_reduce_rules(RuleAttacher& attach);
void register_linalg_rules(RuleAttacher& attach);
void register_linalg_spectral_rules(RuleAttacher& attach);
// svd's rules (linalg_svd.cpp).
void register_linalg_svd_rules(RuleAttacher& attach);
// lu_factor, matrix_exp, matrix_exp_frechet (linalg_lu.cpp); called by register_linalg_rules.
void register_linalg_lu_rules(RuleAttacher& attach);
// The triangular and Cholesky ops' rules (linalg_triangular.cpp), called by register_linalg_rules.
void register_linalg_triangular_rules(RuleAttacher& attach);
// qr's rules (linalg_qr.cpp), called by register_linalg_rules.
void register_linalg_qr_rules(RuleAttacher& attach);
// pinv_with_tolerances' rules (linalg_pinv.cpp), called by register_linalg_rules.
void register_linalg_pinv_rules(RuleAttacher& attach);
void register_scan_rules(RuleAttacher& attach);
void register_view_rules(RuleAttacher& attach);
void register_view_copy_rules(RuleAttacher& attach);
void register_index_rules(RuleAttacher& attach);
void register_conversion_rules(RuleAttacher& attach);
void register_creation_rules(RuleAttacher& attach);
void register_random_rules(RuleAttacher& attach);
void register_dynamic_rules(RuleAttacher& attach);
}  // namespace funcspec::transforms
