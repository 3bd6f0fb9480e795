// The portable C kernels (kernels/c) against the reference kernels: every kernel on seeded
// random cases (dtypes, zero points, per-channel and per-tensor requant of every kind, pads,
// strides, dilations, groups, broadcasting, strided HWC views), run core by core for 1 and 3
// cores, must write exactly the reference's output. The NPU weight decoder against
// kernels/npu/weights.cc's on every layout.
#include <catch2/catch.hpp>

extern "C" {
#include "es_kernels.h"
}
#include "kernel_util.h"
#include "kernels/core/shape_rules.h"
#include "kernels/npu/weights.h"
#include "kernels/reference.h"
#include "platforms/loader/spec.h"

using namespace edgesim;

namespace {

es_view_t cview(const View& v) {
  es_view_t c{};
  c.p = v.base;
  c.dtype = static_cast<int32_t>(v.dtype);
  c.rank = static_cast<int32_t>(v.rank());
  for (int64_t d = 0; d < v.rank(); ++d) {
    c.shape[d] = static_cast<int32_t>(v.shape[d]);
    c.stride[d] = static_cast<int32_t>(v.strides[d]);
  }
  return c;
}

// An [N, C, H, W] tensor stored HWC, as the schedule's L1 tiles are.
struct Hwc {
  std::vector<std::byte> bytes;
  View view;
};
Hwc hwc(const Tensor& t) {
  Hwc h;
  const Shape& s = t.shape();
  h.bytes.resize(t.nbytes());
  h.view = View{t.dtype(), h.bytes.data(), s, {s[1] * s[2] * s[3], 1, s[3] * s[1], s[1]}};
  h.view.from_ints(t.to_ints());
  return h;
}

// Keeps the vectors an es_rq_t points into.
struct CRq {
  Requant rq;
  es_rq_t c{};
  explicit CRq(const Requant& r, int axis) : rq(r) {
    c.kind = r.kind == Requant::Kind::None ? 0 : r.kind == Requant::Kind::Integer ? 1 : 2;
    c.axis = axis;
    c.nk = static_cast<int32_t>(rq.k.size());
    c.k = rq.k.data();
    c.nl = static_cast<int32_t>(rq.lambda.size());
    c.lambda = rq.lambda.data();
    c.mul = r.mul;
    c.shift = r.shift;
    c.round = r.round;
    c.div = r.div;
    c.ns = static_cast<int32_t>(rq.scale.size());
    c.scale = rq.scale.data();
    c.zp = r.zp;
    c.lo = r.lo;
    c.hi = r.hi;
  }
};

Requant random_rq(int variant, int64_t ch, uint64_t seed, DType out) {
  Requant rq;
  rq.lo = dtype_min(out);
  rq.hi = dtype_max(out);
  if (variant == 0) {   // raw clamp
    return rq;
  }
  if (variant == 3) {
    rq.kind = Requant::Kind::Float;
    rq.axis = 1;
    for (int64_t v : test::pseudo_random(ch, 1, 1000, seed)) rq.scale.push_back(static_cast<double>(static_cast<float>(v) * 1e-4f));
    rq.zp = 3;
    return rq;
  }
  rq.kind = Requant::Kind::Integer;
  rq.axis = 1;
  rq.k = test::pseudo_random(variant == 1 ? 1 : ch, 1, 50, seed);
  rq.lambda = test::pseudo_random(variant == 1 ? 1 : ch, -5000, 5000, seed + 1);
  rq.mul = 3;
  rq.shift = 14;
  rq.round = variant == 2 ? 1 << 13 : 0;
  if (variant == 4) rq.div = 16383;
  return rq;
}

template <class F>
void every_core(int ncores, F f) {
  for (int c = ncores - 1; c >= 0; --c) f(c, ncores);   // any order: here the last core first
}

}  // namespace

