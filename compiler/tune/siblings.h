// Horizontal fusion in the tuner (docs/tune.md "Sibling layers"; the schedule side is
// compiler/schedule/build_siblings.cc): which sibling convs of a tuned chain — a conv and the next
// layer node that reads the same input with the same window geometry — run as one step, each
// input tile loaded once, and with which tile.
//   pairs       check_siblings (build.h) under the chain's tilings: both cluster convs, the same
//               kernel / stride / dilation / padding and output rows x columns, neither L3-tiled,
//               streaming its weights or fused with its consumer;
//   candidates  output rows x columns as for depth-first fusion (rows 1..16 and the divisors of
//               H, columns W, W/2, W/4, W/8; all channels of both), single and double buffered,
//               whose L1 footprint (sibling_l1_footprint, the builder's buffers) fits the tuned
//               L1 budget, largest tiles first;
//   evaluation  the pair as a network of its own (chain_subgraph), simulated as siblings with the
//               best few candidates and apart with the chain's tilings, in the network's
//               constants placement. A pair is offered to the network plans when it gains.
#pragma once
#include <cstdint>
#include <vector>

#include "compiler/tune/fusion.h"

namespace edgesim {

// L1 bytes of the sibling step of a and b with output tiles of h rows x w columns (all channels)
// and buffering db, as the schedule builder allocates them.
int64_t sibling_l1_footprint(const Graph& g, int a, int b, int64_t h, int64_t w, int db);

// The sibling pairs of `chain` worth running as one step: per pair (producer = the first,
// consumer = its sibling) the best sibling tilings when they beat the pair apart.
std::vector<FusionChoice> tune_siblings(const Graph& g, const PlatformSpec& spec, const std::vector<LayerTiling>& chain,
                                        bool consts_l3, NetworkEvaluator& net, size_t per_pair);

}  // namespace edgesim
