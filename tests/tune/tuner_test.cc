// The autotuner's chain (compiler/tune, sim/tune): Kendall's tau, the single-layer subgraph,
// the worker pool, tune_layer's guarantees (the references are always simulated, the tuned
// layer is never slower than either), the cache (hits give the same tilings; a damaged file is
// one clear error) and the `tuned` policy end to end (schedules verified bit-exact).
#include <filesystem>
#include <fstream>
#include <functional>

#include <nlohmann/json.hpp>

#include <catch2/catch.hpp>

#include "compiler/frontend/import.h"
#include "compiler/passes/assign_engine.h"
#include "compiler/schedule/build.h"
#include "compiler/tiler/internal.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "compiler/tune/cache.h"
#include "compiler/tune/network_tune.h"
#include "compiler/pipeline/compile.h"
#include "compiler/tune/context.h"
#include "kernels/interpreter/interpreter.h"
#include "platforms/loader/loader.h"
#include "schedule/sched_util.h"
#include "sim/exec/executor.h"
#include "sim/exec/verify.h"
#include "sim/tune/sim_evaluator.h"
#include "sim/tune/subgraph.h"
#include "support/paths.h"
#include "support/run.h"
#include "support/temp_dir.h"

using namespace edgesim;

namespace {

PlatformSpec platform(const std::string& name) { return load_platform(test::source_dir() + "/platforms/" + name + ".yaml"); }
Graph resnet8() { return import_onnx(test::source_dir() + "/models/resnet8/model.onnx"); }

}  // namespace

TEST_CASE("Kendall tau", "[tune]") {
  CHECK(kendall_tau({1, 2, 3, 4}, {10, 20, 30, 40}) == Approx(1.0));
  CHECK(kendall_tau({1, 2, 3, 4}, {40, 30, 20, 10}) == Approx(-1.0));
  // pairs: (1,2)+ (1,3)+ (2,3)- -> (2 - 1) / 3
  CHECK(kendall_tau({1, 2, 3}, {1, 3, 2}) == Approx(1.0 / 3.0));
  CHECK(kendall_tau({5}, {7}) == 1.0);
}

TEST_CASE("layer_subgraph computes what the node computes in the network", "[tune]") {
  const Graph g = resnet8();
  const std::vector<Tensor> in = test::random_inputs(g, 2);
  InterpreterOptions io;
  io.keep_all = true;
  const InterpreterResult whole = interpret(g, in, io);
  for (int node : {0, 3, 14}) {
    const Graph s = layer_subgraph(g, node);
    REQUIRE(s.nodes.size() == 1);
    std::vector<Tensor> sub_in;
    for (int t : g.nodes[static_cast<size_t>(node)].inputs)
      if (!g.tensor(t).is_const()) sub_in.push_back(*whole.values[static_cast<size_t>(t)]);
    const InterpreterResult r = interpret(s, sub_in);
    CHECK(r.outputs.at(0).same_values(*whole.values[static_cast<size_t>(g.nodes[static_cast<size_t>(node)].outputs[0])]));
  }
}

TEST_CASE("the simulating evaluator gives the same cycles with 1 and 3 workers", "[tune]") {
  const Graph g = resnet8();
  const PlatformSpec spec = platform("siracusa");
  std::vector<Candidate> cands;
  const int node = g.layer_nodes().at(1);
  for (const char* pol : {"dory", "deeploy"}) {
    TilingContext ctx;
    ctx.graph = &g;
    ctx.spec = &spec;
    cands.push_back({make_policy(pol)->tile(layer_geom(g, node), ctx), pol});
  }
  for (Candidate c : std::vector<Candidate>(cands)) {
    c.tiling.l1.db = 1;
    cands.push_back(c);
  }
  const AnalyticContext actx = network_context(g, spec);
  SimulatingEvaluator one(1), three(3);
  const auto a = one.cycles(g, node, cands, spec, actx);
  CHECK(three.cycles(g, node, cands, spec, actx) == a);
  CHECK(three.cycles(g, node, cands, spec, actx) == a);   // the pool is reused
  for (int64_t c : a) CHECK(c > 0);
}

