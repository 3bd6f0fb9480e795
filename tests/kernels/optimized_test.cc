// The optimised kernels (kernels/optimized.h) against the reference kernels, their oracle: on
// random shapes, 8-bit dtypes, zero points, biases, strides, dilations, pads and every requant
// kind (raw int32, integer shift, exact divisor in both arithmetic modes, float scale), with
// operands and outputs laid out contiguously, channels-last (as the DORY tiles in L1) or as
// tiles inside a larger buffer, the optimised output must equal the reference output element
// for element, and the fast path must actually have been taken. Cases outside the fast path
// must decline without writing.
#include <catch2/catch.hpp>

#include <cmath>

#include "kernel_util.h"
#include "kernels/core/dense.h"
#include "kernels/core/shape_rules.h"
#include "kernels/optimized.h"
#include "kernels/reference.h"

using namespace edgesim;

namespace {

struct Rng {
  uint64_t s;
  uint64_t next() {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return s >> 33;
  }
  int64_t in(int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1)); }
  bool coin() { return next() & 1; }
};

// A tensor laid out in memory in one of three ways, viewed logically as t's shape.
struct Laid {
  Tensor buf;
  View v;
};
Laid lay(const Tensor& t, int layout) {
  Laid r;
  if (layout == 1 && t.shape().size() == 4) {   // channels last: memory [N, H, W, C]
    const Shape& s = t.shape();
    r.buf = Tensor(t.dtype(), {s[0], s[2], s[3], s[1]});
    r.v = dense::permuted(r.buf.view(), {0, 3, 1, 2});
  } else if (layout == 2) {   // a tile inside a larger buffer
    test::TileBuffer tb = test::as_tile(t, 1, 77);
    const auto origin = tb.tile.base - tb.big.data();
    r.buf = std::move(tb.big);
    r.v = tb.tile;
    r.v.base = r.buf.data() + origin;
  } else {
    r.buf = t;
    r.v = r.buf.view();
  }
  r.v.from_ints(t.to_ints());
  return r;
}

void range_of(DType t, int64_t& lo, int64_t& hi) {
  lo = dtype_min(t);
  hi = dtype_max(t);
}

// A random requant for `ch` channels producing values of dtype y (I32 for the raw accumulator).
Requant random_rq(Rng& g, int64_t ch, DType& y) {
  Requant q;
  const int kind = static_cast<int>(g.in(0, 3));
  auto vec = [&](int64_t lo, int64_t hi) {
    std::vector<int64_t> v(static_cast<size_t>(g.coin() ? ch : 1));
    for (auto& e : v) e = g.in(lo, hi);
    return v;
  };
  if (kind == 0) {
    q.kind = Requant::Kind::None;
    y = DType::I32;
  } else if (kind == 3) {
    q.kind = Requant::Kind::Float;
    q.scale.resize(static_cast<size_t>(g.coin() ? ch : 1));
    for (auto& s : q.scale) s = std::ldexp(static_cast<double>(g.in(1, 1000)), -static_cast<int>(g.in(10, 18)));
    q.zp = g.in(-20, 20);
    y = g.coin() ? DType::U8 : DType::I8;
  } else {
    q.kind = Requant::Kind::Integer;
    q.k = vec(1, 64);
    q.lambda = vec(-(1 << 20), 1 << 20);
    q.mul = g.in(1, 8);
    q.shift = static_cast<int>(g.in(8, 22));
    q.round = g.coin() ? int64_t{1} << (q.shift - 1) : 0;
    if (kind == 2) q.div = (int64_t{1} << q.shift) - 1;
    y = g.coin() ? DType::U8 : DType::I8;
  }
  q.axis = 1;
  range_of(y, q.lo, q.hi);
  return q;
}

DType dtype8(Rng& g) { return g.coin() ? DType::U8 : DType::I8; }

Tensor random8(Rng& g, DType t, const Shape& s) {
  int64_t lo, hi;
  range_of(t, lo, hi);
  return test::random_tensor(t, s, lo, hi, g.next());
}

// Runs the reference and the optimised kernel on the same operands (each laid out at random)
// and checks equal outputs; returns whether the optimised kernel took the case.
template <class Ref, class Opt>
bool same_as_reference(Rng& g, const std::vector<Tensor>& ins, DType yt, const Shape& ys, Ref ref, Opt opt) {
  std::vector<Laid> a, b;
  std::vector<View> av, bv;
  for (const Tensor& t : ins) {
    a.push_back(lay(t, static_cast<int>(g.in(0, 2))));
    b.push_back(lay(t, static_cast<int>(g.in(0, 2))));
  }
  for (size_t i = 0; i < ins.size(); ++i) av.push_back(a[i].v), bv.push_back(b[i].v);
  INFO("layouts (x, w / y): reference " << a[0].v.strides.back() << " / optimised " << b[0].v.strides.back());
  const Tensor zero(yt, ys);
  Laid yr = lay(zero, static_cast<int>(g.in(0, 2))), yo = lay(zero, static_cast<int>(g.in(0, 2)));
  ref(av, yr.v);
  const bool took = opt(bv, yo.v);
  if (took) CHECK(yo.v.to_ints() == yr.v.to_ints());
  else CHECK(yo.v.to_ints() == zero.to_ints());   // declined: nothing written
  return took;
}

}  // namespace

