// Optimised matrix product (kernels/optimized.h). A is gathered as int16 [batch][M][K] and B as
// int16 [batch][N][K] (zero points removed, K contiguous for both, as the reference's int64
// buffers are), so every output element is a dot product of two contiguous int16 rows,
// accumulated in int32; four columns of B share each read of a row of A (the fully connected
// s8 kernel of CMSIS-NN [86] reads its weights the same way, one output row per weight row).
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "kernels/core/dense.h"
#include "kernels/core/shape_rules.h"
#include "kernels/gemm/operand.h"
#include "kernels/optimized.h"

namespace edgesim {

namespace {

struct Operand16 {
  Shape batch;
  int64_t rows = 1, cols = 1;
  std::vector<int16_t> data;   // [batch][rows][cols], zero point removed
};

Operand16 load16(const View& v, bool k_last, const std::vector<int64_t>& zp) {
  Operand16 o;
  const View t = gemm_operand_view(v, k_last);
  o.batch.assign(t.shape.begin(), t.shape.end() - 2);
  o.rows = t.shape[t.rank() - 2];
  o.cols = t.shape[t.rank() - 1];
  o.data.resize(static_cast<size_t>(t.numel()));
  dense::gather_rows<int16_t>(t, 0, [&](int64_t row) { return &o.data[static_cast<size_t>(row * o.cols)]; });
  if (!zp.empty())
    for (size_t i = 0; i < o.data.size(); ++i)
      o.data[i] = static_cast<int16_t>(o.data[i] - (zp.size() == 1 ? zp[0] : zp[(i / o.cols) % o.rows]));
  return o;
}

// max |v − zp| over the dtype of v and every zero point, or -1 when v is not 8-bit or a zero
// point count does not match `rows`.
int64_t max_operand(const View& v, const std::vector<int64_t>& zp, int64_t rows) {
  if (v.dtype != DType::U8 && v.dtype != DType::I8) return -1;
  if (zp.size() > 1 && static_cast<int64_t>(zp.size()) != rows) return -1;
  int64_t m = 0, lo, hi;
  for (int64_t z : zp.empty() ? std::vector<int64_t>{0} : zp) {
    if (z < -65536 || z > 65536) return -1;
    dense::shifted_range(v.dtype, z, lo, hi);
    m = std::max(m, dense::max_abs(lo, hi));
  }
  return m > 32767 ? -1 : m;
}

}  // namespace

bool gemm_optimized(const GemmParams& p, const View& a, const View& b, const View& y, ArithMode mode) {
  if (a.rank() < 1 || b.rank() < 1 || !dtype_is_int(y.dtype)) return false;
  Shape expect;
  try {
    expect = matmul_output_shape(a.shape, b.shape, p.trans_a, p.trans_b);
  } catch (const std::invalid_argument&) {
    return false;
  }
  if (expect != y.shape) return false;
  const View av = gemm_operand_view(a, !p.trans_a), bv = gemm_operand_view(b, p.trans_b);
  const int64_t M = av.shape[av.rank() - 2], K = av.shape[av.rank() - 1], N = bv.shape[bv.rank() - 2];
  const int64_t ma = max_operand(a, p.a_zp, M), mb = max_operand(b, p.b_zp, N);
  if (ma < 0 || mb < 0) return false;
  std::vector<int64_t> bias;
  const AxisIndex chan(y.shape, p.rq.axis);
  try {
    bias = gemm_bias_matrix(p, M, N);
    p.rq.validate(chan.dim);
  } catch (const std::invalid_argument&) {
    return false;
  }
  double max_bias = 0;
  for (int64_t v : bias) max_bias = std::max(max_bias, std::fabs(static_cast<double>(v)));
  if (static_cast<double>(K) * static_cast<double>(ma) * static_cast<double>(mb) + max_bias > 2147483647.0)
    return false;

  const Operand16 A = load16(a, !p.trans_a, p.a_zp), B = load16(b, p.trans_b, p.b_zp);
  const Shape batch = broadcast_shapes(A.batch, B.batch);
  const std::vector<int64_t> a_batch = broadcast_source_index(A.batch, batch);
  const std::vector<int64_t> b_batch = broadcast_source_index(B.batch, batch);
  std::vector<ChannelRequant> rq(static_cast<size_t>(chan.dim));
  for (int64_t c = 0; c < chan.dim; ++c) rq[c] = p.rq.channel(c, mode);

  const auto nb = static_cast<int64_t>(a_batch.size());
  std::vector<int64_t> out(static_cast<size_t>(nb * M * N));
  for (int64_t bi = 0; bi < nb; ++bi) {
    const int16_t* A0 = &A.data[static_cast<size_t>(a_batch[bi] * M * K)];
    const int16_t* B0 = &B.data[static_cast<size_t>(b_batch[bi] * N * K)];
    for (int64_t m = 0; m < M; ++m) {
      const int16_t* ar = A0 + m * K;
      const int64_t* bias_row = &bias[static_cast<size_t>(m * N)];
      const int64_t flat0 = (bi * M + m) * N;
      int64_t n = 0;
      for (; n + 4 <= N; n += 4) {
        const int16_t* br = B0 + n * K;
        int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        for (int64_t k = 0; k < K; ++k) {
          const int32_t v = ar[k];
          s0 += br[k] * v;
          s1 += br[K + k] * v;
          s2 += br[2 * K + k] * v;
          s3 += br[3 * K + k] * v;
        }
        const int32_t s[4] = {s0, s1, s2, s3};
        for (int64_t j = 0; j < 4; ++j)
          out[flat0 + n + j] = rq[chan(flat0 + n + j)](static_cast<int32_t>(bias_row[n + j]) + s[j]);
      }
      for (; n < N; ++n) {
        const int16_t* br = B0 + n * K;
        int32_t s = static_cast<int32_t>(bias_row[n]);
        for (int64_t k = 0; k < K; ++k) s += static_cast<int32_t>(br[k]) * ar[k];
        out[flat0 + n] = rq[chan(flat0 + n)](s);
      }
    }
  }
  return dense::store_checked(y, out);
}

}  // namespace edgesim