TEST_CASE("the simulating evaluator workers follow the graph content and not its address", "[tune]") {
  // One Graph object evaluated, then changed in place (a layer moved from the NPU to the cluster,
  // as the engine tuning tries it on a copy): workers forked with the first content must not
  // answer for the second. Each answer is checked against a one-job evaluator's.
  const PlatformSpec spec = platform("siracusa");
  Graph g = resnet8();
  assign_engines(g, spec);
  int node = -1;
  for (int n : g.layer_nodes())
    if (node < 0 && g.nodes[static_cast<size_t>(n)].engine == "npu") node = n;
  REQUIRE(node >= 0);
  auto cands_of = [&](const Graph& h) {
    TilingContext ctx;
    ctx.graph = &h;
    ctx.spec = &spec;
    const LayerGeom geom = layer_geom(h, node);
    std::vector<Candidate> cands;
    for (const char* pol : {"dory", "deeploy"}) {
      LayerTiling t = make_policy(pol)->tile(geom, ctx);
      if (h.nodes[static_cast<size_t>(node)].engine == "npu") t = npu_tile(geom, ctx, t, policy_budgets(spec, pol));
      for (int db : {1, 2}) {
        t.l1.db = db;
        cands.push_back({t, pol});
      }
    }
    return cands;
  };
  SimulatingEvaluator two(2), one(1);
  Graph h = g;
  const AnalyticContext actx = network_context(h, spec);
  const auto on_npu = cands_of(h);
  const std::vector<int64_t> npu = two.cycles(h, node, on_npu, spec, actx);
  CHECK(npu == one.cycles(h, node, on_npu, spec, actx));
  h.nodes[static_cast<size_t>(node)].engine = "cluster";   // the same object, other content
  h.nodes[static_cast<size_t>(node)].wmem_weights = false;
  const auto on_cluster = cands_of(h);
  const std::vector<int64_t> cluster = two.cycles(h, node, on_cluster, spec, actx);
  CHECK(cluster == one.cycles(h, node, on_cluster, spec, actx));
  CHECK(cluster != npu);
}

TEST_CASE("tune_layer: references simulated, tuned never slower than either", "[tune]") {
  const Graph g = resnet8();
  for (const char* name : {"gap8", "siracusa"}) {
    const PlatformSpec spec = platform(name);
    SimulatingEvaluator sim(1);
    TuneOptions opt;
    opt.top_k = 4;
    opt.simulator = &sim;
    const AnalyticContext actx = network_context(g, spec);
    TilingContext ctx;
    ctx.graph = &g;
    ctx.spec = &spec;
    for (int node : g.layer_nodes()) {
      INFO(name << " layer " << node);
      const LayerTuneResult r = tune_layer(g, node, ctx, spec, actx, opt);
      CHECK(r.has_dory);
      CHECK(r.has_deeploy);
      CHECK(r.dory_cycles > 0);
      CHECK(r.deeploy_cycles > 0);
      CHECK(r.tuned_cycles > 0);
      CHECK(r.tuned_cycles <= std::min(r.dory_cycles, r.deeploy_cycles));
      CHECK(r.tuned.policy.rfind("tuned", 0) == 0);
      CHECK(r.simulated >= 2);
      CHECK(r.ranked >= r.simulated - 2);
      CHECK(r.tau >= -1.0);
      CHECK(r.tau <= 1.0);
      ctx.input_in_l3 = r.tuned.l3.output_in_l3;
    }
  }
}

TEST_CASE("tune cache: a second tuning hits, a damaged file is an error naming it", "[tune]") {
  test::TempDir dir;
  const std::string path = dir.file("cache.json");
  const Graph g = resnet8();
  const PlatformSpec spec = platform("gap9");
  SimulatingEvaluator sim(1);
  TuneOptions opt;
  opt.top_k = 3;
  opt.simulator = &sim;
  std::vector<LayerTuneResult> first, second;
  {
    TuneCache c(path);
    first = tune_graph(g, spec, opt, c);
  }
  const size_t sims = sim.simulations();
  {
    TuneCache c(path);
    CHECK(c.size() == first.size());
    second = tune_graph(g, spec, opt, c);
  }
  CHECK(sim.simulations() == sims);   // nothing simulated again
  REQUIRE(second.size() == first.size());
  for (size_t i = 0; i < first.size(); ++i) {
    CHECK(second[i].cached);
    CHECK(second[i].tuned_cycles == first[i].tuned_cycles);
    CHECK(second[i].tuned.l1.n_out == first[i].tuned.l1.n_out);
    CHECK(second[i].tuned.l1.h_out == first[i].tuned.l1.h_out);
    CHECK(second[i].tuned.l1.db == first[i].tuned.l1.db);
  }
  dir.write("bad.json", "{\"format\": \"something else\"}");
  CHECK_THROWS_WITH(TuneCache(dir.file("bad.json")), Catch::Matchers::Contains("bad.json"));
  // Another edgesim's format version: not used, not overwritten (a warning says so).
  const std::string other = "{\"format\": \"edgesim-tune-cache\", \"version\": 99, \"entries\": {}}";
  dir.write("other.json", other);
  TuneCache o(dir.file("other.json"));
  CHECK(o.size() == 0);
  o.put("k", first.at(0));
  CHECK(o.size() == 1);
  std::ifstream in(dir.file("other.json"));
  CHECK(std::string(std::istreambuf_iterator<char>(in), {}) == other);
}