TEST_CASE("C kernels: es_conv equals conv_reference (dense, grouped, depthwise with pads, strides, dilation)",
          "[kernels][ckernels]") {
  struct Case { int64_t n, c, h, w, m, k, s, d, g, pad; DType xt, wt; };
  const std::vector<Case> cases = {
      {1, 8, 9, 10, 8, 3, 1, 1, 1, 1, DType::U8, DType::I8},  {1, 16, 6, 7, 12, 1, 1, 1, 1, 0, DType::I8, DType::I8},
      {2, 6, 7, 9, 6, 3, 2, 1, 6, 1, DType::U8, DType::I8},   {1, 8, 8, 8, 16, 3, 1, 2, 2, 2, DType::U8, DType::U8},
      {1, 5, 5, 6, 7, 2, 2, 1, 1, 1, DType::I8, DType::U8},   {1, 4, 6, 6, 4, 3, 1, 1, 1, 1, DType::I16, DType::I8},
      {1, 3, 1, 12, 8, 3, 1, 1, 1, 1, DType::U8, DType::I8},  {1, 12, 5, 5, 12, 5, 1, 1, 3, 2, DType::U8, DType::I8},
  };
  uint64_t seed = 11;
  for (const Case& c : cases)
    for (int variant = 0; variant < 5; ++variant) {
      ConvParams p;
      p.kh = c.h == 1 ? 1 : c.k;
      p.kw = c.k;
      p.sh = p.sw = c.s;
      p.dh = p.dw = c.d;
      p.pad_t = c.h == 1 ? 0 : c.pad;
      p.pad_l = c.pad;
      p.pad_b = c.h == 1 ? 0 : c.pad;
      p.pad_r = c.pad + 1;
      p.groups = c.g;
      p.bias = test::pseudo_random(c.m, -500, 500, seed++);
      p.x_zp = variant == 2 ? 7 : 0;
      p.w_zp = variant == 1 ? std::vector<int64_t>{2} : variant == 4 ? test::pseudo_random(c.m, -3, 3, seed++) : std::vector<int64_t>{};
      const DType yt = variant == 0 ? DType::I32 : DType::U8;
      p.rq = random_rq(variant, c.m, seed++, yt);
      const int64_t ho = ConvParams::out_size(c.h, p.kh, p.sh, p.dh, p.pad_t, p.pad_b);
      const int64_t wo = ConvParams::out_size(c.w, p.kw, p.sw, p.dw, p.pad_l, p.pad_r);
      const Tensor x = test::random_tensor(c.xt, {c.n, c.c, c.h, c.w}, c.xt == DType::U8 ? 0 : -128,
                                           c.xt == DType::U8 ? 255 : 127, seed++);
      const Tensor w = test::random_tensor(c.wt, {c.m, c.c / c.g, p.kh, p.kw}, c.wt == DType::U8 ? 0 : -128,
                                           c.wt == DType::U8 ? 255 : 127, seed++);
      Tensor want(yt, {c.n, c.m, ho, wo});
      conv_reference(p, x.view(), w.view(), want.view());
      for (int ncores : {1, 3}) {
        const Hwc hx = hwc(x);
        Tensor got(yt, {c.n, c.m, ho, wo});
        Hwc hy = hwc(got);
        const CRq rq(p.rq, 1);
        const es_conv_p_t cp{static_cast<int32_t>(p.kh), static_cast<int32_t>(p.kw), static_cast<int32_t>(p.sh),
                             static_cast<int32_t>(p.sw), static_cast<int32_t>(p.dh), static_cast<int32_t>(p.dw),
                             static_cast<int32_t>(p.pad_t), static_cast<int32_t>(p.pad_l), static_cast<int32_t>(p.groups),
                             p.x_zp, static_cast<int32_t>(p.bias.size()), p.bias.data(),
                             static_cast<int32_t>(p.w_zp.size()), p.w_zp.data(), rq.c};
        const es_view_t vx = cview(hx.view), vw = cview(w.view()), vy = cview(hy.view);
        every_core(ncores, [&](int core, int n) { es_conv(&cp, &vx, &vw, &vy, core, n); });
        got.view().from_ints(hy.view.to_ints());
        INFO("case c=" << c.c << " m=" << c.m << " k=" << c.k << " g=" << c.g << " variant " << variant << " cores "
                       << ncores);
        CHECK(got.to_ints() == want.to_ints());
      }
    }
}

