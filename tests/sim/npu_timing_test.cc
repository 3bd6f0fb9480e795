// The SystemC NPU component against its cost model (sim/npu/npu.h): a 1×1 conv on siracusa's
// N-EUREKA, checked to the cycle, the weight memory's effect on DMA traffic (exactly the encoded
// weight bytes), and TCDM contention in realistic mode (NPU jobs overlapping DMA transfers get
// longer, never shorter; in gvsoc mode every job lasts exactly its model cycles).
#include <catch2/catch.hpp>

#include "compiler/golden/golden.h"
#include "compiler/passes/assign_engine.h"
#include "compiler/schedule/build.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "kernels/interpreter/interpreter.h"
#include "kernels/dma/cost.h"
#include "kernels/npu/cost_neureka.h"
#include "platforms/loader/loader.h"
#include "sim/exec/executor.h"
#include "sim/exec/verify.h"
#include "support/paths.h"

using namespace edgesim;

namespace {

// x u8 [1, C, H, W] -> 1×1 conv, i8 weights, y = clamp((acc·k) >> 8, 0, 255) (no bias, r = 0).
Graph pointwise(int64_t c, int64_t h, int64_t w) {
  Graph g;
  g.name = "pw";
  const int x = g.add_tensor({"x", DType::U8, {1, c, h, w}, std::nullopt, false});
  std::vector<int64_t> wv(static_cast<size_t>(c * c));
  for (size_t i = 0; i < wv.size(); ++i) wv[i] = static_cast<int64_t>((i * 37) % 255) - 127;
  const int wt = g.add_tensor({"w", DType::I8, {c, c, 1, 1}, Tensor::from_ints(DType::I8, {c, c, 1, 1}, wv), false});
  const int y = g.add_tensor({"y", DType::U8, {1, c, h, w}, std::nullopt, false});
  ConvParams p;
  p.rq.kind = Requant::Kind::Integer;
  p.rq.axis = 1;
  p.rq.k.assign(static_cast<size_t>(c), 3);
  p.rq.lambda.assign(static_cast<size_t>(c), 0);
  p.rq.shift = 8;
  p.rq.lo = 0, p.rq.hi = 255;
  g.inputs = {x}, g.outputs = {y};
  g.nodes.push_back(Node{"Conv_0", p, {x, wt}, {y}, {"Conv"}});
  g.validate();
  return g;
}

struct Run {
  Schedule s;
  SimOutcome out;
  bool ok = false;
};

Run run(Graph& g, const PlatformSpec& spec, const std::vector<std::string>& engines = {}) {
  Run r;
  assign_engines(g, spec, engines);
  r.s = build_schedule(g, spec, tile_graph(g, spec, "deeploy"), {});
  const std::vector<Tensor> in = random_inputs(g, 3);
  SimOptions o;
  o.trace = true;
  r.out = simulate(g, r.s, spec, in, o);
  InterpreterOptions io;
  io.keep_all = true;
  r.ok = verify_against_interpreter(g, *r.out.values, interpret(g, in, io)).ok;
  return r;
}

std::vector<const TraceSlice*> npu_slices(const RunResult& r) {
  std::vector<const TraceSlice*> v;
  for (const TraceSlice& t : r.trace)
    if (t.track == "npu") v.push_back(&t);
  return v;
}

}  // namespace

TEST_CASE("npu component: a job lasts exactly the N-EUREKA per-state cycles", "[npu][sim]") {
  const PlatformSpec spec = load_platform(test::source_dir() + "/platforms/siracusa.yaml");
  Graph g = pointwise(64, 12, 12);
  // Hand derivation (docs/npu.md "N-EUREKA", 1×1, one job = the whole 64×12×12 layer):
  //   subtiles ⌈12/6⌉² = 4 of 6×6; output blocks ⌈64/32⌉ = 2; input steps ⌈64/32⌉ = 2.
  //   step  = LOAD_PREPARE 6 + ACTIVATION_LOAD 36 + 6 + MATRIXVEC_PREPARE 10 + MATRIX_VECTOR 32 = 90
  //   block = 2 steps 180 + NORM_MULTIPLY (8-bit scales 3) 8 + 9 = 17 (per-layer shift: no
  //           NORM_SHIFT; no bias: no NORM_BIAS) + OUTPUT_STREAMOUT 36 + 3 = 39  -> 236
  //   job   = 4 · 2 · 236 + JOB_END 1 + cfg_cycles 100 = 1989
  NpuJob job;
  job.op = NpuOp::Conv1x1, job.ki = 64, job.ko = 64, job.ho = 12, job.wo = 12;
  job.scale_bits = 8, job.per_channel_shift = false, job.bias = false;
  REQUIRE(neureka_job_cost(job, spec.npu).cycles == 1989);

  const Run r = run(g, spec);
  REQUIRE(r.ok);
  REQUIRE(g.nodes[0].engine == "npu");
  REQUIRE(g.nodes[0].wmem_weights);
  const auto sl = npu_slices(r.out.result);
  REQUIRE(sl.size() == 1);   // the layer fits L1 whole: one job
  CHECK(sl[0]->dur == 1989);
  const LayerStats& L = r.out.result.layers.at(0);
  CHECK(L.engine == "npu");
  CHECK(L.compute_cycles == 1989 - 101);   // work = cycles - (cfg 100 + JOB_END 1)
}

