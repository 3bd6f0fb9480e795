// Reference matrix product (ONNX Gemm / MatMul / MatMulInteger / QLinearMatMul, DORY FC,
// Deeploy GEMM). Each operand is converted once to an int64 buffer with its zero point
// removed: A as [batch][M][K] and B transposed to [batch][N][K], so every output element is
// a dot product of two contiguous rows. Batch dims broadcast with NumPy rules; 1-D operands
// follow NumPy matmul (a vector a is one row, a vector b is one column; that axis is dropped
// from the output). Accumulation is int64; ONNX's MatMulInteger/QLinearMatMul specify
// wrapping int32 accumulation, which the data never reaches.
#include <stdexcept>
#include <string>

#include "kernels/core/shape_rules.h"
#include "kernels/gemm/operand.h"
#include "kernels/reference.h"

namespace edgesim {

namespace {

// An operand as a row-major [batch][rows][cols] buffer: (rows, cols) = (M, K) for A and
// (N, K) for B, so both are read along K.
struct Operand {
  Shape batch;
  int64_t rows = 1, cols = 1;
  std::vector<int64_t> data;   // [batch][rows][cols], zero point removed
};

// Reads operand v (gemm_operand_view) into an Operand. zp has 1 or rows entries.
Operand load_operand(const View& v, bool k_last, const std::vector<int64_t>& zp) {
  Operand o;
  const View t = gemm_operand_view(v, k_last);
  o.batch.assign(t.shape.begin(), t.shape.end() - 2);
  o.rows = t.shape[t.rank() - 2];
  o.cols = t.shape[t.rank() - 1];
  o.data = t.to_ints();
  if (!zp.empty()) {
    if (zp.size() != 1 && static_cast<int64_t>(zp.size()) != o.rows)
      throw std::invalid_argument("gemm: zero point has " + std::to_string(zp.size()) +
                                  " entries, expected 1 or " + std::to_string(o.rows));
    for (size_t i = 0; i < o.data.size(); ++i)
      o.data[i] -= zp.size() == 1 ? zp[0] : zp[(i / o.cols) % o.rows];
  }
  return o;
}

}  // namespace

void gemm_reference(const GemmParams& p, const View& a, const View& b, const View& y, ArithMode mode) {
  const Shape expect = matmul_output_shape(a.shape, b.shape, p.trans_a, p.trans_b);
  if (expect != y.shape)
    throw std::invalid_argument("gemm: output shape " + shape_str(y.shape) + ", expected " +
                                shape_str(expect) + " for a " + shape_str(a.shape) + " b " +
                                shape_str(b.shape));
  const Operand A = load_operand(a, !p.trans_a, p.a_zp);
  const Operand B = load_operand(b, p.trans_b, p.b_zp);
  const int64_t M = A.rows, N = B.rows, K = A.cols;

  const Shape batch = broadcast_shapes(A.batch, B.batch);
  const std::vector<int64_t> a_batch = broadcast_source_index(A.batch, batch);
  const std::vector<int64_t> b_batch = broadcast_source_index(B.batch, batch);

  const std::vector<int64_t> bias = gemm_bias_matrix(p, M, N);

  const AxisIndex chan(y.shape, p.rq.axis);
  p.rq.validate(chan.dim);
  const int64_t nb = static_cast<int64_t>(a_batch.size());
  std::vector<int64_t> out(static_cast<size_t>(nb * M * N));
  for (int64_t bi = 0; bi < nb; ++bi) {
    const int64_t* A0 = &A.data[a_batch[bi] * M * K];
    const int64_t* B0 = &B.data[b_batch[bi] * N * K];
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) {
        const int64_t* ar = A0 + m * K;
        const int64_t* br = B0 + n * K;
        int64_t acc = bias[m * N + n];
        for (int64_t k = 0; k < K; ++k) acc += ar[k] * br[k];
        const int64_t flat = (bi * M + m) * N + n;
        out[flat] = p.rq.apply(acc, chan(flat), mode);
      }
  }
  store_ints_checked(y, out);
}

}  // namespace edgesim
