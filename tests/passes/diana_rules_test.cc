// DIANA's engine rules (compiler/passes/diana_rules.h): HTVM's offload rules per node, the
// preference analog -> digital -> host, one warning per layer left to the host naming the broken
// rule of each accelerator, role names in engine lists, and the bad inputs of issue 13 (no
// eligible layer; a ternary layer too wide for the array).
#include <catch2/catch.hpp>

#include "compiler/frontend/import.h"
#include "compiler/passes/assign_engine.h"
#include "compiler/passes/diana_rules.h"
#include "passes/diana_graphs.h"

using namespace edgesim;
using Catch::Matchers::Contains;

namespace {

// The engine the conv (the last node) gets, and the warnings.
std::pair<std::string, std::vector<std::string>> assign(const test::DianaConv& s,
                                                        const std::vector<std::string>& engines = {}) {
  Graph g = test::diana_conv_graph(s);
  const EngineAssignment a = assign_engines(g, test::diana_platform(), engines);
  return {g.nodes.back().engine, a.warnings};
}

std::string digital_why(const test::DianaConv& s) {
  const Graph g = test::diana_conv_graph(s);
  return soma_rejects(g, static_cast<int>(g.nodes.size()) - 1, test::diana_platform());
}

std::string analog_why(const test::DianaConv& s) {
  const Graph g = test::diana_conv_graph(s);
  return aimc_rejects(g, static_cast<int>(g.nodes.size()) - 1, test::diana_platform());
}

}  // namespace

TEST_CASE("diana rules: the digital accelerator takes HTVM's conv and says which rule a conv breaks",
          "[diana][engines]") {
  test::DianaConv s;
  CHECK(digital_why(s).empty());
  CHECK(assign(s).first == "npu");
  CHECK(assign(s).second.empty());
  auto with = [&](auto f) {
    test::DianaConv t = s;
    f(t);
    return digital_why(t);
  };
  CHECK_THAT(with([](auto& t) { t.k = 4, t.pad = 2; }), Contains("kernel 4x4, expected one of [1, 3, 5, 7]"));
  CHECK_THAT(with([](auto& t) { t.pad = 0; }), Contains("only 'SAME' padding (1,1 for 3x3)"));
  CHECK_THAT(with([](auto& t) { t.stride = 3; }), Contains("strides 3x3, expected one of [1, 2]"));
  CHECK_THAT(with([](auto& t) { t.shift = 40; }), Contains("shift factor 40 outside [0, 31]"));
  CHECK_THAT(with([](auto& t) { t.lo = 0, t.hi = 255; }), Contains("clip [0, 255] exceeds the int8 output [-128, 127]"));
  CHECK_THAT(with([](auto& t) { t.cin = 3, t.cout = 4, t.h = t.w = 5; }),
             Contains("input has 75 elements, not divisible by 4"));
  CHECK_THAT(with([](auto& t) { t.cout = 5, t.h = t.w = 3; }), Contains("output has 45 elements, not divisible by 4"));
  CHECK_THAT(with([](auto& t) { t.groups = 2; }), Contains("groups 2, expected 1 or 16 (depthwise)"));
  CHECK(with([](auto& t) { t.groups = 16; }).empty());   // depthwise
  // a uint8 input reaching 255 is not int8 (the requant of a Deeploy layer, say)
  Graph g = test::diana_conv_graph(s);
  g.tensors[static_cast<size_t>(g.inputs[0])].dtype = DType::U8;
  CHECK_THAT(soma_rejects(g, 0, test::diana_platform()), Contains("input values span [0, 255], outside int8"));
  // a requant multiplier that is not a power of two
  g = test::diana_conv_graph(s);
  g.nodes[0].as<ConvParams>().rq.k = {3};
  CHECK_THAT(soma_rejects(g, 0, test::diana_platform()), Contains("requant multiplier 3 (channel 0) is not a power of two"));
}

TEST_CASE("diana rules: the analog core takes ternary convs on 7-bit inputs with a 6-bit ADC clip",
          "[diana][engines]") {
  test::DianaConv s;
  s.ternary = true, s.in_lo = 0, s.in_hi = 63, s.lo = 0, s.hi = 31, s.shift = 2;
  CHECK(analog_why(s).empty());
  CHECK(assign(s).first == "aimc");
  test::DianaConv t = s;
  t.in_lo = -128, t.in_hi = 127;   // the DACs take [-63, 63]
  CHECK_THAT(analog_why(t), Contains("input values span [-128, 127], outside the DACs' 7-bit signed-magnitude range [-63, 63]"));
  CHECK(assign(t).first == "npu");   // int8-valued ternary weights: digital, no warning
  CHECK(assign(t).second.empty());
  t = s;
  t.lo = -128, t.hi = 127;
  CHECK_THAT(analog_why(t), Contains("clip [-128, 127] exceeds the ADC's 6-bit range [-32, 31]"));
  t = s;
  t.ternary = false;
  CHECK_THAT(analog_why(t), Contains("expected ternary [-1, 1]"));
  t = s;
  t.groups = 16;
  CHECK_THAT(analog_why(t), Contains("groups 16, expected 1"));
}

