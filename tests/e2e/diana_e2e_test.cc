// DIANA end to end (issue 13): every models/diana_* network on platforms/diana.yaml is simulated
// bit-exact against the interpreter and its generator's golden output, with the expected split
// of layers over the analog core, the digital accelerator and the host; every shared network
// that imports runs there too (bit-exact, or refused because it does not fit DIANA's 512 kB L2:
// the platform has no L3 — then bit-exact with a 1 MiB L2); the CLI shows the engines (digital / analog / host) and the offload
// warnings in the table, JSON and HTML; tune and sweep work on DIANA.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "compiler/golden/golden.h"
#include "compiler/passes/assign_engine.h"
#include "compiler/schedule/build.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "compiler/tune/cache.h"
#include "sim/tune/sim_evaluator.h"
#include "e2e/e2e_nets.h"
#include "frontend/onnx_writer.h"
#include "sim/exec/executor.h"
#include "sim/exec/verify.h"
#include "support/run.h"
#include "support/temp_dir.h"

using namespace edgesim;
using Catch::Contains;
namespace fs = std::filesystem;

namespace {

const PlatformSpec& diana() {
  static const PlatformSpec p = load_platform(test::source_dir() + "/platforms/diana.yaml");
  return p;
}

// Simulates g on DIANA (dory policy); returns the result, with `ok` = bit-exact vs the interpreter.
struct Outcome {
  bool ok = false;
  bool infeasible = false;
  RunResult r;
  SimOutcome sim;
};
// `why` receives the refusal of a network that does not fit.
Outcome simulate_diana(Graph g, const std::vector<Tensor>& inputs, const PlatformSpec& spec = diana(),
                       std::string* why = nullptr) {
  Outcome o;
  assign_engines(g, spec);
  Schedule s;
  try {
    s = build_schedule(g, spec, tile_graph(g, spec, "dory"), {});
  } catch (const TilingError& e) {
    o.infeasible = true;
    if (why) *why = e.what();
    return o;
  }
  o.sim = simulate(g, s, spec, inputs);
  InterpreterOptions io;
  io.keep_all = true;
  o.ok = verify_against_interpreter(g, *o.sim.values, interpret(g, inputs, io)).ok;
  o.r = o.sim.result;
  return o;
}

}  // namespace

TEST_CASE("e2e diana: models/ DIANA networks run bit-exact with the expected engines", "[e2e][diana]") {
  struct Want {
    const char* name;
    int analog, digital, host;   // steps per engine
  };
  const Want wants[] = {
      {"diana_nb_single", 0, 1, 0},  {"diana_nb_two", 0, 2, 0},    {"diana_nb_two_s2", 0, 2, 0},
      {"diana_nb_residual", 0, 2, 1}, {"diana_resnet8", 0, 12, 3}, {"diana_dscnn", 0, 9, 3},
      {"diana_resnet8_ternary", 8, 4, 3},
  };
  for (const Want& w : wants) {
    INFO(w.name);
    const std::string dir = test::source_dir() + "/models/" + w.name;
    Graph g = import_onnx(dir + "/model.onnx");
    const std::vector<Tensor> in = load_inputs(g, dir + "/test_data_set_0");
    Outcome o = simulate_diana(g, in);
    REQUIRE_FALSE(o.infeasible);
    CHECK(o.ok);
    assign_engines(g, diana());
    const InterpreterResult got = as_interpreter_result(g, *o.sim.values);
    for (const CheckResult& c : check_expected(g, got, dir + "/test_data_set_0", {})) CHECK(c.ok());
    int n[3] = {0, 0, 0};
    for (const LayerStats& L : o.r.layers) n[L.engine == "analog" ? 0 : L.engine == "digital" ? 1 : 2]++;
    CHECK(n[0] == w.analog);
    CHECK(n[1] == w.digital);
    CHECK(n[2] == w.host);
    std::cout << fmt::format("  diana {:<24} {:>10} cycles  analog {} digital {} host {}\n", w.name,
                             o.r.total_cycles, n[0], n[1], n[2]);
  }
}

