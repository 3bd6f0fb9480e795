// Pattern rules of the importer on small models written at test time: the fusion boundary
// (single consumer, not a graph output), Pad merging and its limits, attribute encodings, and
// the QuantLab round-to-nearest variant (checked numerically through the interpreter).
#include <catch2/catch.hpp>

#include "frontend/onnx_writer.h"
#include "kernels/interpreter/interpreter.h"
#include "support/paths.h"

using namespace edgesim;
using edgesim::test::TempDir;
using edgesim::test::OnnxWriter;

namespace {

constexpr int kF = onnx::TensorProto::FLOAT;

int count(const Graph& g, OpKind k) {
  int n = 0;
  for (const Node& x : g.nodes) n += x.kind() == k;
  return n;
}

}  // namespace

TEST_CASE("frontend patterns: QuantLab Div -> Add(0.5) -> Floor folds to round half up", "[frontend][patterns]") {
  TempDir dir;
  OnnxWriter m(10);
  m.input("x", kF, {1, 1, 1, 4}).output("y", kF, {1, 1, 1, 4});
  m.init_f("w", {1, 1, 1, 1}, {1.0f}).init_f("mul", {1, 1, 1}, {3.0f}).init_f("add", {1, 1, 1}, {1.0f});
  m.init_f("d", {}, {4.0f}).init_f("half", {}, {0.5f});
  OnnxWriter::attr_i(m.node("Conv", {"x", "w"}, {"c"}, "conv"), "weight_bits", 8);
  m.node("Mul", {"c", "mul"}, {"m"});
  m.node("Add", {"m", "add"}, {"a"});
  m.node("Div", {"a", "d"}, {"q"});
  m.node("Add", {"q", "half"}, {"r"});
  m.node("Floor", {"r"}, {"f"});
  auto& clip = m.node("Clip", {"f"}, {"y"});
  OnnxWriter::attr_f(clip, "min", 0.0f);
  OnnxWriter::attr_f(clip, "max", 255.0f);
  const Graph g = import_onnx(m.save(dir, "ql.onnx"));
  CHECK(g.dialect == "quantlab");
  REQUIRE(g.nodes.size() == 1);
  const auto& rq = g.nodes[0].as<ConvParams>().rq;
  CHECK(rq.shift == 2);
  CHECK(rq.round == 2);
  // (3·x + 1)/4 rounded half up: x = 0, 1, 2, 5 -> 0.25, 1, 1.75, 4 -> 0, 1, 2, 4
  const auto r = interpret(g, {Tensor::from_ints(DType::U8, {1, 1, 1, 4}, {0, 1, 2, 5})});
  CHECK(r.outputs.at(0).to_ints() == std::vector<int64_t>{0, 1, 2, 4});
}

TEST_CASE("frontend patterns: fuse only across single-consumer, non-output tensors", "[frontend][patterns]") {
  TempDir dir;
  OnnxWriter m;
  m.input("x", kF, {1, 2, 4, 4}).output("c", kF, {1, 2, 4, 4}).output("y", kF, {1, 2, 4, 4});
  m.init_f("w", {2, 2, 1, 1}, {1, 0, 0, 1}).init_f("mul", {}, {3.0f}).init_f("add", {}, {0.0f});
  m.node("Conv", {"x", "w"}, {"c"}, "conv");
  auto& rqs = m.node("RequantShift", {"c", "mul", "add"}, {"y"}, "rqs");
  OnnxWriter::attr_tensor_f(rqs, "div", 2.0f);
  OnnxWriter::attr_i(rqs, "n_levels", 256);
  OnnxWriter::attr_i(rqs, "signed", 0);
  const Graph g = import_onnx(m.save(dir, "two.onnx"));
  REQUIRE(g.nodes.size() == 2);
  CHECK(g.nodes[0].as<ConvParams>().rq.kind == Requant::Kind::None);
  CHECK(g.tensor(g.nodes[0].outputs[0]).dtype == DType::I32);
  REQUIRE(g.nodes[1].kind() == OpKind::Requant);
  const auto& rq = g.nodes[1].as<RequantParams>().rq;
  CHECK(rq.k == std::vector<int64_t>{3});
  CHECK(rq.shift == 1);
  CHECK(rq.round == 1);
  CHECK(rq.hi == 255);
  CHECK(g.outputs.size() == 2);
}

