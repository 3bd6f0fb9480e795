// tune_engines (engine_tune.h).
#include "compiler/tune/engine_tune.h"

#include <algorithm>


namespace edgesim {

namespace {

int64_t alone(const Graph& g, int node, const PlatformSpec& spec, const TuneOptions& opt, TuneCache& cache) {
  TilingContext ctx;
  ctx.graph = &g;
  ctx.spec = &spec;
  try {
    return tune_layer_cached(g, node, ctx, spec, network_context(g, spec), opt, cache).tuned_cycles;
  } catch (const TilingError&) {
    return -1;
  }
}

bool better(int64_t a, int64_t b) { return a >= 0 && (b < 0 || a < b); }

}  // namespace

std::vector<EngineChange> tune_engines(Graph& g, const PlatformSpec& spec, const std::vector<std::string>& engines,
                                       const TuneOptions& opt, TuneCache& cache) {
  std::vector<EngineChange> out;
  if (!opt.simulator) return out;
  // Engine: NPU or cluster, whichever the layer alone is faster on.
  for (int node : g.layer_nodes()) {
    Node& n = g.nodes[static_cast<size_t>(node)];
    if (n.engine != "npu" && n.engine != "cluster") continue;
    const std::string other = n.engine == "npu" ? "cluster" : "npu";
    if (std::find(engines.begin(), engines.end(), other) == engines.end() || !engine_rejects(g, node, other, spec).empty())
      continue;
    const int64_t here = alone(g, node, spec, opt, cache);
    Graph h = g;
    h.nodes[static_cast<size_t>(node)].engine = other;
    h.nodes[static_cast<size_t>(node)].wmem_weights = false;
    const int64_t there = alone(h, node, spec, opt, cache);
    if (!better(there, here)) continue;
    out.push_back({node, "engine", n.engine, other, here, there});
    n.engine = other;
    n.wmem_weights = false;
  }
  // Weights: the weight memory to the NPU layers that gain the most per byte, when it cannot
  // hold all of them (the engine pass's budget).
  if (!spec.wmem.present) return out;
  const int64_t b = spec.budgets.deeploy.present ? spec.budgets.deeploy.wmem : 0;
  const int64_t budget = b > 0 ? std::min(b, spec.wmem.size) : spec.wmem.size;
  struct Cand {
    int node;
    int64_t bytes, in_wmem, in_l2;
  };
  std::vector<Cand> npu;
  int64_t total = 0;
  for (int node : g.layer_nodes()) {
    const Node& n = g.nodes[static_cast<size_t>(node)];
    if (n.engine != "npu") continue;
    const int64_t bytes = npu_weight_geom_of(g, node, spec).bytes();
    total += bytes;
    npu.push_back({node, bytes, -1, -1});
  }
  if (total <= budget) {   // all fit: every NPU layer's weights in WMEM
    for (const Cand& c : npu) g.nodes[static_cast<size_t>(c.node)].wmem_weights = true;
    return out;
  }
  for (Cand& c : npu) {
    Graph h = g;
    h.nodes[static_cast<size_t>(c.node)].wmem_weights = true;
    c.in_wmem = alone(h, c.node, spec, opt, cache);
    h.nodes[static_cast<size_t>(c.node)].wmem_weights = false;
    c.in_l2 = alone(h, c.node, spec, opt, cache);
  }
  std::stable_sort(npu.begin(), npu.end(), [](const Cand& x, const Cand& y) {
    const double gx = static_cast<double>(x.in_l2 - x.in_wmem) / static_cast<double>(std::max<int64_t>(1, x.bytes));
    const double gy = static_cast<double>(y.in_l2 - y.in_wmem) / static_cast<double>(std::max<int64_t>(1, y.bytes));
    return gx > gy;
  });
  int64_t used = 0;
  for (const Cand& c : npu) {
    Node& n = g.nodes[static_cast<size_t>(c.node)];
    const bool wmem = used + c.bytes <= budget && better(c.in_wmem, c.in_l2);
    if (wmem) used += c.bytes;
    if (wmem != n.wmem_weights)
      out.push_back({c.node, "weights", n.wmem_weights ? "WMEM" : "L2", wmem ? "WMEM" : "L2",
                     n.wmem_weights ? c.in_wmem : c.in_l2, wmem ? c.in_wmem : c.in_l2});
    n.wmem_weights = wmem;
  }
  return out;
}

}  // namespace edgesim
