// Element-wise reference kernels: the residual Add in its NEMO, QuantLab and unsaturated
// Deeploy forms, broadcasting with a per-channel requant on the output axis, Mul, Clip, and
// the standalone Requant with every rounding flavour (half up, floor shift versus the exact
// NEMO divisor, float round-half-even).
#include <catch2/catch.hpp>

#include "kernels/reference.h"

using namespace edgesim;

namespace {

Requant clamp_only(int64_t lo, int64_t hi) {
  Requant rq;
  rq.lo = lo;
  rq.hi = hi;
  return rq;
}

std::vector<int64_t> add(const AddParams& p, const Tensor& a, const Tensor& b, DType t, Shape s) {
  Tensor y(t, s);
  add_reference(p, a.view(), b.view(), y.view());
  return y.to_ints();
}

}  // namespace

TEST_CASE("add: NEMO form ⌊(a·x1 + b·x2)/2^c⌋ followed by the P2 requant (TCN_T numbers)", "[kernels][add]") {
  // TCN_T's first add: (a, b, 2^c) = (40, 64, 64), then P2 with m/d = 54/64, clamp to u8.
  AddParams p;
  p.mul1 = 40;
  p.mul2 = 64;
  p.shift_sum = 6;
  p.rq.kind = Requant::Kind::Integer;
  p.rq.mul = 54;
  p.rq.shift = 6;
  p.rq.div = 64;
  p.rq.lo = 0;
  p.rq.hi = 255;
  const Tensor x1 = Tensor::from_ints(DType::U8, {1, 3}, {100, 255, 0});
  const Tensor x2 = Tensor::from_ints(DType::U8, {1, 3}, {50, 255, 1});
  // 7200>>6 = 112, ·54 = 6048>>6 = 94;  26520>>6 = 414 -> 349 -> 255;  64>>6 = 1 -> 54>>6 = 0
  CHECK(add(p, x1, x2, DType::U8, {1, 3}) == std::vector<int64_t>{94, 255, 0});
}

TEST_CASE("add: a NEMO sum without requant is not saturated", "[kernels][add]") {
  // dronet / proxylessnas: a = b = 2^c = 32, so s = x1 + x2, kept in int32 (docs/dialects.md
  // "NEMO", P3).
  AddParams p;
  p.mul1 = p.mul2 = 32;
  p.shift_sum = 5;
  p.rq = clamp_only(INT32_MIN, INT32_MAX);
  const Tensor x1 = Tensor::from_ints(DType::U8, {4}, {200, 255, 0, 3});
  const Tensor x2 = Tensor::from_ints(DType::U8, {4}, {158, 255, 0, 4});
  CHECK(add(p, x1, x2, DType::I32, {4}) == std::vector<int64_t>{358, 510, 0, 7});
}

TEST_CASE("add: QuantLab per-input requant with rounding folded into add", "[kernels][add]") {
  AddParams p;
  p.mul1 = 300000; p.add1 = 1 << 18; p.shift1 = 19;
  p.mul2 = 700000; p.add2 = 1 << 18; p.shift2 = 19;
  p.rq = clamp_only(0, 255);
  const Tensor x1 = Tensor::from_ints(DType::U8, {2}, {10, 0});
  const Tensor x2 = Tensor::from_ints(DType::U8, {2}, {7, 1});
  // 3262144/2^19 = 6.22 -> 6; 5162144/2^19 = 9.85 -> 9; 262144>>19 = 0; 962144>>19 = 1
  CHECK(add(p, x1, x2, DType::U8, {2}) == std::vector<int64_t>{15, 1});
}

TEST_CASE("add: signed operands shift with floor, broadcast, per-channel rq on the output", "[kernels][add]") {
  AddParams p;
  p.shift1 = 1;   // (-5)>>1 = -3 (floor, not trunc)
  p.rq.kind = Requant::Kind::Integer;
  p.rq.axis = 1;   // output [1, 2, 2]: channel = axis 1
  p.rq.k = {1, 10};
  p.rq.lo = -1000;
  p.rq.hi = 1000;
  const Tensor a = Tensor::from_ints(DType::I8, {1, 2, 2}, {-5, 4, 6, -1});
  const Tensor b = Tensor::from_ints(DType::I8, {2}, {1, 2});   // broadcast along the last axis
  // t1 = [-3, 2, 3, -1]; s = [-2, 4, 4, 1]; channel 1 scaled by 10
  CHECK(add(p, a, b, DType::I16, {1, 2, 2}) == std::vector<int64_t>{-2, 4, 40, 10});
  Tensor wrong(DType::I16, {2, 2});
  CHECK_THROWS_WITH(add_reference(p, a.view(), b.view(), wrong.view()), Catch::Contains("expected [1, 2, 2]"));
}