TEST_CASE("npu component: only a layer's first job runs its code cold (npu.layer_cycles)", "[npu][sim]") {
  // gap9: npu.cfg_cycles on every NE16 job, npu.layer_cycles once per layer, on its first job
  // (kernels/npu/program_cost.h). A small L1 budget splits the layer into several jobs; the
  // per-layer term changes neither the tiling nor any other job.
  const std::string path = test::source_dir() + "/platforms/gap9.yaml";
  const PlatformSpec with = load_platform(path, {"budgets.deeploy.l1=24000"});
  const PlatformSpec without = load_platform(path, {"budgets.deeploy.l1=24000", "npu.layer_cycles=0"});
  REQUIRE(with.npu.layer_cycles > 0);
  Graph a = pointwise(64, 24, 24), b = pointwise(64, 24, 24);
  const Run ra = run(a, with), rb = run(b, without);
  REQUIRE(ra.ok);
  REQUIRE(rb.ok);
  REQUIRE(a.nodes[0].engine == "npu");
  const auto sa = npu_slices(ra.out.result), sb = npu_slices(rb.out.result);
  REQUIRE(sa.size() == sb.size());
  REQUIRE(sa.size() > 1);
  CHECK(sa[0]->dur - sb[0]->dur == with.npu.layer_cycles);
  for (size_t i = 1; i < sa.size(); ++i) CHECK(sa[i]->dur == sb[i]->dur);
  CHECK(ra.out.result.total_cycles - rb.out.result.total_cycles == with.npu.layer_cycles);
}

TEST_CASE("npu component: the weight memory saves exactly the encoded weight bytes of DMA", "[npu][sim]") {
  const std::string path = test::source_dir() + "/platforms/siracusa.yaml";
  const PlatformSpec wmem = load_platform(path);
  const PlatformSpec l1 = load_platform(path, {"npu.weight_source=l1"});
  Graph a = pointwise(64, 12, 12), b = pointwise(64, 12, 12);
  const Run ra = run(a, wmem), rb = run(b, l1);
  REQUIRE(ra.ok);
  REQUIRE(rb.ok);
  CHECK(!b.nodes[0].wmem_weights);
  // 1×1 N-EUREKA rows: ⌈64/32⌉ · 32 = 64 B per output channel, 64 channels: 4096 B, loaded once.
  const NpuWeightGeom geom = npu_weight_geom_of(a, 0, wmem);
  CHECK(geom.bytes() == 4096);
  CHECK(rb.out.result.layers[0].dma_bytes_in - ra.out.result.layers[0].dma_bytes_in == 4096);
  CHECK(ra.s.high_water[static_cast<size_t>(Level::WMEM)] == 4096);
  CHECK(rb.s.high_water[static_cast<size_t>(Level::WMEM)] == 0);
  // The NPU's own cycles do not depend on where the weights come from (one beat per cycle both ways).
  CHECK(npu_slices(ra.out.result).at(0)->dur == npu_slices(rb.out.result).at(0)->dur);
}

