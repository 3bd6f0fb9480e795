// Pool reference kernel: max ignores padding, sum counts padding as 0, ceil_mode, PyTorch's
// last-window rule, literal windows (proxylessnas 7×7/7 over 13×13), global pooling, requant.
#include <catch2/catch.hpp>

#include "kernels/core/shape_rules.h"
#include "kernels/reference.h"

using namespace edgesim;

namespace {

std::vector<int64_t> pool(const PoolParams& p, const Tensor& x, Shape ys, DType t = DType::I32) {
  Tensor y(t, ys);
  pool_reference(p, x.view(), y.view());
  return y.to_ints();
}

PoolParams k2s2pad1(PoolParams::Kind kind) {
  PoolParams p;
  p.kind = kind;
  p.kh = p.kw = p.sh = p.sw = 2;
  p.pad_t = p.pad_l = p.pad_b = p.pad_r = 1;
  return p;
}

}  // namespace

TEST_CASE("pool: max ignores padded positions, sum counts them as 0", "[kernels][pool]") {
  const Tensor neg = Tensor::from_ints(DType::I8, {1, 1, 3, 3}, {-1, -2, -3, -4, -5, -6, -7, -8, -9});
  CHECK(pool(k2s2pad1(PoolParams::Kind::Max), neg, {1, 1, 2, 2}) == std::vector<int64_t>{-1, -2, -4, -5});
  const Tensor pos = Tensor::from_ints(DType::U8, {1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  CHECK(pool(k2s2pad1(PoolParams::Kind::Sum), pos, {1, 1, 2, 2}) == std::vector<int64_t>{1, 5, 11, 28});
}

TEST_CASE("pool: ceil_mode adds the partial last window", "[kernels][pool]") {
  PoolParams p;
  p.kh = 1; p.kw = 2; p.sh = 1; p.sw = 2;
  const Tensor x = Tensor::from_ints(DType::U8, {1, 1, 1, 5}, {1, 2, 3, 4, 5});
  CHECK(pool_out_size(5, 2, 2, 0, 0, false) == 2);
  CHECK(pool(p, x, {1, 1, 1, 2}) == std::vector<int64_t>{2, 4});
  p.ceil_mode = true;
  CHECK(pool_out_size(5, 2, 2, 0, 0, true) == 3);
  CHECK(pool(p, x, {1, 1, 1, 3}) == std::vector<int64_t>{2, 4, 5});
  p.kind = PoolParams::Kind::Sum;
  CHECK(pool(p, x, {1, 1, 1, 3}) == std::vector<int64_t>{3, 7, 5});
  // A window starting inside the end padding is dropped (in 3, k 1, s 2, pad_end 1).
  CHECK(pool_out_size(3, 1, 2, 0, 1, true) == 2);
  CHECK(pool_out_size(3, 1, 2, 0, 1, false) == 2);
}

TEST_CASE("pool: windows follow the attributes literally (7x7 stride 7 over 13x13)", "[kernels][pool]") {
  // proxylessnas P4: one output from the top-left window only, then ⌊m·Σ / 2^s⌋ (m 3, s 2).
  std::vector<int64_t> v(169, 100);
  for (int h = 0; h < 7; ++h)
    for (int w = 0; w < 7; ++w) v[h * 13 + w] = 1;
  const Tensor x = Tensor::from_ints(DType::U8, {1, 1, 13, 13}, v);
  PoolParams p;
  p.kind = PoolParams::Kind::Sum;
  p.kh = p.kw = p.sh = p.sw = 7;
  p.rq.kind = Requant::Kind::Integer;
  p.rq.mul = 3;
  p.rq.shift = 2;
  p.rq.lo = 0;
  p.rq.hi = 255;
  CHECK(pool(p, x, {1, 1, 1, 1}, DType::U8) == std::vector<int64_t>{36});   // 49·3 >> 2
  CHECK_THROWS_WITH(pool(p, x, {1, 1, 2, 2}, DType::U8), Catch::Contains("expected [1, 1, 1, 1]"));
}

TEST_CASE("pool: global sum and max per channel", "[kernels][pool]") {
  const Tensor x = Tensor::from_ints(DType::U8, {1, 2, 2, 2}, {1, 2, 3, 4, 10, 0, 5, 7});
  PoolParams p;
  p.global = true;
  p.kind = PoolParams::Kind::Sum;
  CHECK(pool(p, x, {1, 2, 1, 1}) == std::vector<int64_t>{10, 22});
  p.kind = PoolParams::Kind::Max;
  CHECK(pool(p, x, {1, 2, 1, 1}) == std::vector<int64_t>{4, 10});
}

TEST_CASE("pool: MaxPool with stride different from the kernel (8x8 / (2,4))", "[kernels][pool]") {
  std::vector<int64_t> v(16 * 16);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int64_t>(i % 251);
  const Tensor x = Tensor::from_ints(DType::U8, {1, 1, 16, 16}, v);
  PoolParams p;
  p.kh = p.kw = 8;
  p.sh = 2;
  p.sw = 4;
  const std::vector<int64_t> y = pool(p, x, {1, 1, 5, 3});
  for (int64_t oh = 0; oh < 5; ++oh)
    for (int64_t ow = 0; ow < 3; ++ow) {
      int64_t m = 0;
      for (int64_t h = oh * 2; h < oh * 2 + 8; ++h)
        for (int64_t w = ow * 4; w < ow * 4 + 8; ++w) m = std::max(m, v[h * 16 + w]);
      CHECK(y[oh * 3 + ow] == m);
    }
}

TEST_CASE("pool: the input zero point is removed before max and sum (QDQ pools)", "[kernels][pool]") {
  const Tensor x = Tensor::from_ints(DType::U8, {1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  PoolParams p = k2s2pad1(PoolParams::Kind::Sum);
  p.x_zp = 5;   // padded positions still add 0, i.e. they hold x_zp
  CHECK(pool(p, x, {1, 1, 2, 2}) == std::vector<int64_t>{-4, -5, 1, 8});
  p.kind = PoolParams::Kind::Max;
  CHECK(pool(p, x, {1, 1, 2, 2}) == std::vector<int64_t>{-4, -2, 2, 4});
}