TEST_CASE("e2e diana: every shared network that imports runs bit-exact or does not fit DIANA's L2",
          "[e2e][diana]") {
  const std::string root = test::shared_networks();
  REQUIRE_DATA(root + "/dory");
  size_t rejected = 0;
  std::vector<test::Net> nets = test::load_nets(test::onnx_below(root + "/dory"), "", rejected);
  auto deeploy = test::load_nets(test::onnx_below(root + "/deeploy"), root, rejected);
  for (auto& n : deeploy) nets.push_back(std::move(n));
  // A network that overflows the 512 kB L2 is refused with the step and the bytes it needs; with
  // a 1 MiB L2 it runs on the same engines and must be bit-exact too (the engines' semantics do not
  // depend on the memory size).
  PlatformSpec big = diana();
  big.l2.size = 1 << 20;
  int verified = 0, infeasible = 0;
  for (const test::Net& n : nets) {
    INFO(n.name);
    std::string why;
    const Outcome o = simulate_diana(n.graph, n.inputs, diana(), &why);
    if (o.infeasible) {
      ++infeasible;
      CHECK_THAT(why, Contains("L2 overflows at step") && Contains("l2.size") && Contains("no L3"));
      CHECK(simulate_diana(n.graph, n.inputs, big).ok);
      continue;
    }
    CHECK(o.ok);
    verified += o.ok;
  }
  std::cout << fmt::format("diana e2e shared networks: {} simulated bit-exact, {} do not fit (no L3; bit-exact with a 1 MiB L2), {} do not import\n",
                           verified, infeasible, rejected);
  CHECK(verified + infeasible == static_cast<int>(nets.size()));
  CHECK(verified >= 20);
}

TEST_CASE("e2e diana: a standard QDQ graph with power-of-two scales imports and runs bit-exact on the host, "
          "with the rounding warning",
          "[e2e][diana][qdq]") {
  // x·2^-4 (*) w·2^-6 quantised with 2^-3: the requant is acc·2^-7 rounded half to even (ONNX),
  // which no (acc + offset) >> 7 reproduces on ties, so the conv stays on the host, bit-exact.
  test::TempDir dir;
  test::OnnxWriter w;
  const int64_t c = 4, k = 8, h = 8;
  w.input("x", onnx::TensorProto::INT8, {1, c, h, h}).output("y", onnx::TensorProto::INT8, {1, k, h, h});
  std::vector<int64_t> wv(static_cast<size_t>(k * c * 9));
  for (size_t i = 0; i < wv.size(); ++i) wv[i] = static_cast<int64_t>((i * 37) % 255) - 127;
  w.init_i("w", {k, c, 3, 3}, wv, onnx::TensorProto::INT8);
  w.init_f("xs", {}, {0.0625f}).init_f("ws", {}, {0.015625f}).init_f("ys", {}, {0.125f});
  w.init_i("z", {}, {0}, onnx::TensorProto::INT8);
  w.node("DequantizeLinear", {"x", "xs", "z"}, {"xd"});
  w.node("DequantizeLinear", {"w", "ws", "z"}, {"wd"});
  auto& conv = w.node("Conv", {"xd", "wd"}, {"a"}, "conv");
  test::OnnxWriter::attr_ints(conv, "pads", {1, 1, 1, 1});
  w.node("QuantizeLinear", {"a", "ys", "z"}, {"y"});
  Graph g = import_onnx(w.save(dir, "qdq_pow2.onnx"));
  REQUIRE(g.layer_nodes().size() == 1);
  std::vector<int64_t> xv(static_cast<size_t>(c * h * h));
  for (size_t i = 0; i < xv.size(); ++i) xv[i] = static_cast<int64_t>((i * 53) % 256) - 128;
  const std::vector<Tensor> inputs{Tensor::from_ints(DType::I8, {1, c, h, h}, xv)};
  Graph assigned = g;
  const EngineAssignment a = assign_engines(assigned, diana());
  CHECK(assigned.nodes.at(static_cast<size_t>(g.layer_nodes()[0])).engine == "cluster");
  REQUIRE(a.warnings.size() == 1);
  CHECK_THAT(a.warnings[0], Contains("'conv' (conv) runs on the host") &&
                                Contains("digital: QDQ requant with a power-of-two scale rounds half to even"));
  const Outcome o = simulate_diana(g, inputs);
  CHECK(o.ok);
}

