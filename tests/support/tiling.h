// Tilings of a graph under any policy name, for tests that loop over policies: tile_graph, and for
// `tuned` (which has no tiler of its own) the autotuner's plan for the graph as given, analytic,
// without a network evaluator and with no cache file, tiled through tile_graph's driver as the
// compile pipeline tiles it (compiler/pipeline/compile.cc). A plan that would move nodes or
// engines is tuned again with the graph kept as it is, so the tilings fit g unchanged.
#pragma once
#include <string>
#include <vector>

#include "compiler/tiler/plan_policy.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "compiler/tune/cache.h"
#include "compiler/tune/network_tune.h"

namespace edgesim::test {

inline std::vector<LayerTiling> tile_for(const Graph& g, const PlatformSpec& spec, const std::string& policy,
                                         int buffering = 0) {
  if (policy != "tuned") return tile_graph(g, spec, policy, buffering);
  TuneOptions opt;
  opt.change_graph = true;
  TuneCache cache("");
  NetworkTuneResult r = tune_network(g, spec, opt, nullptr, cache);
  bool same = r.engines.size() == g.nodes.size();
  for (size_t k = 0; same && k < g.nodes.size(); ++k)
    same = r.engines[k].first == g.nodes[k].engine && r.engines[k].second == g.nodes[k].wmem_weights &&
           r.order.at(k) == static_cast<int>(k);
  if (!same) {
    opt.change_graph = false;
    r = tune_network(g, spec, opt, nullptr, cache);
  }
  return tile_graph(g, spec, *make_plan_policy("tuned", r.tilings), buffering);
}

}  // namespace edgesim::test
