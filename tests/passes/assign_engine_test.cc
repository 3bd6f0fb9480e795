// Engine assignment (compiler/passes/assign_engine.h) on hand-made single conv layers: which
// layers the N-EUREKA (siracusa) and NE16 (gap9) take, why the others go to the cluster (the
// reason must name the offending property), engine lists that override the platform's, and the
// weight-memory homing of NPU weights (default, npu.weight_source=l1, a WMEM budget that holds
// only the first layer's weights).
#include <stdexcept>

#include <catch2/catch.hpp>

#include "compiler/ir/printer.h"
#include "compiler/passes/assign_engine.h"
#include "passes/npu_graphs.h"

using namespace edgesim;
using test::ConvShape;

namespace {

// Assigns engines to a one-conv graph (after `edit` changed its params) and returns the node's
// engine; `why` receives the reasons of the engines that refused it.
template <class Edit>
std::string engine_of(const PlatformSpec& spec, ConvShape s, Edit edit, std::string* why = nullptr) {
  test::NpuRng r(7);
  Graph g = test::npu_conv_graph(r, s);
  edit(g.nodes[0].as<ConvParams>());
  const EngineAssignment a = assign_engines(g, spec);
  REQUIRE(a.why_not.size() == 1);
  if (why) *why = a.why_not[0];
  return g.nodes[0].engine;
}
std::string engine_of(const PlatformSpec& spec, ConvShape s, std::string* why = nullptr) {
  return engine_of(spec, s, [](ConvParams&) {}, why);
}

int64_t c4(int64_t b) { return (b + 3) / 4 * 4; }

}  // namespace

TEST_CASE("engines: siracusa prefers the NPU, then the cluster", "[engines][npu]") {
  const PlatformSpec sir = test::npu_platform("siracusa");
  CHECK(engine_preference(sir) == std::vector<std::string>{"npu", "cluster"});
  const PlatformSpec gap9 = test::npu_platform("gap9");
  CHECK(engine_preference(gap9) == std::vector<std::string>{"npu", "cluster"});
  const PlatformSpec gap8 = test::npu_platform("gap8");
  CHECK(engine_preference(gap8) == std::vector<std::string>{"cluster"});
}

TEST_CASE("engines: NPU-exact conv layers go to the N-EUREKA on siracusa", "[engines][npu]") {
  const PlatformSpec spec = test::npu_platform("siracusa");
  std::string why = "unset";
  ConvShape s;   // dense 3x3 stride 1 pad 1, 8 -> 8, u8 -> u8, clamp [0, 255]
  CHECK(engine_of(spec, s, &why) == "npu");
  CHECK(why.empty());
  s.bias = true;
  CHECK(engine_of(spec, s) == "npu");
  s.pad = 0;
  CHECK(engine_of(spec, s) == "npu");
  ConvShape dw;
  dw.dw = true, dw.cin = 30;
  CHECK(engine_of(spec, dw) == "npu");
  ConvShape pw;
  pw.k = 1, pw.pad = 0, pw.cin = 33, pw.cout = 17;
  CHECK(engine_of(spec, pw) == "npu");
  ConvShape i8out;   // signed output, full int8 clamp, or ReLU [0, 127]
  i8out.out = DType::I8;
  CHECK(engine_of(spec, i8out) == "npu");
  CHECK(engine_of(spec, i8out, [](ConvParams& p) { p.rq.lo = 0; }) == "npu");
  // Round-half-up (r = 2^(shift-1)) is part of the NPU bias.
  CHECK(engine_of(spec, s, [](ConvParams& p) { p.rq.round = 32; }) == "npu");
}

TEST_CASE("engines: layers the N-EUREKA cannot run exactly go to the cluster, with the reason", "[engines][npu]") {
  const PlatformSpec spec = test::npu_platform("siracusa");
  const ConvShape s;
  std::string why;
  auto cluster_because = [&](const ConvShape& shape, auto edit, const char* word) {
    why.clear();
    const std::string e = engine_of(spec, shape, edit, &why);
    INFO("reason: " << why);
    CHECK(e == "cluster");
    CHECK_THAT(why, Catch::Matchers::Contains("npu:") && Catch::Matchers::Contains(word));
  };
  auto none = [](ConvParams&) {};
  ConvShape strided = s;
  strided.stride = 2;
  cluster_because(strided, none, "stride");
  ConvShape k5 = s;
  k5.k = 5, k5.pad = 2;
  cluster_because(k5, none, "kernel");
  cluster_because(s, [](ConvParams& p) { p.x_zp = 3; }, "zero point");
  cluster_because(s, [](ConvParams& p) { p.w_zp = {1}; }, "weight zero point");
  cluster_because(s, [](ConvParams& p) {
    p.rq.kind = Requant::Kind::Float;
    p.rq.scale.assign(8, 0.01);
  }, "float");
  cluster_because(s, [](ConvParams& p) { p.rq.div = 63; }, "divisor");
  cluster_because(s, [](ConvParams& p) { p.rq.lo = 0, p.rq.hi = 6; }, "clamp");
  cluster_because(s, [](ConvParams& p) { p.dh = p.dw = 2, p.pad_t = p.pad_l = p.pad_b = p.pad_r = 2; }, "dilation");
  // k·mul must fit the NPU's unsigned 32-bit scale.
  cluster_because(s, [](ConvParams& p) { p.rq.mul = int64_t{1} << 30, p.rq.k.assign(8, 9); }, "scale");
  // The drivers pad by at most 2 (NEUREKA_MAX_PAD).
  ConvShape pad3 = s;
  pad3.pad = 3;
  cluster_because(pad3, none, "padding");
}

