// The analytic cost (compiler/tune/analytic.h) against the SystemC replay (sim/exec simulate,
// timing only): single-buffered steps are the sum of their jobs, so the analytic cycles must
// equal the simulated total exactly (random single-layer graphs × random tiles, GAP8's blocking
// DMA, Siracusa, GAP9's single-core issue, Deeploy's per-tile fork, constants in L3); for
// double-buffered steps the closed-form pipeline is an approximation: its Kendall tau against
// the simulator over each layer's candidates is printed and must stay high.
#include <cmath>
#include <iostream>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "compiler/schedule/build.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "compiler/tune/analytic.h"
#include "compiler/tune/candidate.h"
#include "compiler/tune/analytic_internal.h"
#include "compiler/tune/evaluator.h"
#include "kernels/dma/cost.h"
#include "platforms/loader/loader.h"
#include "sim/exec/executor.h"
#include "support/paths.h"
#include "tune/tune_graphs.h"

using namespace edgesim;

namespace {

int64_t simulated(const Graph& g, const LayerTiling& t, const PlatformSpec& p, bool consts_l3) {
  ScheduleOptions o;
  o.buffering = "per-layer";
  o.constants = consts_l3 ? "l3" : "auto";
  const Schedule s = build_schedule(g, p, {t}, o);
  SimOptions so;
  so.data = false;
  return simulate(g, s, p, {}, so).result.total_cycles;
}

}  // namespace

TEST_CASE("analytic cycles of single-buffered steps equal the simulator's exactly", "[tune]") {
  struct Case {
    const char* platform;
    const char* policy;
    bool consts_l3;
    bool l3_slabs = false;
  };
  for (const Case& k : {Case{"gap8", "dory", false}, Case{"siracusa", "dory", false}, Case{"gap9", "dory", false},
                        Case{"siracusa", "deeploy", false}, Case{"gap8", "dory", true}, Case{"gap8", "dory", false, true},
                        Case{"siracusa", "dory", true, true}}) {
    const PlatformSpec p = load_platform(test::source_dir() + "/platforms/" + k.platform + ".yaml");
    test::TuneRng r(7);
    int compared = 0;
    for (int i = 0; i < 70; ++i) {
      const Graph g = test::tune_layer_graph(r, i % 7, 1 + i % 3);
      const LayerGeom geom = layer_geom(g, 0);
      LayerTiling t = test::random_tiling(r, geom, 1, k.policy);
      if (i % 17 == 0) t.l1.whole = true;
      if (k.l3_slabs) {   // L2 slabs staged from L3: output / input rows, or weight Cout slabs
        const int what = i % 3;
        t.l3.output_in_l3 = what == 0;
        t.l3.input_in_l3 = what == 1;
        t.l3.weights_in_l3 = what == 2 && (geom.kind == OpKind::Conv || geom.kind == OpKind::Gemm);
        if (what < 2) t.l3.h_out = test::draw(r, 1, geom.h_out);
        else t.l3.n_out = test::draw(r, 1, geom.cout);
        if (geom.kind == OpKind::Conv && geom.groups > 1) t.l3.n_out = 0;
        t.l3.db_x = t.l3.db_w = t.l3.db_o = 1 + i % 2;
      }
      int64_t sim = -1;
      try {
        sim = simulated(g, t, p, k.consts_l3);
      } catch (const std::runtime_error&) {
        continue;   // does not fit
      }
      AnalyticContext ctx;
      ctx.conventions = k.policy;
      ctx.consts_in_l3 = k.consts_l3;
      INFO(k.platform << " " << k.policy << (k.consts_l3 ? " consts in L3" : "") << " slabs " << t.l3.n_out << "/"
                      << t.l3.h_out << " in " << t.l3.input_in_l3 << " out " << t.l3.output_in_l3 << " w "
                      << t.l3.weights_in_l3 << " layer " << i << " kind " << i % 7
                      << " tile " << t.l1.n_out << "x" << t.l1.h_out << "x" << t.l1.w_out << " whole " << t.l1.whole);
      CHECK(analytic_cycles(g, 0, t, p, ctx) == sim);
      ++compared;
    }
    CHECK(compared > 50);
    std::cout << fmt::format("[tune] single-buffered {} {}{}{}: analytic == simulated on {} layer/tile pairs\n",
                             k.platform, k.policy, k.consts_l3 ? " (constants in L3)" : "",
                             k.l3_slabs ? " (L3 slabs)" : "", compared);
  }
}

