// End to end with the NPU: every Deeploy CNN test and every models/ network is assigned engines
// (the platform's order: NPU first), tiled, scheduled and simulated with data on siracusa
// (N-EUREKA) with its weight memory and without it (npu.weight_source=l1), under deeploy and
// dory, and on gap9 (NE16; under deeploy with Deeploy's pointwise reshape). Every run must be bit-exact with the untiled interpreter. Structural
// checks: NPU layers' weights are encoded in WMEM when the engine pass says so and no DMA command
// of those steps reads them; without the weight memory they are DMA'd. The per-layer effect of
// the weight memory (cycles and L2->L1 bytes of each NPU layer, both ways) is printed. The CLI
// case checks `edgesim run --engines`.
#include <iostream>
#include <map>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "compiler/passes/assign_engine.h"
#include "compiler/passes/ne16_pw_reshape.h"
#include "compiler/schedule/build.h"
#include "compiler/schedule/functional.h"
#include "compiler/tiler/policy.h"
#include "e2e/e2e_nets.h"
#include "sim/exec/executor.h"
#include "sim/exec/verify.h"
#include "support/tiling.h"
#include "support/run.h"

using namespace edgesim;

namespace {

struct Outcome {
  bool feasible = false;
  RunResult result;
};

struct Tally {
  int verified = 0, runs = 0, infeasible = 0, npu_layers = 0, wmem_layers = 0, pw_reshapes = 0;
};

// One network on one platform spec and policy: engines, tiles, schedule, timed run with data.
Outcome run_one(const test::Net& n, const PlatformSpec& spec, const std::string& policy, Tally& t) {
  Graph g = n.graph;
  const EngineAssignment ea = assign_engines(g, spec);
  // Deeploy's flow on an NE16 re-shapes its pointwise convs (the Reshapes alias their input).
  if (policy == "deeploy" && spec.npu.impl == "ne16") apply_ne16_pw_reshape(g);
  Schedule s;
  try {
    s = build_schedule(g, spec, test::tile_for(g, spec, policy), {});
  } catch (const TilingError& e) {
    ++t.infeasible;
    WARN(n.name << " on " << spec.name << " (" << policy << "): " << e.what());
    return {};
  }
  check_allocation(s);
  // The pointwise reshape's Reshapes alias their inputs: their steps move no byte.
  for (size_t k = 0; k < g.nodes.size(); ++k)
    if (g.nodes[k].kind() == OpKind::Reshape && g.nodes[k].name.find("_reshape") != std::string::npos &&
        g.tensor(g.nodes[k].outputs[0]).shape.size() == 4) {
      CHECK(s.steps.at(k).commands.empty());
      ++t.pw_reshapes;
    }
  // NPU weights: encoded; in WMEM exactly when the pass said so; never DMA'd from WMEM.
  for (size_t k = 0; k < g.nodes.size(); ++k) {
    const Node& node = g.nodes[k];
    if (node.engine != "npu") continue;
    ++t.npu_layers;
    t.wmem_layers += node.wmem_weights;
    const Placement* p = s.placement_of(node.inputs.at(1));
    REQUIRE(p);
    CHECK(p->npu_weights.has_value());
    CHECK((s.buffers.at(static_cast<size_t>(p->buffer)).level == Level::WMEM) == node.wmem_weights);
    bool dma_of_w = false;
    for (const Command& c : s.steps.at(k).commands)
      if (c.kind == Command::Kind::Dma && c.src.buffer == p->buffer) dma_of_w = true;
    CHECK(dma_of_w == !node.wmem_weights);
  }
  if (ea.wmem_budget > 0) CHECK(s.high_water[static_cast<size_t>(Level::WMEM)] <= ea.wmem_budget);
  SimOutcome got;
  REQUIRE_NOTHROW(got = simulate(g, s, spec, n.inputs));
  const VerifyOutcome v = verify_against_interpreter(g, *got.values, n.want);
  INFO(n.name << " on " << spec.name << " under " << policy << ": " << v.message);
  CHECK(v.ok);
  ++t.runs;
  t.verified += v.ok;
  for (size_t k = 0; k < g.nodes.size(); ++k) CHECK(got.result.layers.at(k).engine == g.nodes[k].engine);
  return {true, got.result};
}

// Runs every net on siracusa with and without the weight memory and on gap9; prints the
// per-layer weight-memory effect of the first `detail` networks.
Tally run_all(const std::vector<test::Net>& nets, size_t detail) {
  Tally t;
  const PlatformSpec sira = load_platform(test::source_dir() + "/platforms/siracusa.yaml");
  const PlatformSpec sira_l1 = load_platform(test::source_dir() + "/platforms/siracusa.yaml", {"npu.weight_source=l1"});
  const PlatformSpec gap9 = load_platform(test::source_dir() + "/platforms/gap9.yaml");
  for (size_t i = 0; i < nets.size(); ++i) {
    const test::Net& n = nets[i];
    for (const char* policy : {"deeploy", "dory"}) {
      const Outcome w = run_one(n, sira, policy, t);
      const Outcome l = run_one(n, sira_l1, policy, t);
      run_one(n, gap9, policy, t);
      if (!w.feasible || !l.feasible) continue;
      int64_t in_w = 0, in_l = 0;
      std::string rows;
      for (size_t k = 0; k < w.result.layers.size(); ++k) {
        const LayerStats& a = w.result.layers[k];
        const LayerStats& b = l.result.layers[k];
        if (a.engine != "npu") continue;
        in_w += a.dma_bytes_in, in_l += b.dma_bytes_in;
        rows += fmt::format("    {:<28} {:>10} {:>10} {:>12} {:>12}\n", a.name, a.cycles, b.cycles, a.dma_bytes_in,
                            b.dma_bytes_in);
      }
      // Weights from the weight memory never travel L2 -> L1.
      if (in_l > 0) CHECK(in_w < in_l);
      std::cout << fmt::format("  npu {:<40} {:<8} WMEM {:>11} cycles, L1 weights {:>11} cycles\n", n.name, policy,
                               w.result.total_cycles, l.result.total_cycles);
      if (i < detail && !rows.empty())
        std::cout << fmt::format("    {:<28} {:>10} {:>10} {:>12} {:>12}\n", "NPU layer", "cyc WMEM", "cyc L1",
                                 "L2->L1 WMEM", "L2->L1 L1") << rows;
    }
  }
  std::cout << fmt::format("npu e2e: {} of {} runs bit-exact, {} infeasible, {} NPU layers ({} with weights in WMEM)\n",
                           t.verified, t.runs, t.infeasible, t.npu_layers, t.wmem_layers);
  return t;
}

}  // namespace

