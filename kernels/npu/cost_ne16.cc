// NE16 analytic cost (docs/npu.md "NE16"). With the GAP9 constants the terms are
//   load = 1×1: 10 + 3·3·⌈16·8/256⌉ = 19;  3×3, dw: 6 + 5·5·⌈16·8/256⌉ = 31
//   woffs(k) = dw: 6 + k, else 6;  mv(k) = 1×1: 6 + k, else 6 + 8·k;  upd = 2
//   nq(k) = [shift]·⌈32/4⌉ + 9 + ⌈k·(q/8)/4⌉ + [bias]·(8 + ⌈k/8⌉);  so = 3 + 3·3·⌈32·8/256⌉ + 1
//   32-bit outputs (raw accumulators, no nq): so(k) = 3 + 3·3·⌈k·32/256⌉ + 1, one 256-bit store per
//   8 channels of a pixel as GVSoC's NE16 streams them ([36] ne16_streamout.cpp: ⌈k/8⌉ words of
//   32 B per pixel when quantization_bits is 32, one when it is 8); DORY's model has 8-bit outputs only
//   T = ⌈Ho/3⌉·⌈Wo/3⌉ · (⌊Ko/kb⌋·iter(kb) + [Ko mod kb > 0]·iter(Ko mod kb))
#include "kernels/npu/cost_ne16.h"

#include <stdexcept>
#include <string>

#include "kernels/npu/program_cost.h"

namespace edgesim {
namespace {

int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

constexpr int64_t kLoad1x1Base = 10, kLoad3x3Base = 6;   // fixed load latencies of the model
constexpr int64_t kWoffsBase = 6, kMvBase = 6, kUpd = 2;
constexpr int64_t kWeightBitsSerial = 8;                 // "8 weight bits serial" (3×3, dw)
constexpr int64_t kNqBase = 9, kBiasBase = 8, kSoBase = 3 + 1;
constexpr int64_t kDataBits = 8;                          // 8-bit activations / outputs

void check_ne16_spec(const NpuSpec& n) {
  if (n.impl != "ne16")
    throw std::invalid_argument("ne16_job_cost: npu.impl is '" + n.impl + "', not ne16");
  if (n.pe_h <= 0 || n.pe_w <= 0 || n.tp_in <= 0 || n.tp_out <= 0 || n.in_buf_h <= 0 ||
      n.in_buf_w <= 0 || n.port_bits <= 0 || n.shifters <= 0 || n.adders <= 0 || n.multipliers <= 0)
    throw std::invalid_argument(
        "ne16_job_cost: npu.pe_h/pe_w/tp_in/tp_out/in_buf_h/in_buf_w/port_bits/shifters/adders/"
        "multipliers must be > 0");
}

}  // namespace

Ne16Terms ne16_terms(const NpuJob& j, const NpuSpec& n, int64_t k) {
  const bool dw = j.op == NpuOp::Dw3x3, pw = j.op == NpuOp::Conv1x1;
  const int64_t q = j.scale_bits > 0 ? j.scale_bits : (n.scale_bits > 0 ? n.scale_bits : 32);
  const int64_t in_beats = cdiv(n.tp_in * kDataBits, n.port_bits);     // ⌈16·8/256⌉
  Ne16Terms t;
  t.load = pw ? kLoad1x1Base + n.pe_h * n.pe_w * in_beats
              : kLoad3x3Base + n.in_buf_h * n.in_buf_w * in_beats;
  t.woffs = dw ? kWoffsBase + k : kWoffsBase;
  t.mv = pw ? kMvBase + k : kMvBase + kWeightBitsSerial * k;
  t.upd = kUpd;
  if (j.quantize)
    t.nq = (j.per_channel_shift ? cdiv(n.tp_out, n.shifters) : 0) + kNqBase +
           cdiv(k * (q / 8), n.multipliers) + (j.bias ? kBiasBase + cdiv(k, n.adders) : 0);
  // 8-bit outputs: one port word per pixel for any block (DORY's ⌈TP_OUT·8/256⌉ = 1); 32-bit: ⌈k/8⌉.
  t.so = kSoBase + n.pe_h * n.pe_w * (j.out_bits == 32 ? cdiv(k * 32, n.port_bits)
                                                       : cdiv(n.tp_out * kDataBits, n.port_bits));
  const int64_t n_in = dw ? 1 : cdiv(j.ki, n.tp_in);
  t.iter = n_in * (t.load + t.woffs + t.mv + t.upd) + t.nq + t.so;
  return t;
}

NpuCost ne16_job_cost(const NpuJob& j, const NpuSpec& n) {
  check_npu_job(j, n, "ne16_job_cost");
  check_ne16_spec(n);
  const bool dw = j.op == NpuOp::Dw3x3;
  const int64_t kb = dw ? n.tp_in : n.tp_out;            // 16 (dw) or 32
  const int64_t nb = j.ko / kb, kr = j.ko % kb;
  const int64_t n_in = dw ? 1 : cdiv(j.ki, n.tp_in);
  const int64_t n_sp = cdiv(j.ho, n.pe_h) * cdiv(j.wo, n.pe_w);

  NpuCost c;
  c.kernel = std::string("ne16_") + npu_op_name(j.op);
  auto add = [&](int64_t k, int64_t count) {
    if (count == 0) return;
    const Ne16Terms t = ne16_terms(j, n, k);
    const int64_t m = n_sp * count;
    c.load += m * n_in * (t.load + t.woffs);
    c.matrixvec += m * n_in * (t.mv + t.upd);
    c.epilogue += m * t.nq;
    c.streamout += m * t.so;
  };
  add(kb, nb);
  add(kr, kr > 0 ? 1 : 0);
  c.subtiles = n_sp;
  c.blocks = n_sp * (nb + (kr > 0 ? 1 : 0));
  c.steps = c.blocks * n_in;
  c.config = npu_program_cycles(n, j.first_of_layer);
  c.cycles = c.load + c.matrixvec + c.epilogue + c.streamout + c.config;
  c.macs = npu_job_macs(j);
  return c;
}

}  // namespace edgesim
