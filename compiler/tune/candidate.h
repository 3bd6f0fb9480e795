// Candidates of the autotuner (`compiler/tune`, docs/tune.md): the tilings one
// layer may get. The chain is: enumerate (this file) -> rank with the analytic cost
// (analytic.h) -> simulate the best K through an Evaluator (evaluator.h) -> keep the fastest
// (tuner.h). The L3 -> L2 decision is taken from a base policy and kept; candidates differ in
// the L2 -> L1 tile and the L1 buffering.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/ir/graph.h"
#include "compiler/tiler/footprint.h"
#include "compiler/tiler/policy.h"
#include "compiler/tiler/tiling.h"
#include "platforms/loader/spec.h"

namespace edgesim {

struct Candidate {
  LayerTiling tiling;            // tiling.l1.db: 1 = single-buffered step, 2 = double-buffered
  std::string origin;            // "dory", "deeploy" (a policy's own choice) or "enum"
};

// Every legal L2 -> L1 tiling of layer `node` with the L3 decision of `base`: output tiles
// (n_out, h_out, w_out) from per-dimension candidate lists, db 1 and 2, whose l1_footprint fits
// the budget `l1_budget`; partial-sum tilings are never produced (the kernels requantise every
// output). At most `max` candidates (0 = no limit), the largest tiles first.
std::vector<Candidate> enumerate_candidates(const Graph& g, int node, const LayerTiling& base,
                                            const PlatformSpec& spec, int64_t l1_budget, size_t max = 0);

}  // namespace edgesim
