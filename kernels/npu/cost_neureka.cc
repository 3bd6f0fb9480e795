// N-EUREKA per-state job cost (docs/npu.md "N-EUREKA", from GVSoC's neureka FSM [4]). The job is
// decomposed into at most four spatial subtile shapes (interior pe_h × pe_w, right/bottom/corner
// borders) and two output-block widths (full, remainder); each (subtile, block) pair is costed
// once and multiplied by its count, so the cost is O(1) in the layer size.
#include "kernels/npu/cost_neureka.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "kernels/npu/program_cost.h"

namespace edgesim {
namespace {

int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// FSM state constants (docs/npu.md "N-EUREKA" tables).
constexpr int64_t kLoadPrepare = 6;
constexpr int64_t kLoad1x1Extra = 6;                    // 1×1 ACTIVATION_LOAD: 36 beats + 6
constexpr int64_t kMvPrepare3x3 = 6, kMvPrepare1x1 = 10, kMvPrepareDw = 34;
constexpr int64_t kMv3x3Extra = 8;                      // dense 3×3 MATRIX_VECTOR: Kt·Wb + 8
constexpr int64_t kNormShift = 1 + 7;
constexpr int64_t kNormMultiplyExtra = 9;
constexpr int64_t kNormBias = 4 + 8;
constexpr int64_t kStreamout1x1Extra = 3;
constexpr int64_t kJobEnd = 1;

// A dimension of n cut in pieces of p: (full pieces, remainder extent or 0).
struct Split {
  int64_t full, rem;
};
Split split(int64_t n, int64_t p) { return {n / p, n % p}; }

// One spatial extent of a subtile and how many subtiles have it.
struct Extent {
  int64_t size, count;
};
void extents(int64_t n, int64_t p, Extent out[2], int& k) {
  const Split s = split(n, p);
  k = 0;
  if (s.full > 0) out[k++] = {p, s.full};
  if (s.rem > 0) out[k++] = {s.rem, 1};
}

}  // namespace

const char* npu_op_name(NpuOp op) {
  switch (op) {
    case NpuOp::Conv3x3: return "3x3";
    case NpuOp::Conv1x1: return "1x1";
    case NpuOp::Dw3x3: return "dw3x3";
  }
  return "?";
}

int64_t npu_job_macs(const NpuJob& j) {
  const int64_t pix = j.ho * j.wo;
  switch (j.op) {
    case NpuOp::Conv3x3: return pix * j.ko * j.ki * 9;
    case NpuOp::Conv1x1: return pix * j.ko * j.ki;
    case NpuOp::Dw3x3: return pix * j.ko * 9;
  }
  return 0;
}

KernelCost NpuCost::kernel_cost() const {
  KernelCost k;
  k.cycles = cycles;
  k.overhead = config;
  k.kernel = kernel;
  return k;
}

void check_npu_job(const NpuJob& j, const NpuSpec& npu, const char* model) {
  const std::string m = std::string(model) + ": ";
  if (!npu.present) throw std::invalid_argument(m + "the platform has no npu section");
  if (j.ki <= 0 || j.ko <= 0 || j.ho <= 0 || j.wo <= 0)
    throw std::invalid_argument(m + "non-positive job extent (Ki " + std::to_string(j.ki) + ", Ko " +
                                std::to_string(j.ko) + ", Ho " + std::to_string(j.ho) + ", Wo " +
                                std::to_string(j.wo) + ")");
  if (j.op == NpuOp::Dw3x3 && j.ki != j.ko)
    throw std::invalid_argument(m + "depthwise job with Ki " + std::to_string(j.ki) + " != Ko " +
                                std::to_string(j.ko));
  if (j.w_bits < 2 || j.w_bits > 8)
    throw std::invalid_argument(m + "weight bits " + std::to_string(j.w_bits) + " outside 2..8");
  if (j.out_bits != 8 && j.out_bits != 32)
    throw std::invalid_argument(m + "output bits " + std::to_string(j.out_bits) + " (8 or 32)");
  if (!npu.out_bits.empty() &&
      std::find(npu.out_bits.begin(), npu.out_bits.end(), j.out_bits) == npu.out_bits.end())
    throw std::invalid_argument(m + "output bits " + std::to_string(j.out_bits) +
                                " not in npu.out_bits of the platform");
  if (j.scale_bits != 0 && j.scale_bits != 8 && j.scale_bits != 16 && j.scale_bits != 32)
    throw std::invalid_argument(m + "scale bits " + std::to_string(j.scale_bits) + " (8, 16 or 32)");
  if (std::find(npu.strides.begin(), npu.strides.end(), j.stride) == npu.strides.end())
    throw std::invalid_argument(m + "stride " + std::to_string(j.stride) +
                                " not in npu.strides of the platform");
}

NpuCost neureka_job_cost(const NpuJob& j, const NpuSpec& npu) {
  check_npu_job(j, npu, "neureka_job_cost");
  if (npu.impl != "neureka")
    throw std::invalid_argument("neureka_job_cost: npu.impl is '" + npu.impl + "', not neureka");
  if (j.stride != 1)
    throw std::invalid_argument("neureka_job_cost: stride " + std::to_string(j.stride) +
                                " is not modelled for N-EUREKA (stride 1 only)");
  if (npu.pe_h <= 0 || npu.pe_w <= 0 || npu.tp_in <= 0 || npu.tp_in_3x3 <= 0 || npu.tp_out <= 0)
    throw std::invalid_argument("neureka_job_cost: npu.pe_h/pe_w/tp_in/tp_in_3x3/tp_out must be > 0");

  const int64_t scale_bits = j.scale_bits > 0 ? j.scale_bits : 8;
  const bool dw = j.op == NpuOp::Dw3x3, pw = j.op == NpuOp::Conv1x1;
  const int64_t block = dw ? npu.tp_in_3x3 : npu.tp_out;      // Kt ≤ 32, depthwise Cb ≤ 28
  const int64_t steps = dw ? 1 : cdiv(j.ki, pw ? npu.tp_in : npu.tp_in_3x3);

  Extent hs[2], ws[2], ks[2];
  int nh = 0, nw = 0, nk = 0;
  extents(j.ho, npu.pe_h, hs, nh);
  extents(j.wo, npu.pe_w, ws, nw);
  extents(j.ko, block, ks, nk);

  NpuCost c;
  c.kernel = std::string("neureka_") + npu_op_name(j.op);
  for (int a = 0; a < nh; ++a)
    for (int b = 0; b < nw; ++b)
      for (int d = 0; d < nk; ++d) {
        const int64_t h = hs[a].size, w = ws[b].size, kt = ks[d].size;
        const int64_t n = hs[a].count * ws[b].count * ks[d].count;  // (subtile, block) pairs
        // per input step
        const int64_t act = pw ? std::max(h * w, npu.pe_h * npu.pe_w) + kLoad1x1Extra
                               : (h + 2) * (w + 2);
        const int64_t mvp = pw ? kMvPrepare1x1 : dw ? kMvPrepareDw : kMvPrepare3x3;
        const int64_t mv = pw ? kt : dw ? kt * j.w_bits : kt * j.w_bits + kMv3x3Extra;
        c.load += n * steps * (kLoadPrepare + act);
        c.matrixvec += n * steps * (mvp + mv);
        // per output block
        if (j.quantize) {
          const int64_t mult = cdiv(kt * scale_bits, 32) + kNormMultiplyExtra;  // n_s + 9
          c.epilogue += n * ((j.per_channel_shift ? kNormShift : 0) + mult + (j.bias ? kNormBias : 0));
        }
        const int64_t so = h * w * (j.out_bits == 32 ? cdiv(kt, 8) : 1) + (pw ? kStreamout1x1Extra : 0);
        c.streamout += n * so;
      }
  c.subtiles = cdiv(j.ho, npu.pe_h) * cdiv(j.wo, npu.pe_w);
  c.blocks = c.subtiles * cdiv(j.ko, block);
  c.steps = c.blocks * steps;
  c.config = kJobEnd + npu_program_cycles(npu, j.first_of_layer);
  c.cycles = c.load + c.matrixvec + c.epilogue + c.streamout + c.config;
  c.macs = npu_job_macs(j);
  return c;
}

}  // namespace edgesim
