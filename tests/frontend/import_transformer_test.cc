// The transformer ops' import (docs/dialects.md): attribute values outside the documented
// domain are one ImportError line naming the node and the attribute; IntegerMean over a count
// that is not a power of two follows the documented semantics (round half away from zero).
#include <catch2/catch.hpp>

#include "frontend/onnx_writer.h"
#include "kernels/interpreter/interpreter.h"
#include "support/paths.h"

using namespace edgesim;
using edgesim::test::TempDir;
using edgesim::test::import_error;
using edgesim::test::OnnxWriter;

namespace {

constexpr int kF = onnx::TensorProto::FLOAT;

void one_line_naming(const std::string& msg, const std::string& node, const std::string& what) {
  INFO(msg);
  CHECK_FALSE(msg.empty());
  CHECK(msg.find('\n') == std::string::npos);
  CHECK(msg.find("node '" + node + "'") != std::string::npos);
  CHECK(msg.find(what) != std::string::npos);
}

OnnxWriter softmax_model(int64_t log2, int64_t a = 1, int64_t b = 64, int64_t c = 2136) {
  OnnxWriter m;
  m.input("x", kF, {1, 2, 8}).output("y", kF, {1, 2, 8});
  auto& n = m.node("iSoftmax", {"x"}, {"y"}, "sm");
  OnnxWriter::attr_i(n, "coeffA", a);
  OnnxWriter::attr_i(n, "coeffB", b);
  OnnxWriter::attr_i(n, "coeffC", c);
  OnnxWriter::attr_i(n, "log2", log2);
  OnnxWriter::attr_i(n, "n_levels", 256);
  return m;
}

}  // namespace

TEST_CASE("frontend transformer ops: attribute values outside their domain are one error line",
          "[frontend][errors][transformer]") {
  TempDir dir;
  one_line_naming(import_error(softmax_model(0).save(dir, "sm0.onnx")), "sm", "log2=0");
  one_line_naming(import_error(softmax_model(-3).save(dir, "sm3.onnx")), "sm", "log2=-3");
  CHECK(import_error(softmax_model(47).save(dir, "sm47.onnx")).empty());

  OnnxWriter rms;
  rms.input("x", kF, {1, 2, 4}).output("y", kF, {1, 2, 4});
  rms.init_f("w", {4}, {1, 2, 3, 4});
  OnnxWriter::attr_i(rms.node("iRMSNorm", {"x", "w"}, {"y"}, "rms"), "D", 1000);
  one_line_naming(import_error(rms.save(dir, "rms.onnx")), "rms", "D=1000");

  OnnxWriter rmsw;
  rmsw.input("x", kF, {1, 2, 4}).output("y", kF, {1, 2, 4});
  rmsw.init_f("w", {3}, {1, 2, 3});
  OnnxWriter::attr_i(rmsw.node("iRMSNorm", {"x", "w"}, {"y"}, "rmsw"), "D", 1024);
  one_line_naming(import_error(rmsw.save(dir, "rmsw.onnx")), "rmsw", "one per position of the last axis");

  OnnxWriter gelu;
  gelu.input("x", kF, {1, 4}).output("y", kF, {1, 4});
  auto& gn = gelu.node("iGELU", {"x"}, {"y"}, "gelu");
  OnnxWriter::attr_i(gn, "b", 40);
  OnnxWriter::attr_i(gn, "one", 1743);
  one_line_naming(import_error(gelu.save(dir, "gelu.onnx")), "gelu", "b=40");

  OnnxWriter div;
  div.input("x", kF, {1, 4}).output("y", kF, {1, 4});
  auto& dn = div.node("TrueIntegerDiv", {"x"}, {"y"}, "tdiv");
  OnnxWriter::attr_i(dn, "Delta", 16384);
  OnnxWriter::attr_i(dn, "eps", 0);
  OnnxWriter::attr_i(dn, "eta", 0);
  OnnxWriter::attr_i(dn, "y", 2);
  one_line_naming(import_error(div.save(dir, "tdiv.onnx")), "tdiv", "must be positive");

  OnnxWriter gat;
  gat.input("x", kF, {1, 3, 4}).output("y", kF, {1, 2, 4});
  gat.init_i("i", {2}, {0, 1});
  OnnxWriter::attr_i(gat.node("Gather", {"x", "i"}, {"y"}, "gat"), "axis", 1);
  one_line_naming(import_error(gat.save(dir, "gat.onnx")), "gat", "scalar");
}