TEST_CASE("optimized conv: depthwise, pointwise and general match the reference bit for bit", "[kernels][optimized]") {
  Rng g{1};
  int taken = 0, cases = 0;
  for (int it = 0; it < 240; ++it) {
    const int kind = it % 3;   // 0 depthwise, 1 pointwise, 2 general (dense or grouped)
    ConvParams p;
    const int64_t N = g.in(1, 2), H = g.in(1, 9), W = g.in(1, 9);
    int64_t C = g.in(1, 12), M = g.in(1, 13);
    if (kind == 0) {
      p.groups = C, M = C;
      p.kh = g.in(1, 3), p.kw = g.in(1, 3);
    } else if (kind == 1) {
      p.kh = p.kw = 1;
    } else {
      p.groups = g.coin() ? 1 : g.in(1, 3);
      C = p.groups * g.in(1, 4), M = p.groups * g.in(1, 5);
      p.kh = g.in(1, 3), p.kw = g.in(1, 4), p.dh = g.in(1, 2), p.dw = g.in(1, 2);
    }
    if (kind != 1) {
      p.sh = g.in(1, 2), p.sw = g.in(1, 2);
      p.pad_t = g.in(0, 2), p.pad_b = g.in(0, 2), p.pad_l = g.in(0, 2), p.pad_r = g.in(0, 2);
    }
    const int64_t Ho = ConvParams::out_size(H, p.kh, p.sh, p.dh, p.pad_t, p.pad_b);
    const int64_t Wo = ConvParams::out_size(W, p.kw, p.sw, p.dw, p.pad_l, p.pad_r);
    if (Ho < 1 || Wo < 1) continue;
    const DType xt = dtype8(g), wt = dtype8(g);
    p.x_zp = g.coin() ? 0 : g.in(-128, 255);
    if (g.coin()) p.w_zp = std::vector<int64_t>(static_cast<size_t>(g.coin() ? M : 1), g.in(-100, 100));
    if (g.coin()) p.bias = test::pseudo_random(M, -100000, 100000, g.next());
    DType yt;
    p.rq = random_rq(g, M, yt);
    const Tensor x = random8(g, xt, {N, C, H, W}), w = random8(g, wt, {M, C / p.groups, p.kh, p.kw});
    const ArithMode mode = g.coin() ? ArithMode::Exact : ArithMode::DoryShift;
    INFO("case " << it << ": x " << shape_str(x.shape()) << " " << dtype_name(xt) << " zp " << p.x_zp << ", w "
                 << shape_str(w.shape()) << " " << dtype_name(wt) << " zp[" << p.w_zp.size() << "], k " << p.kh << "x"
                 << p.kw << " s " << p.sh << "," << p.sw << " d " << p.dh << "," << p.dw << " pads " << p.pad_t << ","
                 << p.pad_l << "," << p.pad_b << "," << p.pad_r << " g " << p.groups << ", " << p.rq.str());
    ++cases;
    taken += same_as_reference(
        g, {x, w}, yt, {N, M, Ho, Wo}, [&](auto& in, const View& y) { conv_reference(p, in[0], in[1], y, mode); },
        [&](auto& in, const View& y) { return conv_optimized(p, in[0], in[1], y, mode); });
  }
  CHECK(cases > 200);
  CHECK(taken == cases);   // 8-bit operands always take the fast path
}

