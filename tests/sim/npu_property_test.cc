// Property test of the NPU path end to end: random NPU-eligible conv layers (dense 3x3 with pad
// 0 or 1, depthwise 3x3, 1x1; odd sizes, channel counts that are not multiples of 4, 28 or 32, a
// few wide and large ones that must tile; random per-channel integer requant and i8 weights over
// the full range; fixed seed), sometimes as a two-layer chain, are compiled and simulated with
// data on siracusa (N-EUREKA: deeploy and dory, weights in WMEM and in L1, a shrunk L1 budget)
// and on gap9 (NE16, also stride 2): assign_engines, tile_graph, build_schedule,
// check_allocation, simulate. Every layer must run on the NPU and every output equal the untiled
// interpreter bit-exactly; the run must include schedules with several tiles. Two more cases:
// large layers under small L2 budgets (L3 slabs), and three-layer chains mixing NPU and cluster
// layers (5x5, stride 2 on siracusa, input zero point) with partial WMEM or weights homed in L3.
// EDGESIM_NPU_PROPERTY_SCALE=k runs k times as many random cases (bug hunts; default 1).
#include <cstdlib>
#include <iostream>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "compiler/golden/golden.h"
#include "compiler/ir/printer.h"
#include "compiler/passes/assign_engine.h"
#include "compiler/schedule/build.h"
#include "compiler/schedule/functional.h"
#include "compiler/schedule/json.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "kernels/interpreter/interpreter.h"
#include "passes/npu_graphs.h"
#include "sim/exec/executor.h"
#include "sim/exec/verify.h"
#include "support/tiling.h"

using namespace edgesim;
using test::ConvShape;
using test::npu_draw;