// Regression (issue 36): iSoftmax coefficients were range-checked for sign only, so coeffA >=
// 2^40, coeffB = +-2^62 or coeffC = 2^62 imported and overflowed int64 in the kernel
// (kernels/softmax/reference.cc). Now the worst case over the input's dtype must fit.
TEST_CASE("frontend transformer ops: iSoftmax coefficients that overflow int64 are one error naming the attribute",
          "[frontend][errors][transformer]") {
  TempDir dir;
  const std::string why = "overflows int64 for u8 input";   // the input type inferred
  const int64_t p62 = int64_t{1} << 62;
  one_line_naming(import_error(softmax_model(1, int64_t{1} << 40).save(dir, "a40.onnx")), "sm", "coeffA=1099511627776");
  one_line_naming(import_error(softmax_model(1, 1, p62).save(dir, "bp.onnx")), "sm", "coeffB=4611686018427387904");
  one_line_naming(import_error(softmax_model(1, 1, -p62).save(dir, "bn.onnx")), "sm", "coeffB=-4611686018427387904");
  one_line_naming(import_error(softmax_model(1, 1, 64, p62).save(dir, "c.onnx")), "sm", "coeffC=4611686018427387904");
  one_line_naming(import_error(softmax_model(1, 1, 64, p62).save(dir, "c2.onnx")), "sm", why);
  one_line_naming(import_error(softmax_model(p62).save(dir, "l.onnx")), "sm", "log2=4611686018427387904");
  // Deeploy's own values (microLlama, Attention: A 1, B up to 345, C up to 62,395, log2 up to 255)
  // and values close to the bound still import.
  CHECK(import_error(softmax_model(255, 1, 345, 62395).save(dir, "deeploy.onnx")).empty());
  CHECK(import_error(softmax_model(1, int64_t{1} << 30).save(dir, "a30.onnx")).empty());
}

TEST_CASE("frontend transformer ops: IntegerMean over a non-power-of-two count rounds half away from zero",
          "[frontend][transformer]") {
  TempDir dir;
  OnnxWriter m;
  m.input("x", kF, {1, 3, 2}).output("y", kF, {1, 2});
  auto& n = m.node("IntegerMean", {"x"}, {"y"}, "mean");
  OnnxWriter::attr_ints(n, "axes", {1});
  OnnxWriter::attr_i(n, "keepdims", 0);
  // Make the dialect Deeploy's (an IntegerMean alone already is one of its custom ops).
  Graph g = import_onnx(m.save(dir, "mean.onnx"));
  REQUIRE(g.nodes.size() == 1);
  // Signed data (load_inputs would re-type the inferred input from the values).
  g.tensors[static_cast<size_t>(g.inputs[0])].dtype = DType::I8;
  g.tensors[static_cast<size_t>(g.outputs[0])].dtype = DType::I8;
  CHECK(g.nodes[0].kind() == OpKind::Mean);
  // Column sums 1+1+2 = 4 -> 4/3 = 1.33 -> 1; and -1-1-3 = -5 -> -1.67 -> -2;
  // half cases: 3/2 -> 2 and -3/2 -> -2 (away from zero) with a count of 2 below.
  Tensor x = Tensor::from_ints(DType::I8, {1, 3, 2}, {1, -1, 1, -1, 2, -3});
  const auto r = interpret(g, {x});
  CHECK(r.outputs[0].to_ints() == std::vector<int64_t>{1, -2});
  CHECK(integer_mean(3, 2) == 2);     // power of two: (S + n/2) >> 1, half up
  CHECK(integer_mean(-3, 2) == -1);   // ... -1.5 -> -1 (half up, verified on ICCT)
  CHECK(integer_mean(-5, 6) == -1);   // -0.83 -> -1
  CHECK(integer_mean(-9, 6) == -2);   // -1.5 -> -2 (away from zero)
  CHECK(integer_mean(9, 6) == 2);
}
