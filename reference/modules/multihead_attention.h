#pragma once
// MultiheadAttention(embed_dim, num_heads), as torch.nn.MultiheadAttention with its defaults
// (batch_first=False, packed projections since kdim = vdim = embed_dim, no bias_k/bias_v, no
// add_zero_attn, dropout 0): forward(query, key, value, key_padding_mask=None, attn_mask=None,
// average_attn_weights=True) returns (attn_output, attn_weights), the op
// multi_head_attention_forward (docs/ops/attention.md, SPEC OPS-20.3). State, named as PyTorch's:
// in_proj_weight (3E, E) drawn by xavier_uniform_, in_proj_bias (3E) zeros, and the submodule
// out_proj, a Linear(E, E) whose bias starts at zeros. Positional arguments after value and keyword
// arguments are both accepted, as in Python.
#include <cstdint>
#include <memory>

#include "reference/modules/module.h"

namespace funcspec::modules {

class MultiheadAttention : public Module {
 public:
  MultiheadAttention(std::int64_t embed_dim, std::int64_t num_heads, bool bias = true, ModuleOptions options = {});
  std::string_view type_name() const override { return "MultiheadAttention"; }
  PyTree forward(const std::vector<PyTree>& args, const PyTree& kwargs) override;

 protected:
  MultiheadAttention(const MultiheadAttention&) = default;
  std::shared_ptr<Module> shallow_copy() const override {
    return std::shared_ptr<Module>(new MultiheadAttention(*this));
  }

 private:
  std::int64_t num_heads_;
};

}  // namespace funcspec::modules
