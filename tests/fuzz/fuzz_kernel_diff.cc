// libFuzzer target, differential: the input bytes choose one small layer — a convolution
// (depthwise, pointwise or general, with strides, pads, dilations and groups), a matrix product
// (transposes, batches, 1-D operands, bias shapes), a max or sum pool, or an Add — with its
// zero points, bias, requant, operand dtypes and values, and how each operand and the output lie
// in memory (contiguous, permuted, or a tile inside a larger buffer). The optimised kernel
// (kernels/optimized.h) and its oracle, the reference kernel (kernels/reference.h), both run it.
// Every dim is at most 16, so that an execution stays short.
//
// A finding (__builtin_trap, after a line on stderr saying which) is:
//  - the optimised kernel took the case (returned true) and its output differs from the
//    reference's, or the reference rejected the case;
//  - the optimised kernel declined a case the reference computed, yet wrote to the output;
//  - either kernel wrote outside its output view, or into an operand;
//  - the reference threw on a layer built within the kernels' contract (byte 0, bit 2 clear: the
//    operand dtypes each fast path takes, zero points, biases, shifts and requants in the ranges
//    networks use, requant ranges within y's dtype), or threw anything but the kernels'
//    documented errors (std::invalid_argument for parameters, std::range_error for a result
//    outside y's dtype) on a layer built past it (bit 2 set: wider dtypes and zero points,
//    requant ranges beyond y's dtype, large shifts and scales, pads past the pool window, a
//    broadcast Add operand);
//  - the optimised kernel throwing anything, a sanitizer report, a crash or a hang.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/core/dense.h"
#include "kernels/core/shape_rules.h"
#include "kernels/optimized.h"
#include "kernels/reference.h"
#include "tests/kernels/kernel_util.h"

namespace {

using namespace edgesim;

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "kernel_diff: %s\n", what.c_str());
  __builtin_trap();
}

// The fuzz input as a stream of choices; past its end every byte reads as 0.
class Choices {
 public:
  Choices(const uint8_t* p, size_t n) : p_(p), n_(n) {}
  uint8_t byte() {
    if (n_ == 0) return 0;
    --n_;
    return *p_++;
  }
  uint64_t bytes(int k) {
    uint64_t v = 0;
    for (int i = 0; i < k; ++i) v = v << 8 | byte();
    return v;
  }
  // lo..hi (hi − lo < 2^32), from as few bytes as the range needs.
  int64_t in(int64_t lo, int64_t hi) {
    const auto span = static_cast<uint64_t>(hi - lo) + 1;
    const int k = span <= 0x100 ? 1 : span <= 0x10000 ? 2 : 4;
    return lo + static_cast<int64_t>(bytes(k) % span);
  }
  bool coin() { return byte() & 1; }

 private:
  const uint8_t* p_;
  size_t n_;
};

// A layer under test: its operands, the output's dtype and shape, and the two kernels.
struct Case {
  std::string name;
  std::vector<Tensor> in;
  DType yt = DType::I32;
  Shape ys;
  bool stretch = false;   // built past the kernels' contract (see the top of the file)
  std::function<void(const std::vector<View>&, const View&)> ref;
  std::function<bool(const std::vector<View>&, const View&)> opt;
};

DType dtype8(Choices& c) { return c.coin() ? DType::U8 : DType::I8; }

// Values of dtype t for shape s (I64 within the int32 range): uniform, the extremes only, or
// near zero, from a seed.
Tensor values(Choices& c, DType t, const Shape& s) {
  const int mode = c.byte() % 3;
  uint64_t seed = c.bytes(8);
  const int64_t lo = std::max<int64_t>(dtype_min(t), INT32_MIN), hi = std::min<int64_t>(dtype_max(t), INT32_MAX);
  std::vector<int64_t> v(static_cast<size_t>(shape_numel(s)));
  for (auto& e : v) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    const uint64_t r = seed >> 17;
    if (mode == 0) e = lo + static_cast<int64_t>(r % static_cast<uint64_t>(hi - lo + 1));
    else if (mode == 1) e = (r & 1) ? hi : lo;
    else e = std::clamp<int64_t>(static_cast<int64_t>(r % 5) - 2, lo, hi);
  }
  return Tensor::from_ints(t, s, v);
}

