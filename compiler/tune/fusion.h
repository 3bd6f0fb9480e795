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
#include <functional>
#include <utility>
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

// Shared by the depth-first and the sibling pairs (siblings.h):
// Input rows [start, start + n) that output rows [o0, o0 + no) of a kernel k, stride s, dilation
// d and leading padding pad read from an input of `in` rows (build_params.cc's window).
std::pair<int64_t, int64_t> input_window(int64_t o0, int64_t no, int64_t k, int64_t s, int64_t d, int64_t pad, int64_t in);
// L1 bytes of a conv's per-channel constant vectors (4 B per entry of each vector longer than one).
int64_t conv_const_bytes(const ConvParams& p);
// The candidate tiles of a pair's output (rows 1..16 and the divisors of its H, columns W, W/2,
// W/4, W/8; single and double buffered) whose footprint(h, w, db) fits `budget`, largest first
// (double buffering first among equals).
struct PairTile {
  int64_t h = 0, w = 0;
  int db = 1;
};
std::vector<PairTile> pair_tiles(const Shape& ys, const std::function<int64_t(int64_t, int64_t, int)>& footprint,
                                 int64_t budget);
// Simulates the pair network: plans[0] apart, plans[k] with tiles[k - 1]; fills f.apart,
// f.simulated, f.est / f.sim, and f.fused / f.p / f.c with the fastest tiled plan (its two
// tilings given back the nodes f.producer and f.consumer). True when it beats the pair apart.
bool evaluate_pair(FusionChoice& f, const Graph& pair, const std::vector<NetPlan>& plans,
                   const std::vector<PairTile>& tiles, const PlatformSpec& spec, NetworkEvaluator& net);

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
