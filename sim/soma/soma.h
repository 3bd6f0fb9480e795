// Soma: DIANA's digital accelerator (npu.impl soma), a 16 (K) × 16 (OX) output-stationary PE
// array with a pooling unit, fed from the shared activation L1 and its own digital weight
// memory (level WMEM, filled by the DMA per output-channel tile). A Compute command on engine
// "npu" of a soma platform is one job (one tile programmed by the host), lasting exactly
// kernels/soma/cost.h's T_c + npu.cfg_cycles: conv, depthwise (the command's groups), dense
// (Gemm), add or max pool, with the tile's extents from the command's views. The programming
// (cfg_cycles) counts as overhead, T_c as compute. Jobs run one at a time, lowest command id
// first. Data: the executor runs the reference kernel with the command's params, which the
// schedule gave the accelerator's output stage clamp((acc + offset) >> shift)
// (compiler/passes/diana_rules.h), so results are bit-exact by construction of that form.
// Not modelled: L1 bank contention with the DMA and the analog core (DIANA's L1 is shared), the
// activation FIFO's row reuse, precision scaling below 8 bits.
#pragma once
#include "compiler/schedule/schedule.h"
#include "kernels/soma/cost.h"
#include "platforms/loader/spec.h"
#include "sim/core/engine.h"

namespace edgesim {

class Soma : public ProgramOrderEngine {
 public:
  Soma(const sc_core::sc_module_name& name, JobListener& listener, const PlatformSpec& p);
  // The job of Compute command c; throws std::runtime_error for a command the array cannot run.
  SomaJob job_of(const Command& c) const;
  SomaCost cost_of(const Command& c) const { return soma_job_cost(job_of(c), p_.npu); }
  void cost_job(Job& j, const Command& c) const;

 private:
  const PlatformSpec& p_;
};

}  // namespace edgesim
