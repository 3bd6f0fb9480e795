// The autotuner for DIANA's accelerator layers (Node::engine "npu" with npu.impl soma, and
// "aimc"): the same chain as tuner.h — enumerate, rank, simulate the best K, keep the fastest —
// over the accelerator's own tiles:
//   enumerate  every feasible tile of the accelerator's rules (soma_candidates /
//              aimc_candidates, compiler/tiler/soma.cc, aimc.cc) in the layer's L2 slab
//   rank       diana_estimate: the tiles' jobs (kernels/soma, kernels/aimc cost models, the
//              array programmed when the output-channel tile changes) plus their DMA copies at
//              the DMA's rate, all serial as DORY-Diana runs them (x and y per tile, weights and
//              bias per output-channel tile into the digital weight memory)
//   simulate   the best K and the reference through the Evaluator (sim/tune: the layer alone)
// Reference (`dory`): the tile DORY-Diana's rules choose (the one `run` uses under dory); there
// is no Deeploy flow on DIANA (`deeploy` stays empty). tuned ≤ dory by construction, as for
// cluster layers.
#pragma once
#include "compiler/tune/tuner.h"

namespace edgesim {

// Whether the autotuner treats node n with this tuner (a DIANA accelerator layer).
bool is_diana_accel_layer(const Graph& g, int node, const PlatformSpec& spec);

// The estimate the candidates are ranked by (cycles of the layer step), see above.
int64_t diana_estimate(const LayerGeom& g, const LayerTiling& t, const PlatformSpec& spec, bool aimc);

LayerTuneResult tune_accel_layer(const Graph& g, int node, const TilingContext& ctx, const PlatformSpec& spec,
                                 const AnalyticContext& actx, const TuneOptions& opt);

}  // namespace edgesim