TEST_CASE("tune cache: two writers sharing one file lose nothing (issue 36 #6)", "[tune]") {
  // Two processes that opened the same cache each add entries; the last writer used to drop the
  // other's. Writes now merge what is on disk under a lock.
  test::TempDir dir;
  const std::string path = dir.file("shared.json");
  TuneOptions opt;   // analytic
  opt.top_k = 2;
  TuneCache a(path), b(path);
  const std::vector<LayerTuneResult> r = tune_graph(resnet8(), platform("gap8"), opt, a);
  REQUIRE(r.size() >= 2);
  b.put("from-b", r.at(0));
  b.put_network("net-b", NetworkTuneResult{});
  a.put("from-a", r.at(1));
  const TuneCache merged(path);
  CHECK(merged.size() == r.size() + 3);   // a's tuned layers, from-a, from-b and net-b
  CHECK(merged.find("from-a").has_value());
  CHECK(merged.find("from-b").has_value());
  CHECK(merged.find_network("net-b").has_value());
}

TEST_CASE("tune cache: two concurrent tune processes sharing one cache keep both results", "[tune][cli]") {
  test::TempDir dir;
  const std::string shared = dir.file("shared.json");
  const std::string models = test::source_dir() + "/models/";
  const auto tune = [&](const std::string& model, const std::string& cache) {
    return "'" + test::edgesim_bin() + "' tune -p gap8 --analytic-only '" + models + model + "/model.onnx' --cache '" +
           cache + "' >/dev/null 2>&1";
  };
  // Alone, each network's entries; together (both started at once, three times), their union.
  REQUIRE(test::run_shell(tune("resnet8", dir.file("a.json")) + " && " + tune("tiny", dir.file("b.json"))).status == 0);
  const size_t expected = TuneCache(dir.file("a.json")).size() + TuneCache(dir.file("b.json")).size();
  for (int trial = 0; trial < 3; ++trial) {
    std::filesystem::remove(shared);
    const auto r = test::run_shell("(" + tune("resnet8", shared) + ") & (" + tune("tiny", shared) + ") & wait");
    REQUIRE(r.status == 0);
    CHECK(TuneCache(shared).size() == expected);
  }
}