TEST_CASE("analytic cycles rank double-buffered candidates like the simulator", "[tune]") {
  const PlatformSpec p = load_platform(test::source_dir() + "/platforms/siracusa.yaml");
  const int64_t budget = policy_budgets(p, "dory").l1;
  test::TuneRng r(3);
  double tau_sum = 0, err_sum = 0, err_max = 0;
  int layers = 0, points = 0;
  for (int i = 0; i < 12; ++i) {
    const int kind = std::vector<int>{0, 1, 2, 4, 5, 3}[static_cast<size_t>(i % 6)];
    const Graph g = test::tune_layer_graph(r, kind, 4);
    const LayerTiling base = tile_graph(g, p, "dory").at(0);
    std::vector<Candidate> all = enumerate_candidates(g, 0, base, p, budget);
    std::vector<int64_t> a, s;
    const size_t step = std::max<size_t>(1, all.size() / 25);
    for (size_t c = 0; c < all.size(); c += step) {
      LayerTiling t = all[c].tiling;
      if (t.l1.db != 2) continue;
      t.node = 0;
      a.push_back(analytic_cycles(g, 0, t, p));
      s.push_back(simulated(g, t, p, false));
      const double e = std::abs(static_cast<double>(a.back() - s.back())) / static_cast<double>(s.back());
      err_sum += e, err_max = std::max(err_max, e), ++points;
      if (getenv("TUNE_VERBOSE"))
        std::cout << fmt::format("   {} {}x{}x{}: analytic {} sim {}\n", g.nodes[0].name, t.l1.n_out, t.l1.h_out,
                                 t.l1.w_out, a.back(), s.back());
    }
    if (a.size() < 4) continue;
    const double tau = test::tau(a, s);
    std::cout << fmt::format("[tune] double-buffered {} ({}): {} candidates, Kendall tau {:.3f}\n",
                             g.nodes[0].name, layer_geom(g, 0).cout, a.size(), tau);
    tau_sum += tau;
    ++layers;
  }
  REQUIRE(layers >= 6);
  std::cout << fmt::format("[tune] double-buffered: mean tau {:.3f} over {} layers; relative error mean {:.2f} %, "
                           "max {:.2f} % over {} candidates\n",
                           tau_sum / layers, layers, 100 * err_sum / points, 100 * err_max, points);
  CHECK(tau_sum / layers > 0.85);
}

TEST_CASE("the analytic evaluator returns -1 for invalid tilings", "[tune]") {
  const PlatformSpec p = load_platform(test::source_dir() + "/platforms/gap8.yaml");
  test::TuneRng r(1);
  const Graph g = test::tune_layer_graph(r, 0, 2);
  const LayerGeom geom = layer_geom(g, 0);
  Candidate ok{test::random_tiling(r, geom, 1), "enum"};
  Candidate partial = ok;
  partial.tiling.l1.n_in = 1;
  AnalyticEvaluator ev;
  const auto c = ev.cycles(g, 0, {ok, partial}, p, {});
  REQUIRE(c.size() == 2);
  CHECK(c[0] > 0);
  if (geom.cin > 1) CHECK(c[1] == -1);
  CHECK_THROWS_AS(analytic_cycles(g, 5, ok.tiling, p), TilingError);
}

TEST_CASE("the analytic DMA shortcut equals dory_copy_cost", "[tune]") {
  for (const char* plat : {"gap8", "gap9", "siracusa"}) {
    const PlatformSpec p = load_platform(test::source_dir() + "/platforms/" + plat + ".yaml");
    DmaTiming t = dma_timing(p);
    for (bool single : {false, true}) {
      t.single_core_dma = single || t.single_core_dma;
      for (int64_t r : {1, 2, 3, 7, 16})
        for (int64_t l : {1, 3, 5, 8})
          for (int64_t b : {1, 2, 3, 4, 6, 9, 32})
            for (int64_t addr : {0, 1, 2, 3, 4})
              for (bool in : {true, false}) {
                const int64_t count[3] = {r, l, b};
                INFO(plat << " {" << r << ", " << l << ", " << b << "} addr " << addr << " in " << in);
                const CopyCost a = tune_detail::fast_copy_cost(t, count, addr, in, 0);
                const CopyCost want = dory_copy_cost(t, count, addr, in, false);
                CHECK(a.transfer == want.transfer);
                CHECK(a.issue == want.issue);
                if (in && (r * l * b) % b == 0) {   // gathers of b channels
                  const CopyCost g = tune_detail::fast_copy_cost(t, count, addr, true, b);
                  const CopyCost gw = dory_copy_cost(t, count, addr, true, true, b);
                  CHECK(g.transfer == gw.transfer);
                  CHECK(g.issue == gw.issue);
                }
              }
    }
  }
}
