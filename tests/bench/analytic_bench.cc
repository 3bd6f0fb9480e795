// edgesim_bench_analytic: how fast the autotuner's analytic cost ranks candidates. For every
// layer of MobileNetV1-128 on a platform (default gap8) all candidates are enumerated around
// the dory policy's L3 decision (budget: the tuned policy's L1), then analytic_cycles is timed
// over all of them (std::chrono::steady_clock, best of --reps runs, default 3, one core).
// Prints candidates per second overall and the slowest layers. Not a test: no thresholds,
// exit 1 only on errors.
//
// Usage: edgesim_bench_analytic [--reps N] [--platform FILE] [model.onnx]
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "compiler/frontend/import.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "compiler/tune/analytic.h"
#include "compiler/tune/candidate.h"
#include "platforms/loader/loader.h"

#include "bench_util.h"

using namespace edgesim;
using bench::best_ms;
using bench::peak_rss_kib;

int main(int argc, char** argv) {
  const bench::Args args = bench::parse_args(argc, argv, 3);
  const int reps = args.reps;
  const std::string& platform = args.platform;
  const std::string& model = args.model;
  try {
    const PlatformSpec spec = load_platform(platform);
    const Graph g = import_onnx(model);
    const std::vector<LayerTiling> base = tile_graph(g, spec, "dory");
    const int64_t budget = policy_budgets(spec, "tuned").l1;
    AnalyticContext ctx;
    ctx.consts_in_l3 = spec.l3.size > 0;
    struct Layer {
      int node;
      std::vector<Candidate> cands;
      double best_s = std::numeric_limits<double>::infinity();
    };
    std::vector<Layer> layers;
    size_t total = 0;
    const auto e0 = std::chrono::steady_clock::now();
    for (const LayerTiling& t : base) {
      layers.push_back({t.node, enumerate_candidates(g, t.node, t, spec, budget)});
      total += layers.back().cands.size();
    }
    const double enum_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - e0).count();
    int64_t sink = 0;
    double best_total = std::numeric_limits<double>::infinity();
    for (int r = 0; r < reps; ++r) {
      double sum = 0;
      for (Layer& l : layers) {
        const auto t0 = std::chrono::steady_clock::now();
        for (const Candidate& c : l.cands) sink += analytic_cycles(g, l.node, c.tiling, spec, ctx);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        l.best_s = std::min(l.best_s, s);
        sum += s;
      }
      best_total = std::min(best_total, sum);
    }
    std::cout << fmt::format("analytic benchmark: {} ({} layers) on {}, consts in L3: {}, best of {}\n", model,
                             layers.size(), spec.name, ctx.consts_in_l3, reps);
    std::cout << fmt::format("  {} candidates enumerated in {:.1f} ms ({:.0f} per second)\n", total, 1e3 * enum_s,
                             static_cast<double>(total) / enum_s);
    std::cout << fmt::format("  analytic_cycles: {:.1f} ms for all, {:.0f} candidates per second per core\n",
                             1e3 * best_total, static_cast<double>(total) / best_total);
    std::sort(layers.begin(), layers.end(), [](const Layer& a, const Layer& b) {
      return a.best_s / std::max<size_t>(1, a.cands.size()) > b.best_s / std::max<size_t>(1, b.cands.size());
    });
    std::cout << "  slowest layers (per candidate):\n";
    for (size_t i = 0; i < std::min<size_t>(5, layers.size()); ++i)
      std::cout << fmt::format("    node {:>3} '{}': {} candidates, {:.2f} us each\n", layers[i].node,
                               g.nodes[static_cast<size_t>(layers[i].node)].name, layers[i].cands.size(),
                               1e6 * layers[i].best_s / std::max<size_t>(1, layers[i].cands.size()));
    if (sink == 42) std::cout << "";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "edgesim_bench_analytic: " << e.what() << "\n";
    return 1;
  }
}
