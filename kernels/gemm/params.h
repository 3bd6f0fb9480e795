// Gemm: batched integer matrix product with optional bias, zero points and fused Requant.
//   A [..., M, K] (or [..., K, M] with trans_a), B [..., K, N] (or [..., N, K] with trans_b);
//   leading batch dimensions broadcast with NumPy rules (ONNX MatMul).
//   acc[b,m,n] = Σ_k (A[b,m,k] − a_zp[m]) · (B[b,k,n] − b_zp[n]) + bias[m,n]
//   y = rq.apply(acc, index along rq.axis of the output)
// Covers ONNX Gemm, MatMul, MatMulInteger, QLinearMatMul, the DORY/NEMO FC and Deeploy GEMM.
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/core/requant.h"
#include "kernels/core/tensor.h"

namespace edgesim {

struct GemmParams {
  bool trans_a = false;
  bool trans_b = false;
  std::vector<int64_t> bias;     // empty, or broadcastable to [M, N] with shape bias_shape
  Shape bias_shape;              // [], [N], [1, N], [M, 1] or [M, N]
  std::vector<int64_t> a_zp;     // empty, 1 or M entries (per row)
  std::vector<int64_t> b_zp;     // empty, 1 or N entries (per column)
  Requant rq;                    // Kind::None: raw accumulator (int32)
};

}  // namespace edgesim