TEST_CASE("C kernels: es_pool equals pool_reference (max, sum, pads, global)", "[kernels][ckernels]") {
  uint64_t seed = 5;
  for (int kind = 0; kind < 2; ++kind)
    for (int64_t k : {2, 3, 7})
      for (int variant = 0; variant < 4; ++variant) {
        PoolParams p;
        p.kind = kind ? PoolParams::Kind::Sum : PoolParams::Kind::Max;
        p.kh = p.kw = k;
        p.sh = p.sw = k == 3 ? 2 : k;
        p.pad_t = p.pad_l = k == 3 ? 1 : 0;
        p.global = k == 7;
        p.x_zp = variant == 2 ? 3 : 0;
        const DType yt = kind && variant == 0 ? DType::I32 : DType::U8;
        p.rq = random_rq(variant, 6, seed++, yt);
        const Tensor x = test::random_tensor(DType::U8, {1, 6, 7, 7}, 0, 255, seed++);
        const int64_t o = p.global ? 1 : pool_out_size(7, p.kh, p.sh, p.pad_t, p.pad_b, false);
        Tensor want(yt, {1, 6, o, o});
        pool_reference(p, x.view(), want.view());
        const Hwc hx = hwc(x);
        Tensor got(yt, {1, 6, o, o});
        Hwc hy = hwc(got);
        const CRq rq(p.rq, 1);
        const es_pool_p_t cp{kind, static_cast<int32_t>(p.global ? 7 : p.kh), static_cast<int32_t>(p.global ? 7 : p.kw),
                             static_cast<int32_t>(p.global ? 1 : p.sh), static_cast<int32_t>(p.global ? 1 : p.sw),
                             static_cast<int32_t>(p.pad_t), static_cast<int32_t>(p.pad_l), p.x_zp, rq.c};
        const es_view_t vx = cview(hx.view), vy = cview(hy.view);
        every_core(3, [&](int core, int n) { es_pool(&cp, &vx, &vy, core, n); });
        got.view().from_ints(hy.view.to_ints());
        INFO("kind " << kind << " k " << k << " variant " << variant);
        CHECK(got.to_ints() == want.to_ints());
      }
}

TEST_CASE("C kernels: es_gemm equals gemm_reference (batch, transposes, zero points, bias shapes)",
          "[kernels][ckernels]") {
  uint64_t seed = 77;
  for (int variant = 0; variant < 5; ++variant)
    for (bool trans_b : {false, true})
      for (int64_t m : {1, 5}) {
        GemmParams p;
        p.trans_b = trans_b;
        const int64_t k = 9, n = 6;
        p.bias = test::pseudo_random(variant == 3 ? m * n : n, -100, 100, seed++);
        p.bias_shape = variant == 3 ? Shape{m, n} : Shape{n};
        p.a_zp = variant == 1 ? std::vector<int64_t>{4} : std::vector<int64_t>{};
        p.b_zp = variant == 2 ? test::pseudo_random(n, -2, 2, seed++) : std::vector<int64_t>{};
        const DType yt = variant == 0 ? DType::I32 : DType::I8;
        p.rq = random_rq(variant, n, seed++, yt);
        p.rq.axis = variant == 0 ? -1 : 2;
        const Tensor a = test::random_tensor(DType::I8, {2, m, k}, -128, 127, seed++);
        const Tensor b = test::random_tensor(DType::I8, trans_b ? Shape{n, k} : Shape{k, n}, -128, 127, seed++);
        Tensor want(yt, {2, m, n});
        gemm_reference(p, a.view(), b.view(), want.view());
        Tensor got(yt, {2, m, n});
        // The generator's normalisation: b K-last, its batch axis broadcast (stride 0).
        View bv = b.view();
        if (!trans_b) {
          std::swap(bv.shape[0], bv.shape[1]);
          std::swap(bv.strides[0], bv.strides[1]);
        }
        es_view_t vb = cview(bv);
        vb.rank = 3;
        vb.shape[2] = vb.shape[1], vb.shape[1] = vb.shape[0], vb.shape[0] = 2;
        vb.stride[2] = vb.stride[1], vb.stride[1] = vb.stride[0], vb.stride[0] = 0;
        const CRq rq(p.rq, p.rq.axis);
        const int64_t sm = variant == 3 ? n : 0;
        const es_gemm_p_t cp{static_cast<int32_t>(p.bias.size()), p.bias.data(), static_cast<int32_t>(sm), 1,
                             static_cast<int32_t>(p.a_zp.size()), p.a_zp.data(), static_cast<int32_t>(p.b_zp.size()),
                             p.b_zp.data(), rq.c};
        const es_view_t va = cview(a.view()), vy = cview(got.view());
        every_core(3, [&](int core, int nc) { es_gemm(&cp, &va, &vb, &vy, core, nc); });
        INFO("variant " << variant << " trans_b " << trans_b << " m " << m);
        CHECK(got.to_ints() == want.to_ints());
      }
}

