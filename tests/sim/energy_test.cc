// Energy of simulated events (kernels/energy/cost.h, sim/energy/meter.h), checked like the timing
// tests: a run with every energy of the platform set to 0 but one is compared with that one
// energy times a count computed by hand from the schedule's commands and the pure cost functions
// (bytes per memory level and direction, DMA bursts and commands, cluster MACs and busy
// core-cycles, NPU MACs and weight bytes, leakage over the wall time).
#include <algorithm>
#include <map>

#include <catch2/catch.hpp>

#include "compiler/schedule/schedule.h"
#include "kernels/cost/cluster_cost.h"
#include "kernels/dma/cost.h"
#include "kernels/energy/cost.h"
#include "platforms/loader/loader.h"
#include "sim/cluster/cluster.h"
#include "sim/flow/flow.h"
#include "support/paths.h"

using namespace edgesim;

namespace {

std::string path_of(const std::string& rel) { return test::source_dir() + "/" + rel; }

// --set values that zero every energy key of the platform, then `keep`.
std::vector<std::string> only(const std::string& platform, const std::vector<std::string>& keep) {
  const PlatformSpec s = load_platform(platform);
  std::vector<std::string> set;
  for (const std::string& k : known_platform_keys()) {
    if (k.rfind("energy.", 0) != 0) continue;
    try {
      platform_value(s, k);
    } catch (const PlatformError&) {
      continue;   // not in effect on this platform
    }
    set.push_back(k + (k.size() > 8 && k.compare(k.size() - 8, 8, ".leakage") == 0 ? "=0 W" : "=0 pJ"));
  }
  set.insert(set.end(), keep.begin(), keep.end());
  return set;
}

FlowOutcome run(const std::string& platform, const std::string& model, const std::vector<std::string>& set,
                const std::vector<std::string>& engines = {}) {
  FlowRequest req;
  req.model = path_of(model);
  req.platform = platform;
  req.overrides = set;
  req.engines = engines;
  req.sim.data = false;
  return run_flow(req);
}

Level level_of(const Schedule& s, const DmaSide& side) { return s.buffers.at(static_cast<size_t>(side.buffer)).level; }

double dyn(const EnergyStats& e, const std::string& block) {
  auto it = e.dynamic_pj.find(block);
  return it == e.dynamic_pj.end() ? 0.0 : it->second;
}

}  // namespace

TEST_CASE("energy of a transfer: bytes times the source's read and the destination's write energy", "[sim][energy]") {
  const std::string p = path_of("platforms/siracusa.yaml");
  const FlowOutcome o = run(p, "models/resnet8/model.onnx",
                            only(p, {"energy.l2.read_per_byte=1 pJ", "energy.l1.write_per_byte=10 pJ"}), {"cluster"});
  int64_t from_l2 = 0, to_l1 = 0;
  for (const Step& st : o.schedule.steps)
    for (const Command& c : st.commands)
      if (c.kind == Command::Kind::Dma) {
        if (level_of(o.schedule, c.src) == Level::L2) from_l2 += c.bytes();
        if (level_of(o.schedule, c.dst) == Level::L1) to_l1 += c.bytes();
      }
  const RunResult& r = o.sim.result;
  REQUIRE(r.energy_modelled);
  REQUIRE(from_l2 > 0);
  CHECK(dyn(r.energy, "l2") == static_cast<double>(from_l2));
  CHECK(dyn(r.energy, "l1") == 10.0 * static_cast<double>(to_l1));
  CHECK(r.energy.total_pj() == static_cast<double>(from_l2) + 10.0 * static_cast<double>(to_l1));
}