TEST_CASE("mul: broadcast product with requant", "[kernels][mul]") {
  MulParams p;
  p.rq.kind = Requant::Kind::Integer;
  p.rq.shift = 2;
  p.rq.round = 2;
  p.rq.lo = -128;
  p.rq.hi = 127;
  const Tensor a = Tensor::from_ints(DType::I8, {2, 2}, {3, -3, 100, 1});
  const Tensor b = Tensor::from_ints(DType::I8, {1}, {2});
  Tensor y(DType::I8, {2, 2});
  mul_reference(p, a.view(), b.view(), y.view());
  CHECK(y.to_ints() == std::vector<int64_t>{2, -1, 50, 1});   // (6+2)>>2, (-6+2)>>2, 200/4, (2+2)>>2
}

TEST_CASE("clip clamps to [lo, hi]", "[kernels][clip]") {
  const Tensor x = Tensor::from_ints(DType::I16, {5}, {-300, -3, 0, 5, 300});
  Tensor y(DType::I8, {5});
  clip_reference(ClipParams{-3, 5}, x.view(), y.view());
  CHECK(y.to_ints() == std::vector<int64_t>{-3, -3, 0, 5, 5});
}

TEST_CASE("requant: Deeploy RequantShift rounds half up", "[kernels][requant]") {
  // y = clamp((x·mul + add + div/2) >> log2(div)), div = 4
  RequantParams p;
  p.rq.kind = Requant::Kind::Integer;
  p.rq.shift = 2;
  p.rq.round = 2;
  p.rq.lo = -128;
  p.rq.hi = 127;
  const Tensor x = Tensor::from_ints(DType::I32, {6}, {6, -6, 5, -5, 10, 1000});
  Tensor y(DType::I8, {6});
  requant_reference(p, x.view(), y.view());
  CHECK(y.to_ints() == std::vector<int64_t>{2, -1, 1, -1, 3, 127});   // 1.5→2, −1.5→−1, 1.25→1, −1.25→−1, 2.5→3
}

TEST_CASE("requant: exact NEMO divisor versus DoryShift on a known value", "[kernels][requant]") {
  // d = 2^18 − 1 (proxylessnas). v = 5·d: exact ⌊v/d⌋ = 5, v >> 18 = 4.
  RequantParams p;
  p.rq.kind = Requant::Kind::Integer;
  p.rq.k = {5};
  p.rq.shift = 18;
  p.rq.div = 262143;
  p.rq.lo = 0;
  p.rq.hi = 255;
  const Tensor x = Tensor::from_ints(DType::I32, {2}, {262143, 0});
  Tensor y(DType::U8, {2});
  requant_reference(p, x.view(), y.view(), ArithMode::Exact);
  CHECK(y.to_ints() == std::vector<int64_t>{5, 0});
  requant_reference(p, x.view(), y.view(), ArithMode::DoryShift);
  CHECK(y.to_ints() == std::vector<int64_t>{4, 0});
}

TEST_CASE("requant: float kind rounds half to even, then adds zp", "[kernels][requant][qdq]") {
  RequantParams p;
  p.rq.kind = Requant::Kind::Float;
  p.rq.scale = {0.5};
  p.rq.zp = 10;
  p.rq.lo = 0;
  p.rq.hi = 255;
  const Tensor x = Tensor::from_ints(DType::I32, {5}, {5, 7, -5, 1, -100});
  Tensor y(DType::U8, {5});
  requant_reference(p, x.view(), y.view());
  CHECK(y.to_ints() == std::vector<int64_t>{12, 14, 8, 10, 0});   // 2.5→2, 3.5→4, −2.5→−2, 0.5→0
}