namespace {

struct Variant {
  std::string name;      // for messages
  std::string platform;  // siracusa | gap9
  std::vector<std::string> overrides;
  std::string policy;
  int wmem = 0;          // NPU weights expected in WMEM: 0 none, 1 every NPU layer's, 2 some (small budget)
  std::string constants = "auto";   // ScheduleOptions::constants ("l3": weights start in L3)
};

std::vector<Variant> variants() {
  return {
      {"siracusa deeploy wmem", "siracusa", {}, "deeploy", 1},
      {"siracusa deeploy l1-weights", "siracusa", {"npu.weight_source=l1"}, "deeploy", 0},
      {"siracusa dory wmem", "siracusa", {}, "dory", 1},
      {"siracusa dory l1-weights", "siracusa", {"npu.weight_source=l1"}, "dory", 0},
      {"siracusa deeploy wmem L1 9000", "siracusa", {"budgets.deeploy.l1=9000"}, "deeploy", 1},
      {"siracusa deeploy l1-weights L1 12000", "siracusa", {"npu.weight_source=l1", "budgets.deeploy.l1=12000"},
       "deeploy", 0},
      {"siracusa dory l1-weights l1.size 40KiB", "siracusa",
       {"npu.weight_source=l1", "l1.size=40KiB", "budgets.deeploy.l1=auto"}, "dory", 0},
      {"gap9 deeploy", "gap9", {}, "deeploy", 0},
      {"gap9 dory", "gap9", {}, "dory", 0},
      {"gap9 deeploy L1 10000", "gap9", {"budgets.deeploy.l1=10000"}, "deeploy", 0},
      // L2 budgets small enough for L3 slabs (activation rows and / or weight Cout slabs)
      {"siracusa deeploy l1-weights L2 40000", "siracusa", {"npu.weight_source=l1", "budgets.deeploy.l2=40000"},
       "deeploy", 0},
      {"siracusa dory wmem L2 48KiB", "siracusa", {"budgets.dory.l2_reserved=1916000"}, "dory", 1},
      {"gap9 dory L2 40KiB", "gap9", {"budgets.dory.l2_reserved=1399904"}, "dory", 0},
      // mixed-engine graphs: WMEM for the first layers only, constants homed in L3
      {"siracusa deeploy WMEM 6000 B", "siracusa", {"budgets.deeploy.wmem=6000"}, "deeploy", 2},
      {"siracusa dory constants in L3", "siracusa", {"npu.weight_source=l1"}, "dory", 0, "l3"},
      {"siracusa deeploy wmem constants in L3", "siracusa", {"budgets.deeploy.l1=20000"}, "deeploy", 1, "l3"},
      {"gap9 deeploy constants in L3", "gap9", {"budgets.deeploy.l1=20000"}, "deeploy", 0, "l3"},
      // realistic fidelity: TCDM bank conflicts and the NPU's HCI contention stretch jobs
      {"siracusa deeploy wmem realistic", "siracusa", {"fidelity.mode=realistic"}, "deeploy", 1},
      {"siracusa deeploy l1-weights L1 12000 realistic", "siracusa",
       {"fidelity.mode=realistic", "npu.weight_source=l1", "budgets.deeploy.l1=12000"}, "deeploy", 0},
      {"gap9 deeploy L1 10000 realistic", "gap9", {"fidelity.mode=realistic", "budgets.deeploy.l1=10000"}, "deeploy", 0},
  };
}

// A channel count in [lo, hi], nudged off multiples of 4 most of the time.
int64_t channels(test::NpuRng& r, int64_t lo, int64_t hi) {
  int64_t c = npu_draw(r, lo, hi);
  if (c % 4 == 0 && npu_draw(r, 0, 3) > 0) c = c + 1 <= hi ? c + 1 : c - 1;
  return std::max(lo, c);
}

// kind 0: dense 3x3, 1: depthwise 3x3, 2: 1x1. big: Cout > 64 and spatial > 12 (must tile).
ConvShape random_shape(test::NpuRng& r, int kind, bool big, int64_t stride) {
  ConvShape s;
  s.k = kind == 2 ? 1 : 3;
  s.dw = kind == 1;
  s.pad = kind == 2 ? 0 : npu_draw(r, 0, 1);
  s.stride = stride;
  s.bias = npu_draw(r, 0, 1) == 1;
  s.out = npu_draw(r, 0, 5) == 0 ? DType::I8 : DType::U8;
  const int64_t min_sp = s.k - 2 * s.pad;   // the kernel must fit the padded input
  if (big) {
    s.cin = s.dw ? channels(r, 65, 110) : channels(r, 9, 60);
    s.cout = channels(r, 65, 110);
    s.h = npu_draw(r, 13, 20), s.w = npu_draw(r, 13, 20);
  } else {
    s.cin = s.dw ? channels(r, 2, 40) : channels(r, 1, 40);
    s.cout = channels(r, 1, 40);
    s.h = npu_draw(r, std::max<int64_t>(1, min_sp), 12), s.w = npu_draw(r, std::max<int64_t>(1, min_sp), 12);
  }
  return s;
}

// Variety beyond k·acc + λ >> 6 that the NPU still runs exactly: a multiplier mul > 1 with a
// larger shift (NPU scale = k·mul), and ReLU clamps [0, 127] on signed outputs.
void vary_requant(Graph& g, test::NpuRng& r) {
  for (Node& n : g.nodes) {
    Requant& q = n.as<ConvParams>().rq;
    if (npu_draw(r, 0, 4) == 0) q.mul = npu_draw(r, 2, 5), q.shift = 8, q.round = npu_draw(r, 0, 1) ? 128 : 0;
    if (q.lo == -128 && npu_draw(r, 0, 1) == 0) q.lo = 0;
  }
}

struct Counts {
  int runs = 0, multi_tile = 0, in_wmem = 0, strided = 0, l3_tiled = 0, max_tiles = 0;
  int l1_mismatch = 0;   // tiler's footprint fits, the builder's 8-B-aligned L1 does not
  int l2_infeasible = 0; // rejected by the policy: small L2 (L3 variants), a cluster layer's L1 (mixed)
  int mixed = 0;         // runs with NPU and cluster layers
  int l3_weights = 0;    // NPU layers whose encoded weights start in L3
  int cluster_layers = 0;// layers assigned to the cluster (none allowed for NPU-eligible graphs)
};

// EDGESIM_NPU_PROPERTY_SCALE=k multiplies the number of random cases (default 1), for bug hunts.
int scale() {
  const char* e = std::getenv("EDGESIM_NPU_PROPERTY_SCALE");
  return e && std::atoi(e) > 0 ? std::atoi(e) : 1;
}

// Compiles and simulates g on one variant and checks everything the property promises.
void run_case(const Graph& g0, const std::vector<Tensor>& in, const InterpreterResult& want, const Variant& v,
              const PlatformSpec& spec, Counts& n, bool allow_l2_infeasible = false) {
  Graph g = g0;
  INFO(g.name << " on " << v.name << ":\n" << print_graph(g));
  assign_engines(g, spec);
  // NPU (preferred) exactly when the NPU's rules accept the node, else the cluster.
  int npu_nodes = 0;
  for (size_t k = 0; k < g.nodes.size(); ++k) {
    const Node& node = g.nodes[k];
    const std::string why = engine_rejects(g, static_cast<int>(k), "npu", spec);
    INFO("node " << k << ": " << why);
    REQUIRE(node.engine == (why.empty() ? "npu" : "cluster"));
    npu_nodes += node.engine == "npu";
    n.cluster_layers += node.engine == "cluster";
    if (node.engine != "npu" || v.wmem == 0) CHECK_FALSE(node.wmem_weights);
    if (node.engine == "npu" && v.wmem == 1) CHECK(node.wmem_weights);
  }
  std::vector<LayerTiling> ts;
  try {
    ts = test::tile_for(g, spec, v.policy);
  } catch (const TilingError& e) {
    // Acceptable: a too-small L2 under the small-L2 variants, or a cluster layer (mixed chains)
    // that the policy's cluster rules cannot fit in the shrunk L1. Never an NPU layer's L1.
    INFO(e.what());
    const bool cluster_layer = e.node() >= 0 && g.nodes.at(static_cast<size_t>(e.node())).engine == "cluster";
    REQUIRE(((allow_l2_infeasible && e.level() == "L2") || cluster_layer));
    ++n.l2_infeasible;
    return;
  }
  int64_t tiles = 0;
  bool l3 = false;
  for (const LayerTiling& t : ts) {
    const LayerGeom geom = layer_geom(g, t.node);
    INFO("tile " << t.l1.n_out << "x" << t.l1.h_out << "x" << t.l1.w_out << " db " << t.l1.db << " l1 " << t.l1.l1_bytes
                 << "; L3 slab " << t.l3.n_out << "x" << t.l3.h_out << (t.l3.tiled() ? " tiled" : ""));
    CHECK(t.l1.l1_bytes <= policy_budgets(spec, t.policy).l1);
    if (!geom.depthwise) CHECK(t.l1.n_in == geom.cin);
    tiles = std::max(tiles, tile_count(geom, t));
    l3 = l3 || t.l3.tiled();
  }
  Schedule s;
  try {
    ScheduleOptions opt;
    opt.constants = v.constants;
    s = build_schedule(g, spec, ts, opt);
  } catch (const std::runtime_error& e) {
    // A tile the NPU tiler accepted that the builder cannot place in L1 (npu.cc's footprint vs
    // the allocator's 8-B alignment, fixed in 77fafed): counted, reported and failed below.
    const std::string msg = e.what();
    if (msg.find("L1 overflows") == std::string::npos) FAIL("build_schedule: " << msg);
    WARN("NPU tile fits the tiler's L1 accounting but not the builder's: " << msg);
    ++n.l1_mismatch;
    return;
  }
  REQUIRE_NOTHROW(check_allocation(s));
  // NPU weights are stored encoded, in WMEM exactly when the engine pass homed them there.
  for (const Node& node : g.nodes) {
    if (node.kind() != OpKind::Conv) continue;
    const Placement* p = s.placement_of(node.inputs[1]);
    REQUIRE(p != nullptr);
    CHECK(p->npu_weights.has_value() == (node.engine == "npu"));
    const Level lv = s.buffers.at(static_cast<size_t>(p->buffer)).level;
    CHECK((lv == Level::WMEM) == node.wmem_weights);
    if (v.constants == "l3" && !node.wmem_weights) CHECK(lv == Level::L3);
    n.in_wmem += node.wmem_weights;
    n.l3_weights += v.constants == "l3" && lv == Level::L3 && node.engine == "npu";
  }
  const SimOutcome out = simulate(g, s, spec, in);
  REQUIRE(out.values.has_value());
  REQUIRE(out.values->outputs.size() == 1);
  CHECK(out.values->outputs[0].to_ints() == want.outputs[0].to_ints());
  const VerifyOutcome ver = verify_against_interpreter(g, *out.values, want);
  INFO(ver.message);
  CHECK(ver.ok);
  // The untimed functional executor runs the same schedule, also after a JSON round trip (NPU
  // weight layouts, WMEM buffers), to the same values.
  CHECK(execute_functional(g, s, in).outputs.at(0).to_ints() == want.outputs[0].to_ints());
  const nlohmann::json js = schedule_to_json(s);
  const Schedule back = schedule_from_json(js);
  CHECK(schedule_to_json(back) == js);
  CHECK(execute_functional(g, back, in).outputs.at(0).to_ints() == want.outputs[0].to_ints());
  // Timing does not depend on the data: a timing-only run takes the same cycles.
  SimOptions timing;
  timing.data = false;
  CHECK(simulate(g, s, spec, {}, timing).result.total_cycles == out.result.total_cycles);
  // Each layer ran on its engine.
  int npu_layers = 0, matched = 0;
  for (const LayerStats& l : out.result.layers)
    for (const Node& node : g.nodes)
      if (node.name == l.name) {
        INFO("layer " << l.name);
        CHECK(l.engine == node.engine);
        CHECK(l.cycles > 0);
        npu_layers += l.engine == "npu";
        ++matched;
      }
  CHECK(matched == static_cast<int>(g.nodes.size()));
  CHECK(npu_layers == npu_nodes);
  n.mixed += npu_nodes > 0 && npu_nodes < static_cast<int>(g.nodes.size());
  ++n.runs;
  n.multi_tile += tiles > 1;
  n.l3_tiled += l3;
  n.max_tiles = std::max<int>(n.max_tiles, static_cast<int>(tiles));
}

}  // namespace

