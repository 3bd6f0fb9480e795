// The BARVINN MVU array in the flow (compiler/schedule/build_mvu.cc, sim/mvu/mvu_array.h):
// SimpleConv (../shared/networks/barvinn, 64→64 3×3 on 32×32, 8-bit activations and weights
// storage, int32 outputs) runs on barvinn.yaml bit-exactly, and every MVU's job lasts exactly
// jobs · (countdown + start + done + CPI·n_instr) + drain + crossbar, with countdown 17,280
// (docs/timing.md "MVU (BARVINN) countdown model", at 8/8 bit). Capacities are checked, and nodes
// the array cannot run are an error naming the node.
#include <catch2/catch.hpp>

#include "compiler/frontend/import.h"
#include "compiler/golden/golden.h"
#include "compiler/passes/assign_engine.h"
#include "compiler/schedule/build.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "kernels/interpreter/interpreter.h"
#include "platforms/loader/loader.h"
#include "sim/exec/executor.h"
#include "sim/exec/verify.h"
#include "support/paths.h"

using namespace edgesim;

namespace {

struct MvuRun {
  int64_t cycles = 0;
  bool ok = false;
  std::vector<TraceSlice> slices;
};

MvuRun run_simpleconv(const std::vector<std::string>& overrides) {
  const PlatformSpec spec = load_platform(test::source_dir() + "/platforms/barvinn.yaml", overrides);
  Graph g = import_onnx(test::shared_networks() + "/barvinn/SimpleConv.onnx");
  assign_engines(g, spec);
  REQUIRE(g.nodes.at(0).engine == "mvu");
  const Schedule s = build_schedule(g, spec, tile_graph(g, spec, "dory"), {});
  const std::vector<Tensor> in = random_inputs(g, 5);
  SimOptions o;
  o.trace = true;
  const SimOutcome out = simulate(g, s, spec, in, o);
  InterpreterOptions io;
  io.keep_all = true;
  MvuRun r;
  r.cycles = out.result.total_cycles;
  r.ok = verify_against_interpreter(g, *out.values, interpret(g, in, io)).ok;
  for (const TraceSlice& t : out.result.trace)
    if (t.track.rfind("mvu ", 0) == 0) r.slices.push_back(t);
  return r;
}

}  // namespace

TEST_CASE("mvu array: SimpleConv runs bit-exact with the exact countdown timing", "[mvu][sim]") {
  REQUIRE_DATA(test::shared_networks() + "/barvinn/SimpleConv.onnx");
  // Per job: countdown iC·Fw·Fh·a·w·fC·(W − Fw + 1)/Sw = 1·3·3·8·8·1·30 = 17,280, plus start 1 +
  // done 1 + CPI 8 · n_instr 8 = 66. Drain: pipe 10 + oprec 32 = 42; crossbar 1.
  const int64_t job = 17280 + 66, tail = 42 + 1;
  SECTION("8 MVUs: 4 output rows each; generator geometry counts 6 rows (input rows + pads) per slice") {
    const MvuRun r = run_simpleconv({});
    CHECK(r.ok);
    REQUIRE(r.slices.size() == 8);
    for (const TraceSlice& t : r.slices) CHECK(t.dur == 6 * job + tail);
    CHECK(r.cycles == 6 * job + tail);   // 104,119: the MVUs run in parallel
  }
  SECTION("2 MVUs: 16 rows each; 18 generator rows (17 input rows + 1 pad)") {
    const MvuRun r = run_simpleconv({"mvu.count=2"});
    CHECK(r.ok);
    REQUIRE(r.slices.size() == 2);
    CHECK(r.cycles == 18 * job + tail);   // 312,271
  }
  SECTION("exact geometry: the true 16 output rows of 32 columns per MVU") {
    // countdown = 576 · Wo 32 = 18,432 (the generator counts W − Fw + 1 = 30 columns).
    const MvuRun r = run_simpleconv({"mvu.count=2", "mvu.geometry=exact"});
    CHECK(r.ok);
    CHECK(r.cycles == 16 * (18432 + 66) + tail);   // 296,011
  }
  SECTION("1 MVU: input 32·32·8 + int32 outputs 32·32·32 = 40,960 words exceed the 32,768-word RAM") {
    const PlatformSpec spec = load_platform(test::source_dir() + "/platforms/barvinn.yaml", {"mvu.count=1"});
    Graph g = import_onnx(test::shared_networks() + "/barvinn/SimpleConv.onnx");
    assign_engines(g, spec);
    REQUIRE_THROWS_WITH(build_schedule(g, spec, tile_graph(g, spec, "dory"), {}),
                        Catch::Matchers::Contains("40960 words of activation RAM") &&
                            Catch::Matchers::Contains("32768"));
  }
}

TEST_CASE("mvu array: a node the array cannot run is an error naming it", "[mvu][engines]") {
  const std::string net = test::shared_networks() + "/deeploy/Kernels/Integer/Add/Regular/network.onnx";
  REQUIRE_DATA(net);
  const PlatformSpec spec = load_platform(test::source_dir() + "/platforms/barvinn.yaml");
  Graph g = import_onnx(net);
  REQUIRE_THROWS_WITH(assign_engines(g, spec), Catch::Matchers::Contains("no engine of platform barvinn runs it") &&
                                                   Catch::Matchers::Contains("mvu: add is not a convolution"));
}
