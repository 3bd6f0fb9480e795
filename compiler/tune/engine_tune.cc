// tune_engines (engine_tune.h).
#include "compiler/tune/engine_tune.h"

#include <algorithm>
#include <limits>


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

// The layer alone on `engine` with its weights in WMEM or not (one simulated tuning each).
int64_t alone_on(const Graph& g, int node, const std::string& engine, bool wmem, const PlatformSpec& spec,
                 const TuneOptions& opt, TuneCache& cache) {
  Graph h = g;
  h.nodes[static_cast<size_t>(node)].engine = engine;
  h.nodes[static_cast<size_t>(node)].wmem_weights = wmem;
  return alone(h, node, spec, opt, cache);
}

}  // namespace

std::vector<bool> wmem_keep(const std::vector<WmemItem>& items, int64_t budget) {
  std::vector<bool> keep(items.size(), false);
  int64_t total = 0;
  std::vector<size_t> in;   // the layers that gain
  for (size_t i = 0; i < items.size(); ++i)
    if (items[i].gain > 0) in.push_back(i), total += items[i].bytes;
  if (total <= budget) {
    for (size_t i : in) keep[i] = true;
    return keep;
  }
  // Leave out the set of least summed gain whose bytes cover the excess: a covering knapsack on
  // bytes in units of `unit` (at most ~64 Ki states), an item's bytes rounded down and the
  // excess up, so the layers kept always fit.
  const int64_t excess = total - budget;
  const int64_t unit = std::max<int64_t>(4, (excess + 65535) / 65536);
  const size_t need = static_cast<size_t>((excess + unit - 1) / unit);
  constexpr int64_t kInf = std::numeric_limits<int64_t>::max();
  // best[k][c]: the least gain left out among the first k items covering at least c units.
  std::vector<std::vector<int64_t>> best(in.size() + 1, std::vector<int64_t>(need + 1, kInf));
  best[0][0] = 0;
  for (size_t k = 0; k < in.size(); ++k) {
    const WmemItem& it = items[in[k]];
    const size_t w = static_cast<size_t>(it.bytes / unit);
    for (size_t c = 0; c <= need; ++c) {
      best[k + 1][c] = best[k][c];
      const int64_t from = best[k][c > w ? c - w : 0];
      if (from != kInf && from + it.gain < best[k + 1][c]) best[k + 1][c] = from + it.gain;
    }
    for (size_t c = need; c-- > 0;) best[k + 1][c] = std::min(best[k + 1][c], best[k + 1][c + 1]);
  }
  if (best[in.size()][need] == kInf) return keep;   // nothing covers it: every layer's weights in L2
  for (size_t i : in) keep[i] = true;
  size_t c = need;
  for (size_t k = in.size(); k-- > 0 && c > 0;) {
    if (best[k + 1][c] == best[k][c]) continue;   // item k kept
    keep[in[k]] = false;
    const size_t w = static_cast<size_t>(items[in[k]].bytes / unit);
    c = c > w ? c - w : 0;
  }
  return keep;
}

std::vector<EngineChange> tune_engines(Graph& g, const PlatformSpec& spec, const std::vector<std::string>& engines,
                                       const TuneOptions& opt, TuneCache& cache) {
  std::vector<EngineChange> out;
  if (!opt.simulator) return out;
  const bool wmem_on = spec.wmem.present && npu_encoded(spec);
  const int64_t b = spec.budgets.deeploy.present ? spec.budgets.deeploy.wmem : 0;
  const int64_t budget = !wmem_on ? 0 : b > 0 ? std::min(b, spec.wmem.size) : spec.wmem.size;
  auto home = [](const Node& n) { return n.engine != "npu" ? std::string() : n.wmem_weights ? "WMEM" : "L2"; };
  // Per layer both engines may run: the NPU with its weights in WMEM (when they fit the weight
  // memory alone) and in L2, and the cluster; simulated alone each.
  struct Cand {
    int node = -1;
    int64_t bytes = 0, in_wmem = -1, in_l2 = -1, cluster = -1;
    std::string engine0, home0;
    int64_t cycles0 = -1;
  };
  std::vector<Cand> cands;
  for (int node : g.layer_nodes()) {
    const Node& n = g.nodes[static_cast<size_t>(node)];
    if (n.engine != "npu" && n.engine != "cluster") continue;
    auto allowed = [&](const std::string& e) {
      return n.engine == e ||
             (std::find(engines.begin(), engines.end(), e) != engines.end() && engine_rejects(g, node, e, spec).empty());
    };
    if (!allowed("npu")) continue;
    Cand c;
    c.node = node;
    c.engine0 = n.engine, c.home0 = home(n);
    c.cycles0 = alone(g, node, spec, opt, cache);
    c.in_l2 = alone_on(g, node, "npu", false, spec, opt, cache);
    if (wmem_on) {
      c.bytes = (npu_weight_geom_of(g, node, spec).bytes() + 3) / 4 * 4;   // as the engine pass counts them
      if (c.bytes <= budget) c.in_wmem = alone_on(g, node, "npu", true, spec, opt, cache);
    }
    if (allowed("cluster")) c.cluster = alone_on(g, node, "cluster", false, spec, opt, cache);
    cands.push_back(c);
  }
  // The weight memory to the NPU layers that gain from it (against their best other choice: the
  // NPU with weights in L2, or the cluster), the layers left out the ones that lose the fewest
  // cycles while the rest fit (wmem_keep).
  std::vector<WmemItem> items;
  for (const Cand& c : cands) {
    const int64_t other = better(c.cluster, c.in_l2) ? c.cluster : c.in_l2;
    const bool gains = c.in_wmem >= 0 && better(c.in_wmem, other);
    items.push_back({c.bytes, !gains ? -1 : other < 0 ? int64_t{1} << 50 : other - c.in_wmem});
  }
  const std::vector<bool> keep = wmem_keep(items, budget);
  for (size_t i = 0; i < cands.size(); ++i) {
    const Cand& c = cands[i];
    Node& n = g.nodes[static_cast<size_t>(c.node)];
    int64_t cyc = -1;
    if (keep[i]) {
      n.engine = "npu", n.wmem_weights = true, cyc = c.in_wmem;
    } else if (better(c.cluster, c.in_l2)) {
      n.engine = "cluster", n.wmem_weights = false, cyc = c.cluster;
    } else if (c.in_l2 >= 0) {
      n.engine = "npu", n.wmem_weights = false, cyc = c.in_l2;
    } else {
      continue;   // nothing simulated runs it: as the engine pass left it
    }
    if (n.engine != c.engine0)
      out.push_back({c.node, "engine", c.engine0 + (c.home0.empty() ? "" : " (" + c.home0 + ")"),
                     n.engine + (home(n).empty() ? "" : " (" + home(n) + ")"), c.cycles0, cyc});
    else if (home(n) != c.home0)
      out.push_back({c.node, "weights", c.home0, home(n), c.cycles0, cyc});
  }
  std::stable_sort(out.begin(), out.end(), [](const EngineChange& x, const EngineChange& y) { return x.node < y.node; });
  return out;
}

}  // namespace edgesim