TEST_CASE("e2e npu: Deeploy CNN tests run bit-exact with the NPU, with and without the weight memory",
          "[e2e][run][npu]") {
  const std::string root = test::shared_networks() + "/deeploy";
  REQUIRE_DATA(root);
  size_t rejected = 0;
  const auto nets = test::load_nets(test::onnx_below(root), test::shared_networks(), rejected);
  REQUIRE(nets.size() == 23);
  const Tally t = run_all(nets, 0);
  CHECK(t.infeasible == 0);
  CHECK(t.runs == 23 * 3 * 2);
  CHECK(t.verified == t.runs);
  CHECK(t.npu_layers > 0);
  CHECK(t.wmem_layers > 0);
  CHECK(t.pw_reshapes > 0);   // gap9 under deeploy re-shapes pointwise layers (PW_2D's 8 x 8 to 16 x 4, ...)
}

TEST_CASE("e2e npu: models/ networks run bit-exact with the NPU, with and without the weight memory",
          "[e2e][run][npu][models]") {
  const std::vector<std::string> files = test::model_files();
  size_t rejected = 0;
  const auto nets = test::load_nets(files, "", rejected);
  REQUIRE(nets.size() == 3);
  const Tally t = run_all(nets, 3);
  CHECK(t.infeasible == 0);
  CHECK(t.runs == 3 * 3 * 2);
  CHECK(t.verified == t.runs);
  CHECK(t.npu_layers > 0);
}

TEST_CASE("edgesim run --engines: the override decides where layers run, a bad name is one error",
          "[e2e][run][npu][cli]") {
  const std::string model = test::source_dir() + "/models/resnet8/model.onnx";
  const std::string sira = test::source_dir() + "/platforms/siracusa.yaml";
  const auto npu = test::run_edgesim(fmt::format("run -p '{}' '{}' --timing-only", sira, model));
  INFO(npu.output);
  CHECK(npu.status == 0);
  CHECK_THAT(npu.output, Catch::Matchers::Contains("engines:      npu 6 layers"));
  const auto cluster = test::run_edgesim(fmt::format("run -p '{}' '{}' --timing-only --engines cluster", sira, model));
  INFO(cluster.output);
  CHECK(cluster.status == 0);
  CHECK_THAT(cluster.output, Catch::Matchers::Contains("engines:      cluster 15 nodes"));
  const auto bad = test::run_edgesim(fmt::format("run -p '{}' '{}' --engines npu,bogus", sira, model));
  CHECK(bad.status == 2);
  CHECK_THAT(bad.output, Catch::Matchers::Contains("edgesim: error: --engines: engine 'bogus'"));
}
