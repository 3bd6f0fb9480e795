// More memory never costs cycles under `tuned` (issue "whole-network autotuning", Must show): on a
// small grid of L1 x L2 sizes on gap8 and siracusa, the tuned whole-network cycles of resnet8
// never increase when L1 or L2 grows. Each point is tuned from scratch (its own cache) with the
// simulating evaluators, as `edgesim tune` would. (A 64-point sweep of MobileNetV1-128 is quoted in
// docs/tune.md.)
#include <iostream>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "compiler/frontend/import.h"
#include "compiler/passes/assign_engine.h"
#include "compiler/tune/network_tune.h"
#include "platforms/loader/loader.h"
#include "sim/tune/net_sim_evaluator.h"
#include "sim/tune/sim_evaluator.h"
#include "support/paths.h"

using namespace edgesim;

namespace {

void check_grid(const std::string& platform, const std::vector<std::string>& l1s, const std::vector<std::string>& l2s) {
  const Graph imported = import_onnx(test::source_dir() + "/models/resnet8/model.onnx");
  std::vector<std::vector<int64_t>> c(l1s.size(), std::vector<int64_t>(l2s.size(), -1));
  for (size_t i = 0; i < l1s.size(); ++i)
    for (size_t j = 0; j < l2s.size(); ++j) {
      const PlatformSpec spec = load_platform(test::source_dir() + "/platforms/" + platform + ".yaml",
                                              {"l1.size=" + l1s[i], "l2.size=" + l2s[j]});
      Graph g = imported;
      assign_engines(g, spec);
      SimulatingEvaluator sim(2);
      NetSimEvaluator net(2);
      TuneOptions opt;
      opt.top_k = 4;
      opt.simulator = &sim;
      TuneCache cache("");
      c[i][j] = tune_network(g, spec, opt, &net, cache).tuned;
      std::cout << fmt::format("  monotone {:<9} l1 {:>7} l2 {:>7}: tuned {}\n", platform, l1s[i], l2s[j], c[i][j]);
      REQUIRE(c[i][j] > 0);
    }
  for (size_t i = 0; i < l1s.size(); ++i)
    for (size_t j = 0; j < l2s.size(); ++j) {
      INFO(platform << " l1 " << l1s[i] << " l2 " << l2s[j]);
      if (i + 1 < l1s.size()) CHECK(c[i + 1][j] <= c[i][j]);
      if (j + 1 < l2s.size()) CHECK(c[i][j + 1] <= c[i][j]);
    }
}

}  // namespace

TEST_CASE("tuned is monotone in memory: a larger L1 or L2 never costs cycles (gap8)", "[tune][monotone]") {
  check_grid("gap8", {"48KiB", "64KiB", "128KiB"}, {"256KiB", "384KiB", "512KiB"});
}

TEST_CASE("tuned is monotone in memory: a larger L1 or L2 never costs cycles (siracusa)", "[tune][monotone]") {
  // (siracusa.yaml budgets Deeploy 1,024,000 B of L2: the grid starts above it)
  check_grid("siracusa", {"64KiB", "128KiB", "256KiB"}, {"1MiB", "1536KiB", "2MiB"});
}
