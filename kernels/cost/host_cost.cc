// host_kernel_cost (host_cost.h).
#include "kernels/cost/host_cost.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "kernels/host/cost.h"

namespace edgesim {

namespace {

const Shape& operand(const std::vector<Shape>& v, size_t i, const char* what) {
  if (i >= v.size()) throw std::invalid_argument(std::string("host cost model: missing the ") + what + " shape");
  return v[i];
}

int64_t numel(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) n *= std::max<int64_t>(d, 0);
  return n;
}

}  // namespace

KernelCost host_kernel_cost(const OpParams& p, const std::vector<Shape>& inputs, const std::vector<Shape>& outputs,
                            const HostCostSpec& host) {
  return std::visit(
      [&](const auto& q) -> KernelCost {
        using P = std::decay_t<decltype(q)>;
        if constexpr (std::is_same_v<P, ConvParams>)
          return host_conv_cost(q, operand(inputs, 0, "conv input"), operand(outputs, 0, "conv output"), host);
        else if constexpr (std::is_same_v<P, GemmParams>)
          return host_gemm_cost(q, operand(inputs, 0, "gemm input"), operand(outputs, 0, "gemm output"), host);
        else if constexpr (std::is_same_v<P, PoolParams>)
          return host_pool_cost(q, operand(inputs, 0, "pool input"), operand(outputs, 0, "pool output"), host);
        else
          return host_eltwise_cost(op_name(static_cast<OpKind>(p.index())),
                                   numel(operand(outputs, 0, "output")), host);
      },
      p);
}

}  // namespace edgesim