TEST_CASE("edgesim run on DIANA: engines and offload warnings in the table, JSON and HTML", "[e2e][diana][cli]") {
  test::TempDir dir;
  const std::string net = test::source_dir() + "/models/diana_resnet8_ternary";
  const std::string json = dir.file("r.json"), html = dir.file("r.html");
  const auto r = test::run_edgesim(fmt::format("run -p diana '{}/model.onnx' --expected '{}/test_data_set_0' "
                                               "--json '{}' --report '{}'",
                                               net, net, json, html));
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK_THAT(r.output, Contains("engines:      analog 8 layers, digital 4 layers, host 3 nodes"));
  CHECK_THAT(r.output, Contains(" analog ") && Contains(" digital ") && Contains(" host "));
  CHECK_THAT(test::unwrapped(r.output), Contains("warning:      node 14 'L13_fc' (gemm) runs on the host: digital: "
                                                "output has 10 elements, not divisible by 4"));
  CHECK_THAT(r.output, Contains("golden files") && Contains("1/1 bit-exact"));
  const auto j = nlohmann::json::parse(std::ifstream(json));
  CHECK(j.at("layers").at(1).at("engine") == "analog");
  CHECK(j.at("layers").at(0).at("engine") == "digital");
  CHECK(j.at("layers").at(12).at("engine") == "host");
  bool warned = false;
  for (const auto& w : j.at("warnings")) warned = warned || w.get<std::string>().find("runs on the host") != std::string::npos;
  CHECK(warned);
  std::ifstream h(html);
  const std::string page((std::istreambuf_iterator<char>(h)), std::istreambuf_iterator<char>());
  CHECK_THAT(page, Contains(">analog<") && Contains(">digital<") && Contains(">host<") && Contains("runs on the host"));
}

TEST_CASE("tune on DIANA: accelerator layers tuned over their own tiles, never slower than DORY-Diana's",
          "[e2e][diana][tune]") {
  // A small L1 makes the analog and digital layers tile, so there is a choice.
  const PlatformSpec spec = load_platform(test::source_dir() + "/platforms/diana.yaml", {"l1.size=16KiB"});
  Graph g = import_onnx(test::source_dir() + "/models/diana_resnet8_ternary/model.onnx");
  assign_engines(g, spec);
  SimulatingEvaluator sim(1);
  TuneOptions opt;
  opt.top_k = 4;
  opt.simulator = &sim;
  TuneCache cache("");
  const std::vector<LayerTuneResult> res = tune_graph(g, spec, opt, cache);
  CHECK(res.size() == 12);   // the 8 analog and 4 digital layers; the host's pool and dense are untiled
  int better = 0;
  for (const LayerTuneResult& r : res) {
    INFO(r.name);
    CHECK(r.has_dory);
    CHECK(r.dory_cycles > 0);
    CHECK(r.tuned_cycles > 0);
    CHECK(r.tuned_cycles <= r.dory_cycles);
    better += r.tuned_cycles < r.dory_cycles;
  }
  CHECK(better > 0);
}

TEST_CASE("edgesim tune and sweep on DIANA", "[e2e][diana][cli]") {
  test::TempDir dir;
  const std::string net = test::source_dir() + "/models/diana_resnet8_ternary/model.onnx";
  // The child processes (tune, then run --policy tuned) share a cache in the temporary directory.
  setenv("EDGESIM_TUNE_CACHE", dir.file("cache.json").c_str(), 1);
  const auto t = test::run_edgesim(fmt::format("tune -p diana '{}'", net));
  INFO(t.output);
  CHECK(t.status == 0);
  CHECK_THAT(t.output, Contains("host layers: 2 run on whole tensors in L2 (untiled, not tuned)"));
  CHECK_THAT(t.output, Contains("L01_s1a") && Contains("L00_conv") && !Contains("L12_pool"));
  // --policy tuned reads the cache the tune filled, and runs verified
  const auto r = test::run_edgesim(fmt::format("run -p diana '{}' --policy tuned", net));
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK_THAT(r.output, Contains("verification: bit-exact"));
  setenv("EDGESIM_TUNE_CACHE", "", 1);   // back to ctest's setting: no cache file
  const std::string csv = dir.file("sweep.csv");
  const auto s = test::run_edgesim(fmt::format("sweep -p diana '{}' --set l1.size=64KiB,256KiB "
                                               "--set l1_wdig.size=16KiB,64KiB -o '{}'",
                                               net, csv));
  INFO(s.output);
  CHECK(s.status == 0);
  std::ifstream f(csv);
  std::string line;
  int rows = 0;
  while (std::getline(f, line))
    if (!line.empty() && line[0] != '#') ++rows;
  CHECK(rows == 1 + 4);   // header + 2 x 2 points
}
