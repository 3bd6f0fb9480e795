// QuantizeLinear / DequantizeLinear reference kernels: ties round half to even (0.5, 2.5,
// −2.5 — the case the ONNX node tests lack), saturation, per-axis parameters, and the numbers
// of libonnx-testdata test_quantizelinear / _axis and test_dequantizelinear_axis.
#include <catch2/catch.hpp>

#include "kernels/reference.h"

using namespace edgesim;

TEST_CASE("quantize: ties round half to even", "[kernels][quant]") {
  const Tensor x = Tensor::from_f32({8}, {0.5f, 2.5f, -2.5f, 1.5f, -1.5f, 3.5f, -0.5f, 2.4999998f});
  Tensor y(DType::I8, {8});
  QuantizeParams p;
  p.scale = {1.0f};
  p.zp = {0};
  quantize_reference(p, x.view(), y.view());
  CHECK(y.to_ints() == std::vector<int64_t>{0, 2, -2, 2, -2, 4, 0, 2});
  // The division is float32 x / scale: 5 / 2 = 2.5 exactly, a tie -> 2.
  p.scale = {2.0f};
  const Tensor x2 = Tensor::from_f32({2}, {5.0f, 7.0f});
  Tensor y2(DType::I8, {2});
  quantize_reference(p, x2.view(), y2.view());
  CHECK(y2.to_ints() == std::vector<int64_t>{2, 4});
}

TEST_CASE("quantize: saturates to the output type (test_quantizelinear numbers)", "[kernels][quant]") {
  const Tensor x = Tensor::from_f32({6}, {0.f, 2.f, 3.f, 1000.f, -254.f, -1000.f});
  Tensor y(DType::U8, {6});
  QuantizeParams p;
  p.scale = {2.0f};
  p.zp = {128};
  quantize_reference(p, x.view(), y.view());
  CHECK(y.to_ints() == std::vector<int64_t>{128, 129, 130, 255, 1, 0});
}

TEST_CASE("quantize / dequantize per axis (test_quantizelinear_axis numbers)", "[kernels][quant]") {
  const Tensor x = Tensor::from_f32({1, 3, 3, 2}, {-162, 10, -100, 232, -20, -50, -76, 0, 0, 252, 32, -44,
                                                   245, -485, -960, -270, -375, -470});
  const std::vector<int64_t> q = {3, 89, 34, 200, 74, 59, 5, 24, 24, 87, 32, 13, 245, 99, 4, 142, 121, 102};
  QuantizeParams p;
  p.axis = 1;
  p.scale = {2.f, 4.f, 5.f};
  p.zp = {84, 24, 196};
  Tensor y(DType::U8, {1, 3, 3, 2});
  quantize_reference(p, x.view(), y.view());
  CHECK(y.to_ints() == q);

  DequantizeParams d;
  d.axis = 1;
  d.scale = p.scale;
  d.zp = p.zp;
  Tensor back(DType::F32, {1, 3, 3, 2});
  dequantize_reference(d, y.view(), back.view());
  CHECK(back.to_f64() == x.to_f64());   // test_dequantizelinear_axis: exact round trip here

  d.scale = {2.f, 4.f};
  CHECK_THROWS_WITH(dequantize_reference(d, y.view(), back.view()), Catch::Contains("2 scales"));
}

TEST_CASE("dequantize: (q − zp)·scale in float32", "[kernels][quant]") {
  const Tensor q = Tensor::from_ints(DType::U8, {4}, {0, 3, 128, 255});
  DequantizeParams d;
  d.scale = {2.0f};
  d.zp = {128};
  Tensor y(DType::F32, {4});
  dequantize_reference(d, q.view(), y.view());
  CHECK(y.to_f64() == std::vector<double>{-256, -250, 0, 254});
  // float32 product, not double: 1·0.1f is 0.1f exactly as a float
  d.scale = {0.1f};
  d.zp = {0};
  dequantize_reference(d, q.view(), y.view());
  CHECK(y.to_f64()[1] == static_cast<double>(3.0f * 0.1f));
}
