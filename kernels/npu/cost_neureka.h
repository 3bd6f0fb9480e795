// N-EUREKA (Siracusa NPU) job cost: the per-state cost model of GVSoC's N-EUREKA FSM
// (docs/npu.md "N-EUREKA"). A job is one tile dispatched by software; the engine walks it as
// spatial subtiles of pe_h × pe_w output pixels (border subtiles smaller) → output-channel blocks
// (≤ tp_out channels; depthwise ≤ tp_in_3x3) → input-channel steps, and charges every state of
// the FSM a closed-form number of cycles (one streamer beat per cycle, weights one beat per cycle
// from the TCDM or the weight memory alike, activation prefetch off). Pure functions of
// (NpuJob, NpuSpec): no hidden state, no SystemC, so the simulator's NPU component and the
// autotuner's analytic evaluator use the very same numbers. docs/npu.md lists the formulas.
//
// NpuJob / NpuCost are shared with the NE16 model (cost_ne16.h). Invalid jobs (non-positive
// extents, weight bits outside 2..8, output bits other than 8/32, a stride the platform does not
// list, depthwise with Ki != Ko, an NPU of another impl) throw std::invalid_argument.
#pragma once
#include <cstdint>
#include <string>

#include "kernels/core/cost.h"
#include "platforms/loader/spec.h"

namespace edgesim {

enum class NpuOp { Conv3x3, Conv1x1, Dw3x3 };
const char* npu_op_name(NpuOp op);  // "3x3", "1x1", "dw3x3"

// One NPU job (one tile). The cost depends on the output extent; the input extent follows
// from it (Ho + 2 × Wo + 2 pixels for 3×3 at stride 1, the streamer zero-fills padding).
struct NpuJob {
  NpuOp op = NpuOp::Conv3x3;
  int64_t ki = 0, ko = 0;          // input / output channels (depthwise: ki == ko)
  int64_t ho = 0, wo = 0;          // output pixels of the tile
  int64_t stride = 1;
  int64_t w_bits = 8;              // 2..8 (bit-serial in 3×3 / depthwise)
  int64_t out_bits = 8;            // 8 or 32
  int64_t scale_bits = 0;          // 8, 16 or 32 (norm/quant multiplier width); 0 = the model's
                                   // default: 8 for N-EUREKA, npu.scale_bits (32) for NE16
  bool per_channel_shift = true;   // NORM_SHIFT state / NE16 shift term
  bool bias = true;                // NORM_BIAS state / NE16 bias term
  bool quantize = true;            // norm/quant epilogue on (off: raw accumulators out)
  bool first_of_layer = false;     // the layer's first job: its config adds npu.layer_cycles
};

// Cycles of one job and where they go; cycles == load + matrixvec + epilogue + streamout + config.
struct NpuCost {
  int64_t cycles = 0;
  int64_t load = 0;        // N-EUREKA: LOAD_PREPARE + ACTIVATION_LOAD; NE16: load + woffs
  int64_t matrixvec = 0;   // N-EUREKA: MATRIXVEC_PREPARE + MATRIX_VECTOR; NE16: mv + upd
  int64_t epilogue = 0;    // norm/quant states (shift, multiply, bias)
  int64_t streamout = 0;   // output stream-out
  int64_t config = 0;      // programming by the core (npu.cfg_cycles [+ layer_cycles], program_cost.h) + job end
  int64_t subtiles = 0, blocks = 0, steps = 0;  // spatial subtiles, output blocks, input steps (totals)
  int64_t macs = 0;        // useful multiply-accumulates of the job
  std::string kernel;      // "neureka_3x3", "ne16_1x1", ...

  double macs_per_cycle() const { return cycles > 0 ? double(macs) / double(cycles) : 0.0; }
  KernelCost kernel_cost() const;  // cycles, overhead = config, no per-core busy times
};

// Useful MACs of a job (dense: Ho·Wo·Ko·Ki·k², depthwise: Ho·Wo·Ko·9).
int64_t npu_job_macs(const NpuJob& job);

// Checks a job against the rules shared by both NPU models and the platform's npu section
// (`model` names the caller in the message: "neureka_job_cost: ..."). Throws std::invalid_argument.
void check_npu_job(const NpuJob& job, const NpuSpec& npu, const char* model);

NpuCost neureka_job_cost(const NpuJob& job, const NpuSpec& npu);

}  // namespace edgesim
