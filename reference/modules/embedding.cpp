#include "reference/modules/embedding.h"

#include <vector>

#include "reference/api/ops.h"
#include "reference/modules/init.h"
#include "reference/ops/dispatch.h"

namespace funcspec::modules {

Embedding::Embedding(std::int64_t num_embeddings, std::int64_t embedding_dim, std::optional<std::int64_t> padding_idx,
                     ModuleOptions options) {
  FUNCSPEC_CHECK(num_embeddings >= 0 && embedding_dim >= 0, ErrorKind::InvalidArgument,
                 "[Embedding] num_embeddings and embedding_dim must be >= 0, got {} and {}", num_embeddings,
                 embedding_dim);
  if (padding_idx && *padding_idx < 0) *padding_idx += num_embeddings;  // PyTorch's negative padding_idx
  FUNCSPEC_CHECK(!padding_idx || (*padding_idx >= 0 && *padding_idx < num_embeddings), ErrorKind::InvalidArgument,
                 "[Embedding] padding_idx must be within num_embeddings {}", num_embeddings);
  padding_idx_ = padding_idx;
  Tensor weight = init::normal({num_embeddings, embedding_dim}, 1.0, options);
  if (padding_idx_ && options.device != Device::Meta) {
    // The padding row is +0, as PyTorch's fill_(0) (a product with 0 would keep the draws' signs).
    std::vector<std::int64_t> padding_row(static_cast<std::size_t>(num_embeddings), 0);
    padding_row[static_cast<std::size_t>(*padding_idx_)] = 1;
    weight = ops::where(from_vector(padding_row, {num_embeddings, 1}, DType::Bool),
                        ops::zeros_like(weight, options.dtype), weight);
  }
  register_parameter("weight", weight);
}

Tensor Embedding::forward_tensor(const Tensor& input) {
  Attrs attrs{{"scale_grad_by_freq", false}};
  if (padding_idx_) attrs.set("padding_idx", *padding_idx_);
  return call_one("embedding", {input, parameter("weight")}, attrs);
}

}  // namespace funcspec::modules
