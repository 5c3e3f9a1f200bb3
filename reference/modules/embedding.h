#pragma once
// Embedding(num_embeddings, embedding_dim), as torch.nn.Embedding: the embedding op of the catalogue
// (docs/ops/normalization.md) reading weight's rows at int64 indices of any shape. The weight is
// drawn standard normal; the row of padding_idx starts at 0 and gets no derivative, as PyTorch's.
// max_norm is not an option here: PyTorch renormalizes the weight in place under no_grad, which
// a functional model writes as the op embedding_renorm_ before the lookup.
#include <cstdint>
#include <memory>
#include <optional>

#include "reference/modules/module.h"

namespace funcspec::modules {

class Embedding : public TensorModule {
 public:
  Embedding(std::int64_t num_embeddings, std::int64_t embedding_dim, std::optional<std::int64_t> padding_idx = {},
            ModuleOptions options = {});
  std::string_view type_name() const override { return "Embedding"; }
  Tensor forward_tensor(const Tensor& input) override;

 protected:
  Embedding(const Embedding&) = default;
  std::shared_ptr<Module> shallow_copy() const override { return std::shared_ptr<Module>(new Embedding(*this)); }

 private:
  std::optional<std::int64_t> padding_idx_;  // in [0, num_embeddings)
};

}  // namespace funcspec::modules
