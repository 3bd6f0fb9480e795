// Schedule generation: turns a Graph plus one LayerTiling per layer node into a Schedule
// (compiler/schedule/schedule.h) for a platform, then allocates every buffer (planner.h).
//   single buffering: fully serial per tile (load, compute, store), as DORY's GAP8 board target
//   double buffering: load tile i+1 ‖ compute i ‖ store i−1; weights re-fetched only when the
//                     Cout tile changes (docs/schedule.md §4.2)
//   L3 slabs: layers whose L3Tiling is tiled stream input/output rows or weight Cout tiles
//             between L3 and L2 around the L2->L1 loop (docs/schedule.md §4.3)
// Non-layer nodes (reshape, concat, pad, requant, clip, transpose, quantize, dequantize) become
// one whole-tensor Compute in L2.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "kernels/ir/graph.h"
#include "compiler/schedule/schedule.h"
#include "compiler/tiler/tiling.h"
#include "platforms/loader/spec.h"

namespace edgesim {

struct ScheduleOptions {
  // "auto" (platform: budgets.dory.db; per layer for `tuned` tilings), "single", "double",
  // "per-layer" (each tiled step as its LayerTiling's l1.db: 1 single, 2 double)
  std::string buffering = "auto";
  // "auto": constants in L2 unless they overflow it (then all in L3); "l3": all in L3 from the
  // start when the platform has one (the autotuner mirrors a network's placement on one layer)
  std::string constants = "auto";
  // The network loop around the layers when constants live in L3 (docs/schedule.md §4.6):
  // "dory"      each layer's constants are copied L3 -> L2 with a blocking read before it
  //             (DORY's current network.c);
  // "dory-2020" the paper-era loop: layer i+1's constants are read asynchronously while layer i
  //             runs and waited before layer i+1, unless layer i is itself L3-tiled (then the
  //             read waits for it);
  // "auto"      dory-2020 under the dory-2021 policy (the tiler reserves L2 for the prefetch),
  //             dory otherwise.
  std::string network_loop = "auto";
};

// The L1 buffering "auto" means on a platform: budgets.dory.db (1 or 2), 2 without that section.
int auto_buffering(const PlatformSpec& spec);

// Throws std::runtime_error naming the step when a level overflows after allocation.
Schedule build_schedule(const Graph& g, const PlatformSpec& spec,
                        const std::vector<LayerTiling>& tilings, const ScheduleOptions& opt = {});

// Sibling pairs (NetTiling::sibling, build_siblings.cc): the sibling of layer node `a` (the next
// layer node that reads a's input; -1 none), and why `a` cannot run with it in one step under
// these tilings ("" when it can).
int sibling_of(const Graph& g, int a);
std::string check_siblings(const Graph& g, int a, const std::map<int, const LayerTiling*>& tiling_of);

}  // namespace edgesim
