// The tuned flow's depthwise kernel choice (policy_calls_dw3x3_s1, docs/timing.md
// "depthwise_3x3_s1"), hand-worked on one 3x3 stride-1 depthwise layer on gap8: 16 channels of
// 8 x 8, tiles of 8 channels x 4 rows x the whole width (4 tiles). Under `tuned` the tile's L1
// input buffer holds its 4 + 2 rows (the kernel reads the padded rows from it) and the layer's
// compute is the sum of depthwise_3x3_s1_cost over its tiles; under `dory` the same tiles keep
// the 5-row windows and the generic kernel; both run bit-exact.
#include <catch2/catch.hpp>

#include "compiler/schedule/build.h"
#include "kernels/conv/cost_dw3x3_s1.h"
#include "kernels/interpreter/interpreter.h"
#include "platforms/loader/loader.h"
#include "schedule/sched_util.h"
#include "sim/exec/executor.h"
#include "sim/exec/verify.h"
#include "support/paths.h"

using namespace edgesim;

namespace {

constexpr int64_t kC = 16, kH = 8, kW = 8;

Graph dw_layer() {
  Graph g;
  g.name = "dw3x3s1";
  const int x = g.add_tensor({"x", DType::U8, {1, kC, kH, kW}, std::nullopt, false});
  ConvParams p;
  p.kh = p.kw = 3;
  p.pad_t = p.pad_l = p.pad_b = p.pad_r = 1;
  p.groups = kC;
  const Shape ws{kC, 1, 3, 3};
  std::vector<int64_t> wv(static_cast<size_t>(shape_numel(ws)));
  for (size_t i = 0; i < wv.size(); ++i) wv[i] = static_cast<int64_t>(i % 17) - 8;
  const int w = g.add_tensor({"w", DType::I8, ws, Tensor::from_ints(DType::I8, ws, wv), false});
  const int y = g.add_tensor({"y", DType::U8, {1, kC, kH, kW}, std::nullopt, false});
  p.rq.kind = Requant::Kind::Integer;
  p.rq.axis = 1;
  p.rq.k.clear(), p.rq.lambda.clear();
  for (int64_t c = 0; c < kC; ++c) p.rq.k.push_back(1 + c % 4), p.rq.lambda.push_back(40 * (c % 5) - 80);
  p.rq.shift = 6;
  p.rq.lo = 0, p.rq.hi = 255;
  g.inputs = {x};
  g.nodes.push_back(Node{"dw", p, {x, w}, {y}, {"Conv"}});
  g.outputs = {y};
  g.validate();
  return g;
}

std::vector<LayerTiling> tiles(const Graph& g, const std::string& policy) {
  std::vector<LayerTiling> t = test::fixed_tilings(g, 8, 4, kW);
  for (LayerTiling& l : t) l.policy = policy, l.l1.db = 1;
  return t;
}

int64_t x_l1_bytes(const Schedule& s) {
  int64_t b = -1;
  for (const Buffer& buf : s.buffers)
    if (buf.level == Level::L1 && buf.name.rfind("x[0] L1", 0) == 0) b = buf.bytes;
  return b;
}

}  // namespace

TEST_CASE("tuned runs pulp_nn_depthwise_3x3_s1 on whole-width depthwise tiles, with the padded rows in L1",
          "[schedule][dw3x3_s1]") {
  const PlatformSpec spec = load_platform(test::source_dir() + "/platforms/gap8.yaml");
  const Graph g = dw_layer();
  const Schedule tuned = build_schedule(g, spec, tiles(g, "tuned"), {});
  const Schedule dory = build_schedule(g, spec, tiles(g, "dory"), {});
  // Input windows: rows [0,5) for the top tile (its pad row outside), [3,8) for the bottom one.
  CHECK(x_l1_bytes(dory) == 8 * 5 * kW);
  CHECK(x_l1_bytes(tuned) == 8 * (4 + 2) * kW);

  // Compute: 2 channel tiles x (the top tile, pad_t 1, and the bottom one, pad_b 1), each on
  // 8 channels of 5 input rows, as the model counts them for the 8 cores.
  ClusterSpec workers = spec.cluster;
  workers.n_cores = 8;
  ConvParams top = g.nodes[0].as<ConvParams>(), bottom = top;
  top.groups = bottom.groups = 8;
  top.pad_b = 0, bottom.pad_t = 0;
  const Shape x{1, 8, 5, kW}, y{1, 8, 4, kW};
  REQUIRE(depthwise_3x3_s1_applies(top, x, y));
  REQUIRE(depthwise_3x3_s1_applies(bottom, x, y));
  const KernelCost kt = depthwise_3x3_s1_cost(top, x, y, workers), kb = depthwise_3x3_s1_cost(bottom, x, y, workers);
  const int64_t model = 2 * (kt.cycles - kt.overhead) + 2 * (kb.cycles - kb.overhead);
  SimOptions timing;
  timing.data = false;
  const RunResult rt = simulate(g, tuned, spec, {}, timing).result;
  const RunResult rd = simulate(g, dory, spec, {}, timing).result;
  CHECK(rt.layers.at(0).compute_cycles == model);
  CHECK(2 * rt.layers.at(0).compute_cycles < rd.layers.at(0).compute_cycles);

  // Same arithmetic: both bit-exact against the interpreter.
  const auto in = test::random_inputs(g, 5);
  InterpreterOptions io;
  io.keep_all = true;
  const auto want = interpret(g, in, io);
  CHECK(verify_against_interpreter(g, *simulate(g, tuned, spec, in, {}).values, want).ok);
  CHECK(verify_against_interpreter(g, *simulate(g, dory, spec, in, {}).values, want).ok);
}