TEST_CASE("tune cache: a number with a fraction where an integer belongs is one error naming the key", "[tune]") {
  // nlohmann's get<int64_t> converts a floating-point number with a plain cast, undefined
  // beyond the range (the float-cast finding of fuzz_schedule_json; the cache reads the same way).
  test::TempDir dir;
  const std::string path = dir.file("cache.json");
  TuneOptions opt;   // analytic: no simulator
  opt.top_k = 2;
  {
    TuneCache c(path);
    (void)tune_graph(resnet8(), platform("gap8"), opt, c);
    c.put_network("net", NetworkTuneResult{});
  }
  std::ifstream in(path);
  const nlohmann::json good = nlohmann::json::parse(in);
  const std::string key = good.at("entries").begin().key();
  REQUIRE(TuneCache(path).find(key).has_value());   // the unmodified entries decode
  REQUIRE(TuneCache(path).find_network("net").has_value());
  const auto damaged = [&](const std::function<void(nlohmann::json&)>& change) {
    nlohmann::json j = good;
    change(j);
    return dir.write("damaged.json", j.dump());
  };
  const auto damaged_message = [&](const std::string& p, bool network) {
    try {
      const TuneCache c(p);
      if (network) (void)c.find_network("net");
      else (void)c.find(key);
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  using Catch::Matchers::Contains;
  const std::string layer = damaged([&](nlohmann::json& j) { j["entries"][key]["tuned_cycles"] = 2.55556e30; });
  CHECK_THAT(damaged_message(layer, false), Contains("damaged.json") && Contains("'tuned_cycles'") &&
                                                 Contains("not a number with a fraction or exponent"));
  const std::string option = damaged([&](nlohmann::json& j) { j["entries"][key]["options"][0]["cycles"] = -1e300; });
  CHECK_THAT(damaged_message(option, false), Contains("'cycles'"));
  const std::string size = damaged([&](nlohmann::json& j) { j["entries"][key]["ranked"] = 0.5; });
  CHECK_THAT(damaged_message(size, false), Contains("'ranked'"));
  const std::string net = damaged([&](nlohmann::json& j) { j["networks"]["net"]["dory"] = 1e19; });
  CHECK_THAT(damaged_message(net, true), Contains("'dory'"));
  const std::string branch = damaged([&](nlohmann::json& j) { j["networks"]["net"]["branch"][0] = 3e9; });
  CHECK_THAT(damaged_message(branch, true), Contains("'branch[0]'"));
  const std::string order = damaged([&](nlohmann::json& j) { j["networks"]["net"]["order"] = {1, 2.5}; });
  CHECK_THAT(damaged_message(order, true), Contains("'order'"));
}

TEST_CASE("policy tuned: schedules run verified", "[tune]") {
  test::TempDir dir;
  CompileOptions c;
  c.policy = "tuned";
  c.tune.cache_path = dir.file("cache.json");
  c.tune.make_simulator = [](int jobs) { return std::make_unique<SimulatingEvaluator>(jobs); };
  const Graph g = resnet8();
  const std::vector<Tensor> in = test::random_inputs(g, 4);
  InterpreterOptions io;
  io.keep_all = true;
  const InterpreterResult want = interpret(g, in, io);
  for (const char* name : {"gap8", "siracusa"}) {
    INFO(name);
    const PlatformSpec spec = platform(name);
    const CompiledNetwork n = compile_network(g, spec, c);
    const Schedule& s = n.schedule;
    CHECK(s.policy == "tuned");
    CHECK(s.buffering == "per-layer");
    const SimOutcome r = simulate(n.graph, s, n.spec, in);
    CHECK(verify_against_interpreter(n.graph, *r.values, want).ok);
  }
  // The context's cache file holds the plans: nothing went to a process-wide cache.
  CHECK(std::filesystem::exists(dir.file("cache.json")));
  CHECK_THROWS_WITH(make_policy("tuned"), Catch::Matchers::Contains("policy 'tuned' has no tiler of its own"));
}

TEST_CASE("run --policy tuned: progress on stderr while tuning, none when the plan is cached (issue 39 #5)", "[tune][cli]") {
  const test::TempDir d;
  const std::string cmd = "EDGESIM_TUNE_CACHE='" + d.file("cache.json") + "' '" + test::edgesim_bin() +
                          "' run -p gap8 " + test::source_dir() + "/models/resnet8/model.onnx --policy tuned --timing-only";
  const test::RunResult first = test::run_shell(cmd + " 2>&1 >/dev/null");   // stderr alone
  REQUIRE(first.status == 0);
  CHECK(first.output.find("edgesim: tuning the plan (not in the tune cache " + d.file("cache.json") + ")") == 0);
  CHECK(first.output.find("edgesim: tuning: [1/") != std::string::npos);   // a layer of how many
  CHECK(first.output.find("layer 'L00_conv' on cluster") != std::string::npos);
  const test::RunResult again = test::run_shell(cmd + " 2>&1 >/dev/null");
  REQUIRE(again.status == 0);
  CHECK(again.output.find("tuning") == std::string::npos);
  // `tune` prints the same lines (it has its own header, so no "not in the tune cache" line).
  const test::RunResult tune = test::run_shell("'" + test::edgesim_bin() + "' tune -p gap8 " + test::source_dir() +
                                               "/models/resnet8/model.onnx --no-cache 2>&1 >/dev/null");
  REQUIRE(tune.status == 0);
  CHECK(tune.output.find("edgesim: tuning: [1/") != std::string::npos);
}