TEST_CASE("npu property: random NPU layers simulate bit-exactly on N-EUREKA and NE16", "[npu][engines][property]") {
  const std::vector<Variant> vs = variants();
  std::vector<PlatformSpec> specs;
  for (const Variant& v : vs) specs.push_back(test::npu_platform(v.platform, v.overrides));
  test::NpuRng r(20261122);
  Counts n;
  int chains = 0;
  for (int i = 0; i < 36 * scale(); ++i) {
    const int kind = i % 3;
    const bool big = i % 4 == 3;
    // Some layers (every kind) are stride 2, for the NE16 only; the others run on any variant.
    const bool stride2 = i % 5 == 1;
    std::vector<ConvShape> layers{random_shape(r, kind, big, stride2 ? 2 : 1)};
    if (i % 7 == 5) {   // a chain: the first layer's output feeds a second NPU layer
      ConvShape second = random_shape(r, (kind + 1) % 3, false, 1);
      if (second.k == 3) second.pad = 1;
      layers.push_back(second);
      ++chains;
    }
    Graph g = test::npu_conv_chain(r, layers, fmt::format("npu_case_{}", i));
    vary_requant(g, r);
    const std::vector<Tensor> in = random_inputs(g, static_cast<uint64_t>(i) + 17);
    const InterpreterResult want = interpret(g, in);
    // Four variants per layer (three for the stride-2 ones: gap9 only), one of realistic fidelity.
    std::vector<size_t> pick;
    if (stride2)
      pick = {7, static_cast<size_t>(npu_draw(r, 8, 9)), 19};
    else
      pick = {static_cast<size_t>(npu_draw(r, 0, 3)), static_cast<size_t>(npu_draw(r, 4, 6)),
              static_cast<size_t>(npu_draw(r, 7, 9)), static_cast<size_t>(npu_draw(r, 17, 19))};
    for (size_t vi : pick) {
      run_case(g, in, want, vs[vi], specs[vi], n);
      n.strided += stride2;
    }
  }
  std::cout << fmt::format("npu property: {} simulated runs bit-checked ({} with several tiles, max {} tiles; {} stride-2 "
                           "on NE16; {} chain cases; {} layer runs with weights in WMEM; {} L1 mismatches)\n",
                           n.runs, n.multi_tile, n.max_tiles, n.strided, chains, n.in_wmem, n.l1_mismatch);
  REQUIRE(n.multi_tile > 0);
  CHECK(n.in_wmem > 0);
  CHECK(n.strided > 0);
  CHECK(n.l1_mismatch == 0);
  CHECK(n.cluster_layers == 0);   // every generated layer is NPU-eligible
}

