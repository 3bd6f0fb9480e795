// End to end on Deeploy's transformer-class tests (docs/verify.md "Reference networks"; the
// CNN-class ones run in run_e2e_test.cc): each of the 12 is run through the whole flow (run_flow:
// import, inputs.npz with re-typing, engines, tiling, schedule, simulation with data) on siracusa
// and gap9 under dory and deeploy and on siracusa under untiled (so are the 23 CNN-class tests,
// under untiled): the simulated outputs equal the golden model bit-exactly, the golden model equals
// outputs.npz, and the cycle total is printed.
#include <iostream>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "compiler/golden/golden.h"
#include "e2e/e2e_nets.h"
#include "sim/exec/verify.h"
#include "sim/flow/flow.h"

using namespace edgesim;

namespace {

const std::vector<std::string> kTransformers = {
    "Kernels/Integer/Attention",           "Kernels/Integer/Hardswish/Regular_RQ",
    "Kernels/Integer/RMSNorm",             "Kernels/Integer/Softmax/Regular",
    "Models/CCT/Int/ICCT",                 "Models/Transformer_DeepQuant",
    "Models/microLlama/INT8/microLlama1",  "Models/microLlama/INT8/microLlama8",
    "Models/microLlama/INT8/microLlama8_parallel", "Models/microLlama/INT8/microLlama64",
    "Models/microLlama/INT8/microLlama64_parallel", "Models/microLlama/INT8/microLlama128",
};

std::string deeploy_root() { return test::shared_networks() + "/deeploy"; }

// One run of one test; returns its total cycles (0 when the platform cannot hold it).
int64_t run_one(const std::string& dir, const std::string& platform, const std::string& policy) {
  FlowRequest req;
  req.model = dir + "/network.onnx";
  req.platform = test::source_dir() + "/platforms/" + platform + ".yaml";
  req.policy = policy;
  req.inputs = [&](Graph& g) { return load_inputs(g, dir + "/inputs.npz"); };
  const FlowOutcome o = run_flow(req);
  REQUIRE(o.sim.values.has_value());
  const InterpreterResult want = interpret(o.graph, o.inputs);
  const VerifyOutcome v = verify_against_interpreter(o.graph, *o.sim.values, want);
  INFO(v.message);
  CHECK(v.ok);
  for (const CheckResult& c : check_expected(o.graph, want, dir + "/outputs.npz")) {
    INFO(format_check(c));
    CHECK(c.ok());
  }
  CHECK(o.sim.result.total_cycles > 0);
  return o.sim.result.total_cycles;
}

}  // namespace

TEST_CASE("e2e transformers: the Deeploy transformer tests run bit-exact on siracusa and gap9 (dory, deeploy, untiled)",
          "[e2e][transformer]") {
  REQUIRE_DATA(deeploy_root());
  int runs = 0;
  for (const std::string& t : kTransformers) {
    const std::string dir = deeploy_root() + "/" + t;
    std::string line = fmt::format("  {:<46}", t.substr(t.rfind('/') + 1));
    for (const auto& [platform, policy] : std::vector<std::pair<std::string, std::string>>{
             {"siracusa", "dory"}, {"siracusa", "deeploy"}, {"siracusa", "untiled"}, {"gap9", "dory"}, {"gap9", "deeploy"}}) {
      INFO(t << " on " << platform << " under " << policy);
      line += fmt::format(" {:>11}", run_one(dir, platform, policy));
      ++runs;
    }
    std::cout << line << "\n";
  }
  std::cout << fmt::format("transformer e2e: {} runs (siracusa dory / deeploy / untiled, gap9 dory / deeploy), all "
                           "bit-exact against the golden model and outputs.npz\n", runs);
  CHECK(runs == 12 * 5);
}

TEST_CASE("e2e transformers: the Deeploy CNN tests run bit-exact on siracusa under untiled", "[e2e][transformer]") {
  REQUIRE_DATA(deeploy_root());
  int runs = 0;
  for (const std::string& f : test::onnx_below(deeploy_root())) {
    const std::string dir = f.substr(0, f.rfind('/'));
    bool tf = false;
    for (const std::string& t : kTransformers) tf = tf || dir == deeploy_root() + "/" + t;
    if (tf) continue;
    INFO(dir);
    run_one(dir, "siracusa", "untiled");
    ++runs;
  }
  CHECK(runs == 23);
}
