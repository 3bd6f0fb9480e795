// The autotuner (docs/architecture.md "Data flow today", docs/tune.md): per layer, candidates flow
// down the chain
//   enumerate (candidate.h) -> rank by analytic cycles (analytic.h) -> simulate the best K and
//   the two reference flows through an Evaluator (evaluator.h) -> keep the fastest
// and the results flow back up to one reducer (the minimum simulated cycles; ties keep the
// earlier candidate). DORY's and Deeploy's own choices are always simulated and always among
// the candidates, so the tuned layer is never slower than the faster of the two *as evaluated
// here* (the same evaluator, the same network context). With an objective other than cycles
// (objective.h) the reducer minimises the simulated energy or energy x cycles instead, and the
// result keeps the fastest candidate's figures and one line saying why the choice differs.
//
// Reference figures per layer: `dory` = DORY's tiling run as DORY's flow runs it (its loop
// conventions, the platform's buffering); `deeploy` likewise with Deeploy's conventions; `tuned`
// = the best candidate in the tuned flow (DORY's loop, buffering chosen per layer).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "compiler/tune/evaluator.h"
#include "compiler/tune/l3_options.h"

namespace edgesim {

struct TuneOptions {
  size_t top_k = 8;                   // simulated candidates besides the references (base L3
                                      // decision; each other L3 decision: its best top_k / 2)
  size_t max_candidates = 0;          // cap of the enumeration (0 = none)
  Evaluator* simulator = nullptr;     // null: the analytic evaluator decides alone
  std::vector<std::string> engines;   // engines a layer may move to (engine_tune.h); empty: the platform's
  bool change_graph = true;           // the network level may reorder branches and move layers between engines
  std::string objective = "cycles";   // objective.h; energy/edp need an evaluator that gives energy
  // Called with one line per piece of work not taken from the cache ("[3/29] layer 'L02_pw' on
  // cluster", "network: ..."); the CLI prints it on stderr. Empty: silent.
  std::function<void(const std::string&)> progress;
};

// One L3 decision of a layer (l3_options.h) with its best simulated L1 tiling.
struct TunedOption {
  L3Option option;
  LayerTiling tiling;            // the best simulated candidate under this option
  int64_t cycles = -1;           // its simulated cycles (-1: no candidate feasible)
  int64_t analytic = -1;         // its analytic estimate
  double energy_pj = -1;         // its simulated energy (-1: not simulated); the option's best is by the objective
};

struct LayerTuneResult {
  int node = -1;
  std::string name;
  LayerTiling dory, deeploy, tuned;   // tuned.policy: a tuned flow (compiler/flows/tuned.cc)
  bool has_dory = false, has_deeploy = false;
  int64_t dory_cycles = -1, deeploy_cycles = -1, tuned_cycles = -1;   // -1: infeasible
  std::string evaluator;              // who produced the cycles: "analytic" or the simulator's name
  size_t ranked = 0;                  // candidates ranked analytically
  size_t simulated = 0;               // candidates simulated (incl. the references)
  double tau = 0;                     // Kendall tau, analytic vs simulated, over simulated candidates
                                      // of the base L3 decision (the choice of an L1 tile)
  // Per L3 decision tried (l3_options.h) with a feasible candidate: its best tiling; tuned is
  // the best of them for the layer alone. tau_l3: Kendall tau between the options' analytic and
  // simulated cycles (the choice of an L3 decision).
  std::vector<TunedOption> options;
  double tau_l3 = 1;
  bool cached = false;                // taken from the tune cache
  std::string objective = "cycles";   // what the choice minimised
  double tuned_energy_pj = -1;        // the tuned candidate's simulated energy (-1: not simulated)
  int64_t fastest_cycles = -1;        // the fastest tuned-flow candidate (= tuned under "cycles")
  double fastest_energy_pj = -1;
  std::string why;                    // when tuned is not the fastest: explain_choice(tuned, fastest)
};

// Tunes one layer (ctx.input_in_l3 as threaded by tile_graph). Throws TilingError when neither
// DORY nor Deeploy can tile it (the error of DORY's policy).
LayerTuneResult tune_layer(const Graph& g, int node, const TilingContext& ctx, const PlatformSpec& spec,
                           const AnalyticContext& actx, const TuneOptions& opt);

// The same for a layer on the NPU (npu_tune.cc): the NPU's own tiles under each L3 decision
// it may take (DORY's, the layer whole in L2, DORY's at the L1 sizes of kL1Ladder below the
// platform's; no weight streaming), one TunedOption each, as cluster layers have.
LayerTuneResult tune_npu_layer(const Graph& g, int node, const TilingContext& ctx, const PlatformSpec& spec,
                               const AnalyticContext& actx, const TuneOptions& opt);

// Network-level context of the evaluations: whether the network's constants end up in L3
// (their total with the largest layer's activations exceeds L2, as the schedule builder decides;
// NPU weights homed in the weight memory do not count).
AnalyticContext network_context(const Graph& g, const PlatformSpec& spec);

// Kendall's tau-a between two equally long lists (pairs with a tie in either count as neither
// concordant nor discordant); 1 for fewer than two elements.
double kendall_tau(const std::vector<int64_t>& a, const std::vector<int64_t>& b);

// L1 sizes (bytes) of a fixed ladder: what the tuner tries at a ladder size below the platform's
// L1 it tries with more L1 too (docs/tune.md "Monotone in memory"): DORY's L3 decisions there
// (tuner.cc) and the NPU tiles that rank best within the tuned L1 budget there (npu_tune.cc).
inline constexpr int64_t kL1Ladder[] = {16384,  24576,  32768,  40960,  49152,  57344,  65536,  81920,
                                        98304,  114688, 131072, 196608, 262144, 393216, 524288};

// Calls f(s) for each L1 size of kL1Ladder below spec's, smallest first, with s a copy of spec
// whose l1.size is that size.
template <class F>
void for_each_ladder_l1_below(const PlatformSpec& spec, F&& f) {
  PlatformSpec s = spec;
  for (int64_t l1 : kL1Ladder) {
    if (l1 >= spec.l1.size) break;
    s.l1.size = l1;
    f(std::as_const(s));
  }
}

// DORY's L3 decisions at the L1 sizes of kL1Ladder below the platform's, appended to `options`
// (kind "ladder") where no option has them yet: DORY's L3 search weighs whether a slab's L1
// tiling fits (dory_l3.cc), so with more L1 it may take another slab; what the tuner had at a
// ladder size it keeps with more L1 (docs/tune.md "Monotone in memory").
void add_dory_l3_below(std::vector<L3Option>& options, const LayerGeom& geom, const TilingContext& ctx,
                       const PlatformSpec& spec);

}  // namespace edgesim
