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
  if (!c.npu_weights || c.inputs.empty() || c.outputs.size() != 1 || c.outputs[0].shape.size() != 4 ||
      !std::holds_alternative<ConvParams>(c.params))
    throw std::runtime_error("NPU command is not a convolution with encoded weights");
  const ConvParams& p = std::get<ConvParams>(c.params);
  const Shape& x = c.inputs[0].shape;
  const Shape& y = c.outputs[0].shape;
  NpuJob j;
  j.op = c.npu_weights->op;
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
  j.w_bits = c.npu_weights->w_bits;
  j.out_bits = static_cast<int64_t>(dtype_size(c.outputs[0].dtype)) * 8;
  j.quantize = p.rq.enabled();
  j.per_channel_shift = false;   // edgesim's requant has one shift per layer
  bool bias = !p.bias.empty() || p.rq.round != 0;
  int64_t max_scale = 0;
  for (size_t k = 0; k < std::max(p.rq.k.size(), p.rq.lambda.size()); ++k) {
    const int64_t kk = p.rq.k.size() == 1 ? p.rq.k[0] : p.rq.k.at(k);
    const int64_t l = p.rq.lambda.size() == 1 ? p.rq.lambda[0] : p.rq.lambda.at(k);
    max_scale = std::max(max_scale, kk * p.rq.mul);
    bias = bias || l != 0;
  }
  j.bias = bias;
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