// A requant for `ch` channels along `axis`, choosing y's dtype (I32 for the raw accumulator).
Requant requant(Choices& c, int64_t ch, int axis, bool stretch, DType& y) {
  Requant q;
  const int kind = c.byte() % 4;
  auto vec = [&](int64_t lo, int64_t hi) {
    std::vector<int64_t> v(static_cast<size_t>(c.coin() ? ch : 1));
    for (auto& e : v) e = c.in(lo, hi);
    return v;
  };
  y = stretch && c.coin() ? (c.coin() ? DType::I16 : DType::I32) : dtype8(c);
  if (kind == 0) {
    q.kind = Requant::Kind::None;
    y = DType::I32;
  } else if (kind == 3) {
    q.kind = Requant::Kind::Float;
    q.scale.resize(static_cast<size_t>(c.coin() ? ch : 1));
    for (auto& s : q.scale)
      s = std::ldexp(static_cast<double>(c.in(1, 1000)), static_cast<int>(stretch ? c.in(-40, 60) : -c.in(10, 18)));
    q.zp = c.in(-20, 20);
  } else {
    q.kind = Requant::Kind::Integer;
    q.k = stretch ? vec(-4096, 4096) : vec(1, 64);
    q.lambda = vec(-(1 << 20), 1 << 20);
    q.mul = c.in(1, 8);
    q.shift = static_cast<int>(stretch ? c.in(0, 40) : c.in(8, 22));
    q.round = c.coin() && q.shift > 0 ? int64_t{1} << (q.shift - 1) : 0;
    if (kind == 2) q.div = stretch ? c.in(1, 1 << 20) : (int64_t{1} << q.shift) - 1;
    if (q.div == 0 && kind == 2) q.div = 1;
  }
  q.axis = axis;
  q.lo = dtype_min(y), q.hi = dtype_max(y);
  if (y == DType::I32 && kind == 0) q.lo = INT32_MIN, q.hi = INT32_MAX;
  const int range = c.byte() % 4;
  if (range == 1) q.lo = std::min(q.lo + c.in(0, 100), q.hi);   // a narrower range, as a fused Relu
  else if (range == 2 && stretch) q.lo -= c.in(1, 1000), q.hi += c.in(1, 1000);   // past y's dtype
  return q;
}

std::vector<int64_t> zero_points(Choices& c, int64_t n, bool stretch) {
  if (c.coin()) return {};
  std::vector<int64_t> zp(static_cast<size_t>(c.coin() ? n : 1));
  for (auto& z : zp) z = stretch ? c.in(-70000, 70000) : c.in(-255, 255);
  return zp;
}

}  // namespace

