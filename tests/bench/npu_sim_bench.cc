// The NPU in the simulator: effective MAC/cycle of large dense 3×3, deep 1×1 and depthwise 3×3
// layers compiled for siracusa (N-EUREKA, policy deeploy: tiles of its 64,000 B L1 budget, double
// buffered) and gap9 (NE16), each simulated timing-only as a one-layer network — the layer's
// window includes DMA waits, so it is below the pure job figure of edgesim_bench_npu — with the
// weights in the weight memory and in L1. Then MobileNetV1-128 on siracusa with the NPU (weight
// memory on / off) and on the cluster alone, with the wall time of each timing-only simulation.
// Prints figures only. Usage: edgesim_bench_npu_sim [model.onnx]
#include <chrono>
#include <exception>
#include <random>
#include <string>

#include <fmt/core.h>

#include "bench_util.h"
#include "compiler/frontend/import.h"
#include "compiler/passes/assign_engine.h"
#include "compiler/schedule/build.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "platforms/loader/loader.h"
#include "sim/exec/executor.h"

using namespace edgesim;

extern "C" int sc_main(int, char**) { return 0; }   // libsystemc.so defines main()

namespace {

// One conv layer u8 -> u8 with random i8 weights and an integer requant the NPU accepts.
Graph conv_layer(int64_t cin, int64_t cout, int64_t hw, int64_t k, bool dw) {
  std::mt19937 rng(1);
  Graph g;
  g.name = "layer";
  const int x = g.add_tensor({"x", DType::U8, {1, cin, hw, hw}, std::nullopt, false});
  const Shape ws{cout, dw ? 1 : cin, k, k};
  std::vector<int64_t> wv(static_cast<size_t>(shape_numel(ws)));
  for (auto& v : wv) v = static_cast<int64_t>(rng() % 255) - 127;
  const int w = g.add_tensor({"w", DType::I8, ws, Tensor::from_ints(DType::I8, ws, wv), false});
  const int y = g.add_tensor({"y", DType::U8, {1, cout, hw, hw}, std::nullopt, false});
  ConvParams p;
  p.kh = p.kw = k;
  p.pad_t = p.pad_l = p.pad_b = p.pad_r = k / 2;
  p.groups = dw ? cin : 1;
  p.rq.kind = Requant::Kind::Integer;
  p.rq.shift = 12;
  p.rq.lo = 0, p.rq.hi = 255;
  g.inputs = {x}, g.outputs = {y};
  g.nodes.push_back(Node{"conv", p, {x, w}, {y}, {"Conv"}});
  g.validate();
  return g;
}

struct Sim {
  RunResult r;
  double ms = 0;
};

Sim simulate_timing(Graph g, const PlatformSpec& spec, const std::string& policy, const std::vector<std::string>& engines) {
  assign_engines(g, spec, engines);
  const Schedule s = build_schedule(g, spec, tile_graph(g, spec, policy), {});
  SimOptions o;
  o.data = false;
  const auto t0 = std::chrono::steady_clock::now();
  Sim out;
  out.r = simulate(g, s, spec, {}, o).result;
  out.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

double mpc(const RunResult& r) { return r.total_cycles > 0 ? double(r.total_macs) / double(r.total_cycles) : 0.0; }

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string root = EDGESIM_SOURCE_DIR;
    const PlatformSpec sira = load_platform(root + "/platforms/siracusa.yaml");
    const PlatformSpec sira_l1 = load_platform(root + "/platforms/siracusa.yaml", {"npu.weight_source=l1"});
    const PlatformSpec gap9 = load_platform(root + "/platforms/gap9.yaml");
    struct L {
      const char* name;
      int64_t cin, cout, hw, k;
      bool dw;
    };
    const L layers[] = {{"dense 3x3 256->256 32x32", 256, 256, 32, 3, false},
                        {"1x1 512->512 16x16", 512, 512, 16, 1, false},
                        {"depthwise 3x3 256 ch 32x32", 256, 256, 32, 3, true}};
    fmt::print("{:<28} {:>12} {:>14} {:>10} {:>14} {:>10} {:>14} {:>10}\n", "layer (simulated, deeploy)", "MACs",
               "siracusa WMEM", "MAC/cyc", "siracusa L1 w", "MAC/cyc", "gap9 NE16", "MAC/cyc");
    for (const L& l : layers) {
      const Graph g = conv_layer(l.cin, l.cout, l.hw, l.k, l.dw);
      const Sim a = simulate_timing(g, sira, "deeploy", {}), b = simulate_timing(g, sira_l1, "deeploy", {}),
                c = simulate_timing(g, gap9, "deeploy", {});
      fmt::print("{:<28} {:>12} {:>14} {:>10.1f} {:>14} {:>10.1f} {:>14} {:>10.1f}\n", l.name, a.r.total_macs,
                 a.r.total_cycles, mpc(a.r), b.r.total_cycles, mpc(b.r), c.r.total_cycles, mpc(c.r));
    }
    const std::string model = bench::parse_args(argc, argv).model;
    const Graph mv1 = import_onnx(model);
    fmt::print("\nMobileNetV1-128 on siracusa (timing-only simulation, wall time of one run)\n");
    for (const char* policy : {"deeploy", "dory"}) {
      const Sim w = simulate_timing(mv1, sira, policy, {}), l1 = simulate_timing(mv1, sira_l1, policy, {}),
                cl = simulate_timing(mv1, sira, policy, {"cluster"});
      fmt::print("  {:<8} NPU+WMEM {:>11} cycles ({:.1f} ms sim)   NPU, weights in L1 {:>11} ({:.1f} ms)   cluster only {:>11} "
                 "({:.1f} ms)\n",
                 policy, w.r.total_cycles, w.ms, l1.r.total_cycles, l1.ms, cl.r.total_cycles, cl.ms);
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "edgesim_bench_npu_sim: {}\n", e.what());
    return 1;
  }
  return 0;
}
