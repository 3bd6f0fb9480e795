// An engine added from outside the tree (docs/extending.md "An engine"): this file and its one
// registration line (add_engine) are all it takes for `edgesim run --engines fake,cluster`.
// The fake accelerator runs every 2-D convolution, each tile in exactly 1 cycle, on operands the
// cluster's tiling places in L1; the schedule names it on its Compute commands, the simulator
// drives it through its compute model, and the results stay bit-exact (every engine computes
// with the reference kernels on the simulated memories).
#include <algorithm>
#include <memory>

#include <catch2/catch.hpp>

#include "compiler/passes/engine_registry.h"
#include "platforms/loader/engine_names.h"
#include "platforms/loader/loader.h"
#include "sim/cli/run_session.h"
#include "sim/core/engine.h"
#include "sim/engines/compute_model.h"
#include "sim/soc/soc.h"
#include "support/paths.h"

using namespace edgesim;

namespace {

// The compiler's view: present wherever there is a cluster (it shares the cluster's L1), runs
// convolutions only, never chosen unless an engine list names it.
EngineDef fake_engine() {
  EngineDef d;
  d.name = "fake";
  d.missing = [](const PlatformSpec& s) { return s.cluster.present ? "" : "the fake accelerator needs a cluster"; };
  d.rejects = [](const Graph& g, int node, const PlatformSpec&) -> std::string {
    return g.nodes.at(static_cast<size_t>(node)).kind() == OpKind::Conv ? "" : "not a convolution";
  };
  return d;
}

// The simulator's view: one job at a time, in program order, 1 cycle each, all of it compute.
class FakeModel : public ComputeModel {
 public:
  explicit FakeModel(JobListener& l) : engine_(std::make_unique<ProgramOrderEngine>("fake", l, "fake")) {}
  void submit(Job& j, const Command&, const JobContext&) override {
    j.kind = Job::Kind::Kernel;
    j.duration = j.work = 1;
    j.lead = 0;
    j.kernel = "fake_conv";
    j.core_cycles.clear();
    engine_->submit(&j);
  }
  std::string track(const Command&) const override { return "fake"; }

 private:
  std::unique_ptr<ProgramOrderEngine> engine_;
};

std::unique_ptr<ComputeModel> fake_model(Soc& s, const PlatformSpec&, JobListener& l) {
  return s.cluster ? std::make_unique<FakeModel>(l) : nullptr;
}

// The registration: the compiler's definition and the simulator's model under one name, removed
// again when the test ends so later tests see the built-in engines only.
struct TestEngine {
  TestEngine() { add_engine(fake_engine(), fake_model); }   // the one registration line
  ~TestEngine() { remove_engine("fake"); }
};

cli::RunSession run(const std::vector<std::string>& engines) {
  cli::RunOptions a;
  a.model = test::source_dir() + "/models/resnet8/model.onnx";
  a.platform = test::source_dir() + "/platforms/gap8.yaml";
  a.policy = "dory";
  a.engines = engines;
  return cli::run_session(a);
}

}  // namespace

TEST_CASE("engines: an engine registered from a test runs edgesim run end to end, bit-exact", "[engines]") {
  const cli::RunSession cluster = run({});
  {
    const TestEngine registered;
    CHECK_THROWS_WITH(add_engine(fake_engine(), fake_model), Catch::Contains("registered already"));
    const auto names = engine_list_names();
    CHECK(std::find(names.begin(), names.end(), "fake") != names.end());
    // A platform may name it in `engines:` (the schema asks the list when the value is read).
    CHECK(load_platform(test::source_dir() + "/platforms/gap8.yaml", {"engines=[fake,cluster]"}).engines ==
          std::vector<std::string>{"fake", "cluster"});
    const cli::RunSession fake = run({"fake", "cluster"});
    const RunResult& r = fake.flow.sim.result;
    CHECK(r.verified);
    int convs = 0;
    for (const LayerStats& L : r.layers) {
      if (L.op.find("conv") == std::string::npos) {
        CHECK(L.engine == "cluster");
        continue;
      }
      ++convs;
      CHECK(L.engine == "fake");
      CHECK(L.compute_cycles == L.tiles);   // 1 cycle per job, all of it compute (the overhead is the cores' DMA issue)
    }
    CHECK(convs > 0);
    CHECK(r.total_cycles < cluster.flow.sim.result.total_cycles);
  }
  // Unregistered: an engine list that names it is an error naming the engine.
  CHECK_THROWS_WITH(run({"fake", "cluster"}), Catch::Contains("fake"));
  const auto names = engine_list_names();
  CHECK(std::find(names.begin(), names.end(), "fake") == names.end());
  CHECK_THROWS_WITH(load_platform(test::source_dir() + "/platforms/gap8.yaml", {"engines=[fake,cluster]"}),
                    Catch::Contains("'fake' is not one of"));
}

TEST_CASE("engines: the platform's engine names and the compiler's built-in definitions name the same engines",
          "[engines]") {
  std::vector<std::string> defined;
  for (const EngineDef& d : builtin_engine_defs()) defined.push_back(d.name);
  CHECK(defined == engine_names());   // the built-ins, in the same order, before any registration
}
