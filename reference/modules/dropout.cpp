#include "reference/modules/dropout.h"

#include "reference/api/ops.h"

namespace funcspec::modules {

Dropout::Dropout(double p) : p_(p) {
  FUNCSPEC_CHECK(p >= 0 && p <= 1, ErrorKind::InvalidArgument, "[Dropout] p must lie in [0, 1] but is {}", p);
}

Tensor Dropout::forward_tensor(const Tensor& input) { return training() ? ops::dropout(input, p_, true) : input; }

}  // namespace funcspec::modules
