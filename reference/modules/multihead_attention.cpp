#include "reference/modules/multihead_attention.h"

#include <array>
#include <string>

#include "reference/api/ops.h"
#include "reference/modules/init.h"
#include "reference/modules/linear.h"
#include "reference/ops/dispatch.h"

namespace funcspec::modules {

MultiheadAttention::MultiheadAttention(std::int64_t embed_dim, std::int64_t num_heads, bool bias, ModuleOptions options)
    : num_heads_(num_heads) {
  FUNCSPEC_CHECK(embed_dim > 0 && num_heads > 0 && embed_dim % num_heads == 0, ErrorKind::InvalidArgument,
                 "[MultiheadAttention] embed_dim {} must be divisible by num_heads {}", embed_dim, num_heads);
  register_parameter("in_proj_weight",
                     init::uniform({3 * embed_dim, embed_dim}, init::xavier_bound(embed_dim, 3 * embed_dim), options));
  register_parameter("in_proj_bias", bias ? init::filled({3 * embed_dim}, 0, options) : Tensor());
  auto out_proj = std::make_shared<Linear>(embed_dim, embed_dim, bias, options);
  if (bias) out_proj->swap_state("bias", init::filled({embed_dim}, 0, options));
  register_module("out_proj", std::move(out_proj));
}

PyTree MultiheadAttention::forward(const std::vector<PyTree>& args, const PyTree& kwargs) {
  // query, key, value, key_padding_mask, attn_mask, average_attn_weights: positionally or by name.
  static constexpr std::array<const char*, 6> kNames{
      "query", "key", "value", "key_padding_mask", "attn_mask", "average_attn_weights"};
  std::array<PyTree, 6> bound{PyTree::none(), PyTree::none(), PyTree::none(),
                              PyTree::none(), PyTree::none(), PyTree(Scalar(true))};
  std::array<bool, 6> given{};
  FUNCSPEC_CHECK(args.size() >= 3 && args.size() <= kNames.size(), ErrorKind::InvalidArgument,
                 "[MultiheadAttention] forward takes query, key, value and optionally key_padding_mask, attn_mask "
                 "and average_attn_weights, but was called with {}",
                 describe_call(args, kwargs));
  for (std::size_t i = 0; i < args.size(); ++i) {
    bound[i] = args[i];
    given[i] = true;
  }
  if (!no_keyword_arguments(kwargs)) {
    for (std::size_t k = 0; k < kwargs.keys().size(); ++k) {
      std::size_t slot = kNames.size();
      for (std::size_t i = 0; i < kNames.size(); ++i) {
        if (kwargs.keys()[k] == kNames[i]) slot = i;
      }
      FUNCSPEC_CHECK(slot < kNames.size() && !given[slot], ErrorKind::InvalidArgument,
                     "[MultiheadAttention] forward got an unexpected or repeated argument '{}'", kwargs.keys()[k]);
      bound[slot] = kwargs.children()[k];
      given[slot] = true;
    }
  }
  const auto tensor_or_none = [&](std::size_t i, bool required) {
    if (bound[i].is_none() && !required) return Tensor();
    FUNCSPEC_CHECK(bound[i].is_tensor(), ErrorKind::InvalidArgument, "[MultiheadAttention] {} must be a tensor{}",
                   kNames[i], required ? "" : " or None");
    return bound[i].tensor();
  };
  FUNCSPEC_CHECK(bound[5].kind() == PyTree::Kind::Scalar && bound[5].scalar().is_bool(), ErrorKind::InvalidArgument,
                 "[MultiheadAttention] average_attn_weights must be a bool");
  const Module& out_proj = submodule("out_proj");
  const TensorList result = call("multi_head_attention_forward",
                                 {tensor_or_none(0, true), tensor_or_none(1, true), tensor_or_none(2, true),
                                  parameter("in_proj_weight"), parameter("in_proj_bias"), out_proj.parameter("weight"),
                                  out_proj.parameter("bias"), tensor_or_none(3, false), tensor_or_none(4, false)},
                                 {{"num_heads", num_heads_}, {"average_attn_weights", bound[5].scalar().to<bool>()}});
  return PyTree::tuple({PyTree(result[0]), PyTree(result[1])});
}

}  // namespace funcspec::modules