TEST_CASE("engines: the NE16 takes unsigned inputs only, the N-EUREKA both", "[engines][npu]") {
  // Chain: conv 1 (u8 in, i8 out) -> conv 2 (i8 in).
  ConvShape a;
  a.out = DType::I8;
  const ConvShape b;
  for (const char* platform : {"siracusa", "gap9"}) {
    test::NpuRng r(3);
    Graph g = test::npu_conv_chain(r, {a, b});
    const EngineAssignment ea = assign_engines(g, test::npu_platform(platform));
    INFO(platform << ": " << ea.why_not[1]);
    CHECK(g.nodes[0].engine == "npu");
    CHECK(g.nodes[1].engine == (std::string(platform) == "gap9" ? "cluster" : "npu"));
    if (std::string(platform) == "gap9") CHECK_THAT(ea.why_not[1], Catch::Matchers::Contains("signed input"));
  }
}

TEST_CASE("engines: an Add node runs on the cluster", "[engines][npu]") {
  const PlatformSpec spec = test::npu_platform("siracusa");
  Graph g = test::add_graph(5, 3, 7);
  const EngineAssignment a = assign_engines(g, spec);
  CHECK(g.nodes[0].engine == "cluster");
  CHECK_FALSE(g.nodes[0].wmem_weights);
  CHECK_THAT(a.why_not.at(0), Catch::Matchers::Contains("not a convolution"));
  CHECK(a.wmem_bytes == 0);
  // With the NPU alone, nothing runs it: the error names the node.
  CHECK_THROWS_WITH(assign_engines(g, spec, {"npu"}), Catch::Matchers::Contains("Add_0"));
}

TEST_CASE("engines: the NE16 on gap9 also takes stride 2", "[engines][npu]") {
  const PlatformSpec spec = test::npu_platform("gap9");
  ConvShape s;
  s.stride = 2, s.h = 9, s.w = 11;
  CHECK(engine_of(spec, s) == "npu");
  ConvShape dw = s;
  dw.dw = true, dw.cin = 19;
  CHECK(engine_of(spec, dw) == "npu");
  ConvShape s3 = s;
  s3.stride = 3;
  std::string why;
  CHECK(engine_of(spec, s3, &why) == "cluster");
  CHECK_THAT(why, Catch::Matchers::Contains("stride"));
  // NE16 streams raw int32 accumulators out (npu.out_bits [8, 32]); a platform that lists 8-bit
  // outputs only keeps such a conv on the cluster.
  test::NpuRng r(3);
  Graph g = test::npu_conv_graph(r, ConvShape{});
  g.nodes[0].as<ConvParams>().rq = Requant{};
  g.tensors[static_cast<size_t>(g.outputs[0])].dtype = DType::I32;
  Graph g8 = g;
  assign_engines(g, spec);
  CHECK(g.nodes[0].engine == "npu");
  const EngineAssignment a = assign_engines(g8, test::npu_platform("gap9", {"npu.out_bits=[8]"}));
  CHECK(g8.nodes[0].engine == "cluster");
  CHECK_THAT(a.why_not[0], Catch::Matchers::Contains("32"));
  // gap9 has no weight memory: NPU weights are never homed there.
  Graph g2 = test::npu_conv_graph(r, ConvShape{});
  const EngineAssignment a2 = assign_engines(g2, spec);
  CHECK(g2.nodes[0].engine == "npu");
  CHECK_FALSE(g2.nodes[0].wmem_weights);
  CHECK(a2.wmem_budget == 0);
  CHECK(a2.wmem_bytes == 0);
  CHECK_THROWS_AS(assign_engines(g2, test::npu_platform("gap9", {"npu.weight_source=wmem"})), std::invalid_argument);
}