namespace {

Case conv_case(Choices& c, bool stretch) {
  ConvParams p;
  const int kind = c.byte() % 3;   // depthwise, pointwise, general (dense or grouped)
  const int64_t N = c.in(1, 2), H = c.in(1, 16), W = c.in(1, 16);
  int64_t C = c.in(1, 16), M = c.in(1, 16);
  if (kind == 0) {
    p.groups = C, M = C;
    p.kh = c.in(1, 5), p.kw = c.in(1, 5), p.dh = c.in(1, 2), p.dw = c.in(1, 2);
  } else if (kind == 2) {
    p.groups = c.in(1, 4);
    C = p.groups * c.in(1, 16 / p.groups), M = p.groups * c.in(1, 16 / p.groups);
    p.kh = c.in(1, 5), p.kw = c.in(1, 5), p.dh = c.in(1, 3), p.dw = c.in(1, 3);
  }
  if (kind != 1) {
    p.sh = c.in(1, 3), p.sw = c.in(1, 3);
    p.pad_t = c.in(0, 3), p.pad_l = c.in(0, 3), p.pad_b = c.in(0, 3), p.pad_r = c.in(0, 3);
  }
  const int64_t Ho = ConvParams::out_size(H, p.kh, p.sh, p.dh, p.pad_t, p.pad_b);
  const int64_t Wo = ConvParams::out_size(W, p.kw, p.sw, p.dw, p.pad_l, p.pad_r);
  p.x_zp = c.coin() ? 0 : stretch ? c.in(-70000, 70000) : c.in(-128, 255);
  p.w_zp = zero_points(c, M, stretch);
  if (c.coin()) {
    p.bias.resize(static_cast<size_t>(M));
    for (auto& b : p.bias) b = stretch ? c.in(INT32_MIN, INT32_MAX) : c.in(-100000, 100000);
  }
  Case k;
  p.rq = requant(c, M, 1, stretch, k.yt);
  const DType xt = stretch && c.coin() ? DType::I16 : dtype8(c), wt = dtype8(c);
  k.in = {values(c, xt, {N, C, H, W}), values(c, wt, {M, C / p.groups, p.kh, p.kw})};
  k.ys = {N, M, Ho, Wo};
  const ArithMode mode = c.coin() ? ArithMode::Exact : ArithMode::DoryShift;
  k.name = "conv " + shape_str(k.in[0].shape()) + " * " + shape_str(k.in[1].shape()) + " groups " +
           std::to_string(p.groups) + " stride " + std::to_string(p.sh) + "," + std::to_string(p.sw) + " dil " +
           std::to_string(p.dh) + "," + std::to_string(p.dw) + " pads " + std::to_string(p.pad_t) + "," +
           std::to_string(p.pad_l) + "," + std::to_string(p.pad_b) + "," + std::to_string(p.pad_r) + " " + p.rq.str();
  k.ref = [p, mode](const std::vector<View>& in, const View& y) { conv_reference(p, in[0], in[1], y, mode); };
  k.opt = [p, mode](const std::vector<View>& in, const View& y) { return conv_optimized(p, in[0], in[1], y, mode); };
  return k;
}

Case gemm_case(Choices& c, bool stretch) {
  GemmParams p;
  const int64_t M = c.in(1, 16), K = c.in(1, 16), N = c.in(1, 16);
  p.trans_a = c.coin(), p.trans_b = c.coin();
  Shape as = p.trans_a ? Shape{K, M} : Shape{M, K}, bs = p.trans_b ? Shape{N, K} : Shape{K, N};
  const int shape_kind = c.byte() % 6;
  const int64_t batch = c.in(1, 3);
  if (shape_kind == 1) as.insert(as.begin(), batch);                                          // batch on A
  else if (shape_kind == 2) as.insert(as.begin(), batch), bs.insert(bs.begin(), batch);       // on both
  else if (shape_kind == 3) bs.insert(bs.begin(), batch), as.insert(as.begin(), int64_t{1});  // A broadcast
  else if (shape_kind == 4 && !p.trans_a) as = {K};                                           // 1-D a
  else if (shape_kind == 5 && !p.trans_b) bs = {K};                                           // 1-D b
  const Shape ys = matmul_output_shape(as, bs, p.trans_a, p.trans_b);
  p.a_zp = zero_points(c, as.size() == 1 ? 1 : M, stretch);
  p.b_zp = zero_points(c, bs.size() == 1 ? 1 : N, stretch);
  const int bias_kind = c.byte() % 6;   // none, [], [N], [1, N], [M, 1], [M, N]
  const int64_t rows = as.size() == 1 ? 1 : M, cols = bs.size() == 1 ? 1 : N;
  static const char* kBias[] = {"none", "[]", "[N]", "[1,N]", "[M,1]", "[M,N]"};
  if (bias_kind > 0) {
    p.bias_shape = bias_kind == 1 ? Shape{} : bias_kind == 2 ? Shape{cols} : bias_kind == 3 ? Shape{1, cols}
                   : bias_kind == 4 ? Shape{rows, 1} : Shape{rows, cols};
    p.bias.resize(static_cast<size_t>(shape_numel(p.bias_shape)));
    for (auto& b : p.bias) b = stretch ? c.in(INT32_MIN, INT32_MAX) : c.in(-5000, 5000);
  }
  Case k;
  const int axis = static_cast<int>(c.in(-1, static_cast<int64_t>(ys.size()) - 1));
  p.rq = requant(c, axis < 0 ? 1 : ys[static_cast<size_t>(axis)], axis, stretch, k.yt);
  const DType at = stretch && c.coin() ? DType::I16 : dtype8(c), bt = dtype8(c);
  k.in = {values(c, at, as), values(c, bt, bs)};
  k.ys = ys;
  const ArithMode mode = c.coin() ? ArithMode::Exact : ArithMode::DoryShift;
  k.name = "gemm " + shape_str(as) + (p.trans_a ? "^T" : "") + " x " + shape_str(bs) + (p.trans_b ? "^T" : "") +
           " bias " + kBias[bias_kind] + " " + p.rq.str();
  k.ref = [p, mode](const std::vector<View>& in, const View& y) { gemm_reference(p, in[0], in[1], y, mode); };
  k.opt = [p, mode](const std::vector<View>& in, const View& y) { return gemm_optimized(p, in[0], in[1], y, mode); };
  return k;
}

}  // namespace