TEST_CASE("npu component: TCDM contention stretches NPU jobs and DMA transfers that meet", "[npu][sim]") {
  const std::string path = test::source_dir() + "/platforms/siracusa.yaml";
  // A small L1 budget forces many double-buffered tiles: loads of tile i+1 overlap job i.
  const std::vector<std::string> small{"budgets.deeploy.l1=16000", "npu.weight_source=l1"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> o = small;
    o.insert(o.end(), extra.begin(), extra.end());
    return load_platform(path, o);
  };
  const PlatformSpec ideal = with({}), real = with({"fidelity.l1_conflicts=true", "fidelity.npu_hci_contention=true"});
  Graph a = pointwise(64, 24, 24), b = pointwise(64, 24, 24);
  const Run ra = run(a, ideal), rb = run(b, real);
  REQUIRE(ra.ok);
  REQUIRE(rb.ok);
  // Every NPU job and DMA transfer is at least as long as without contention; some are longer.
  auto slices = [](const RunResult& r, const std::string& track) {
    std::vector<int64_t> d;
    for (const TraceSlice& t : r.trace)
      if (t.track == track) d.push_back(t.dur);
    return d;
  };
  int64_t longer = 0;
  for (const char* track : {"npu", "dma in", "dma out"}) {
    const auto da = slices(ra.out.result, track), db = slices(rb.out.result, track);
    REQUIRE(da.size() == db.size());
    for (size_t i = 0; i < da.size(); ++i) {
      CHECK(db[i] >= da[i]);
      longer += db[i] > da[i];
    }
  }
  REQUIRE(slices(ra.out.result, "npu").size() > 2);
  CHECK(longer > 0);
  CHECK(rb.out.result.total_cycles >= ra.out.result.total_cycles);
}

namespace {

// x u8 [1, C, H, W] -> depthwise 3×3 pad 1, i8 weights, per-channel integer requant.
Graph depthwise3x3(int64_t c, int64_t h, int64_t w) {
  Graph g;
  g.name = "dw";
  const int x = g.add_tensor({"x", DType::U8, {1, c, h, w}, std::nullopt, false});
  std::vector<int64_t> wv(static_cast<size_t>(c * 9));
  for (size_t i = 0; i < wv.size(); ++i) wv[i] = static_cast<int64_t>((i * 53) % 255) - 127;
  const int wt = g.add_tensor({"w", DType::I8, {c, 1, 3, 3}, Tensor::from_ints(DType::I8, {c, 1, 3, 3}, wv), false});
  const int y = g.add_tensor({"y", DType::U8, {1, c, h, w}, std::nullopt, false});
  ConvParams p;
  p.groups = c;
  p.kh = p.kw = 3;
  p.pad_t = p.pad_b = p.pad_l = p.pad_r = 1;
  p.rq.kind = Requant::Kind::Integer;
  p.rq.axis = 1;
  p.rq.k.assign(static_cast<size_t>(c), 5);
  p.rq.lambda.assign(static_cast<size_t>(c), 0);
  p.rq.shift = 6;
  p.rq.lo = 0, p.rq.hi = 255;
  g.inputs = {x}, g.outputs = {y};
  g.nodes.push_back(Node{"Conv_0", p, {x, wt}, {y}, {"Conv"}});
  g.validate();
  return g;
}

const TraceSlice& slice_named(const RunResult& r, const std::string& name) {
  for (const TraceSlice& t : r.trace)
    if (t.name == name) return t;
  FAIL("no trace slice '" << name << "'");
  return r.trace.front();
}

}  // namespace

TEST_CASE("npu component: an NPU depthwise input is a plain copy, a cluster depthwise input a CHW gather",
          "[npu][sim]") {
  // NE16 and N-EUREKA read HWC (16 contiguous input channels per pixel), so the input tile of an
  // NPU depthwise job moves as one 1-D copy; PULP-NN's depthwise kernel reads CHW, so the same
  // tile for the cluster is gathered HWC -> CHW (one 2-D command of one-byte lines per channel).
  const std::string path = test::source_dir() + "/platforms/gap9.yaml";
  const PlatformSpec npu = load_platform(path, {"budgets.deeploy.l1=115000"});
  Graph a = depthwise3x3(16, 12, 12), b = depthwise3x3(16, 12, 12);
  const Run ra = run(a, npu), rb = run(b, npu, {"cluster"});
  REQUIRE(ra.ok);
  REQUIRE(rb.ok);
  REQUIRE(a.nodes[0].engine == "npu");
  REQUIRE(b.nodes[0].engine == "cluster");
  const DmaTiming t = dma_timing(npu);
  const int64_t whole[3] = {1, 1, 16 * 12 * 12};
  const int64_t copy = dory_copy_cost(t, whole, 0, true, false).transfer;
  const int64_t gather = dory_copy_cost(t, whole, 0, true, true, 16).transfer;
  REQUIRE(gather > copy);
  CHECK(slice_named(ra.out.result, "load x tile 0/1").dur == copy);
  CHECK(slice_named(rb.out.result, "load x tile 0/1").dur == gather);
}