TEST_CASE("C kernels: element-wise kernels equal the reference (add, mul, clip, requant, copy, quantize)",
          "[kernels][ckernels]") {
  uint64_t seed = 3;
  const Tensor a = test::random_tensor(DType::U8, {1, 4, 3, 5}, 0, 255, seed++);
  const Tensor b = test::random_tensor(DType::I8, {1, 4, 1, 1}, -128, 127, seed++);   // broadcast operand
  es_view_t vb = cview(b.view());
  for (int d : {2, 3}) vb.shape[d] = d == 2 ? 3 : 5, vb.stride[d] = 0;
  for (int variant = 0; variant < 5; ++variant) {
    AddParams p;
    p.mul1 = 3, p.add1 = 5, p.shift1 = 1, p.mul2 = 2, p.add2 = -1, p.shift2 = 0, p.shift_sum = 1;
    p.rq = random_rq(variant, 4, seed++, DType::I16);
    Tensor want(DType::I16, a.shape()), got(DType::I16, a.shape());
    add_reference(p, a.view(), b.view(), want.view());
    const CRq rq(p.rq, p.rq.axis);
    const es_add_p_t cp{p.mul1, p.add1, p.shift1, p.mul2, p.add2, p.shift2, p.shift_sum, rq.c};
    const es_view_t va = cview(a.view()), vy = cview(got.view());
    every_core(3, [&](int core, int n) { es_add(&cp, &va, &vb, &vy, core, n); });
    INFO("add variant " << variant);
    CHECK(got.to_ints() == want.to_ints());

    MulParams mp;
    mp.rq = random_rq(variant, 4, seed++, DType::I32);
    Tensor mwant(DType::I32, a.shape()), mgot(DType::I32, a.shape());
    mul_reference(mp, a.view(), b.view(), mwant.view());
    const CRq mrq(mp.rq, mp.rq.axis);
    const es_view_t vmy = cview(mgot.view());
    every_core(2, [&](int core, int n) { es_mul(&mrq.c, &va, &vb, &vmy, core, n); });
    CHECK(mgot.to_ints() == mwant.to_ints());

    RequantParams rp;
    rp.rq = random_rq(variant, 4, seed++, DType::U8);
    Tensor rwant(DType::U8, a.shape()), rgot(DType::U8, a.shape());
    requant_reference(rp, a.view(), rwant.view());
    const CRq rrq(rp.rq, rp.rq.axis);
    const es_view_t vry = cview(rgot.view());
    every_core(3, [&](int core, int n) { es_requant(&rrq.c, &va, &vry, core, n); });
    CHECK(rgot.to_ints() == rwant.to_ints());
  }
  // Clip, and a transpose as the strided copy the generator makes of it.
  Tensor cwant(DType::U8, a.shape()), cgot(DType::U8, a.shape());
  clip_reference({10, 200}, a.view(), cwant.view());
  const es_view_t va = cview(a.view()), vc = cview(cgot.view());
  every_core(3, [&](int core, int n) { es_clip(10, 200, &va, &vc, core, n); });
  CHECK(cgot.to_ints() == cwant.to_ints());
  TransposeParams tp;
  tp.perm = {0, 2, 3, 1};
  Tensor twant(DType::U8, {1, 3, 5, 4}), tgot(DType::U8, {1, 3, 5, 4});
  transpose_reference(tp, a.view(), twant.view());
  View perm = a.view();
  for (size_t d = 0; d < 4; ++d) perm.shape[d] = a.shape()[tp.perm[d]], perm.strides[d] = a.view().strides[tp.perm[d]];
  const es_view_t vp = cview(perm), vt = cview(tgot.view());
  every_core(3, [&](int core, int n) { es_copy(&vp, &vt, core, n); });
  CHECK(tgot.to_ints() == twant.to_ints());
  // Quantize / dequantize per channel.
  QuantizeParams qp;
  qp.axis = 1;
  qp.scale = {0.5f, 0.25f, 1.5f, 0.1f};
  qp.zp = {0, 3, -2, 1};
  std::vector<float> xf;
  for (int64_t v : test::pseudo_random(60, -3000, 3000, seed++)) xf.push_back(static_cast<float>(v) / 37.0f);
  const Tensor xq = Tensor::from_f32({1, 4, 3, 5}, xf);
  Tensor qwant(DType::I8, xq.shape()), qgot(DType::I8, xq.shape());
  quantize_reference(qp, xq.view(), qwant.view());
  const es_quant_p_t cq{1, 4, qp.scale.data(), 4, qp.zp.data()};
  const es_view_t vxq = cview(xq.view()), vq = cview(qgot.view());
  every_core(3, [&](int core, int n) { es_quantize(&cq, &vxq, &vq, core, n); });
  CHECK(qgot.to_ints() == qwant.to_ints());
  DequantizeParams dp;
  dp.axis = 1;
  dp.scale = qp.scale;
  dp.zp = qp.zp;
  Tensor dwant(DType::F32, xq.shape()), dgot(DType::F32, xq.shape());
  dequantize_reference(dp, qwant.view(), dwant.view());
  const es_view_t vdq = cview(qwant.view()), vd = cview(dgot.view());
  every_core(3, [&](int core, int n) { es_dequantize(&cq, &vdq, &vd, core, n); });
  CHECK(dgot.to_f64() == dwant.to_f64());
}

