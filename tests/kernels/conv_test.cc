// Conv reference kernel: a hand-checked case with every feature at once (groups, asymmetric
// pads, stride, dilation, bias, zero points, requant), depthwise, the exact-divisor versus
// DoryShift arithmetic, a naive direct-formula cross-check over many shapes, and strided tiles.
#include <catch2/catch.hpp>

#include "kernel_util.h"
#include "kernels/reference.h"

using namespace edgesim;

namespace {

// Direct transcription of the formula in kernels/conv/params.h, with bounds checks instead of
// a padded buffer; independent of the kernel's loop structure.
std::vector<int64_t> naive_conv(const ConvParams& p, const Tensor& x, const Tensor& w, const Shape& ys) {
  const Shape& xs = x.shape();
  const Shape& ws = w.shape();
  const int64_t cg = xs[1] / p.groups, mg = ws[0] / p.groups;
  std::vector<int64_t> out;
  for (int64_t n = 0; n < ys[0]; ++n)
    for (int64_t m = 0; m < ys[1]; ++m)
      for (int64_t oh = 0; oh < ys[2]; ++oh)
        for (int64_t ow = 0; ow < ys[3]; ++ow) {
          int64_t acc = p.bias.empty() ? 0 : p.bias[m];
          const int64_t wzp = p.w_zp.empty() ? 0 : p.w_zp.size() == 1 ? p.w_zp[0] : p.w_zp[m];
          for (int64_t ci = 0; ci < cg; ++ci)
            for (int64_t r = 0; r < p.kh; ++r)
              for (int64_t s = 0; s < p.kw; ++s) {
                const int64_t ih = oh * p.sh - p.pad_t + r * p.dh, iw = ow * p.sw - p.pad_l + s * p.dw;
                if (ih < 0 || ih >= xs[2] || iw < 0 || iw >= xs[3]) continue;
                const int64_t xv = x.get_int(((n * xs[1] + (m / mg) * cg + ci) * xs[2] + ih) * xs[3] + iw);
                const int64_t wv = w.get_int(((m * cg + ci) * p.kh + r) * p.kw + s);
                acc += (xv - p.x_zp) * (wv - wzp);
              }
          out.push_back(p.rq.apply(acc, m));
        }
  return out;
}

Requant raw_i32() {
  Requant rq;
  rq.lo = INT32_MIN;
  rq.hi = INT32_MAX;
  return rq;
}

}  // namespace

TEST_CASE("conv: groups, asymmetric pads, stride, dilation, bias and zero points", "[kernels][conv]") {
  // Expected values computed by hand-checkable direct evaluation (padded positions add 0
  // after x_zp is removed). E.g. y[0,1,0,0] = −1 + 2·(20−1) + 2·(22−1) = 79.
  ConvParams p;
  p.kh = p.kw = 2;
  p.sh = 2; p.sw = 1; p.dh = 1; p.dw = 2;
  p.pad_t = 1; p.pad_l = 0; p.pad_b = 0; p.pad_r = 2;
  p.groups = 2;
  p.bias = {3, -1};
  p.x_zp = 1;
  p.w_zp = {0, -1};
  p.rq = raw_i32();
  std::vector<int64_t> xv(40);
  for (int i = 0; i < 40; ++i) xv[i] = i;
  const Tensor x = Tensor::from_ints(DType::U8, {1, 2, 4, 5}, xv);
  const Tensor w = Tensor::from_ints(DType::I8, {2, 1, 2, 2}, {1, -1, 2, 0, 0, 1, 1, 1});
  REQUIRE(ConvParams::out_size(4, 2, 2, 1, 1, 0) == 2);
  REQUIRE(ConvParams::out_size(5, 2, 1, 2, 0, 2) == 5);
  Tensor y(DType::I32, {1, 2, 2, 5});
  conv_reference(p, x.view(), w.view(), y.view());
  CHECK(y.to_ints() == std::vector<int64_t>{1, 3, 5, 7, 9, 19, 21, 23, 34, 37,
                                            79, 83, 87, 43, 45, 195, 202, 209, 90, 93});

  SECTION("with a per-channel integer requant (round half up, clamp to u8)") {
    p.rq = Requant{};
    p.rq.kind = Requant::Kind::Integer;
    p.rq.axis = 1;
    p.rq.k = {2, 3};
    p.rq.lambda = {1, -5};
    p.rq.mul = 3;
    p.rq.shift = 4;
    p.rq.round = 8;
    p.rq.lo = 0;
    p.rq.hi = 255;
    Tensor yq(DType::U8, {1, 2, 2, 5});
    conv_reference(p, x.view(), w.view(), yq.view());
    CHECK(yq.to_ints() == std::vector<int64_t>{1, 1, 2, 3, 4, 7, 8, 9, 13, 14,
                                               44, 46, 48, 23, 24, 109, 113, 117, 50, 51});
  }
}