TEST_CASE("engines: an explicit engine list overrides the platform's", "[engines][npu]") {
  const PlatformSpec spec = test::npu_platform("siracusa");
  test::NpuRng r(11);
  ConvShape a, b, c;
  b.dw = true;
  c.k = 1, c.pad = 0, c.cout = 24;
  Graph g = test::npu_conv_chain(r, {a, b, c});
  const EngineAssignment e = assign_engines(g, spec, {"cluster"});
  CHECK(e.preference == std::vector<std::string>{"cluster"});
  for (const Node& n : g.nodes) {
    CHECK(n.engine == "cluster");
    CHECK_FALSE(n.wmem_weights);
  }
  CHECK(e.wmem_bytes == 0);
  CHECK_THROWS_AS(assign_engines(g, spec, {"mvu"}), std::invalid_argument);
  CHECK_THROWS_AS(assign_engines(g, spec, {"bogus"}), std::invalid_argument);
  CHECK_THROWS_AS(assign_engines(g, spec, {"npu", "bogus"}), std::invalid_argument);
  CHECK_THROWS_AS(assign_engines(g, test::npu_platform("gap8"), {"npu"}), std::invalid_argument);
  // Back to the default: all three on the NPU.
  assign_engines(g, spec);
  for (const Node& n : g.nodes) CHECK(n.engine == "npu");
}

TEST_CASE("engines: NPU weights are homed in WMEM while they fit", "[engines][npu]") {
  test::NpuRng r(5);
  ConvShape a, b, c;
  a.cin = 5, a.cout = 19, a.h = 9, a.w = 7;   // dense 3x3
  b.dw = true;                                // depthwise 3x3, 19 channels
  c.k = 1, c.pad = 0, c.cout = 37;            // 1x1 19 -> 37
  const Graph g0 = test::npu_conv_chain(r, {a, b, c});

  SECTION("default weight_source (auto): every NPU layer in WMEM") {
    const PlatformSpec spec = test::npu_platform("siracusa");
    Graph g = g0;
    const EngineAssignment e = assign_engines(g, spec);
    int64_t sum = 0;
    for (size_t k = 0; k < g.nodes.size(); ++k) {
      INFO("node " << k);
      CHECK(g.nodes[k].engine == "npu");
      CHECK(g.nodes[k].wmem_weights);
      sum += c4(npu_weight_geom_of(g, static_cast<int>(k), spec).bytes());
    }
    CHECK(sum > 0);
    CHECK(e.wmem_bytes == sum);
    CHECK(e.wmem_budget == 4 * 1024 * 1024);
    // The printed graph marks NPU nodes and their WMEM weights.
    const std::string text = print_graph(g);
    CHECK_THAT(text, Catch::Matchers::Contains("@npu wmem"));
  }
  SECTION("npu.weight_source=l1: no layer in WMEM") {
    const PlatformSpec spec = test::npu_platform("siracusa", {"npu.weight_source=l1"});
    Graph g = g0;
    const EngineAssignment e = assign_engines(g, spec);
    for (const Node& n : g.nodes) {
      CHECK(n.engine == "npu");
      CHECK_FALSE(n.wmem_weights);
    }
    CHECK(e.wmem_bytes == 0);
    CHECK(e.wmem_budget == 0);
    const std::string text = print_graph(g);
    CHECK_THAT(text, Catch::Matchers::Contains("@npu"));
    CHECK_THAT(text, !Catch::Matchers::Contains("wmem"));
  }
  SECTION("a WMEM budget that holds the first layer's weights only") {
    const PlatformSpec probe = test::npu_platform("siracusa");
    Graph gp = g0;
    assign_engines(gp, probe);
    const int64_t first = c4(npu_weight_geom_of(gp, 0, probe).bytes());
    // 5 -> 19 dense 3x3 on N-EUREKA: 19 rows of ceil(5/28)·8·32 = 256 B.
    CHECK(first == 19 * 256);
    const PlatformSpec spec = test::npu_platform("siracusa", {"budgets.deeploy.wmem=" + std::to_string(first)});
    Graph g = g0;
    const EngineAssignment e = assign_engines(g, spec);
    CHECK(e.wmem_budget == first);
    CHECK(e.wmem_bytes == first);
    REQUIRE(g.nodes.size() == 3);
    CHECK(g.nodes[0].wmem_weights);
    CHECK_FALSE(g.nodes[1].wmem_weights);
    CHECK_FALSE(g.nodes[2].wmem_weights);
    for (const Node& n : g.nodes) CHECK(n.engine == "npu");
  }
}

TEST_CASE("engines: weights shared by two convs stay on the cluster", "[engines][npu]") {
  // The NPU layer's weights are re-encoded into the NPU layout; a tensor two nodes read cannot be.
  const PlatformSpec spec = test::npu_platform("siracusa");
  test::NpuRng r(9);
  ConvShape a;
  a.cin = a.cout = 6;
  Graph g = test::npu_conv_chain(r, {a, a});
  CHECK(assign_engines(g, spec).wmem_bytes > 0);
  CHECK(g.nodes[1].engine == "npu");
  g.nodes[1].inputs[1] = g.nodes[0].inputs[1];
  const EngineAssignment e = assign_engines(g, spec);
  for (size_t k = 0; k < 2; ++k) {
    CHECK(g.nodes[k].engine == "cluster");
    CHECK_THAT(e.why_not[k], Catch::Matchers::Contains("shared"));
  }
  CHECK(e.wmem_bytes == 0);
}
