// Tiling policies: a named rule set that picks one LayerTiling per layer node (docs/tiling.md, one
// section per policy).
//   dory       DORY's current formulation: budgets, constraints, objective, tie-break
//   dory-2021  the 2021 code line behind DORY's published GAP8 results
//   deeploy    largest tiles that fit per memory level, with its buffer coefficients
//   untiled    no tiling: every layer runs from L2 (Deeploy's untiled Siracusa flow)
// Policies are exact searches (enumeration with pruning) written in C++; no CP solver.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "kernels/ir/graph.h"
#include "compiler/tiler/tiling.h"
#include "platforms/loader/spec.h"

namespace edgesim {

struct TilingContext {
  const Graph* graph = nullptr;
  const PlatformSpec* spec = nullptr;
  bool input_in_l3 = false;      // DORY: the previous node's output was L3-tiled
  // The L1 buffering the schedule will use: 0 the policy's own (auto), 1 single, 2 double.
  // Policy deeploy sizes its tiles for it, as Deeploy's test flow picks its tiler by it
  // (SBTiler: every buffer coefficient 1; DBTiler: 2; [9] testMVP.py, testUtils/tilingUtils.py).
  int buffering = 0;
  // Bytes the policy deducts from its L1 budget: tile_graph's re-tiling when the allocator's
  // 8-byte-aligned placement of a tile's buffers exceeds what the policy counted (docs/tiling.md).
  int64_t l1_slack = 0;
};

class TilingPolicy {
 public:
  virtual ~TilingPolicy() = default;
  virtual std::string name() const = 0;
  // Picks the tiling of one layer; throws TilingError (naming the layer and the smallest budget
  // that would work) when none is feasible.
  virtual LayerTiling tile(const LayerGeom& g, const TilingContext& ctx) const = 0;
};

// Usable memory budgets and buffering of a policy on a platform (docs/tiling.md "Budgets"):
// the one place that knows them; the schedule builder and the CLI read them from here.
struct Budgets {
  int64_t l1 = 0, l2 = 0, l3 = 0;   // l3 = 0: the platform has no L3 (no L3->L2 tiling)
  int db = 2;          // L1 (and L3->L2) buffering factor of the policy
  int nc = 8;          // cores the kernels are parallelised over (im2col buffers)
  // dory-2021 only (docs/tiling.md, DORY c7cca89 Model_deployment.py): the 2021 L3 rules, and the
  // L2 bytes this layer's weights may occupy (db_W included) when the previous layer reserved
  // only half of the L2 buffer for them (0: no cap).
  bool v2021 = false;
  int64_t w_cap = 0;
  // The policy's layer template waits for every L2<->L1 transfer of a depthwise layer before it
  // goes on (no overlap with compute, whatever the buffers): DORY's 2021 template gathers the
  // next tile's input channel by channel with a wait after each command, copies the weights and
  // stores the output with blocking copies (dory-2021: DORY c7cca89 layer_template.c, flag_DW).
  bool dw_blocking = false;
  // The flow runs its layout ops (Concat, Transpose) through L1 as it runs every other op: inputs
  // copied L2 -> L1, the kernel on L1, the output copied back (deeploy: [60]
  // Targets/PULPOpen/Tiler.py binds them with TilingReadyNodeBindings); otherwise they run once
  // over their L2 homes.
  bool layout_ops_in_l1 = false;
  // dory-2021, a layer whose input comes from L3 (the previous layer wrote its output there): the
  // L2 left for its input slabs (db_x included) — what remains of the buffer after the previous
  // layer's reservation, input and weights — and for its output slabs + weights + κ/λ
  // (DORY c7cca89 input_dim_constraint / output_weights_dim_constraint). 0: no cap.
  int64_t l3_in_cap = 0, l3_ow_cap = 0;
  // Deeploy's own NE16 rules for its 3x3 layers' tiles (compiler/tiler/ne16_deeploy.h), applied
  // by the NPU tiler (npu.cc) under flow deeploy.
  bool ne16_deeploy_rules = false;
};

// TilingContext::buffering of a schedule option ("single" 1, "double" 2, anything else 0).
int tiling_buffering(const std::string& schedule_buffering);

// The flows (compiler/flows/flow.h) own the budgets, the tiler of each name and the whole-graph
// driver tile_graph.

}  // namespace edgesim