TEST_CASE("conv: depthwise 3x3 with zero padding equals a per-channel window sum", "[kernels][conv]") {
  ConvParams p;
  p.kh = p.kw = 3;
  p.pad_t = p.pad_l = p.pad_b = p.pad_r = 1;
  p.groups = 3;
  p.rq = raw_i32();
  const Tensor x = Tensor::from_ints(DType::U8, {1, 3, 2, 2}, {1, 2, 3, 4, 10, 20, 30, 40, 0, 0, 0, 5});
  // all-ones kernel for channel 0, all-twos for 1, centre-only for 2
  std::vector<int64_t> wv(27, 0);
  for (int i = 0; i < 9; ++i) { wv[i] = 1; wv[9 + i] = 2; }
  wv[18 + 4] = -1;
  const Tensor w = Tensor::from_ints(DType::I8, {3, 1, 3, 3}, wv);
  Tensor y(DType::I32, {1, 3, 2, 2});
  conv_reference(p, x.view(), w.view(), y.view());
  // On a 2x2 map with pad 1 every 3x3 window covers the whole map.
  CHECK(y.to_ints() == std::vector<int64_t>{10, 10, 10, 10, 200, 200, 200, 200, 0, 0, 0, -5});
}

TEST_CASE("conv: exact divisor and DoryShift differ by one on a known value", "[kernels][conv][requant]") {
  // 1x1 conv, acc = x; requant m = 1, d = 2^2 − 1 = 3 (shift 2): acc = 7 -> ⌊7/3⌋ = 2, 7>>2 = 1.
  ConvParams p;
  p.rq.kind = Requant::Kind::Integer;
  p.rq.shift = 2;
  p.rq.div = 3;
  p.rq.lo = 0;
  p.rq.hi = 255;
  const Tensor x = Tensor::from_ints(DType::U8, {1, 1, 1, 2}, {7, 8});
  const Tensor w = Tensor::from_ints(DType::I8, {1, 1, 1, 1}, {1});
  Tensor y(DType::U8, {1, 1, 1, 2});
  conv_reference(p, x.view(), w.view(), y.view(), ArithMode::Exact);
  CHECK(y.to_ints() == std::vector<int64_t>{2, 2});
  conv_reference(p, x.view(), w.view(), y.view(), ArithMode::DoryShift);
  CHECK(y.to_ints() == std::vector<int64_t>{1, 2});
}

TEST_CASE("conv: matches the direct formula over many shapes, also on strided tiles", "[kernels][conv]") {
  struct Case { int64_t n, c, h, w, m, k_h, k_w, sh, sw, dh, dw, pt, pl, pb, pr, g; };
  const Case cases[] = {
      {1, 3, 7, 6, 4, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1},
      {2, 4, 9, 8, 6, 3, 2, 2, 3, 1, 1, 0, 2, 1, 0, 2},
      {1, 6, 8, 8, 6, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 6},    // depthwise, dilated
      {1, 4, 1, 30, 8, 1, 11, 1, 1, 1, 4, 0, 40, 0, 0, 1}, // TCN-like causal 1-D (H = 1)
      {1, 5, 10, 4, 3, 10, 4, 2, 1, 1, 1, 5, 1, 5, 1, 1},  // dscnn-like asymmetric
  };
  uint64_t seed = 1;
  for (const Case& c : cases) {
    ConvParams p;
    p.kh = c.k_h; p.kw = c.k_w; p.sh = c.sh; p.sw = c.sw; p.dh = c.dh; p.dw = c.dw;
    p.pad_t = c.pt; p.pad_l = c.pl; p.pad_b = c.pb; p.pad_r = c.pr; p.groups = c.g;
    p.x_zp = 3;
    p.w_zp = {1};
    p.bias = test::pseudo_random(c.m, -1000, 1000, seed++);
    // Raw accumulators first, then a per-channel requant whose outputs land mostly inside
    // [0, 255] (λ centres them), so the comparison is not dominated by saturation.
    p.rq = raw_i32();
    const Tensor x = test::random_tensor(DType::U8, {c.n, c.c, c.h, c.w}, 0, 255, seed++);
    const Tensor w = test::random_tensor(DType::I8, {c.m, c.c / c.g, c.k_h, c.k_w}, -128, 127, seed++);
    const Shape ys{c.n, c.m, ConvParams::out_size(c.h, c.k_h, c.sh, c.dh, c.pt, c.pb),
                   ConvParams::out_size(c.w, c.k_w, c.sw, c.dw, c.pl, c.pr)};
    INFO("case x " << shape_str(x.shape()) << " w " << shape_str(w.shape()) << " -> " << shape_str(ys));
    Tensor raw(DType::I32, ys);
    conv_reference(p, x.view(), w.view(), raw.view());
    CHECK(raw.to_ints() == naive_conv(p, x, w, ys));

    p.rq.kind = Requant::Kind::Integer;
    p.rq.axis = 1;
    p.rq.k = test::pseudo_random(c.m, -3, 3, seed++);
    p.rq.lambda = test::pseudo_random(c.m, 4000000, 12000000, seed++);
    p.rq.shift = 16;
    p.rq.div = 65535;
    p.rq.lo = 0;
    p.rq.hi = 255;
    const std::vector<int64_t> expect = naive_conv(p, x, w, ys);
    int64_t unsaturated = 0;
    for (int64_t v : expect) unsaturated += v > 0 && v < 255;
    CHECK(unsaturated * 2 > static_cast<int64_t>(expect.size()));
    Tensor y(DType::U8, ys);
    conv_reference(p, x.view(), w.view(), y.view());
    CHECK(y.to_ints() == expect);

    // The same conv reading and writing tiles inside bigger buffers.
    const test::TileBuffer xt = test::as_tile(x, 2, 77), wt = test::as_tile(w, 1, -5);
    test::TileBuffer yt = test::as_tile(Tensor(DType::U8, ys), 3, 200);
    conv_reference(p, xt.tile, wt.tile, yt.tile);
    CHECK(yt.tile.to_ints() == expect);
    // Nothing outside the output tile was written.
    int64_t outside = 0;
    for (int64_t v : yt.big.to_ints()) outside += v == 200;
    CHECK(outside == yt.big.numel() - y.numel());
  }
}