TEST_CASE("npu property: NPU layers with L3 slabs (small L2) simulate bit-exactly", "[npu][engines][property]") {
  const std::vector<Variant> vs = variants();
  test::NpuRng r(77);
  Counts n;
  for (size_t vi = 10; vi < 13; ++vi) {
    const PlatformSpec spec = test::npu_platform(vs[vi].platform, vs[vi].overrides);
    for (int i = 0; i < 6 * scale(); ++i) {
      const int kind = i % 3;
      const bool stride2 = vs[vi].platform == "gap9" && kind != 2 && i >= 3;
      const Graph g = test::npu_conv_chain(r, {random_shape(r, kind, true, stride2 ? 2 : 1)},
                                           fmt::format("npu_l3_{}_{}", vi, i));
      const std::vector<Tensor> in = random_inputs(g, static_cast<uint64_t>(i) + 5);
      run_case(g, in, interpret(g, in), vs[vi], spec, n, true);
    }
  }
  std::cout << fmt::format("npu property (small L2): {} simulated runs bit-checked, {} with L3 slabs, {} with several "
                           "tiles, {} rejected by the policy's L2 rules\n", n.runs, n.l3_tiled, n.multi_tile,
                           n.l2_infeasible);
  CHECK(n.l3_tiled > 0);
  CHECK(n.l1_mismatch == 0);
  CHECK(n.cluster_layers == 0);
}

