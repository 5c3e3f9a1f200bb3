#pragma once
// Dropout(p): in training mode each element is zeroed with probability p and the rest scaled by
// 1/(1 - p), as torch.nn.Dropout; in evaluation mode the input itself. The mask is drawn from the
// current generator through the catalogue's dropout op, so under vmap it obeys the randomness flag
// (an error by default; 'same' or 'different' masks across the batch).
#include <memory>

#include "reference/modules/module.h"

namespace funcspec::modules {

class Dropout : public TensorModule {
 public:
  explicit Dropout(double p = 0.5);
  std::string_view type_name() const override { return "Dropout"; }
  Tensor forward_tensor(const Tensor& input) override;
  double p() const { return p_; }

 protected:
  Dropout(const Dropout&) = default;
  std::shared_ptr<Module> shallow_copy() const override { return std::shared_ptr<Module>(new Dropout(*this)); }

 private:
  double p_;
};

}  // namespace funcspec::modules
