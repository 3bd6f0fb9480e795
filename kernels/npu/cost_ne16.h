// NE16 (GAP9 NPU) job cost: DORY's analytic Ne16PerfModel (docs/npu.md "NE16", [12]
// `GAP9_NE16/Tiler/Ne16PerfModel.py`), implemented from the formulas as written: per 3 × 3
// output subtile and 32-channel output block (16 for depthwise), ⌈Ki/16⌉ input steps of
// load + weight offsets + matrix-vector (8 weight bits serial for 3×3 and depthwise) + update,
// then norm/quant and stream-out. Buffer shapes, port width, shifter/adder/multiplier counts and
// the scale width come from NpuSpec (platforms/gap9.yaml). Pure functions; same NpuJob/NpuCost
// as the N-EUREKA model (cost_neureka.h). docs/npu.md lists the formulas.
//
// Deviations, all documented: cycles also include the core's programming (npu.cfg_cycles, and
// npu.layer_cycles on a layer's first job: program_cost.h; not in DORY's model; NpuCost::config); `quantize = false` drops the nq term; 32-bit
// outputs stream ⌈k/8⌉ port words per pixel (GVSoC's streamer, [36]); job.w_bits does not
// change the figure (the model is 8-bit serial); stride only enters through Ho × Wo.
#pragma once
#include <cstdint>

#include "kernels/npu/cost_neureka.h"

namespace edgesim {

// The per-state terms of the model for a block of k output channels (exposed for tests/docs).
struct Ne16Terms {
  int64_t load = 0, woffs = 0, mv = 0, upd = 0, nq = 0, so = 0;
  int64_t iter = 0;   // one (subtile, block): all input steps + nq + so
};
Ne16Terms ne16_terms(const NpuJob& job, const NpuSpec& npu, int64_t k);

NpuCost ne16_job_cost(const NpuJob& job, const NpuSpec& npu);

}  // namespace edgesim