TEST_CASE("energy of transfers in every direction with L3 (gap8 MobileNetV1-128)", "[sim][energy]") {
  // Each level's read and write energy a different power of ten, so every block's energy
  // separates into its read and write bytes; MobileNetV1-128's weights stream from the HyperRAM.
  const std::string p = path_of("platforms/gap8.yaml");
  FlowRequest req;
  req.model = std::string(EDGESIM_BUILD_DIR) + "/models/mobilenetv1_128/model.onnx";
  req.platform = p;
  req.overrides = only(p, {"energy.l1.read_per_byte=1 pJ", "energy.l1.write_per_byte=10 pJ",
                           "energy.l2.read_per_byte=100 pJ", "energy.l2.write_per_byte=1000 pJ",
                           "energy.l3.read_per_byte=10000 pJ", "energy.l3.write_per_byte=100000 pJ"});
  req.sim.data = false;
  const FlowOutcome o = run_flow(req);
  std::map<Level, int64_t> read, written;
  for (const Step& st : o.schedule.steps)
    for (const Command& c : st.commands)
      if (c.kind == Command::Kind::Dma) {
        read[level_of(o.schedule, c.src)] += c.bytes();
        written[level_of(o.schedule, c.dst)] += c.bytes();
      }
  REQUIRE(read[Level::L3] > 0);
  const EnergyStats& e = o.sim.result.energy;
  auto bytes = [](int64_t r, int64_t w, double rp, double wp) { return static_cast<double>(r) * rp + static_cast<double>(w) * wp; };
  CHECK(dyn(e, "l1") == bytes(read[Level::L1], written[Level::L1], 1, 10));
  CHECK(dyn(e, "l2") == bytes(read[Level::L2], written[Level::L2], 100, 1000));
  CHECK(dyn(e, "l3") == bytes(read[Level::L3], written[Level::L3], 1e4, 1e5));
  CHECK(e.total_pj() == Approx(dyn(e, "l1") + dyn(e, "l2") + dyn(e, "l3")).epsilon(1e-12));
}

TEST_CASE("energy of the cluster DMA: its bursts and commands", "[sim][energy]") {
  const std::string p = path_of("platforms/siracusa.yaml");
  const FlowOutcome o = run(p, "models/resnet8/model.onnx",
                            only(p, {"energy.dma.per_burst=1 pJ", "energy.dma.per_command=1000 pJ"}), {"cluster"});
  DmaTiming t = dma_timing(o.spec);
  t.single_core_dma = t.single_core_dma || conventions_for(o.schedule.policy, o.spec, o.schedule.network_loop).single_core_issue;
  int64_t bursts = 0, commands = 0;
  for (const Step& st : o.schedule.steps)
    for (const Command& c : st.commands)
      if (c.kind == Command::Kind::Dma && c.engine == "cluster_dma")   // resnet8 has no depthwise gather
        for (const MchanCommand& m : dory_commands(t, c.count.data(), false)) {
          ++commands;
          bursts += dma_bursts(m.lines, m.line_bytes, t.burst_bytes);
        }
  REQUIRE(commands > 0);
  CHECK(dyn(o.sim.result.energy, "dma") == static_cast<double>(bursts) + 1000.0 * static_cast<double>(commands));
}

TEST_CASE("energy of the cluster: MACs, busy and waiting core-cycles", "[sim][energy]") {
  const std::string p = path_of("platforms/gap8.yaml");
  const std::string net = "models/resnet8/model.onnx";
  const FlowOutcome macs = run(p, net, only(p, {"energy.cluster.per_mac=1 pJ"}));
  CHECK(dyn(macs.sim.result.energy, "cluster") == static_cast<double>(macs.sim.result.total_macs));

  // Busy core-cycles: every kernel's per-core cycles (cost model) and every DMA command's issue.
  const FlowOutcome busy = run(p, net, only(p, {"energy.cluster.per_active_cycle=1 pJ"}));
  const ClusterConventions conv = conventions_for(busy.schedule.policy, busy.spec, busy.schedule.network_loop);
  ClusterSpec workers = busy.spec.cluster;
  workers.n_cores = conv.workers;
  DmaTiming t = dma_timing(busy.spec);
  t.single_core_dma = t.single_core_dma || conv.single_core_issue;
  std::vector<int64_t> per_step(busy.schedule.steps.size(), 0);
  for (size_t si = 0; si < busy.schedule.steps.size(); ++si)
    for (const Command& c : busy.schedule.steps[si].commands) {
      if (c.kind == Command::Kind::Compute) {
        std::vector<Shape> in, out;
        for (const BufView& v : c.inputs) in.push_back(v.shape);
        for (const BufView& v : c.outputs) out.push_back(v.shape);
        // As the executor prices it: operands outside L1 pay the cluster -> L2 latency per access.
        bool in_l1 = true;
        for (const auto* views : {&c.inputs, &c.outputs})
          for (const BufView& v : *views)
            in_l1 = in_l1 && busy.schedule.buffers.at(static_cast<size_t>(v.buffer)).level == Level::L1;
        ClusterCostOptions copt;
        copt.mem_latency = in_l1 ? 0 : busy.spec.l2.latency_from_cluster;
        copt.deeploy = conv.deeploy_kernels;
        for (int64_t cc : cluster_kernel_cost(c.params, in, out, workers, copt).core_cycles) per_step[si] += cc;
      } else if (c.engine == "cluster_dma") {
        for (const MchanCommand& m : dory_commands(t, c.count.data(), false)) per_step[si] += mchan_issue_cycles(t, m.two_d);
      }
    }
  int64_t total_busy = 0;
  for (int64_t b : per_step) total_busy += b;
  CHECK(dyn(busy.sim.result.energy, "cluster") == static_cast<double>(total_busy));

  // Waiting core-cycles: the workers' share of each layer's window that they did not compute.
  const FlowOutcome idle = run(p, net, only(p, {"energy.cluster.per_idle_cycle=1 pJ"}));
  int64_t waiting = 0;
  for (size_t si = 0; si < idle.sim.result.layers.size(); ++si)
    waiting += std::max<int64_t>(0, conv.workers * idle.sim.result.layers[si].cycles - per_step[si]);
  CHECK(dyn(idle.sim.result.energy, "cluster") == static_cast<double>(waiting));
}