TEST_CASE("npu property: mixed NPU / cluster chains simulate bit-exactly", "[npu][engines][property]") {
  const std::vector<Variant> vs = variants();
  std::vector<PlatformSpec> specs;
  for (const Variant& v : vs) specs.push_back(test::npu_platform(v.platform, v.overrides));
  const size_t pool[] = {0, 1, 2, 3, 7, 8, 13, 14, 15, 16, 17, 19};
  test::NpuRng r(4242);
  Counts n;
  for (int i = 0; i < 12 * scale(); ++i) {
    // Three layers: NPU kinds (dense / depthwise 3x3, 1x1) and cluster-only ones on siracusa
    // (5x5; stride 2, which the NE16 takes), one input zero point now and then.
    std::vector<ConvShape> layers;
    for (int l = 0; l < 3; ++l) {
      const int kind = static_cast<int>(npu_draw(r, 0, 4));
      ConvShape c = random_shape(r, std::min(kind, 2), false, kind == 4 ? 2 : 1);
      if (kind == 3) c.k = 5, c.pad = 2;
      if (kind >= 3 && c.dw) c.dw = false;
      if (l == 0) c.h = npu_draw(r, 9, 18), c.w = npu_draw(r, 9, 18);
      if (c.k == 3) c.pad = 1;
      layers.push_back(c);
    }
    Graph g = test::npu_conv_chain(r, layers, fmt::format("npu_mixed_{}", i));
    vary_requant(g, r);
    if (npu_draw(r, 0, 3) == 0) g.nodes[static_cast<size_t>(npu_draw(r, 0, 2))].as<ConvParams>().x_zp = 3;
    g.validate();
    const std::vector<Tensor> in = random_inputs(g, static_cast<uint64_t>(i) + 99);
    const InterpreterResult want = interpret(g, in);
    for (int k = 0; k < 2; ++k) {
      const size_t vi = pool[npu_draw(r, 0, 11)];
      run_case(g, in, want, vs[vi], specs[vi], n);
    }
  }
  std::cout << fmt::format("npu property (mixed chains): {} simulated runs bit-checked, {} mixing NPU and cluster "
                           "layers, {} with several tiles, {} NPU layers with weights in WMEM, {} with weights from "
                           "L3; {} infeasible for a cluster layer\n",
                           n.runs, n.mixed, n.multi_tile, n.in_wmem, n.l3_weights, n.l2_infeasible);
  CHECK(n.mixed > 0);
  CHECK(n.l3_weights > 0);
  CHECK(n.l1_mismatch == 0);
}

