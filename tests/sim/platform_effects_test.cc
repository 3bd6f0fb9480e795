// Platform changes take effect (issue 17 point 5): each key a researcher sweeps changes a
// timing-only run the way the model says it should, through the deployment values that follow it
// (`auto`, platforms/loader/derived.h) — cores, DMA width, L2 latency, clock, NPU size, weight
// memory size, memory sizes — and a key the run does not read under the current settings is
// reported instead (derived_test.cc).
#include <catch2/catch.hpp>

#include "platforms/loader/loader.h"
#include "sim/flow/flow.h"
#include "support/paths.h"

using namespace edgesim;

namespace {

std::string path_of(const std::string& rel) { return test::source_dir() + "/" + rel; }

RunResult timing(const std::string& platform, const std::string& model, const std::vector<std::string>& set,
                 const std::vector<std::string>& engines = {}, const std::string& policy = "dory") {
  FlowRequest req;
  req.model = model.rfind("/", 0) == 0 ? model : path_of(model);
  req.platform = path_of("platforms/" + platform + ".yaml");
  req.overrides = set;
  req.engines = engines;
  req.policy = policy;
  req.sim.data = false;
  return run_flow(req).sim.result;
}

std::string mobilenet() { return std::string(EDGESIM_BUILD_DIR) + "/models/mobilenetv1_128/model.onnx"; }

}  // namespace

TEST_CASE("cluster.n_cores changes a cluster-only siracusa run and 1 core runs", "[sim][platform-effects]") {
  const std::string net = "models/resnet8/model.onnx";
  const RunResult c8 = timing("siracusa", net, {}, {"cluster"});
  const RunResult c16 = timing("siracusa", net, {"cluster.n_cores=16"}, {"cluster"});
  const RunResult c1 = timing("siracusa", net, {"cluster.n_cores=1"}, {"cluster"});
  CHECK(c8.n_cores == 8);
  CHECK(c16.n_cores == 16);
  CHECK(c1.n_cores == 1);
  CHECK(c16.total_cycles < c8.total_cycles);
  CHECK(c1.total_cycles > 4 * c8.total_cycles);
  // DORY's code built for 8 cores, run on 1 (the validation cases): the 8-core tiles on one core.
  const RunResult keep = timing("siracusa", net, {"cluster.n_cores=1", "budgets.dory.n_cores=8"}, {"cluster"});
  CHECK(keep.n_cores == 1);
  CHECK(keep.total_cycles > 4 * c8.total_cycles);
}

TEST_CASE("cluster.dma.bytes_per_cycle changes DMA-bound runs", "[sim][platform-effects]") {
  const std::string net = "models/resnet8/model.onnx";
  CHECK(timing("gap8", net, {"cluster.dma.bytes_per_cycle=4 B/cycle"}).total_cycles >
        timing("gap8", net, {}).total_cycles);
}

TEST_CASE("the L2 latency counts where the DMA model charges it", "[sim][platform-effects]") {
  const std::string net = "models/resnet8/model.onnx";
  const std::vector<std::string> ext = {"fidelity.dma_ext_latency=true"};
  const RunResult base = timing("siracusa", net, ext, {"cluster"});
  std::vector<std::string> slow = ext;
  slow.push_back("l2.latency_from_cluster=60");
  const int64_t ext_delta = timing("siracusa", net, slow, {"cluster"}).total_cycles - base.total_cycles;
  CHECK(ext_delta > 0);
  // GVSoC fidelity hides it from the DMA bursts; a tiled run's kernels read L1 only, so it does
  // not move; cluster kernels whose operands stay in L2 (policy untiled) pay it on each access.
  const int64_t gvsoc_delta = timing("siracusa", net, {"l2.latency_from_cluster=60"}, {"cluster"}).total_cycles -
                              timing("siracusa", net, {}, {"cluster"}).total_cycles;
  CHECK(gvsoc_delta == 0);
  const int64_t untiled_delta =
      timing("siracusa", net, {"l2.latency_from_cluster=60"}, {"cluster"}, "untiled").total_cycles -
      timing("siracusa", net, {}, {"cluster"}, "untiled").total_cycles;
  CHECK(untiled_delta > 0);
}

TEST_CASE("cluster.freq_hz changes L3-bound cycles and the run time", "[sim][platform-effects]") {
  if (!test::have_data(mobilenet())) return;
  const RunResult f175 = timing("gap8", mobilenet(), {});
  const RunResult f350 = timing("gap8", mobilenet(), {"cluster.freq_hz=350MHz"});
  CHECK(f350.freq_hz == 350'000'000);
  CHECK(f350.total_cycles > f175.total_cycles);   // the HyperRAM clock stays: more cluster cycles per byte
  CHECK(static_cast<double>(f350.total_cycles) / 350e6 < static_cast<double>(f175.total_cycles) / 175e6);
}

TEST_CASE("the NPU size changes NPU layers", "[sim][platform-effects]") {
  const std::string net = "models/ne16_conv3x3_64/model.onnx";
  CHECK(timing("siracusa", net, {"npu.pe_h=3", "npu.pe_w=3"}).total_cycles > timing("siracusa", net, {}).total_cycles);
}

TEST_CASE("the weight memory size decides which NPU weights stay in it", "[sim][platform-effects]") {
  if (!test::have_data(mobilenet())) return;
  const RunResult big = timing("siracusa", mobilenet(), {});
  // budgets.deeploy.wmem is auto: it follows the size.
  const RunResult small = timing("siracusa", mobilenet(), {"wmem.size=256KiB"});
  CHECK(small.total_cycles != big.total_cycles);
  int64_t l3_big = 0, l3_small = 0;
  for (const LayerStats& l : big.layers) l3_big += l.l3_bytes + l.dma_bytes_in;
  for (const LayerStats& l : small.layers) l3_small += l.l3_bytes + l.dma_bytes_in;
  CHECK(l3_small > l3_big);   // weights that no longer fit are moved by DMA
}

TEST_CASE("memory sizes move the DORY budgets and the tiles", "[sim][platform-effects]") {
  const std::string net = "models/resnet8/model.onnx";
  CHECK(timing("gap8", net, {"l1.size=128KiB"}).total_cycles < timing("gap8", net, {}).total_cycles);
  if (!test::have_data(mobilenet())) return;
  CHECK(timing("gap8", mobilenet(), {"l2.size=1MiB"}).total_cycles < timing("gap8", mobilenet(), {}).total_cycles);
}
