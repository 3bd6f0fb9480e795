// run_kernel: the optimised kernel of a node when it applies, else the reference kernel
// (kernels/optimized.h says when an optimised kernel declines).
#include <type_traits>
#include <variant>

#include "kernels/core/shape_rules.h"
#include "kernels/interpreter/interpreter.h"
#include "kernels/optimized.h"

namespace edgesim {

namespace {

bool run_optimized(const OpParams& params, const std::vector<View>& in, const View& out, ArithMode mode) {
  return std::visit(
      [&](const auto& p) {
        using P = std::decay_t<decltype(p)>;
        if constexpr (std::is_same_v<P, ConvParams>) return in.size() == 2 && conv_optimized(p, view_4d(in[0]), view_4d(in[1]), view_4d(out), mode);
        else if constexpr (std::is_same_v<P, GemmParams>) return in.size() == 2 && gemm_optimized(p, in[0], in[1], out, mode);
        else if constexpr (std::is_same_v<P, PoolParams>) return in.size() == 1 && pool_optimized(p, view_4d(in[0]), view_4d(out), mode);
        else if constexpr (std::is_same_v<P, AddParams>) return in.size() == 2 && add_optimized(p, in[0], in[1], out, mode);
        else return false;
      },
      params);
}

}  // namespace

void run_kernel(const OpParams& params, const std::vector<View>& in, const View& out, ArithMode mode, KernelSet set) {
  if (set == KernelSet::Optimized && run_optimized(params, in, out, mode)) return;
  run_reference(params, in, out, mode);
}

}  // namespace edgesim