TEST_CASE("frontend patterns: Pad merging", "[frontend][patterns]") {
  TempDir dir;
  SECTION("chained Pads (attribute and input forms) add into a MaxPool on unsigned data") {
    OnnxWriter m(13);
    m.input("x", onnx::TensorProto::UINT8, {1, 1, 4, 4}).output("y", onnx::TensorProto::UINT8, {1, 1, 3, 3});
    m.init_i("p2", {8}, {0, 0, 1, 0, 0, 0, 0, 1});
    OnnxWriter::attr_ints(m.node("Pad", {"x"}, {"a"}, "pad1"), "pads", {0, 0, 0, 1, 0, 0, 1, 0});
    m.node("Pad", {"a", "p2"}, {"b"}, "pad2");
    auto& mp = m.node("MaxPool", {"b"}, {"y"}, "pool");
    OnnxWriter::attr_ints(mp, "kernel_shape", {2, 2});
    OnnxWriter::attr_ints(mp, "strides", {2, 2});
    const Graph g = import_onnx(m.save(dir, "mp.onnx"));
    REQUIRE(g.nodes.size() == 1);
    const auto& p = g.nodes[0].as<PoolParams>();
    CHECK(p.pad_t == 1);
    CHECK(p.pad_l == 1);
    CHECK(p.pad_b == 1);
    CHECK(p.pad_r == 1);
    CHECK(g.nodes[0].fused == std::vector<std::string>{"Pad", "Pad", "MaxPool"});
  }
  SECTION("zero padding of signed data stays a Pad node before a MaxPool") {
    OnnxWriter m(13);
    m.input("x", onnx::TensorProto::INT8, {1, 1, 4, 4}).output("y", onnx::TensorProto::INT8, {1, 1, 3, 3});
    OnnxWriter::attr_ints(m.node("Pad", {"x"}, {"a"}, "pad"), "pads", {0, 0, 1, 1, 0, 0, 1, 1});
    auto& mp = m.node("MaxPool", {"a"}, {"y"}, "pool");
    OnnxWriter::attr_ints(mp, "kernel_shape", {2, 2});
    OnnxWriter::attr_ints(mp, "strides", {2, 2});
    const Graph g = import_onnx(m.save(dir, "mps.onnx"));
    REQUIRE(g.nodes.size() == 2);
    CHECK(g.nodes[0].kind() == OpKind::Pad);
    CHECK(g.tensor(g.outputs[0]).dtype == DType::I8);
  }
  SECTION("an all-zero Pad is dropped") {
    OnnxWriter m(9);
    m.input("x", kF, {1, 2, 3}).output("y", kF, {1, 6});
    OnnxWriter::attr_ints(m.node("Pad", {"x"}, {"a"}, "pad"), "pads", {0, 0, 0, 0, 0, 0});
    m.node("Flatten", {"a"}, {"y"}, "fl");
    const Graph g = import_onnx(m.save(dir, "zp.onnx"));
    REQUIRE(g.nodes.size() == 1);
    CHECK(g.nodes[0].kind() == OpKind::Reshape);
  }
}

TEST_CASE("frontend patterns: Clip bounds as attributes or inputs, Relu narrows", "[frontend][patterns]") {
  TempDir dir;
  OnnxWriter m(13);
  m.input("x", onnx::TensorProto::INT32, {1, 8}).output("y", onnx::TensorProto::INT32, {1, 8});
  m.init_i("lo", {}, {-3}, onnx::TensorProto::INT32).init_i("hi", {}, {100}, onnx::TensorProto::INT32);
  m.node("Clip", {"x", "lo", "hi"}, {"c"}, "clip");
  m.node("Relu", {"c"}, {"y"}, "relu");
  const Graph g = import_onnx(m.save(dir, "clip.onnx"));
  REQUIRE(g.nodes.size() == 1);
  const auto& p = g.nodes[0].as<ClipParams>();
  CHECK(p.lo == 0);
  CHECK(p.hi == 100);
  CHECK(g.tensor(g.outputs[0]).dtype == DType::U8);
}

TEST_CASE("frontend patterns: BARVINN SimpleConv is a raw int32 conv with the default input type",
          "[frontend][barvinn]") {
  const std::string path = test::shared_networks() + "/barvinn/SimpleConv.onnx";
  REQUIRE_DATA(path);
  ImportOptions opt;
  opt.default_input_bits = 8;
  const Graph g = import_onnx(path, opt);
  CHECK(g.dialect == "onnx-int");
  CHECK(g.total_macs() == 37748736);
  CHECK(g.tensor(g.inputs[0]).dtype == DType::U8);
  CHECK(g.tensor(g.inputs[0]).dtype_inferred);
  REQUIRE(g.nodes.size() == 1);
  CHECK(g.nodes[0].as<ConvParams>().rq.kind == Requant::Kind::None);
  CHECK(g.tensor(g.outputs[0]).dtype == DType::I32);
  CHECK(g.tensor(g.nodes[0].inputs[1]).dtype == DType::U8);   // weights {0..3}
  opt.default_input_bits = 16;
  opt.default_input_signed = true;
  CHECK(import_onnx(path, opt).tensor(0).dtype == DType::I16);
  CHECK(count(g, OpKind::Conv) == 1);
}
