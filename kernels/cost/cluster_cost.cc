// Dispatch from a node's params to its family's cluster cost model (TIMING_MODELS.md §2,
// docs/timing.md "Cluster kernel cost models"):
//   Conv -> conv_Ho_parallel | pointwise_HoWo_parallel | depthwise_generic  (kernels/conv)
//   Gemm -> linear (M == 1) | matmul (M > 1)                                (kernels/gemm)
//   Pool -> maxpool | avgpool                                               (kernels/pool)
//   Add  -> add, c_add per element                                          (kernels/eltwise)
// Everything else uses the generic element-wise model ⌈elements/NC⌉·c_op + t_bar over the output
// elements (one byte each), with these c_op (asm, uncalibrated):
//   mul, requant, quantize, dequantize  c_add  (load(s), multiply-add, shift, clamp, store)
//   clip                                c_rq   (load, clamp, store)
//   pad, concat, reshape                kCopyCyclesPerByte = 2 (byte load + byte store; pad
//                                       charges its zero fill like a copy)
//   transpose                           c_transpose per element (Deeploy's Transpose loop: a
//                                       strided byte load and a byte store per element)
#include "kernels/cost/cluster_cost.h"

#include <stdexcept>
#include <string>
#include <type_traits>

#include "kernels/conv/cost_cluster.h"
#include "kernels/cost/cluster_common.h"
#include "kernels/eltwise/cost_cluster.h"
#include "kernels/gemm/cost_cluster.h"
#include "kernels/pool/cost_cluster.h"

namespace edgesim {
namespace {

constexpr int64_t kCopyCyclesPerByte = 2;

const Shape& operand(const std::vector<Shape>& v, size_t i, const char* op, const char* what) {
  if (i >= v.size())
    throw std::invalid_argument(std::string("cluster cost model: ") + op + " needs its " + what +
                                " shape");
  return v[i];
}

}  // namespace

KernelCost cluster_kernel_cost(const OpParams& p, const std::vector<Shape>& inputs,
                               const std::vector<Shape>& outputs, const ClusterSpec& cluster) {
  cluster_cost::require_cost(cluster);
  const ClusterCostSpec& c = cluster.cost;
  return std::visit(
      [&](const auto& q) -> KernelCost {
        using P = std::decay_t<decltype(q)>;
        if constexpr (std::is_same_v<P, ConvParams>) {
          return conv_cluster_cost(q, operand(inputs, 0, "conv", "input x"),
                                   operand(outputs, 0, "conv", "output y"), cluster);
        } else if constexpr (std::is_same_v<P, GemmParams>) {
          return gemm_cluster_cost(q, operand(inputs, 0, "gemm", "input a"),
                                   inputs.size() > 1 ? inputs[1] : Shape{},
                                   operand(outputs, 0, "gemm", "output y"), cluster);
        } else if constexpr (std::is_same_v<P, PoolParams>) {
          return pool_cluster_cost(q, operand(inputs, 0, "pool", "input x"),
                                   operand(outputs, 0, "pool", "output y"), cluster);
        } else if constexpr (std::is_same_v<P, AddParams>) {
          return add_cluster_cost(q, operand(outputs, 0, "add", "output y"), cluster);
        } else {
          int64_t c_op = kCopyCyclesPerByte;
          const char* name = "copy";
          if constexpr (std::is_same_v<P, MulParams>) { c_op = c.c_add; name = "mul"; }
          if constexpr (std::is_same_v<P, RequantParams>) { c_op = c.c_add; name = "requant"; }
          if constexpr (std::is_same_v<P, QuantizeParams>) { c_op = c.c_add; name = "quantize"; }
          if constexpr (std::is_same_v<P, DequantizeParams>) { c_op = c.c_add; name = "dequantize"; }
          if constexpr (std::is_same_v<P, ClipParams>) { c_op = c.c_rq; name = "clip"; }
          if constexpr (std::is_same_v<P, PadParams>) name = "pad";
          if constexpr (std::is_same_v<P, ConcatParams>) name = "concat";
          if constexpr (std::is_same_v<P, ReshapeParams>) name = "reshape";
          if constexpr (std::is_same_v<P, TransposeParams>) { c_op = c.c_transpose; name = "transpose"; }
          const int64_t elems = cluster_cost::elements(operand(outputs, 0, name, "output"));
          return eltwise_cluster_cost(name, elems, c_op, cluster);
        }
      },
      p);
}

}  // namespace edgesim
