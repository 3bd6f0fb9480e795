// Gemm reference kernel: transB with bias shapes, per-row and per-column requant along the
// output axis, NumPy 1-D operands and batch broadcasting (checked against a naive loop), zero
// points (QLinearMatMul numbers of libonnx-testdata test_qlinearmatmul_2D), strided tiles.
#include <catch2/catch.hpp>

#include "kernel_util.h"
#include "kernels/core/shape_rules.h"
#include "kernels/reference.h"

using namespace edgesim;

namespace {

const Tensor kA = Tensor::from_ints(DType::I8, {2, 3}, {1, 2, 3, 4, 5, 6});
const Tensor kW = Tensor::from_ints(DType::I8, {2, 3}, {1, 0, -1, 2, 1, 0});   // [N, K]
// A·Wᵀ = [[-2, 4], [-2, 13]]

std::vector<int64_t> run(const GemmParams& p, const Tensor& a, const Tensor& b, DType out = DType::I32) {
  Tensor y(out, matmul_output_shape(a.shape(), b.shape(), p.trans_a, p.trans_b));
  gemm_reference(p, a.view(), b.view(), y.view());
  return y.to_ints();
}

Requant rows_or_cols(int axis) {
  Requant rq;
  rq.kind = Requant::Kind::Integer;
  rq.axis = axis;
  rq.k = {1, 2};
  rq.lambda = {0};
  rq.shift = 1;
  rq.round = 1;
  rq.lo = -128;
  rq.hi = 127;
  return rq;
}

}  // namespace

TEST_CASE("gemm: transB with bias of every shape", "[kernels][gemm]") {
  GemmParams p;
  p.trans_b = true;
  CHECK(run(p, kA, kW) == std::vector<int64_t>{-2, 4, -2, 13});
  p.bias = {10, 20};
  p.bias_shape = {2};   // per column
  CHECK(run(p, kA, kW) == std::vector<int64_t>{8, 24, 8, 33});
  p.bias_shape = {1, 2};
  CHECK(run(p, kA, kW) == std::vector<int64_t>{8, 24, 8, 33});
  p.bias = {100, 200};
  p.bias_shape = {2, 1};   // per row
  CHECK(run(p, kA, kW) == std::vector<int64_t>{98, 104, 198, 213});
  p.bias = {1, 2, 3, 4};
  p.bias_shape = {2, 2};
  CHECK(run(p, kA, kW) == std::vector<int64_t>{-1, 6, 1, 17});
  p.bias = {7};
  p.bias_shape = {};
  CHECK(run(p, kA, kW) == std::vector<int64_t>{5, 11, 5, 20});
}

TEST_CASE("gemm: per-row and per-column requant follow rq.axis of the output", "[kernels][gemm][requant]") {
  GemmParams p;
  p.trans_b = true;
  p.bias = {10, 20};
  p.bias_shape = {2};   // acc = [[8, 24], [8, 33]]
  p.rq = rows_or_cols(0);   // per row (axis rank-2): k = 1 for row 0, 2 for row 1
  CHECK(run(p, kA, kW, DType::I8) == std::vector<int64_t>{4, 12, 8, 33});
  p.rq = rows_or_cols(1);   // per column (axis rank-1)
  CHECK(run(p, kA, kW, DType::I8) == std::vector<int64_t>{4, 24, 4, 33});
}

TEST_CASE("gemm: trans_a and the untransposed weight give the same product", "[kernels][gemm]") {
  GemmParams p;
  const Tensor at = Tensor::from_ints(DType::I8, {3, 2}, {1, 4, 2, 5, 3, 6});   // Aᵀ
  const Tensor wk = Tensor::from_ints(DType::I8, {3, 2}, {1, 2, 0, 1, -1, 0});  // [K, N]
  p.trans_a = true;
  CHECK(run(p, at, wk) == std::vector<int64_t>{-2, 4, -2, 13});
  p.trans_a = false;
  CHECK(run(p, kA, wk) == std::vector<int64_t>{-2, 4, -2, 13});
}