TEST_CASE("optimized gemm: batched, transposed, 1-D and zero-pointed products match the reference", "[kernels][optimized]") {
  Rng g{2};
  int taken = 0;
  for (int it = 0; it < 200; ++it) {
    GemmParams p;
    const int64_t M = g.in(1, 7), K = g.in(1, 40), N = g.in(1, 9);
    p.trans_a = g.coin(), p.trans_b = g.coin();
    Shape as = p.trans_a ? Shape{K, M} : Shape{M, K}, bs = p.trans_b ? Shape{N, K} : Shape{K, N};
    const int shape_kind = static_cast<int>(g.in(0, 3));
    if (shape_kind == 1) {   // a batch on A, broadcast B
      as.insert(as.begin(), g.in(1, 3));
    } else if (shape_kind == 2) {   // batches on both
      const int64_t b = g.in(1, 3);
      as.insert(as.begin(), b), bs.insert(bs.begin(), b);
    } else if (shape_kind == 3 && !p.trans_a) {   // 1-D a
      as = {K};
    }
    const Shape ys = matmul_output_shape(as, bs, p.trans_a, p.trans_b);
    const int64_t rows = as.size() == 1 ? 1 : M;
    if (g.coin()) p.a_zp = std::vector<int64_t>(static_cast<size_t>(g.coin() ? rows : 1), g.in(-50, 50));
    if (g.coin()) p.b_zp = std::vector<int64_t>(static_cast<size_t>(g.coin() ? N : 1), g.in(-50, 50));
    if (g.coin()) {
      p.bias = test::pseudo_random(N, -5000, 5000, g.next());
      p.bias_shape = {N};
    }
    DType yt;
    Requant rq = random_rq(g, ys.back(), yt);
    rq.axis = static_cast<int>(ys.size()) - 1;
    p.rq = rq;
    const Tensor a = random8(g, dtype8(g), as), b = random8(g, dtype8(g), bs);
    taken += same_as_reference(
        g, {a, b}, yt, ys, [&](auto& in, const View& y) { gemm_reference(p, in[0], in[1], y); },
        [&](auto& in, const View& y) { return gemm_optimized(p, in[0], in[1], y); });
  }
  CHECK(taken == 200);
}

TEST_CASE("optimized pool: max and sum windows, global, ceil mode and zero points match the reference", "[kernels][optimized]") {
  Rng g{3};
  int taken = 0;
  for (int it = 0; it < 200; ++it) {
    PoolParams p;
    p.kind = g.coin() ? PoolParams::Kind::Max : PoolParams::Kind::Sum;
    const int64_t N = g.in(1, 2), C = g.in(1, 6), H = g.in(1, 9), W = g.in(1, 9);
    p.global = it % 4 == 0;
    p.kh = g.in(1, std::min<int64_t>(H, 3)), p.kw = g.in(1, std::min<int64_t>(W, 3));
    p.sh = g.in(1, 3), p.sw = g.in(1, 3);
    p.pad_t = g.in(0, p.kh - 1), p.pad_l = g.in(0, p.kw - 1), p.pad_b = g.in(0, p.kh - 1), p.pad_r = g.in(0, p.kw - 1);
    p.ceil_mode = g.coin();
    p.x_zp = g.coin() ? 0 : g.in(-20, 20);
    const int64_t Ho = p.global ? 1 : pool_out_size(H, p.kh, p.sh, p.pad_t, p.pad_b, p.ceil_mode);
    const int64_t Wo = p.global ? 1 : pool_out_size(W, p.kw, p.sw, p.pad_l, p.pad_r, p.ceil_mode);
    DType yt;
    p.rq = random_rq(g, C, yt);
    const DType xt = it % 5 == 0 ? DType::I16 : dtype8(g);
    int64_t lo, hi;
    range_of(xt, lo, hi);
    const Tensor x = test::random_tensor(xt, {N, C, H, W}, std::max<int64_t>(lo, -3000), std::min<int64_t>(hi, 3000), g.next());
    taken += same_as_reference(
        g, {x}, yt, {N, C, Ho, Wo}, [&](auto& in, const View& y) { pool_reference(p, in[0], y); },
        [&](auto& in, const View& y) { return pool_optimized(p, in[0], y); });
  }
  CHECK(taken == 200);
}

TEST_CASE("optimized add: shifted operands and requant kinds match the reference", "[kernels][optimized]") {
  Rng g{4};
  int taken = 0;
  for (int it = 0; it < 150; ++it) {
    AddParams p;
    const Shape s = {g.in(1, 2), g.in(1, 8), g.in(1, 6), g.in(1, 6)};
    p.mul1 = g.in(1, 300), p.add1 = g.in(-1000, 1000), p.shift1 = g.in(0, 8);
    p.mul2 = g.in(1, 300), p.add2 = g.in(-1000, 1000), p.shift2 = g.in(0, 8);
    p.shift_sum = g.in(0, 3);
    DType yt;
    p.rq = random_rq(g, s[1], yt);
    const DType at = it % 4 == 0 ? DType::I32 : dtype8(g);
    const Tensor a = test::random_tensor(at, s, -128, 127, g.next()), b = random8(g, dtype8(g), s);
    taken += same_as_reference(
        g, {a, b}, yt, s, [&](auto& in, const View& y) { add_reference(p, in[0], in[1], y); },
        [&](auto& in, const View& y) { return add_optimized(p, in[0], in[1], y); });
  }
  CHECK(taken == 150);
}

