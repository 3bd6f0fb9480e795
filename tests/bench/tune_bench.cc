// edgesim_bench_tune: simulated layer-candidates per second of the autotuner's SystemC evaluator
// (sim/tune/sim_evaluator.h) on MobileNetV1-128 (default gap8): for every layer, up to --per
// (default 200) enumerated candidates of the tuned flow plus DORY's tiling are simulated, timing
// only, each as the layer alone, with -j 1 and -j 2 worker processes (best of --reps, default 2;
// the rate includes forking the workers once, which weighs on small --per). Then a whole
// `edgesim tune` of the network without cache (-j 2) on gap8 and on siracusa: wall time, the
// layer candidates and the network plans simulated and their rates (the layer rate includes the
// per-layer hand-out of only ~13–30 candidates).
// Not a test: no thresholds.
//
// Usage: edgesim_bench_tune [--reps N] [--per N] [--platform FILE] [model.onnx]
extern "C" int sc_main(int, char**) { return 0; }   // libsystemc.so defines main()

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "compiler/frontend/import.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "compiler/passes/assign_engine.h"
#include "compiler/tune/network_tune.h"
#include "platforms/loader/loader.h"
#include "sim/tune/net_sim_evaluator.h"
#include "sim/tune/sim_evaluator.h"

#include "bench_util.h"

using namespace edgesim;
using bench::best_ms;
using bench::peak_rss_kib;

int main(int argc, char** argv) {
  const bench::Args args = bench::parse_args(argc, argv, 2);
  const int reps = args.reps;
  const std::string& platform = args.platform;
  const std::string& model = args.model;
  const size_t per = args.per;
  try {
    const PlatformSpec spec = load_platform(platform);
    const Graph g = import_onnx(model);
    const AnalyticContext actx = network_context(g, spec);
    const std::vector<LayerTiling> dory = tile_graph(g, spec, "dory");
    const int64_t l1 = policy_budgets(spec, "tuned").l1;
    std::vector<std::pair<int, std::vector<Candidate>>> work;
    size_t total = 0;
    for (const LayerTiling& t : dory) {
      std::vector<Candidate> c = enumerate_candidates(g, t.node, t, spec, l1, per);
      c.push_back({t, "dory"});
      total += c.size();
      work.emplace_back(t.node, std::move(c));
    }
    std::cout << fmt::format("tune benchmark: {} on {}, {} layers, {} layer-candidates, best of {}\n", model, spec.name,
                             work.size(), total, reps);
    for (int jobs : {1, 2}) {
      double best = std::numeric_limits<double>::infinity();
      for (int r = 0; r < reps; ++r) {
        SimulatingEvaluator ev(jobs);
        const auto t0 = std::chrono::steady_clock::now();
        for (const auto& [node, cands] : work) ev.cycles(g, node, cands, spec, actx);
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      }
      std::cout << fmt::format("  simulated, -j {}: {:8.0f} layer-candidates/s ({:.2f} s)\n", jobs,
                               static_cast<double>(total) / best, best);
    }
    // Whole-network tunes as `edgesim tune -j 2` runs them (no cache): engines, every layer
    // (DORY's and Deeploy's tilings and the analytic top K per L3 option, simulated in the layer
    // evaluator, timed inside it) and the network plans (timed inside the network evaluator), on
    // gap8 and siracusa.
    struct Timed : Evaluator {
      SimulatingEvaluator inner{2};
      double secs = 0;
      size_t n = 0;
      std::string name() const override { return inner.name(); }
      std::vector<int64_t> cycles(const Graph& gg, int node, const std::vector<Candidate>& c, const PlatformSpec& sp,
                                  const AnalyticContext& ctx) override {
        const auto t0 = std::chrono::steady_clock::now();
        auto r = inner.cycles(gg, node, c, sp, ctx);
        secs += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        n += c.size();
        return r;
      }
    };
    struct TimedNet : NetworkEvaluator {
      NetSimEvaluator inner{2};
      double secs = 0;
      size_t n = 0;
      std::string name() const override { return inner.name(); }
      std::vector<int64_t> evaluate(const Graph& gg, const std::vector<NetPlan>& plans, const PlatformSpec& sp) override {
        const auto t0 = std::chrono::steady_clock::now();
        auto r = inner.evaluate(gg, plans, sp);
        secs += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        n += plans.size();
        return r;
      }
    };
    for (const std::string& pf : {std::string("gap8"), std::string("siracusa")}) {
      const PlatformSpec sp = load_platform(std::string(EDGESIM_SOURCE_DIR) + "/platforms/" + pf + ".yaml");
      Graph gg = import_onnx(model);
      assign_engines(gg, sp);
      Timed ev;
      TimedNet net;
      TuneOptions opt;
      opt.simulator = &ev;
      TuneCache none("");
      const auto t0 = std::chrono::steady_clock::now();
      const NetworkTuneResult r = tune_network(gg, sp, opt, &net, none);
      const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      size_t ranked = 0;
      for (const auto& l : r.layers) ranked += l.ranked;
      std::cout << fmt::format("  edgesim tune on {} (-j 2, K 8, no cache): {:.2f} s wall; {} candidates ranked; {} "
                               "layer-candidates simulated in {:.2f} s ({:.0f}/s); {} two-layer / whole-network plans "
                               "simulated in {:.2f} s ({:.1f}/s); dory {} tuned {} cycles\n",
                               pf, wall, ranked, ev.n, ev.secs, static_cast<double>(ev.n) / ev.secs, net.n, net.secs,
                               static_cast<double>(net.n) / net.secs, r.dory, r.tuned);
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "edgesim_bench_tune: error: " << e.what() << "\n";
    return 1;
  }
}