TEST_CASE("conv: bad shapes are reported", "[kernels][conv]") {
  ConvParams p;
  p.kh = p.kw = 3;
  const Tensor x(DType::U8, {1, 2, 5, 5}), w(DType::I8, {4, 2, 3, 3});
  Tensor y(DType::I32, {1, 4, 5, 5});   // no padding: 3x3 expected
  CHECK_THROWS_WITH(conv_reference(p, x.view(), w.view(), y.view()),
                    Catch::Contains("output shape should be [1, 4, 3, 3]"));
  p.groups = 2;
  Tensor y3(DType::I32, {1, 4, 3, 3});
  CHECK_THROWS_WITH(conv_reference(p, x.view(), w.view(), y3.view()), Catch::Contains("Cin/groups"));
  // Regression: a stride-2 kernel taller than the input has an empty output (floor), not one
  // row read past the input; a 1-row output is refused instead of computed out of bounds.
  ConvParams q;
  q.kh = 2, q.sh = 2;
  const Tensor x1(DType::U8, {1, 1, 1, 4}), w1(DType::I8, {1, 1, 2, 1});
  Tensor y1(DType::I32, {1, 1, 1, 4});
  CHECK(ConvParams::out_size(1, 2, 2, 1, 0, 0) == 0);
  CHECK_THROWS_WITH(conv_reference(q, x1.view(), w1.view(), y1.view()), Catch::Contains("output shape should be [1, 1, 0, 4]"));
}

TEST_CASE("conv: a kernel larger than the padded input has an empty output and computes nothing", "[kernels][conv]") {
  // Regression (fuzz_kernel_diff, input 00 00 00 00 00 00 00 04): a 5x1 kernel over a 1x1 input
  // has output [1, 1, 0, 1]; the reference indexed its empty accumulator (UBSan: reference
  // binding to null pointer). Wo = 0 under Ho > 0 did the same for each output row.
  ConvParams p;
  p.kh = 5;
  const Tensor x = Tensor::from_ints(DType::U8, {1, 1, 1, 1}, {7}), w(DType::I8, {1, 1, 5, 1});
  Tensor y(DType::U8, {1, 1, 0, 1});
  CHECK_NOTHROW(conv_reference(p, x.view(), w.view(), y.view()));
  ConvParams q;
  q.kw = 3;
  const Tensor x2(DType::U8, {1, 2, 3, 1}), w2(DType::I8, {4, 2, 1, 3});
  Tensor y2(DType::I32, {1, 4, 3, 0});
  q.rq = raw_i32();
  CHECK_NOTHROW(conv_reference(q, x2.view(), w2.view(), y2.view()));
}

TEST_CASE("conv: an accumulator outside the output dtype is an error, not a wrap", "[kernels][conv]") {
  ConvParams p;   // rq None with the default int64 range: the caller chose an i8 output wrongly
  const Tensor x = Tensor::from_ints(DType::U8, {1, 1, 1, 1}, {200});
  const Tensor w = Tensor::from_ints(DType::I8, {1, 1, 1, 1}, {1});
  Tensor y(DType::I8, {1, 1, 1, 1});
  CHECK_THROWS_WITH(conv_reference(p, x.view(), w.view(), y.view()), Catch::Contains("does not fit i8"));
}