TEST_CASE("optimized kernels decline what they cannot do exactly, without writing", "[kernels][optimized]") {
  Rng g{5};
  // 16-bit conv input, an accumulator bound beyond int32, a broadcast add, an I32 gemm operand.
  ConvParams p;
  p.rq.kind = Requant::Kind::None;
  p.rq.lo = INT32_MIN, p.rq.hi = INT32_MAX;
  const Tensor x16 = test::random_tensor(DType::I16, {1, 2, 3, 3}, -5, 5, 1), w = random8(g, DType::I8, {2, 2, 1, 1});
  Tensor y(DType::I32, {1, 2, 3, 3});
  CHECK_FALSE(conv_optimized(p, x16.view(), w.view(), y.view()));
  p.bias = {int64_t{1} << 31, 0};
  const Tensor x8 = random8(g, DType::U8, {1, 2, 3, 3});
  CHECK_FALSE(conv_optimized(p, x8.view(), w.view(), y.view()));
  CHECK(y.to_ints() == std::vector<int64_t>(18, 0));
  AddParams ap;
  ap.rq = p.rq;
  const Tensor a = random8(g, DType::I8, {1, 2, 3, 3}), b = random8(g, DType::I8, {1, 2, 1, 1});
  CHECK_FALSE(add_optimized(ap, a.view(), b.view(), y.view()));
  GemmParams gp;
  gp.rq = p.rq;
  const Tensor a32 = test::random_tensor(DType::I32, {2, 3}, -3, 3, 2), b8 = random8(g, DType::I8, {3, 2});
  Tensor y2(DType::I32, {2, 2});
  CHECK_FALSE(gemm_optimized(gp, a32.view(), b8.view(), y2.view()));
}

TEST_CASE("optimized pool: a window larger than the padded input gives an empty output as the reference does", "[kernels][optimized]") {
  // Regression (fuzz_kernel_diff, input 02 00 00 00 00 ef fe ee): a 5x4 sum window over a 1x1
  // input has output [1, 1, 0, 0]; pool_optimized indexed its empty output buffer (UBSan:
  // reference binding to null pointer). Wo = 0 under Ho > 0 did the same for each channel.
  Rng g{6};
  for (const auto kind : {PoolParams::Kind::Sum, PoolParams::Kind::Max}) {
    PoolParams p;
    p.kind = kind;
    p.kh = 5, p.kw = 4;
    const Tensor x = random8(g, DType::I8, {1, 1, 1, 1});
    Tensor yr(DType::I8, {1, 1, 0, 0}), yo(DType::I8, {1, 1, 0, 0});
    CHECK_NOTHROW(pool_reference(p, x.view(), yr.view()));
    CHECK(pool_optimized(p, x.view(), yo.view()));
    p.kh = 1;   // Ho = 3, Wo = 0
    const Tensor x3 = random8(g, DType::U8, {2, 3, 3, 2});
    Tensor y3(DType::I8, {2, 3, 3, 0});
    CHECK(pool_optimized(p, x3.view(), y3.view()));
  }
}

TEST_CASE("optimized conv: a kernel larger than the padded input gives an empty output as the reference does", "[kernels][optimized]") {
  // Regression (fuzz_kernel_diff, 60-s run with seed 1): a batch of 2 under a kernel taller than
  // the input, output [2, M, 0, Wo] laid out with the batch axis not outermost; conv_optimized
  // stepped the empty output view to the second image, a null pointer plus an offset (UBSan:
  // applying non-zero offset to null pointer).
  Rng g{7};
  ConvParams p;
  p.kh = 4, p.kw = 2;
  p.rq.lo = INT32_MIN, p.rq.hi = INT32_MAX;
  const Tensor x = random8(g, DType::U8, {2, 3, 2, 5}), w = random8(g, DType::I8, {4, 3, 4, 2});
  Tensor yr(DType::I32, {2, 4, 0, 4}), mem(DType::I32, {0, 2, 4, 4});   // memory order Ho, N, M, Wo
  const View yo = dense::permuted(mem.view(), {1, 2, 0, 3});
  CHECK_NOTHROW(conv_reference(p, x.view(), w.view(), yr.view()));
  CHECK_NOTHROW(conv_reference(p, x.view(), w.view(), yo));
  CHECK(conv_optimized(p, x.view(), w.view(), yo));
  p.groups = 3;   // depthwise
  const Tensor wd = random8(g, DType::I8, {3, 1, 4, 2});
  Tensor md(DType::I32, {0, 2, 3, 4});
  CHECK(conv_optimized(p, x.view(), wd.view(), dense::permuted(md.view(), {1, 2, 0, 3})));
}
