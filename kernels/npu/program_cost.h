// NPU programming cost: the cycles the controlling cluster core spends around the engine's own
// work, as the deployment's generated code and the pulp-nnx driver drive it. Per job (one tile):
//   npu.cfg_cycles   = fill the task descriptor (the template's struct, zeroed by memset, ~40
//                      stores, the subtile counters packed by calls), then the driver's
//                      dispatch_wait / dispatch (acquire, copy of the descriptor's words into the
//                      job registers, trigger) / resolve_wait (status polled, sleep on the job-end
//                      event), the second check of the tile's DMA waits, the register accesses'
//                      interconnect latency, the driver's loads of its device descriptor from L2
//                      and the event-unit wake-ups;
// and once per layer, on the layer's first job:
//   npu.layer_cycles = the layer's set-up code (closure plumbing, L1/L2 arena pointers read from
//                      L2, tile-loop bounds) and the cold instruction fetch of the layer's code: a
//                      network runs each layer's generated code once, so every I-cache line of it
//                      misses (refilled from L2 through both cache levels).
// The values are counts, not fits: docs/npu.md "Programming cost" derives GAP9's (NE16 under
// Deeploy and pulp-nnx, GVSoC's core timing) term by term. The DMA commands of the tile loop are
// not in these terms: they are the cluster DMA's issue jobs (kernels/dma/cost.h).
// Pure function of the platform's npu section.
#pragma once
#include <cstdint>

#include "platforms/loader/spec.h"

namespace edgesim {

// Programming cycles of one NPU job: cfg_cycles, plus layer_cycles when it is its layer's first.
int64_t npu_program_cycles(const NpuSpec& npu, bool first_of_layer);

}  // namespace edgesim