TEST_CASE("energy of the NPU: its MACs and the weight bytes it reads from the weight memory", "[sim][energy]") {
  const std::string p = path_of("platforms/siracusa.yaml");
  const FlowOutcome o = run(p, "models/ne16_conv3x3_64/model.onnx",
                            only(p, {"energy.npu.per_mac=1 pJ", "energy.wmem.read_per_byte=3 pJ"}));
  int64_t npu_macs = 0, wmem_bytes = 0;
  for (const Step& st : o.schedule.steps)
    for (const Command& c : st.commands)
      if (c.kind == Command::Kind::Compute && c.engine == "npu") {
        npu_macs += c.macs;
        for (const BufView& v : c.inputs)
          if (o.schedule.buffers.at(static_cast<size_t>(v.buffer)).level == Level::WMEM) {
            int64_t n = static_cast<int64_t>(dtype_size(v.dtype));
            for (int64_t d : v.shape) n *= d;
            wmem_bytes += n;
          }
      }
  REQUIRE(npu_macs > 0);
  REQUIRE(wmem_bytes > 0);
  CHECK(dyn(o.sim.result.energy, "npu") == static_cast<double>(npu_macs));
  CHECK(dyn(o.sim.result.energy, "wmem") == 3.0 * static_cast<double>(wmem_bytes));
}

TEST_CASE("leakage: each block's power over the run's wall time", "[sim][energy]") {
  const std::string p = path_of("platforms/gap9.yaml");
  const FlowOutcome o = run(p, "models/tiny/model.onnx", only(p, {"energy.cluster.leakage=1 mW", "energy.l2.leakage=2.5 mW"}));
  const RunResult& r = o.sim.result;
  const double seconds = static_cast<double>(r.total_cycles) / static_cast<double>(r.freq_hz);
  CHECK(r.energy.leakage_pj.at("cluster") == Approx(1e-3 * seconds * 1e12).epsilon(1e-12));
  CHECK(r.energy.leakage_pj.at("l2") == Approx(2.5e-3 * seconds * 1e12).epsilon(1e-12));
  CHECK(r.energy.total_pj() == Approx(3.5e-3 * seconds * 1e12).epsilon(1e-12));
  CHECK(leakage_pj(1e-3, 360, 360'000'000) == Approx(1000.0));   // 1 mW for 1 us = 1 nJ
}

TEST_CASE("a platform without an energy section reports no energy", "[sim][energy]") {
  const FlowOutcome o = run(path_of("platforms/pulp_open.yaml"), "models/tiny/model.onnx", {});
  CHECK_FALSE(o.sim.result.energy_modelled);
  CHECK(o.sim.result.energy.total_pj() == 0.0);
}