namespace {

Case pool_case(Choices& c, bool stretch) {
  PoolParams p;
  p.kind = c.coin() ? PoolParams::Kind::Max : PoolParams::Kind::Sum;
  const int64_t N = c.in(1, 2), C = c.in(1, 16), H = c.in(1, 16), W = c.in(1, 16);
  p.global = c.byte() % 4 == 0;
  p.kh = c.in(1, 5), p.kw = c.in(1, 5), p.sh = c.in(1, 3), p.sw = c.in(1, 3);
  const int64_t extra = stretch ? 2 : 0;   // past the window: a max window may cover only padding
  p.pad_t = c.in(0, p.kh - 1 + extra), p.pad_l = c.in(0, p.kw - 1 + extra);
  p.pad_b = c.in(0, p.kh - 1 + extra), p.pad_r = c.in(0, p.kw - 1 + extra);
  p.ceil_mode = c.coin();
  p.x_zp = c.coin() ? 0 : stretch ? c.in(-70000, 70000) : c.in(-20, 20);
  const int64_t Ho = p.global ? 1 : pool_out_size(H, p.kh, p.sh, p.pad_t, p.pad_b, p.ceil_mode);
  const int64_t Wo = p.global ? 1 : pool_out_size(W, p.kw, p.sw, p.pad_l, p.pad_r, p.ceil_mode);
  Case k;
  p.rq = requant(c, C, 1, stretch, k.yt);
  const int xk = c.byte() % (stretch ? 4 : 3);
  const DType xt = xk == 0 ? DType::U8 : xk == 1 ? DType::I8 : xk == 2 ? DType::I16 : DType::I32;
  k.in = {values(c, xt, {N, C, H, W})};
  k.ys = {N, C, Ho, Wo};
  const ArithMode mode = c.coin() ? ArithMode::Exact : ArithMode::DoryShift;
  k.name = std::string(p.kind == PoolParams::Kind::Max ? "max" : "sum") + " pool " + shape_str(k.in[0].shape()) +
           (p.global ? " global" : "") + " k " + std::to_string(p.kh) + "x" + std::to_string(p.kw) + " s " +
           std::to_string(p.sh) + "," + std::to_string(p.sw) + " pads " + std::to_string(p.pad_t) + "," +
           std::to_string(p.pad_l) + "," + std::to_string(p.pad_b) + "," + std::to_string(p.pad_r) +
           (p.ceil_mode ? " ceil" : "") + " zp " + std::to_string(p.x_zp) + " " + p.rq.str();
  k.ref = [p, mode](const std::vector<View>& in, const View& y) { pool_reference(p, in[0], y, mode); };
  k.opt = [p, mode](const std::vector<View>& in, const View& y) { return pool_optimized(p, in[0], y, mode); };
  return k;
}

Case add_case(Choices& c, bool stretch) {
  AddParams p;
  Shape s(static_cast<size_t>(c.in(0, 4)));
  for (auto& d : s) d = c.in(1, 16);
  const int max_shift = stretch ? 64 : 8;
  p.mul1 = c.in(stretch ? -4096 : 1, stretch ? 4096 : 300), p.add1 = c.in(-1000, 1000);
  p.mul2 = c.in(stretch ? -4096 : 1, stretch ? 4096 : 300), p.add2 = c.in(-1000, 1000);
  p.shift1 = c.in(0, max_shift), p.shift2 = c.in(0, max_shift), p.shift_sum = c.in(0, stretch ? 64 : 3);
  Case k;
  const int axis = static_cast<int>(c.in(-1, static_cast<int64_t>(s.size()) - 1));
  p.rq = requant(c, axis < 0 ? 1 : s[static_cast<size_t>(axis)], axis, stretch, k.yt);
  static const DType kTypes[] = {DType::U8, DType::I8, DType::I16, DType::I32, DType::I64};
  const DType at = kTypes[c.byte() % (stretch ? 5 : 4)], bt = kTypes[c.byte() % (stretch ? 5 : 4)];
  Shape bs = s;
  if (stretch && !bs.empty() && c.coin()) bs[static_cast<size_t>(c.in(0, static_cast<int64_t>(bs.size()) - 1))] = 1;
  k.in = {values(c, at, s), values(c, bt, bs)};
  k.ys = s;
  const ArithMode mode = c.coin() ? ArithMode::Exact : ArithMode::DoryShift;
  k.name = "add " + shape_str(s) + " + " + shape_str(bs) + " (x" + std::to_string(p.mul1) + "+" +
           std::to_string(p.add1) + ")>>" + std::to_string(p.shift1) + " (x" + std::to_string(p.mul2) + "+" +
           std::to_string(p.add2) + ")>>" + std::to_string(p.shift2) + " >>" + std::to_string(p.shift_sum) + " " +
           p.rq.str();
  k.ref = [p, mode](const std::vector<View>& in, const View& y) { add_reference(p, in[0], in[1], y, mode); };
  k.opt = [p, mode](const std::vector<View>& in, const View& y) { return add_optimized(p, in[0], in[1], y, mode); };
  return k;
}

}  // namespace

