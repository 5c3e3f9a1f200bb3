#include "reference/backends/common/singular_matrix.h"

#include <fmt/format.h>

#include <span>
#include <string>

namespace funcspec::common {

void raise_singular_matrix(const Tensor& a, std::int64_t element, std::int64_t zero_pivot, std::string_view op) {
  const std::string matrix =
      a.dim() == 2 ? std::string("the matrix")
                   : fmt::format("the matrix at batch element {} (row-major over batch shape {})", element,
                                 shape_to_string(std::span<const std::int64_t>(a.shape()).first(a.shape().size() - 2)));
  fail(ErrorKind::SingularMatrix,
       "[{}] {} is singular: U[{}, {}] of its LU factorization with partial pivoting is zero", op, matrix, zero_pivot,
       zero_pivot);
}

}  // namespace funcspec::common