TEST_CASE("C kernels: es_npu_decode equals decode_npu_weights on every layout", "[kernels][ckernels][npu]") {
  uint64_t seed = 9;
  for (const char* impl : {"neureka", "ne16"})
    for (NpuOp op : {NpuOp::Conv3x3, NpuOp::Conv1x1, NpuOp::Dw3x3})
      for (int64_t bits : {8, 4}) {
        NpuSpec npu;
        npu.impl = impl;
        npu.tp_in = std::string(impl) == "neureka" ? 32 : 16;
        npu.tp_in_3x3 = 28;
        const int64_t ko = 40, ki = op == NpuOp::Dw3x3 ? 1 : 37, k = op == NpuOp::Conv1x1 ? 1 : 3;
        const NpuWeightGeom g = npu_weight_geom(npu, op, ko, ki, bits);
        const int64_t lo = -(int64_t{1} << (bits - 1)), hi = (int64_t{1} << (bits - 1)) - 1;
        const Tensor w = test::random_tensor(DType::I8, {ko, ki, k, k}, lo, hi, seed++);
        const std::vector<std::byte> enc = encode_npu_weights(w.view(), g);
        const es_npu_geom_t cg{std::string(impl) == "ne16" ? 1 : 0, static_cast<int32_t>(op), static_cast<int32_t>(ko),
                               static_cast<int32_t>(g.ki), static_cast<int32_t>(k), static_cast<int32_t>(bits),
                               static_cast<int32_t>(g.rows), static_cast<int32_t>(g.row_bytes),
                               static_cast<int32_t>(g.channels_per_row)};
        const int64_t r0 = 1, n_rows = g.rows - 1;
        const Tensor want = decode_npu_weights(enc.data() + r0 * g.row_bytes, r0, n_rows, g);
        const int64_t skip = 2, nc = want.shape()[0] - skip;
        std::vector<int8_t> got(static_cast<size_t>(nc * g.ki * k * k));
        REQUIRE(es_npu_decode(&cg, reinterpret_cast<const uint8_t*>(enc.data()) + r0 * g.row_bytes, r0, n_rows, skip,
                              nc, got.data()) == 0);
        const std::vector<int64_t> all = want.to_ints();
        const std::vector<int64_t> tail(all.begin() + skip * g.ki * k * k, all.end());
        INFO(impl << " " << npu_op_name(op) << " " << bits << " bits");
        CHECK(std::vector<int64_t>(got.begin(), got.end()) == tail);
        CHECK(es_npu_decode(&cg, reinterpret_cast<const uint8_t*>(enc.data()), 0, 1, 0, 1000, got.data()) == -1);
      }
}
