#include "kernels/gemm/operand.h"

#include <stdexcept>
#include <string>
#include <utility>

#include "kernels/core/shape_rules.h"

namespace edgesim {

View gemm_operand_view(const View& v, bool k_last) {
  View t = v;
  if (t.rank() == 1) {   // [K] -> one row [1, K]
    t.shape = {1, v.shape[0]};
    t.strides = {0, v.strides[0]};
  } else if (!k_last) {  // swap the last two axes so K is last
    std::swap(t.shape[t.rank() - 1], t.shape[t.rank() - 2]);
    std::swap(t.strides[t.rank() - 1], t.strides[t.rank() - 2]);
  }
  return t;
}

std::vector<int64_t> gemm_bias_matrix(const GemmParams& p, int64_t M, int64_t N) {
  std::vector<int64_t> bias(static_cast<size_t>(M * N), 0);
  if (!p.bias.empty()) {
    const Shape bs = p.bias_shape.empty() && p.bias.size() > 1 ? Shape{static_cast<int64_t>(p.bias.size())}
                                                               : p.bias_shape;
    if (shape_numel(bs) != static_cast<int64_t>(p.bias.size()))
      throw std::invalid_argument("gemm: bias has " + std::to_string(p.bias.size()) +
                                  " values for bias_shape " + shape_str(bs));
    const std::vector<int64_t> src = broadcast_source_index(bs, {M, N});
    for (size_t i = 0; i < bias.size(); ++i) bias[i] = p.bias[src[i]];
  }
  return bias;
}

}  // namespace edgesim
