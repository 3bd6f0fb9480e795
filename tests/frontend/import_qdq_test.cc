// Frontend on standard ONNX int8 (docs/dialects.md "Standard ONNX int8"): the libonnx-testdata node
// tests imported with ImportOptions::constant_inputs, QDQ groups folded into integer nodes with the
// float requant, edgesim's own QDQ "tiny" model, and small QDQ graphs written at test time.
#include <cmath>

#include <catch2/catch.hpp>

#include "frontend/onnx_writer.h"
#include "kernels/interpreter/interpreter.h"
#include "support/paths.h"

using namespace edgesim;
using edgesim::test::OnnxWriter;

namespace {

std::string node_test(const std::string& name) { return test::onnx_testdata() + "/" + name; }

// Imports a node test binding every input except input 0 as a constant (input_<i>.pb).
Graph import_node_test(const std::string& dir) {
  const std::string model = dir + "/model.onnx";
  const auto names = onnx_input_names(model);
  ImportOptions opt;
  for (size_t i = 1; i < names.size(); ++i)
    opt.constant_inputs.emplace_back(names[i],
                                     read_tensor_proto_file(dir + "/test_data_set_0/input_" + std::to_string(i) + ".pb"));
  return import_onnx(model, opt);
}

}  // namespace

TEST_CASE("frontend QDQ: node tests need their scales as constants", "[frontend][qdq]") {
  const std::string dir = node_test("test_qlinearconv");
  REQUIRE_DATA(dir);
  const auto names = onnx_input_names(dir + "/model.onnx");
  CHECK(names == std::vector<std::string>{"x", "x_scale", "x_zero_point", "w", "w_scale", "w_zero_point",
                                          "y_scale", "y_zero_point"});
  std::string err;
  try {
    import_onnx(dir + "/model.onnx");
  } catch (const ImportError& e) {
    err = e.what();
  }
  CHECK(err.find("'x_scale' must be a constant") != std::string::npos);
  const Tensor x = read_tensor_proto_file(dir + "/test_data_set_0/input_0.pb");
  CHECK(x.dtype() == DType::U8);
  CHECK(x.shape() == Shape{1, 1, 7, 7});
  CHECK(read_tensor_proto_file(dir + "/test_data_set_0/input_1.pb").dtype() == DType::F32);
}

