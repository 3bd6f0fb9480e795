// The reference kernels against the ONNX backend node tests of libonnx-testdata (docs/dialects.md
// "Standard ONNX int8"): the tensors are read from the .pb files in place; params are set by hand
// from each model's attributes, so these tests check the kernels' arithmetic independently of the
// importer's lowering.
#include <catch2/catch.hpp>

#include "compiler/frontend/import.h"
#include "kernels/core/shape_rules.h"
#include "kernels/reference.h"
#include "support/paths.h"

using namespace edgesim;

namespace {

std::string node_dir(const std::string& test) { return test::onnx_testdata() + "/" + test + "/test_data_set_0/"; }
Tensor input(const std::string& test, int i) { return read_tensor_proto_file(node_dir(test) + "input_" + std::to_string(i) + ".pb"); }
Tensor expected(const std::string& test) { return read_tensor_proto_file(node_dir(test) + "output_0.pb"); }
double f(const Tensor& t) { return t.get_f64(0); }

void check_quantize(const std::string& name, int axis) {
  REQUIRE_DATA(node_dir(name));
  const Tensor x = input(name, 0), s = input(name, 1), zp = input(name, 2), y = expected(name);
  QuantizeParams p;
  p.axis = axis;
  for (double v : s.to_f64()) p.scale.push_back(static_cast<float>(v));
  p.zp = zp.to_ints();
  Tensor out(y.dtype(), y.shape());
  quantize_reference(p, x.view(), out.view());
  CHECK(out.to_ints() == y.to_ints());
}

void check_dequantize(const std::string& name, int axis) {
  REQUIRE_DATA(node_dir(name));
  const Tensor x = input(name, 0), s = input(name, 1), zp = input(name, 2), y = expected(name);
  DequantizeParams p;
  p.axis = axis;
  for (double v : s.to_f64()) p.scale.push_back(static_cast<float>(v));
  p.zp = zp.to_ints();
  Tensor out(DType::F32, y.shape());
  dequantize_reference(p, x.view(), out.view());
  CHECK(out.to_f64() == y.to_f64());
}

void check_convinteger(const std::string& name, int64_t pad) {
  REQUIRE_DATA(node_dir(name));
  const Tensor x = input(name, 0), w = input(name, 1), zp = input(name, 2), y = expected(name);
  ConvParams p;
  p.kh = w.shape()[2];
  p.kw = w.shape()[3];
  p.pad_t = p.pad_l = p.pad_b = p.pad_r = pad;
  p.x_zp = zp.get_int(0);
  p.rq.lo = INT32_MIN;
  p.rq.hi = INT32_MAX;
  Tensor out(DType::I32, y.shape());
  conv_reference(p, x.view(), w.view(), out.view());
  CHECK(out.to_ints() == y.to_ints());
}

void check_qlinearmatmul(const std::string& name) {
  REQUIRE_DATA(node_dir(name));
  const Tensor a = input(name, 0), b = input(name, 3), y = expected(name);
  GemmParams p;
  p.a_zp = input(name, 2).to_ints();
  p.b_zp = input(name, 5).to_ints();
  p.rq.kind = Requant::Kind::Float;
  p.rq.scale = {f(input(name, 1)) * f(input(name, 4)) / f(input(name, 6))};
  p.rq.zp = input(name, 7).get_int(0);
  p.rq.lo = 0;
  p.rq.hi = 255;
  Tensor out(y.dtype(), y.shape());
  gemm_reference(p, a.view(), b.view(), out.view());
  CHECK(out.to_ints() == y.to_ints());
}

}  // namespace

TEST_CASE("onnx node tests: QuantizeLinear and DequantizeLinear", "[kernels][onnx][quant]") {
  check_quantize("test_quantizelinear", -1);
  check_quantize("test_quantizelinear_axis", 1);
  check_dequantize("test_dequantizelinear", -1);
  check_dequantize("test_dequantizelinear_axis", 1);
}

TEST_CASE("onnx node tests: ConvInteger pads with the zero point", "[kernels][onnx][conv]") {
  check_convinteger("test_basic_convinteger", 0);
  check_convinteger("test_convinteger_without_padding", 0);
  check_convinteger("test_convinteger_with_padding", 1);
}

TEST_CASE("onnx node tests: QLinearConv with the float requant", "[kernels][onnx][conv]") {
  const std::string name = "test_qlinearconv";
  REQUIRE_DATA(node_dir(name));
  const Tensor x = input(name, 0), w = input(name, 3), y = expected(name);
  ConvParams p;
  p.x_zp = input(name, 2).get_int(0);
  p.w_zp = input(name, 5).to_ints();
  p.rq.kind = Requant::Kind::Float;
  p.rq.scale = {f(input(name, 1)) * f(input(name, 4)) / f(input(name, 6))};
  p.rq.zp = input(name, 7).get_int(0);
  p.rq.lo = 0;
  p.rq.hi = 255;
  Tensor out(DType::U8, y.shape());
  conv_reference(p, x.view(), w.view(), out.view());
  CHECK(out.to_ints() == y.to_ints());
}

TEST_CASE("onnx node tests: QLinearMatMul and MatMulInteger", "[kernels][onnx][gemm]") {
  check_qlinearmatmul("test_qlinearmatmul_2D");
  check_qlinearmatmul("test_qlinearmatmul_3D");

  const std::string name = "test_matmulinteger";
  REQUIRE_DATA(node_dir(name));
  const Tensor a = input(name, 0), b = input(name, 1), y = expected(name);
  GemmParams p;
  p.a_zp = input(name, 2).to_ints();
  p.b_zp = input(name, 3).to_ints();
  p.rq.lo = INT32_MIN;
  p.rq.hi = INT32_MAX;
  Tensor out(DType::I32, y.shape());
  gemm_reference(p, a.view(), b.view(), out.view());
  CHECK(out.to_ints() == y.to_ints());
}
