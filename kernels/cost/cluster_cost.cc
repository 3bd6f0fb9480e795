// Dispatch from a node's params to its family's cluster cost model (docs/timing.md "Cluster
// kernel cost models"):
//   Conv -> conv_Ho_parallel | pointwise_HoWo_parallel | depthwise_generic  (kernels/conv)
//           tuned flow: depthwise_3x3_s1 where it applies                   (conv/cost_dw3x3_s1)
//   Gemm -> linear (M == 1) | matmul (M > 1)                                (kernels/gemm)
//           Deeploy: RequantizedGemm rows of pulp_nn_linear | MatrixVec | TallGEMM (gemm/cost_deeploy)
//   Pool -> maxpool | avgpool                                               (kernels/pool)
//   Add  -> add, c_add per element                                          (kernels/eltwise)
//   Softmax, Norm, Act, Mean, FloatChain -> Deeploy-structured row / element loops (kernels/<family>)
//   Mul, Requant (Deeploy), Transpose, Concat (Deeploy), Gather             (kernels/layout, eltwise)
// Everything else uses the generic element-wise model ⌈elements/NC⌉·c_op + t_bar over the output
// elements (one byte each), with these c_op (asm, uncalibrated):
//   mul, requant, quantize, dequantize  c_add  (load(s), multiply-add, shift, clamp, store)
//   clip                                c_rq   (load, clamp, store)
//   pad, concat, reshape                kCopyCyclesPerByte = 2 (byte load + byte store; pad
//                                       charges its zero fill like a copy)
//   transpose                           c_transpose per element (Deeploy's Transpose loop: a
//                                       strided byte load and a byte store per element)
// Operands in L2 (opt.mem_latency > 0): the structured models count each core's accesses; the
// PULP-NN models (conv, linear, matmul, pool, add) and the generic one charge the latency on the
// share of their cycles that are memory accesses (kMemShare, see below).
#include "kernels/cost/cluster_cost.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "kernels/act/cost_cluster.h"
#include "kernels/conv/cost_cluster.h"
#include "kernels/conv/cost_dw3x3_s1.h"
#include "kernels/cost/cluster_common.h"
#include "kernels/eltwise/cost_cluster.h"
#include "kernels/eltwise/cost_deeploy.h"
#include "kernels/fakequant/cost_cluster.h"
#include "kernels/gemm/cost_cluster.h"
#include "kernels/gemm/cost_deeploy.h"
#include "kernels/layout/cost_cluster.h"
#include "kernels/norm/cost_cluster.h"
#include "kernels/pool/cost_cluster.h"
#include "kernels/reduce/cost_cluster.h"
#include "kernels/softmax/cost_cluster.h"