TEST_CASE("frontend QDQ: node tests import as single integer nodes", "[frontend][qdq]") {
  SECTION("QLinearConv -> conv with zero points and float requant") {
    const std::string dir = node_test("test_qlinearconv");
    REQUIRE_DATA(dir);
    const Graph g = import_node_test(dir);
    CHECK(g.dialect == "qdq");
    REQUIRE(g.nodes.size() == 1);
    REQUIRE(g.inputs.size() == 1);
    const auto& p = g.nodes[0].as<ConvParams>();
    CHECK(p.x_zp != 0);
    CHECK(p.rq.kind == Requant::Kind::Float);
    CHECK(p.rq.lo == 0);
    CHECK(p.rq.hi == 255);
    CHECK(g.tensor(g.outputs[0]).dtype == DType::U8);
  }
  SECTION("QLinearMatMul 3-D -> batched gemm") {
    const std::string dir = node_test("test_qlinearmatmul_3D");
    REQUIRE_DATA(dir);
    const Graph g = import_node_test(dir);
    REQUIRE(g.nodes.size() == 1);
    CHECK(g.nodes[0].kind() == OpKind::Gemm);
    CHECK(g.tensor(g.outputs[0]).shape == Shape{2, 2, 3});
    CHECK(g.nodes[0].as<GemmParams>().rq.kind == Requant::Kind::Float);
  }
  SECTION("ConvInteger with padding -> raw int32 conv") {
    const std::string dir = node_test("test_convinteger_with_padding");
    REQUIRE_DATA(dir);
    const Graph g = import_node_test(dir);
    REQUIRE(g.nodes.size() == 1);
    const auto& p = g.nodes[0].as<ConvParams>();
    CHECK(p.pad_t == 1);
    CHECK(p.kh == 2);
    CHECK(p.rq.kind == Requant::Kind::None);
    CHECK(g.tensor(g.outputs[0]).dtype == DType::I32);
  }
  SECTION("MatMulInteger -> gemm with a_zp / b_zp") {
    const std::string dir = node_test("test_matmulinteger");
    REQUIRE_DATA(dir);
    const Graph g = import_node_test(dir);
    REQUIRE(g.nodes.size() == 1);
    const auto& p = g.nodes[0].as<GemmParams>();
    CHECK(p.a_zp == std::vector<int64_t>{12});
    CHECK(p.b_zp.empty());   // b_zero_point 0 is dropped
    CHECK(g.tensor(g.outputs[0]).dtype == DType::I32);
  }
  SECTION("QuantizeLinear per axis -> quantize node") {
    const std::string dir = node_test("test_quantizelinear_axis");
    REQUIRE_DATA(dir);
    const Graph g = import_node_test(dir);
    REQUIRE(g.nodes.size() == 1);
    const auto& p = g.nodes[0].as<QuantizeParams>();
    CHECK(p.axis == 1);
    CHECK(p.scale.size() == 3);
    CHECK(g.tensor(g.inputs[0]).dtype == DType::F32);
    CHECK(g.tensor(g.outputs[0]).dtype == DType::U8);
  }
  SECTION("DequantizeLinear -> dequantize node with a float output") {
    const std::string dir = node_test("test_dequantizelinear");
    REQUIRE_DATA(dir);
    const Graph g = import_node_test(dir);
    REQUIRE(g.nodes.size() == 1);
    CHECK(g.nodes[0].kind() == OpKind::Dequantize);
    CHECK(g.tensor(g.inputs[0]).dtype == DType::U8);
    CHECK(g.tensor(g.outputs[0]).dtype == DType::F32);
  }
}

TEST_CASE("frontend QDQ: the tiny model folds every DQ/Q group", "[frontend][qdq]") {
  const std::string path = test::source_dir() + "/models/tiny/model.onnx";
  REQUIRE_DATA(path);
  const Graph g = import_onnx(path);
  CHECK(g.dialect == "qdq");
  CHECK(g.layer_nodes().size() == 6);
  CHECK(g.total_macs() == 68256);
  CHECK(g.tensor(g.inputs[0]).dtype == DType::U8);
  CHECK(g.tensor(g.outputs[0]).dtype == DType::I8);
  for (const Node& n : g.nodes) {
    CHECK(n.kind() != OpKind::Dequantize);
    CHECK(n.kind() != OpKind::Quantize);
  }
  const Node& conv1 = g.nodes.at(0);
  const auto& c1 = conv1.as<ConvParams>();
  CHECK(c1.x_zp == 128);
  CHECK(c1.rq.lo == 0);   // Relu with zero point 0
  CHECK(c1.bias.size() == 8);
  CHECK(conv1.fused == std::vector<std::string>{"Conv", "Relu", "QuantizeLinear"});
  CHECK(std::fabs(c1.rq.scale.at(0) - 0.00412021) < 1e-7);
  const auto& dw = g.nodes.at(2).as<ConvParams>();
  CHECK(dw.groups == 8);
  CHECK(dw.rq.scale.size() == 8);
  CHECK(dw.rq.axis == 1);
  const auto& gap = g.nodes.at(4).as<PoolParams>();
  CHECK(gap.kind == PoolParams::Kind::Sum);
  CHECK(gap.global);
  CHECK(gap.rq.scale.at(0) == 1.0 / 32);
  CHECK(g.nodes.at(5).kind() == OpKind::Reshape);
  const auto& fc = g.nodes.at(6).as<GemmParams>();
  CHECK(fc.rq.zp == 36);
  CHECK(fc.rq.lo == -128);
}