TEST_CASE("npu: weights in WMEM save exactly their DMA bytes, not NPU cycles", "[npu][engines]") {
  // One whole-tile layer per kind (the same tile with both weight sources): the L2->L1 traffic
  // differs by the encoded weight bytes, the NPU job costs the same (docs: one beat per cycle
  // from either port), and both runs are bit-exact.
  const ConvShape shapes[] = {[] { ConvShape s; s.cin = 30, s.cout = 21, s.h = 7, s.w = 9; return s; }(),
                              [] { ConvShape s; s.dw = true, s.cin = 45, s.h = 6, s.w = 5; return s; }(),
                              [] { ConvShape s; s.k = 1, s.pad = 0, s.cin = 70, s.cout = 33, s.h = s.w = 5; return s; }()};
  const PlatformSpec wm = test::npu_platform("siracusa");
  const PlatformSpec l1 = test::npu_platform("siracusa", {"npu.weight_source=l1"});
  for (const ConvShape& shape : shapes) {
    test::NpuRng r(12);
    const Graph g0 = test::npu_conv_graph(r, shape);
    const std::vector<Tensor> in = random_inputs(g0, 3);
    const InterpreterResult want = interpret(g0, in);
    LayerStats st[2];
    int64_t wbytes = 0;
    for (int k = 0; k < 2; ++k) {
      const PlatformSpec& spec = k == 0 ? wm : l1;
      Graph g = g0;
      assign_engines(g, spec);
      REQUIRE(g.nodes[0].wmem_weights == (k == 0));
      const auto ts = tile_graph(g, spec, "deeploy");
      REQUIRE(ts[0].l1.whole);
      const Schedule s = build_schedule(g, spec, ts);
      const SimOutcome out = simulate(g, s, spec, in);
      CHECK(verify_against_interpreter(g, *out.values, want).ok);
      REQUIRE(out.result.layers.size() == 1);
      st[k] = out.result.layers[0];
      wbytes = npu_weight_geom_of(g, 0, spec).bytes();
    }
    INFO(print_graph(g0) << "WMEM: in " << st[0].dma_bytes_in << " B, compute " << st[0].compute_cycles
                         << "; L1 weights: in " << st[1].dma_bytes_in << " B, compute " << st[1].compute_cycles);
    CHECK(st[0].engine == "npu");
    CHECK(st[1].engine == "npu");
    CHECK(st[1].dma_bytes_in - st[0].dma_bytes_in == wbytes);
    CHECK(st[0].dma_bytes_out == st[1].dma_bytes_out);
    CHECK(st[0].compute_cycles == st[1].compute_cycles);
    CHECK(st[0].cycles <= st[1].cycles);
  }
}
