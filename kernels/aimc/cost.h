// Cost of one job of DIANA's analog in-memory core (aimc.impl diana_aimc): one L1 tile of a
// ternary-weight convolution, weight-stationary in a rows × cols (1152 × 512) array of ternary
// cells [17]. Structural model of docs/diana.md "Analog core (AIMC)", **uncalibrated** (t_mvm has
// no public figure):
//   unroll   output columns computed per array pass, DORY-Diana's `ox_unroll` [71] (Diana_SoC
//            conv template): u = 1, doubled at most twice while u·2·K ≤ cols and the unrolled
//            receptive field C·FY·(FX + (2u − 1)·S) ≤ rows (the template assumes S = 1)
//   compute  T_c = OY · ⌈OX/u⌉ · ⌈C·FY·(FX + (u−1)·S) / rows⌉ · ⌈K·u / cols⌉ · aimc.mvm_cycles
//   program  (only when the array does not hold this job's weights) the used cells, 2 bits each,
//            streamed from L2: T_p = ⌈cells·2/8 / min(cluster.dma.bytes_per_cycle,
//            l1_wana.bw_bytes_per_cycle)⌉ + cluster.dma.l2_latency (when fidelity.dma_ext_latency)
//   per job  T = T_p + T_c + aimc.cfg_cycles
// Activations move by the schedule's DMA commands (L2 ↔ L1), not here. The digital
// post-processing (offset, shift, clip) is pipelined behind the ADCs and adds no cycles.
// Throws std::invalid_argument for a non-positive extent or a platform without aimc.
#pragma once
#include <cstdint>

#include "platforms/loader/spec.h"

namespace edgesim {

struct AimcJob {
  int64_t c = 1, k = 1;          // input / output channels of the tile
  int64_t fx = 1, fy = 1;        // kernel
  int64_t stride = 1;            // horizontal stride
  int64_t ox = 1, oy = 1;        // output columns / rows of the tile
  bool program = false;          // the weights must be (re)written into the array first
};

struct AimcCost {
  int64_t unroll = 1;            // output columns per pass
  int64_t rows = 0, cols = 0;    // array cells used (rows × cols)
  int64_t passes = 0;            // array evaluations
  int64_t compute = 0;           // T_c
  int64_t program = 0;           // T_p (0 when the weights are resident)
  int64_t program_bytes = 0;     // bytes written into the array (0 when resident)
  int64_t config = 0;            // aimc.cfg_cycles
  int64_t cycles = 0;            // T_p + T_c + config
  int64_t macs = 0;
};

AimcCost aimc_job_cost(const AimcJob& job, const PlatformSpec& p);

}  // namespace edgesim
