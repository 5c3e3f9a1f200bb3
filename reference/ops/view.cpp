// View ops: results share the input's storage; only shape, strides and offset change.
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {

void register_view_ops(OpRegistry& registry) {
  OpDef& op = registry.add("expand(Tensor(a) self, int[] size) -> Tensor(a)", OpKind::View, "view",
                           "self broadcast to size (-1 keeps a dim) with stride 0 on the broadcast dims");
  op.view = [](const Tensor& self, const Attrs& attrs) {
    const std::vector<std::int64_t>& size = attrs.get_int_list("size");
    FUNCSPEC_CHECK(size.size() >= self.shape().size(), ErrorKind::ShapeMismatch,
                   "[expand] cannot expand shape {} to the lower-rank size {}", shape_to_string(self.shape()),
                   shape_to_string(size));
    const std::size_t lead = size.size() - self.shape().size();
    Shape shape(size.size());
    Strides strides(size.size(), 0);
    for (std::size_t i = 0; i < size.size(); ++i) {
      if (i < lead) {
        FUNCSPEC_CHECK(size[i] >= 0, ErrorKind::InvalidArgument, "[expand] size {} is invalid for a new leading dim",
                       size[i]);
        shape[i] = size[i];
        continue;
      }
      const std::int64_t have = self.shape()[i - lead];
      const std::int64_t want = size[i] == -1 ? have : size[i];
      FUNCSPEC_CHECK(want == have || have == 1, ErrorKind::ShapeMismatch,
                     "[expand] cannot expand shape {} to {}: dim {} has size {}, which is not 1",
                     shape_to_string(self.shape()), shape_to_string(size), i, have);
      shape[i] = want;
      strides[i] = want == have ? self.strides()[i - lead] : 0;
    }
    return std::vector<ViewGeometry>{{shape, strides, self.storage_offset()}};
  };
}

}  // namespace funcspec
