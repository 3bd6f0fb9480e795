// Npu (npu.h).
#include "sim/npu/npu.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "kernels/npu/cost_ne16.h"

namespace edgesim {

Npu::Npu(const sc_core::sc_module_name& name, JobListener& listener, const PlatformSpec& p)
    : ProgramOrderEngine(name, listener, "npu"), p_(p) {}

NpuJob Npu::job_of(const Command& c) const {
  const bool gemm = std::holds_alternative<GemmParams>(c.params);
  if (!c.npu_weights || c.inputs.empty() || c.outputs.size() != 1 ||
      (!gemm && (c.outputs[0].shape.size() != 4 || !std::holds_alternative<ConvParams>(c.params))))
    throw std::runtime_error("NPU command is not a convolution or a Gemm with encoded weights");
  const Shape& x = c.inputs[0].shape;
  const Shape& y = c.outputs[0].shape;
  NpuJob j;
  j.op = c.npu_weights->op;
  const Requant* rq = nullptr;
  std::vector<int64_t> bias;
  if (gemm) {
    // Deeploy's pointwise lowering of a Gemm: input [B, 1, M, K] HWC, so one output row of M pixels
    // (RequantizedGemmToPwPass, [60]); the tile's leading dims are its batch (one job each).
    const GemmParams& p = std::get<GemmParams>(c.params);
    j.ki = x.back();
    j.ko = y.back();
    j.ho = 1;
    j.wo = y.size() >= 2 ? y[y.size() - 2] : 1;
    j.stride = 1;
    rq = &p.rq;
    bias = p.bias;
  } else {
    const ConvParams& p = std::get<ConvParams>(c.params);
    j.ki = x.at(1);
    j.ko = y[1];
    j.ho = y[2];
    j.wo = y[3];
    if (c.npu_ho > 0) {   // the deployment reshaped the job's spatial extent (Command::npu_ho)
      if (c.npu_ho * c.npu_wo != y[2] * y[3])
        throw std::runtime_error("NPU command: npu_hw does not hold the output's H*W");
      j.ho = c.npu_ho, j.wo = c.npu_wo;
    }
    j.stride = p.sh;
    rq = &p.rq;
    bias = p.bias;
  }
  j.w_bits = c.npu_weights->w_bits;
  j.out_bits = static_cast<int64_t>(dtype_size(c.outputs[0].dtype)) * 8;
  j.quantize = rq->enabled();
  j.per_channel_shift = false;   // edgesim's requant has one shift per layer
  bool has_bias = !bias.empty() || rq->round != 0;
  int64_t max_scale = 0;
  for (size_t k = 0; k < std::max(rq->k.size(), rq->lambda.size()); ++k) {
    const int64_t kk = rq->k.size() == 1 ? rq->k[0] : rq->k.at(k);
    const int64_t l = rq->lambda.size() == 1 ? rq->lambda[0] : rq->lambda.at(k);
    max_scale = std::max(max_scale, kk * rq->mul);
    has_bias = has_bias || l != 0;
  }
  j.bias = has_bias;
  // N-EUREKA: 8-bit scales when they fit, else 32-bit (pulp-nnx: uint8 / uint32 scale types);
  // NE16: the model's npu.scale_bits.
  if (p_.npu.impl == "neureka") j.scale_bits = max_scale < 256 ? 8 : 32;
  return j;
}

NpuCost Npu::cost_of(const Command& c, bool first_of_layer) const {
  NpuJob j = job_of(c);
  j.first_of_layer = first_of_layer;
  return p_.npu.impl == "ne16" ? ne16_job_cost(j, p_.npu) : neureka_job_cost(j, p_.npu);
}

void Npu::cost_job(Job& j, const Command& c, bool weights_in_tcdm, bool first_of_layer) const {
  const NpuCost k = cost_of(c, first_of_layer);
  j.kind = Job::Kind::Kernel;
  j.duration = k.cycles;
  j.work = k.cycles - k.config;
  j.lead = k.config;
  j.kernel = k.kernel;
  j.core_cycles.clear();
  // TCDM beats of the job (for contention): activation loads and stream-out, and the weight
  // beats of the matrix-vector states when the weights come from the TCDM.
  j.tcdm_beats = k.load + k.streamout + (weights_in_tcdm ? k.matrixvec : 0);
}

void Npu::stretch_for_conflicts(Job& j, const Tcdm& l1, double dma_ports) const {
  if (dma_ports <= 0 || j.tcdm_beats <= 0) return;
  const double wait = std::min(8.0 * l1.expected_wait(dma_ports), static_cast<double>(std::max<int64_t>(0, p_.npu.hci_max_stall)));
  const auto extra = static_cast<int64_t>(std::llround(static_cast<double>(j.tcdm_beats) * wait));
  j.work += extra;
  j.duration += extra;
}

double Npu::beat_share(const Job& j) const {
  return j.duration > 0 ? std::min(1.0, static_cast<double>(j.tcdm_beats) / static_cast<double>(j.duration)) : 0.0;
}

}  // namespace edgesim
