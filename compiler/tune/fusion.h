// Depth-first layer fusion in the tuner (docs/tune.md "Fusion"; the schedule side is
// compiler/schedule/build_fused.cc): which producer / consumer conv pairs of a tuned chain can
// run as one step with the intermediate kept in L1, and with which tile.
//   pairs       a cluster conv whose output only the next layer node reads, that next layer a
//               cluster conv; neither streaming its weights;
//   candidates  the consumer's output rows x columns (rows 1..16 and the divisors of H, columns
//               W, W/2, W/4, W/8; all channels), single and double buffered, whose L1 footprint
//               (fused_l1_footprint, the builder's buffers) fits the tuned L1 budget, largest
//               tiles first;
//   evaluation  the pair as a network of its own (chain_subgraph), simulated fused with the best
//               few candidates and unfused with the chain's tilings, in the network's constants
//               placement. A pair is offered to the network plans when fused beats unfused.
#pragma once
#include <cstdint>
#include <vector>

#include "compiler/tune/net_evaluator.h"
#include "compiler/tune/tuner.h"

namespace edgesim {

struct FusionChoice {
  int producer = -1, consumer = -1;
  size_t p_index = 0, c_index = 0;   // positions of the two layers in the chain
  LayerTiling p, c;                  // the fused tilings (p.net.fuse)
  int64_t fused = -1, apart = -1;    // the pair alone: fused (best candidate), and unfused
  size_t candidates = 0, simulated = 0;
  std::vector<int64_t> est, sim;     // per simulated candidate: the rank proxy (-volume) and cycles
};

// L1 bytes of the fused step of producer p and consumer c with the consumer's output tiles of
// h rows x w columns (all channels) and buffering db, as the schedule builder allocates them.
int64_t fused_l1_footprint(const Graph& g, const PlatformSpec& spec, int p, int c, int64_t h, int64_t w, int db);

// Graph of the given nodes of g in order: tensors they read that no node of the list writes
// become graph inputs (constants stay constants), tensors read by no node of the list or that
// are outputs of g become graph outputs.
Graph chain_subgraph(const Graph& g, const std::vector<int>& nodes);

// The pairs of `chain` (one tuned result per layer node, in order) worth fusing: per pair the
// best fused tiling when it beats the pair unfused. `consts_l3`: the plans' constant placement.
std::vector<FusionChoice> tune_fusion(const Graph& g, const PlatformSpec& spec, const std::vector<LayerTiling>& chain,
                                      bool consts_l3, NetworkEvaluator& net, size_t per_pair);

}  // namespace edgesim
