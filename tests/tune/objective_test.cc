// The tuner's objectives (compiler/tune/objective.h, issue 17): the figure each objective ranks a
// score by, ties, the wording of why a choice is not the fastest; tune_layer's reducer under each
// objective with an evaluator whose scores are known; `edgesim tune --objective` end to end
// (a layer chosen for energy says why) and its errors.
#include <catch2/catch.hpp>

#include "compiler/frontend/import.h"
#include "compiler/tune/tuner.h"
#include "platforms/loader/loader.h"
#include "sim/tune/sim_evaluator.h"
#include "support/paths.h"
#include "support/run.h"

using namespace edgesim;
using Catch::Matchers::Contains;

namespace {

// Scores from the real simulation, then the energy of every candidate after the first feasible
// one lowered by 10 % per place: a known trade of cycles against energy.
class TradingEvaluator : public Evaluator {
 public:
  std::string name() const override { return "trading"; }
  std::vector<int64_t> cycles(const Graph& g, int node, const std::vector<Candidate>& c, const PlatformSpec& s,
                              const AnalyticContext& ctx) override {
    return sim_.cycles(g, node, c, s, ctx);
  }
  std::vector<Score> scores(const Graph& g, int node, const std::vector<Candidate>& c, const PlatformSpec& s,
                            const AnalyticContext& ctx) override {
    std::vector<Score> out = sim_.scores(g, node, c, s, ctx);
    for (size_t i = 0; i < out.size(); ++i)
      if (out[i].cycles >= 0) out[i].energy_pj["l2"] -= 1e5 * static_cast<double>(i);
    all = out;
    return out;
  }
  std::vector<Score> all;

 private:
  SimulatingEvaluator sim_{1};
};

}  // namespace

TEST_CASE("tune objective: the ranked figure, ties and the explanation", "[tune][energy]") {
  const Score fast{100, {{"cluster", 600.0}, {"l2", 400.0}}};                 // 1000 pJ
  const Score frugal{120, {{"cluster", 700.0}, {"l2", 100.0}}};               // 800 pJ
  const Score infeasible{-1, {}};
  CHECK(objective_value(fast, "cycles") == 100);
  CHECK(objective_value(fast, "energy") == Approx(1000));
  CHECK(objective_value(frugal, "edp") == Approx(800 * 120));
  CHECK(objective_value(Score{100, {}}, "energy") == -1);   // no energy: not rankable by energy
  CHECK(objective_value(infeasible, "cycles") == -1);
  CHECK(better(fast, frugal, "cycles"));
  CHECK(better(frugal, fast, "energy"));
  CHECK(better(frugal, fast, "edp"));                        // 96,000 < 100,000
  CHECK(better(fast, infeasible, "energy"));
  CHECK_FALSE(better(infeasible, fast, "cycles"));
  const Score tie{90, {{"cluster", 1000.0}}};                // same energy as fast, fewer cycles
  CHECK(better(tie, fast, "energy"));
  CHECK_FALSE(better(fast, fast, "energy"));
  CHECK_THROWS_WITH(check_objective("power"), "objective 'power': expected cycles, energy or edp");
  // (800 - 1000) / 1000 = -20 %, (120 - 100) / 100 = +20 %; blocks below 5 nJ are not named.
  CHECK(explain_choice(frugal, fast) == "-20.00 % energy for +20.00 % cycles");
  const Score big_fast{100, {{"cluster", 6e6}, {"l2", 4e6}}}, big_frugal{120, {{"cluster", 7e6}, {"l2", 1e6}}};
  CHECK(explain_choice(big_frugal, big_fast) == "-20.00 % energy for +20.00 % cycles: l2 -3.000 uJ, cluster +1.000 uJ");
}

TEST_CASE("tune_layer: each objective's choice is the best simulated candidate under it", "[tune][energy]") {
  const Graph g = import_onnx(test::source_dir() + "/models/resnet8/model.onnx");
  const PlatformSpec spec = load_platform(test::source_dir() + "/platforms/gap8.yaml");
  const AnalyticContext actx = network_context(g, spec);
  TilingContext ctx;
  ctx.graph = &g;
  ctx.spec = &spec;
  const int node = g.layer_nodes().at(1);
  for (const char* objective : {"cycles", "energy", "edp"}) {
    INFO(objective);
    TradingEvaluator ev;
    TuneOptions opt;
    opt.top_k = 4;
    opt.simulator = &ev;
    opt.objective = objective;
    const LayerTuneResult r = tune_layer(g, node, ctx, spec, actx, opt);
    // The tuned-flow candidates follow the references (dory, deeploy) in the batch.
    REQUIRE(ev.all.size() > 3);
    Score best{}, fastest{};
    for (size_t i = 2; i < ev.all.size(); ++i) {
      if (better(ev.all[i], best, objective)) best = ev.all[i];
      if (better(ev.all[i], fastest, "cycles")) fastest = ev.all[i];
    }
    CHECK(r.objective == objective);
    CHECK(r.tuned_cycles == best.cycles);
    CHECK(r.tuned_energy_pj == Approx(best.total_pj()));
    CHECK(r.fastest_cycles == fastest.cycles);
    CHECK(r.fastest_energy_pj == Approx(fastest.total_pj()));
    if (std::string(objective) == "cycles") {
      CHECK(r.why.empty());
    } else {
      CHECK(r.tuned_energy_pj <= r.fastest_energy_pj);
      if (r.tuned_cycles != r.fastest_cycles) CHECK(r.why == explain_choice(best, fastest));
    }
  }
}

TEST_CASE("edgesim tune --objective energy says why a layer is not its fastest tiling", "[tune][energy]") {
  const std::string net = test::source_dir() + "/models/resnet8/model.onnx";
  const auto r = test::run_edgesim("tune -p gap8 " + net + " --no-cache --top-k 4 --objective energy");
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Contains("objective energy"));
  CHECK_THAT(r.output, Contains("fastest uJ"));
  CHECK_THAT(r.output, Contains("why each other choice"));
  CHECK_THAT(r.output, Contains("% energy for +"));
  CHECK_THAT(r.output, Contains("whole network energy: dory "));
  const auto bad = test::run_edgesim("tune -p pulp_open " + net + " --no-cache --objective energy");
  CHECK(bad.status == 2);
  CHECK_THAT(bad.output, Contains("edgesim: error: tune --objective energy: platform 'pulp_open' has no energy section"));
  const auto analytic = test::run_edgesim("tune -p gap8 " + net + " --no-cache --analytic-only --objective edp");
  CHECK(analytic.status == 2);
  CHECK_THAT(analytic.output, Contains("edgesim: error: tune --objective edp: energy comes from the simulator"));
  const auto typo = test::run_edgesim("tune -p gap8 " + net + " --objective power");
  CHECK(typo.status == 2);
  CHECK_THAT(typo.output, Contains("edgesim: error: --objective: objective 'power' is not one of cycles, energy, edp"));
}