namespace {

// A tensor laid out in memory as the choices say, viewed with t's shape and values: contiguous,
// in a permuted axis order (channels last, transposed), or as a tile inside a larger buffer
// whose margin holds another value.
struct Laid {
  Tensor buf;
  View v;
};
Laid lay(Choices& c, const Tensor& t) {
  Laid r;
  const Shape& s = t.shape();
  const int how = c.byte() % 3;
  if (how == 1 && s.size() >= 2) {
    std::vector<int> order(s.size());   // memory order of the axes: a permutation from the choices
    for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    for (size_t i = order.size() - 1; i > 0; --i) std::swap(order[i], order[static_cast<size_t>(c.in(0, static_cast<int64_t>(i)))]);
    Shape bs(s.size());
    std::vector<int> inv(s.size());
    for (size_t j = 0; j < s.size(); ++j) bs[j] = s[static_cast<size_t>(order[j])], inv[static_cast<size_t>(order[j])] = static_cast<int>(j);
    r.buf = Tensor(t.dtype(), bs);
    r.v = dense::permuted(r.buf.view(), inv);
  } else if (how == 2) {
    test::TileBuffer tb = test::as_tile(t, c.in(1, 2), std::clamp<int64_t>(c.in(-128, 127), dtype_min(t.dtype()), dtype_max(t.dtype())));
    const auto origin = tb.tile.base - tb.big.data();
    r.buf = std::move(tb.big);
    r.v = tb.tile;
    r.v.base = r.buf.data() + origin;
  } else {
    r.buf = Tensor(t.dtype(), s);
    r.v = r.buf.view();
  }
  r.v.from_ints(t.to_ints());
  return r;
}

// The buffer of `l` with the elements of its view set back to `inside`: what the buffer must be
// when a kernel wrote only through its view (`before`: the buffer before the kernel ran).
std::vector<std::byte> outside_view(const Laid& l, const std::vector<int64_t>& inside) {
  Tensor copy = l.buf;
  View v = l.v;
  v.base = copy.data() + (l.v.base - l.buf.data());
  v.from_ints(inside);
  return std::vector<std::byte>(copy.data(), copy.data() + copy.nbytes());
}

std::vector<std::byte> bytes_of(const Tensor& t) { return std::vector<std::byte>(t.data(), t.data() + t.nbytes()); }

// Runs one kernel on the operands `in` into `y`, checking that it wrote nothing outside y's view
// and nothing into an operand. Returns false when it threw one of the reference's documented
// errors (`reference`: the optimised kernels declines instead, and never throws).
template <class F>
bool run(const Case& k, bool reference, F&& kernel, const std::vector<Laid>& in, const Laid& y) {
  const std::string who = reference ? "the reference" : "the optimised kernel";
  std::vector<std::vector<std::byte>> before_in;
  for (const Laid& l : in) before_in.push_back(bytes_of(l.buf));
  const std::vector<std::byte> before_y = bytes_of(y.buf);
  const std::vector<int64_t> y0 = y.v.to_ints();
  bool ok = true;
  auto rejected = [&](const char* what) {
    if (!reference) finding(who + " threw: " + what + "; " + k.name);
    if (!k.stretch) finding(who + " rejected a layer within the kernels' contract: " + what + "; " + k.name);
    ok = false;
  };
  try {
    kernel();
  } catch (const std::invalid_argument& e) {
    rejected(e.what());
  } catch (const std::range_error& e) {
    rejected(e.what());
  } catch (const std::exception& e) {
    finding(who + " threw an undocumented exception: " + e.what() + "; " + k.name);
  }
  for (size_t i = 0; i < in.size(); ++i)
    if (bytes_of(in[i].buf) != before_in[i]) finding(who + " wrote into operand " + std::to_string(i) + "; " + k.name);
  if (outside_view(y, y0) != before_y) finding(who + " wrote outside its output view; " + k.name);
  return ok;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Choices c(data, size);
  const uint8_t head = c.byte();   // bits 0-1: the layer; bit 2: built past the kernels' contract
  const bool stretch = head & 4;
  Case k = head % 4 == 0 ? conv_case(c, stretch)
         : head % 4 == 1 ? gemm_case(c, stretch)
         : head % 4 == 2 ? pool_case(c, stretch)
                         : add_case(c, stretch);
  k.stretch = stretch;
  std::vector<Laid> ref_in, opt_in;
  std::vector<View> ref_views, opt_views;
  for (const Tensor& t : k.in) {
    ref_in.push_back(lay(c, t));
    opt_in.push_back(lay(c, t));
  }
  for (size_t i = 0; i < k.in.size(); ++i) ref_views.push_back(ref_in[i].v), opt_views.push_back(opt_in[i].v);
  const Tensor zero(k.yt, k.ys);
  const Laid ref_y = lay(c, zero), opt_y = lay(c, zero);
  const bool ref_ok = run(k, true, [&] { k.ref(ref_views, ref_y.v); }, ref_in, ref_y);
  bool took = false;
  run(k, false, [&] { took = k.opt(opt_views, opt_y.v); }, opt_in, opt_y);
  if (took && !ref_ok) finding("the optimised kernel took a layer the reference rejects; " + k.name);
  const std::vector<int64_t> got = opt_y.v.to_ints(), want = ref_y.v.to_ints();
  if (took && got != want) {
    size_t i = 0;
    while (got[i] == want[i]) ++i;
    finding("the outputs differ first at flat index " + std::to_string(i) + ": optimised " + std::to_string(got[i]) +
            ", reference " + std::to_string(want[i]) + "; " + k.name);
  }
  if (!took && ref_ok && got != zero.to_ints()) finding("the optimised kernel declined but wrote to y; " + k.name);
  return 0;
}
