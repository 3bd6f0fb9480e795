// Tiler internals shared by the policy files: per-policy budgets, candidate lists of one
// spatial dimension, the exact branch-and-bound search over (channels, rows, columns), and
// helpers for slabs, labels and the minimal-budget search. Not a public header.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "compiler/tiler/policy.h"
#include "compiler/tiler/tiling.h"

namespace edgesim {

Budgets dory_policy_budgets(const PlatformSpec& spec);
// dory-2021: DORY's L1 budget (budgets.dory.l1 = its --l1_buffer_size, which the 2021 code line
// took as given), db = 2, L2 reduced by the next conv/FC layer's weights and κ/λ (at most half of
// the L2 budget).
Budgets dory2021_policy_budgets(const PlatformSpec& spec, const Graph* g, int node);
Budgets deeploy_policy_budgets(const PlatformSpec& spec);
// Deeploy's tiler's budgets: layout ops through L1, and the L1 buffering it sizes its tiles for
// (TilingContext::buffering: 1 single, 2 double; else its own).
Budgets deeploy_tiler_budgets(const PlatformSpec& spec, int buffering);

int64_t bits_to_bytes(int64_t elems, int64_t bits);                 // ⌈elems·bits/8⌉
inline int64_t fl8(int64_t bits) { return bits / 8; }                // ⌊bits/8⌋
inline int64_t keff(int64_t k, int64_t d) { return (k - 1) * d + 1; }   // dilated kernel extent
inline int64_t min_bits_mb(const LayerGeom& g) {                    // DORY's mb = 8/min(bits)
  const int m = std::min({g.bx, g.by, g.bw});
  return m >= 8 ? 1 : 8 / m;
}

// "layer 3 'Conv_12' (conv 3x3, 64->128, 32x32 -> 32x32)"
std::string layer_label(const Graph* g, const LayerGeom& geom);

// The geometry of one L2 slab of an L3-tiled layer: Cout = slab channels, rows = slab rows
// (interior slab: no H padding, input rows = (h_out − 1)·sh + keh).
LayerGeom slab_geom(const LayerGeom& g, const L3Tiling& t);

// Candidate (input extent, output extent) pairs of one dimension, ascending in both.
struct DimCands {
  std::vector<int64_t> in, out;
  size_t size() const { return in.size(); }
  void add(int64_t i, int64_t o) { in.push_back(i); out.push_back(o); }
};

// The winner of a search: indices into the candidate lists, its objective and memory.
struct Pick {
  bool found = false;
  size_t c = 0, h = 0, w = 0;
  int64_t J = 0, mem = 0;
};

// Exact maximisation of obj over chans × H × W with mem ≤ budget, tie-break: the
// lexicographically smallest index triple (c, h, w) among those with maximal obj — the result
// of DORY's smallest-first, strict-improvement enumeration. mem must be non-decreasing in each
// index. ub_c(c, mcap) bounds obj over all (h, w) of c with mem ≤ mcap; ub_h(c, h, mcap) over
// all w of (c, h). Subtrees whose bound is below the incumbent are skipped.
Pick search_max(size_t nc, const DimCands& H, const DimCands& W, int64_t budget,
                const std::function<int64_t(size_t, size_t, size_t)>& mem,
                const std::function<int64_t(size_t, size_t, size_t, int64_t)>& obj,
                const std::function<int64_t(size_t, int64_t)>& ub_c,
                const std::function<int64_t(size_t, size_t, int64_t)>& ub_h);

// Result of one L2->L1 rule set on one slab: the tile (if any) and the smallest L1 budget
// under which the same rules find one (always computed; -1 if none exists).
struct L1Result {
  std::optional<L1Tiling> tile;
  int64_t min_budget = -1;
  int64_t reported = -1;        // dory-2021 "Total L1 occupation"
};

// Shared L1 building blocks (dory_l1.cc).
std::vector<int64_t> channel_cands(int64_t c, int64_t mult);          // mult, 2·mult, ... ≤ c
// (in, out) pairs of one dimension under DORY's equalities: out·s = in − (ke − 1) + (s − 1)
// + pads·[in = full]; `align` adds (in − ke) mod s = 0.
DimCands dim_cands(int64_t n_in, int64_t n_out, int64_t k, int64_t d, int64_t s, int64_t pads, bool align);
DimCands whole(int64_t in, int64_t out);
L1Tiling whole_tile(const LayerGeom& s, int64_t bytes);
L1Tiling pick_tile(const Pick& p, const std::vector<int64_t>& ch, const DimCands& H, const DimCands& W,
                   int64_t n_in, int db);

// mem_pads: the pt + pb DORY's memory terms use (the layer's, also for an L3 slab whose
// geometry has no padding); -1 = the slab's own.
L1Result dory_l1(const LayerGeom& s, const Budgets& b, int64_t mem_pads = -1);
L1Result dory2021_l1(const LayerGeom& s, const Budgets& b, int64_t mem_pads = -1);

// DORY's L3->L2 decision (docs/tiling.md). Returns the decision or an error text in *why.
std::optional<L3Tiling> dory_l3(const LayerGeom& g, const Budgets& b, bool input_in_l3,
                                std::string* why);

// Layers assigned to the NPU (Node::engine == "npu"): keeps the policy's L3 decision in `base`
// and replaces its L1 tile by the NPU's (npu.cc). Throws TilingError when no tile fits b.l1.
LayerTiling npu_tile(const LayerGeom& g, const TilingContext& ctx, LayerTiling base, const Budgets& b);
// Every NPU L1 tile of the layer's L2 slab (base's L3 decision) that fits b.l1, with npu_tile's
// cycle estimate: the whole slab single-buffered first (when it fits), then the candidate tiles
// with b.db (all_bufferings: with double and single buffering). min_l1: the smallest footprint.
struct NpuTileCandidate {
  L1Tiling l1;
  double estimate = 0;
};
std::vector<NpuTileCandidate> npu_tile_candidates(const LayerGeom& g, const TilingContext& ctx, const LayerTiling& base,
                                                  const Budgets& b, bool all_bufferings, int64_t* min_l1 = nullptr);

// DIANA's accelerators (Node::engine "npu" with npu.impl soma, and "aimc"): the policy's L3
// decision in `base`, DORY-Diana's L1 rules for the tile (soma.cc, aimc.cc).
LayerTiling soma_tile(const LayerGeom& g, const TilingContext& ctx, LayerTiling base, const Budgets& b);
LayerTiling aimc_tile(const LayerGeom& g, const TilingContext& ctx, LayerTiling base, const Budgets& b);
// Every feasible L1 tile of the same rules in `base`'s L3 slab (the autotuner's candidates).
std::vector<L1Tiling> soma_candidates(const LayerGeom& g, const TilingContext& ctx, const LayerTiling& base,
                                      const Budgets& b);
std::vector<L1Tiling> aimc_candidates(const LayerGeom& g, const TilingContext& ctx, const LayerTiling& base,
                                      const Budgets& b);

std::unique_ptr<TilingPolicy> make_dory_policy(bool v2021);
std::unique_ptr<TilingPolicy> make_deeploy_policy();
std::unique_ptr<TilingPolicy> make_untiled_policy();

// Smallest value v in [lo, ...) with ok(v), by doubling then bisection (assumes ok is
// monotone from some point on). -1 if none up to 2^40.
int64_t min_feasible(const std::function<bool(int64_t)>& ok, int64_t lo);

}  // namespace edgesim
