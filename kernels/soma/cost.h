// Cost of one SOMA job (DIANA's digital accelerator, npu.impl soma): one L1 tile dispatched by the
// host. Structural model of docs/diana.md "Digital accelerator (SOMA)", **uncalibrated** (no public
// cycle measurement): an output-stationary array of pe_k (16) output channels × pe_ox (16) output
// columns reducing over C, FY, FX in time [17], [18]:
//   conv       T_c = ⌈K/pe_k⌉ · ⌈OX/pe_ox⌉ · OY · C · FY · FX
//   depthwise  T_c = ⌈C/pe_k⌉ · ⌈OX/pe_ox⌉ · OY · pe_k · FY · FX     (weights expanded ×16: each
//              channel's filter occupies a full row of the array, DORY-Diana's layout [12])
//   dense      T_c = rows · ⌈K/pe_k⌉ · C                              (OX = 1: pe_k of 256 PEs busy)
//   add        T_c = ⌈elements / add_elems_per_cycle⌉                  (L_add unknown: a parameter)
//   pool       T_c = C · OY · ⌈OX/pool_ox⌉ · ⌈FX/pool_fx⌉ · ⌈FY/pool_fy⌉  (pooling unit 16 OX × 2 × 2 [18])
//   per job    T = T_c + npu.cfg_cycles                                (T_cfg: descriptor writes, start)
// The DMA term of the per-tile max(T_c, bytes/8 + 10) is not here: the schedule's DMA commands
// carry it (DORY-Diana waits for each transfer, so the two add up). Utilisation = K·OX /
// (pe_k⌈K/pe_k⌉ · pe_ox⌈OX/pe_ox⌉) for conv. Throws std::invalid_argument for a non-positive extent
// or a platform whose npu is not soma.
#pragma once
#include <cstdint>
#include <string>

#include "platforms/loader/spec.h"

namespace edgesim {

enum class SomaOp { Conv, Depthwise, Dense, Add, Pool };
const char* soma_op_name(SomaOp op);   // "conv", "depthwise", "dense", "add", "pool"

struct SomaJob {
  SomaOp op = SomaOp::Conv;
  int64_t k = 1, c = 1;          // output / input channels (depthwise, pool: k = c)
  int64_t ox = 1, oy = 1;        // output columns and rows of the tile
  int64_t fx = 1, fy = 1;        // kernel (pool window) width and height
  int64_t rows = 1;              // dense: input vectors
  int64_t elements = 0;          // add: output elements
};

struct SomaCost {
  int64_t compute = 0;           // T_c
  int64_t config = 0;            // T_cfg
  int64_t cycles = 0;            // T_c + T_cfg
  int64_t macs = 0;              // useful MACs (0 for add and pool)
  double utilisation = 0;        // useful PE cycles / (256 · T_c); add, pool: 0
  std::string kernel;            // "soma_conv", "soma_depthwise", ...
};

SomaCost soma_job_cost(const SomaJob& job, const NpuSpec& npu);

}  // namespace edgesim