TEST_CASE("frontend: edgesim's Deeploy-dialect models import", "[frontend][deeploy]") {
  const std::string resnet = test::source_dir() + "/models/resnet8/model.onnx";
  REQUIRE_DATA(resnet);
  const Graph g = import_onnx(resnet);
  CHECK(g.total_macs() == 12501632);
  CHECK(g.tensor(g.outputs[0]).dtype == DType::I32);
  const std::string mnv1 = test::source_dir() + "/models/mobilenetv1_128/model.onnx";
  if (!std::filesystem::exists(mnv1)) return;   // built by the CMake target `models`, not committed
  const Graph m = import_onnx(mnv1);
  CHECK(m.layer_nodes().size() == 29);
  CHECK(m.total_macs() == 186400768);
  const Node& pool = m.nodes.at(static_cast<size_t>(m.layer_nodes().at(27)));
  const auto& pp = pool.as<PoolParams>();
  CHECK(pp.kind == PoolParams::Kind::Sum);
  CHECK(pp.rq.round == 8);
  CHECK(pp.rq.shift == 4);
  CHECK(pp.rq.lambda == std::vector<int64_t>{-8});
}

TEST_CASE("frontend QDQ: quantize rounds half to even (ties 0.5, 2.5, -2.5)", "[frontend][qdq]") {
  test::TempDir dir;
  OnnxWriter w;
  w.input("x", onnx::TensorProto::FLOAT, {6}).output("y", onnx::TensorProto::INT8, {6});
  w.init_f("s", {}, {1.0f}).init_i("z", {}, {0}, onnx::TensorProto::INT8);
  w.node("QuantizeLinear", {"x", "s", "z"}, {"y"});
  const Graph g = import_onnx(w.save(dir, "q.onnx"));
  REQUIRE(g.nodes.size() == 1);
  CHECK(g.tensor(g.outputs[0]).dtype == DType::I8);
  const auto r = interpret(g, {Tensor::from_f32({6}, {0.5f, 1.5f, 2.5f, -2.5f, -0.5f, 300.f})});
  CHECK(r.outputs.at(0).to_ints() == std::vector<int64_t>{0, 2, 2, -2, 0, 127});
}

TEST_CASE("frontend QDQ: pools with a different output scale keep the input zero point", "[frontend][qdq]") {
  test::TempDir dir;
  OnnxWriter w;
  w.input("q", onnx::TensorProto::UINT8, {1, 2, 4, 4}).output("y", onnx::TensorProto::UINT8, {1, 2, 1, 1});
  w.init_f("xs", {}, {0.5f}).init_i("xz", {}, {10}, onnx::TensorProto::UINT8);
  w.init_f("ys", {}, {0.25f}).init_i("yz", {}, {3}, onnx::TensorProto::UINT8);
  w.node("DequantizeLinear", {"q", "xs", "xz"}, {"d"});
  w.node("GlobalAveragePool", {"d"}, {"p"}, "gap");
  w.node("QuantizeLinear", {"p", "ys", "yz"}, {"y"});
  const Graph g = import_onnx(w.save(dir, "gap.onnx"));
  REQUIRE(g.nodes.size() == 1);
  const auto& p = g.nodes[0].as<PoolParams>();
  CHECK(p.kind == PoolParams::Kind::Sum);
  CHECK(p.x_zp == 10);
  CHECK(p.rq.zp == 3);
  CHECK(p.rq.scale.at(0) == Approx(0.5 / (16 * 0.25)));
  // mean of (12 − 10)·0.5 = 1.0 -> 1.0 / 0.25 + 3 = 7; channel 1: (26 − 10)·0.5 = 8 -> 35
  std::vector<int64_t> v(32, 12);
  for (size_t i = 16; i < 32; ++i) v[i] = 26;
  const auto r = interpret(g, {Tensor::from_ints(DType::U8, {1, 2, 4, 4}, v)});
  CHECK(r.outputs.at(0).to_ints() == std::vector<int64_t>{7, 35});
}