TEST_CASE("gemm: 1-D operands follow NumPy matmul", "[kernels][gemm]") {
  GemmParams p;
  const Tensor v = Tensor::from_ints(DType::I8, {3}, {1, -1, 2});
  const Tensor wk = Tensor::from_ints(DType::I8, {3, 2}, {1, 2, 0, 1, -1, 0});
  CHECK(matmul_output_shape({3}, {3, 2}, false, false) == Shape{2});
  CHECK(run(p, v, wk) == std::vector<int64_t>{-1, 1});            // v·W
  CHECK(matmul_output_shape({2, 3}, {3}, false, false) == Shape{2});
  CHECK(run(p, kA, v) == std::vector<int64_t>{5, 11});            // A·v
  CHECK(matmul_output_shape({3}, {3}, false, false) == Shape{});
  CHECK(run(p, v, v) == std::vector<int64_t>{6});
}

TEST_CASE("gemm: batch dims broadcast like ONNX MatMul", "[kernels][gemm]") {
  GemmParams p;
  const Tensor a = test::random_tensor(DType::I8, {2, 1, 4, 5}, -128, 127, 11);
  const Tensor b = test::random_tensor(DType::I8, {3, 5, 6}, -128, 127, 12);
  const Shape ys = matmul_output_shape(a.shape(), b.shape(), false, false);
  REQUIRE(ys == Shape{2, 3, 4, 6});
  std::vector<int64_t> expect;
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 3; ++j)
      for (int64_t m = 0; m < 4; ++m)
        for (int64_t n = 0; n < 6; ++n) {
          int64_t acc = 0;
          for (int64_t k = 0; k < 5; ++k) acc += a.get_int((i * 4 + m) * 5 + k) * b.get_int((j * 5 + k) * 6 + n);
          expect.push_back(acc);
        }
  CHECK(run(p, a, b) == expect);

  // Same product with both operands read from strided tiles.
  const test::TileBuffer at = test::as_tile(a, 1, 99), bt = test::as_tile(b, 2, -99);
  Tensor y(DType::I32, ys);
  gemm_reference(p, at.tile, bt.tile, y.view());
  CHECK(y.to_ints() == expect);
}

TEST_CASE("gemm: zero points and float requant reproduce QLinearMatMul", "[kernels][gemm][qdq]") {
  // Numbers of libonnx-testdata test_qlinearmatmul_2D: a_s 0.0066, a_zp 113, b_s 0.00705,
  // b_zp 114, y_s 0.0107, y_zp 118 (scales as float32, multiplier in double).
  const Tensor a = Tensor::from_ints(DType::U8, {2, 4}, {208, 236, 0, 238, 3, 214, 255, 29});
  const Tensor b = Tensor::from_ints(DType::U8, {4, 3}, {152, 51, 244, 60, 26, 255, 0, 127, 246, 127, 254, 247});
  GemmParams p;
  p.a_zp = {113};
  p.b_zp = {114};
  p.rq.kind = Requant::Kind::Float;
  p.rq.scale = {static_cast<double>(0.0066f) * static_cast<double>(0.00705f) / static_cast<double>(0.0107f)};
  p.rq.zp = 118;
  p.rq.lo = 0;
  p.rq.hi = 255;
  CHECK(run(p, a, b, DType::U8) == std::vector<int64_t>{168, 115, 255, 1, 66, 151});

  SECTION("per-row a_zp and per-column b_zp") {
    GemmParams q;
    q.a_zp = {1, 2};
    q.b_zp = {0, 1, 2};
    const Tensor a2 = Tensor::from_ints(DType::U8, {2, 2}, {1, 2, 3, 4});
    const Tensor b2 = Tensor::from_ints(DType::U8, {2, 3}, {1, 2, 3, 4, 5, 6});
    // (a − a_zp) = [[0, 1], [1, 2]], (b − b_zp) = [[1, 1, 1], [4, 4, 4]]
    CHECK(run(q, a2, b2) == std::vector<int64_t>{4, 4, 4, 9, 9, 9});
  }
}