TEST_CASE("diana rules: a ternary layer too wide for the array is rejected with its row count",
          "[diana][engines]") {
  test::DianaConv s;
  s.ternary = true, s.in_lo = 0, s.in_hi = 63, s.lo = -32, s.hi = 31, s.cin = 256, s.h = s.w = 4;
  CHECK_THAT(analog_why(s), Contains("needs 2304 rows (256 input channels x 3x3), the array has 1152 (at most 128 "
                                     "channels for 3x3): input channels cannot be split over passes"));
  // Left to the host when the digital accelerator is not allowed: one warning, naming the rule.
  const auto [engine, warnings] = assign(s, {"analog", "host"});
  CHECK(engine == "cluster");
  REQUIRE(warnings.size() == 1);
  CHECK_THAT(warnings[0], Contains("node 1 'conv' (conv) runs on the host: analog: needs 2304 rows"));
  // 1x1 over 1152 channels still fits the rows; 1153 does not
  s.k = 1, s.pad = 0, s.cin = 1152;
  CHECK(analog_why(s).empty());
  s.cin = 1156;
  CHECK_THAT(analog_why(s), Contains("needs 1156 rows"));
}

TEST_CASE("diana engines: no eligible layer runs everything on the host with one warning per layer",
          "[diana][engines]") {
  // models/resnet8 is Deeploy's dialect: uint8 activations in [0, 255], multipliers not powers of two
  Graph g = import_onnx(test::source_dir() + "/models/resnet8/model.onnx");
  const EngineAssignment a = assign_engines(g, test::diana_platform());
  CHECK(a.preference == std::vector<std::string>{"aimc", "npu", "cluster"});
  CHECK(a.labels == std::vector<std::string>{"analog", "digital", "host"});
  for (const Node& n : g.nodes) CHECK(n.engine == "cluster");
  CHECK(a.warnings.size() == g.layer_nodes().size());
  CHECK_THAT(a.warnings[0], Contains("node 0 'L00_conv' (conv) runs on the host: analog: weights span"));
  CHECK_THAT(a.warnings[0], Contains("; digital: requant multiplier"));
  CHECK_THAT(engine_reason(g, a, 0), Contains("not analog: weights span"));
  // role names are engine names on DIANA, in lists and in the YAML key
  CHECK(assign_engines(g, test::diana_platform(), {"digital", "host"}).preference ==
        std::vector<std::string>{"npu", "cluster"});
  CHECK(engine_role(test::diana_platform(), "npu") == "digital");
  CHECK(engine_role(test::diana_platform(), "cluster") == "host");
  CHECK(engine_role(load_platform(test::source_dir() + "/platforms/gap9.yaml"), "npu") == "npu");
  CHECK_THROWS_WITH(assign_engines(g, test::diana_platform(), {"mvu"}), Contains("no mvu section"));
}

TEST_CASE("diana rules: an add is digital with one shift and no offset, not with a per-channel requant",
          "[diana][engines]") {
  // y = clamp((a + b + λ[c]) >> 3): the digital add pattern (add, right_shift, clip, cast) has one
  // shift and no offset, so only λ = 0 for every channel maps to it.
  auto add_graph = [](std::vector<int64_t> lambda) {
    Graph g;
    g.name = "diana_add";
    const Shape s{1, 4, 4, 4};
    const int a = g.add_tensor({"a", DType::I8, s, std::nullopt, false});
    const int b = g.add_tensor({"b", DType::I8, s, std::nullopt, false});
    const int y = g.add_tensor({"y", DType::I8, s, std::nullopt, false});
    AddParams p;
    p.rq.kind = Requant::Kind::Integer;
    p.rq.axis = 1;
    p.rq.k = {1};
    p.rq.lambda = std::move(lambda);
    p.rq.shift = 3;
    p.rq.lo = -128, p.rq.hi = 127;
    g.inputs = {a, b}, g.outputs = {y};
    g.nodes.push_back(Node{"add", p, {a, b}, {y}, {"Add"}});
    g.validate();
    return g;
  };
  const PlatformSpec spec = test::diana_platform();
  CHECK(soma_rejects(add_graph({0}), 0, spec).empty());
  CHECK_THAT(soma_rejects(add_graph({4}), 0, spec), Contains("the requant adds 4"));
  // channel 0's λ is 0, the others' are not: one channel's constants must not stand for all
  CHECK_THAT(soma_rejects(add_graph({0, 8, 8, 8}), 0, spec), Contains("varies per channel"));
  Graph g = add_graph({0, 8, 8, 8});
  const EngineAssignment a = assign_engines(g, spec);
  CHECK(g.nodes[0].engine == "cluster");
  REQUIRE(a.warnings.size() == 1);
  CHECK_THAT(a.warnings[0], Contains("node 0 'add' (add) runs on the host: ") && Contains("varies per channel"));
}