namespace edgesim {
namespace {

constexpr int64_t kCopyCyclesPerByte = 2;
// Share of a PULP-NN kernel's cycles that are loads or stores when it is not modelled access by
// access: 6 of the 14 instructions of the 4x2 MatMul inner loop are loads (docs/timing.md "The
// instruction count", `c_il`; the same share the TCDM conflict model uses); element-wise loops
// (add, copies) access memory in about half of their instructions (ASSUMPTION (asm)).
constexpr double kMatmulMemShare = 6.0 / 14.0;
constexpr double kEltwiseMemShare = 0.5;

const Shape& operand(const std::vector<Shape>& v, size_t i, const char* op, const char* what) {
  if (i >= v.size())
    throw std::invalid_argument(std::string("cluster cost model: ") + op + " needs its " + what +
                                " shape");
  return v[i];
}

// An L1 cost re-charged for operands in L2: every core's cycles grow by share · cycles · latency.
KernelCost on_memory(KernelCost k, double share, int64_t latency) {
  if (latency <= 0) return k;
  int64_t worst = 0;
  for (int64_t& c : k.core_cycles) {
    c += static_cast<int64_t>(std::llround(static_cast<double>(c) * share * static_cast<double>(latency)));
    worst = std::max(worst, c);
  }
  k.cycles = worst + k.overhead;
  return k;
}

}  // namespace

KernelCost cluster_kernel_cost(const OpParams& p, const std::vector<Shape>& inputs,
                               const std::vector<Shape>& outputs, const ClusterSpec& cluster,
                               const ClusterCostOptions& opt) {
  cluster_cost::require_cost(cluster);
  const ClusterCostSpec& c = cluster.cost;
  const int64_t lat = opt.mem_latency;
  return std::visit(
      [&](const auto& q) -> KernelCost {
        using P = std::decay_t<decltype(q)>;
        const auto& y = [&](const char* op) -> const Shape& { return operand(outputs, 0, op, "output"); };
        if constexpr (std::is_same_v<P, ConvParams>) {
          const Shape& x = operand(inputs, 0, "conv", "input x");
          if (opt.dw3x3_s1 && depthwise_3x3_s1_applies(q, x, y("conv")))
            return on_memory(depthwise_3x3_s1_cost(q, x, y("conv"), cluster), kMatmulMemShare, lat);
          return on_memory(conv_cluster_cost(q, x, y("conv"), cluster), kMatmulMemShare, lat);
        } else if constexpr (std::is_same_v<P, GemmParams>) {
          const Shape& a = operand(inputs, 0, "gemm", "input a");
          const Shape b = inputs.size() > 1 ? inputs[1] : Shape{};
          if (opt.deeploy) return deeploy_gemm_cost(q, a, b, y("gemm"), cluster, lat);
          return on_memory(gemm_cluster_cost(q, a, b, y("gemm"), cluster), kMatmulMemShare, lat);
        } else if constexpr (std::is_same_v<P, PoolParams>) {
          return on_memory(pool_cluster_cost(q, operand(inputs, 0, "pool", "input x"), y("pool"), cluster),
                           kEltwiseMemShare, lat);
        } else if constexpr (std::is_same_v<P, AddParams>) {
          return on_memory(add_cluster_cost(q, y("add"), cluster), kEltwiseMemShare, lat);
        } else if constexpr (std::is_same_v<P, SoftmaxParams>) {
          return softmax_cluster_cost(q, y("softmax"), cluster, lat);
        } else if constexpr (std::is_same_v<P, NormParams>) {
          return norm_cluster_cost(q, y("norm"), cluster, lat);
        } else if constexpr (std::is_same_v<P, ActParams>) {
          return act_cluster_cost(q, y("act"), cluster, lat);
        } else if constexpr (std::is_same_v<P, MeanParams>) {
          return mean_cluster_cost(q, operand(inputs, 0, "mean", "input"), y("mean"), cluster, lat);
        } else if constexpr (std::is_same_v<P, FloatChainParams>) {
          return float_chain_cluster_cost(q, y("fquant"), cluster, lat);
        } else if constexpr (std::is_same_v<P, GatherParams>) {
          return gather_cluster_cost(y("gather"), cluster, lat);
        } else if constexpr (std::is_same_v<P, MulParams>) {
          if (opt.deeploy || !q.rq.enabled()) return deeploy_mul_cost(q, y("mul"), cluster, lat);
          return on_memory(eltwise_cluster_cost("mul", cluster_cost::elements(y("mul")), c.c_add, cluster),
                           kEltwiseMemShare, lat);
        } else if constexpr (std::is_same_v<P, RequantParams>) {
          if (opt.deeploy) return deeploy_requant_cost(q, y("requant"), cluster, lat);
          return on_memory(eltwise_cluster_cost("requant", cluster_cost::elements(y("requant")), c.c_add, cluster),
                           kEltwiseMemShare, lat);
        } else if constexpr (std::is_same_v<P, ConcatParams>) {
          if (opt.deeploy) return concat_cluster_cost(q, inputs, y("concat"), cluster, lat);
          return on_memory(eltwise_cluster_cost("concat", cluster_cost::elements(y("concat")), kCopyCyclesPerByte,
                                                cluster),
                           kEltwiseMemShare, lat);
        } else if constexpr (std::is_same_v<P, TransposeParams>) {
          return transpose_cluster_cost(q, y("transpose"), cluster, lat);
        } else {
          int64_t c_op = kCopyCyclesPerByte;
          const char* name = "copy";
          if constexpr (std::is_same_v<P, QuantizeParams>) { c_op = c.c_add; name = "quantize"; }
          if constexpr (std::is_same_v<P, DequantizeParams>) { c_op = c.c_add; name = "dequantize"; }
          if constexpr (std::is_same_v<P, ClipParams>) { c_op = c.c_rq; name = "clip"; }
          if constexpr (std::is_same_v<P, PadParams>) name = "pad";
          if constexpr (std::is_same_v<P, ReshapeParams>) name = "reshape";
          const int64_t elems = cluster_cost::elements(operand(outputs, 0, name, "output"));
          return on_memory(eltwise_cluster_cost(name, elems, c_op, cluster), kEltwiseMemShare, lat);
        }
      },
      p);
}

}  // namespace edgesim
