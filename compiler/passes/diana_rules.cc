// DIANA's engine rules (diana_rules.h).
#include "compiler/passes/diana_rules.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace edgesim {

namespace {

bool has(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }
bool has(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

std::string list(const std::vector<int64_t>& v) { return fmt::format("[{}]", fmt::join(v, ", ")); }

int64_t numel(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return n;
}

const Node* producer(const Graph& g, int tensor) {
  for (const Node& n : g.nodes)
    if (std::find(n.outputs.begin(), n.outputs.end(), tensor) != n.outputs.end()) return &n;
  return nullptr;
}

// The elements-divisible-by-4 rule of soma_dory.py `_check_activation_shape`.
std::string by_four(const Graph& g, int tensor, const char* what) {
  const int64_t n = numel(g.tensor(tensor).shape);
  return n % 4 == 0 ? "" : fmt::format("{} has {} elements, not divisible by 4", what, n);
}

std::string in_range(const Graph& g, int tensor, int64_t lo, int64_t hi, const char* what) {
  const DType t = g.tensor(tensor).dtype;
  if (t != DType::I8 && t != DType::U8) return fmt::format("input is stored as {}, not 8-bit", dtype_name(t));
  const ValueRange r = value_range(g, tensor);
  if (r.lo >= lo && r.hi <= hi) return "";
  return fmt::format("{} values span [{}, {}], outside {} [{}, {}]", "input", r.lo, r.hi, what, lo, hi);
}

// kernel, padding, stride, dilation: soma_dory.py `_check_conv2d` (shared by both cores).
std::string conv_attrs(const ConvParams& p, const PlatformSpec& spec) {
  const auto& ks = spec.npu.present && !spec.npu.kernel_sizes.empty() ? spec.npu.kernel_sizes
                                                                       : std::vector<int64_t>{1, 3, 5, 7};
  const auto& st = spec.npu.present && !spec.npu.strides.empty() ? spec.npu.strides : std::vector<int64_t>{1, 2};
  if (!has(ks, p.kh) || !has(ks, p.kw)) return fmt::format("kernel {}x{}, expected one of {}", p.kh, p.kw, list(ks));
  if (p.pad_t != p.pad_b || p.pad_l != p.pad_r)
    return fmt::format("padding top/bottom {}/{}, left/right {}/{}: expected equal", p.pad_t, p.pad_b, p.pad_l, p.pad_r);
  if (p.kh - 2 * p.pad_t != 1 || p.kw - 2 * p.pad_l != 1)
    return fmt::format("padding {},{}: only 'SAME' padding ({},{} for {}x{})", p.pad_t, p.pad_l, (p.kh - 1) / 2,
                       (p.kw - 1) / 2, p.kh, p.kw);
  if (p.sh != p.sw || !has(st, p.sh)) return fmt::format("strides {}x{}, expected one of {} (square)", p.sh, p.sw, list(st));
  if (p.dh != 1 || p.dw != 1) return fmt::format("dilation {}x{}, expected 1x1", p.dh, p.dw);
  return "";
}

// The shift form's hardware limits: shift range, int32 offsets, output clip inside [lo, hi].
std::string stage_limits(const ShiftRequant& s, int64_t max_shift, int64_t lo, int64_t hi, const char* out) {
  if (s.shift < 0 || s.shift > max_shift) return fmt::format("shift factor {} outside [0, {}]", s.shift, max_shift);
  for (size_t c = 0; c < s.offset.size(); ++c)
    if (s.offset[c] < INT32_MIN || s.offset[c] > INT32_MAX)
      return fmt::format("bias {} (channel {}) does not fit int32", s.offset[c], c);
  if (s.lo < lo || s.hi > hi) return fmt::format("clip [{}, {}] exceeds {} [{}, {}]", s.lo, s.hi, out, lo, hi);
  return "";
}

std::string const_weights(const Graph& g, int tensor, int64_t lo, int64_t hi, const char* want) {
  const TensorDesc& w = g.tensor(tensor);
  if (!w.is_const()) return "weights are not constant";
  if (w.dtype == DType::F32) return "weights are not integers";
  int64_t mn = 0, mx = 0;
  const int64_t n = numel(w.shape);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t v = w.constant->get_int(i);
    if (i == 0 || v < mn) mn = v;
    if (i == 0 || v > mx) mx = v;
  }
  if (mn < lo || mx > hi) return fmt::format("weights span [{}, {}], expected {} [{}, {}]", mn, mx, want, lo, hi);
  return "";
}

std::string soma_conv(const Graph& g, const Node& n, const PlatformSpec& spec) {
  const ConvParams& p = n.as<ConvParams>();
  const Shape& xs = g.tensor(n.inputs[0]).shape;
  const Shape& ys = g.tensor(n.outputs[0]).shape;
  if (xs.size() != 4 || ys.size() != 4 || p.is_1d) return "not a 2-D convolution";
  const bool dw = p.depthwise(xs[1], ys[1]);
  if (p.groups != 1 && !dw) return fmt::format("groups {}, expected 1 or {} (depthwise)", p.groups, ys[1]);
  if (!has(spec.npu.ops, dw ? "dwconv" : "conv")) return fmt::format("{} not in npu.ops", dw ? "dwconv" : "conv");
  if (auto r = by_four(g, n.outputs[0], "output"); !r.empty()) return r;
  std::string why;
  const auto s = diana_shift_form(g, n, why);
  if (!s) return why;
  if (auto r = stage_limits(*s, spec.npu.max_shift, -128, 127, "the int8 output"); !r.empty()) return r;
  if (auto r = conv_attrs(p, spec); !r.empty()) return r;
  if (auto r = const_weights(g, n.inputs[1], -128, 127, "int8"); !r.empty()) return r;
  if (p.x_zp != 0 || std::any_of(p.w_zp.begin(), p.w_zp.end(), [](int64_t z) { return z != 0; })) return "zero point";
  if (auto r = by_four(g, n.inputs[0], "input"); !r.empty()) return r;
  return in_range(g, n.inputs[0], -128, 127, "int8");
}

std::string soma_dense(const Graph& g, const Node& n, const PlatformSpec& spec) {
  const GemmParams& p = n.as<GemmParams>();
  if (!has(spec.npu.ops, "dense")) return "dense not in npu.ops";
  const Shape& as = g.tensor(n.inputs[0]).shape;
  const Shape& ys = g.tensor(n.outputs[0]).shape;
  if (as.size() != 2 || ys.size() != 2 || p.trans_a) return "not a dense layer (2-D input, one row per vector)";
  if (auto r = by_four(g, n.outputs[0], "output"); !r.empty()) return r;
  std::string why;
  const auto s = diana_shift_form(g, n, why);
  if (!s) return why;
  if (auto r = stage_limits(*s, spec.npu.max_shift, -128, 127, "the int8 output"); !r.empty()) return r;
  if (auto r = const_weights(g, n.inputs[1], -128, 127, "int8"); !r.empty()) return r;
  if (!p.a_zp.empty() || !p.b_zp.empty()) return "zero point";
  if (auto r = by_four(g, n.inputs[0], "input"); !r.empty()) return r;
  return in_range(g, n.inputs[0], -128, 127, "int8");
}

std::string soma_add(const Graph& g, const Node& n, const PlatformSpec& spec) {
  const AddParams& p = n.as<AddParams>();
  if (!has(spec.npu.ops, "add")) return "add not in npu.ops";
  if (auto r = by_four(g, n.outputs[0], "output"); !r.empty()) return r;
  if (g.tensor(n.inputs[0]).shape != g.tensor(n.inputs[1]).shape) return "operand shapes differ (no broadcasting)";
  if (p.mul1 != 1 || p.mul2 != 1 || p.add1 || p.add2 || p.shift1 || p.shift2) return "operands are rescaled before the add";
  std::string why;
  const auto s = diana_shift_form(g, n, why);
  if (!s) return why;
  if (auto r = stage_limits(*s, spec.npu.max_shift, -128, 127, "the int8 output"); !r.empty()) return r;
  if (!s->offset.empty() && s->offset[0] != 0)
    return fmt::format("the requant adds {} (the pattern is add, right_shift, clip, cast)", s->offset[0]);
  for (int t : n.inputs)
    if (auto r = in_range(g, t, -128, 127, "int8"); !r.empty()) return r;
  return "";
}

std::string soma_pool(const Graph& g, const Node& n, const PlatformSpec& spec) {
  const PoolParams& p = n.as<PoolParams>();
  if (!has(spec.npu.ops, "pool")) return "pooling is not offloaded (HTVM's soma_dory has no pooling pattern)";
  if (p.kind != PoolParams::Kind::Max) return "average pooling (the pooling unit takes max)";
  if (p.kh > spec.npu.pool_fy || p.kw > spec.npu.pool_fx)
    return fmt::format("window {}x{} exceeds the pooling unit's {}x{}", p.kh, p.kw, spec.npu.pool_fy, spec.npu.pool_fx);
  if (p.sh != p.kh || p.sw != p.kw) return "stride differs from the window";
  if (p.pad_t || p.pad_l || p.pad_b || p.pad_r || p.ceil_mode) return "padding";
  if (p.x_zp != 0 || p.rq.kind != Requant::Kind::None) return "requantisation after the pool";
  return in_range(g, n.inputs[0], -128, 127, "int8");
}

}  // namespace

ValueRange value_range(const Graph& g, int tensor) {
  const TensorDesc& d = g.tensor(tensor);
  ValueRange r{dtype_min(d.dtype), dtype_max(d.dtype)};
  const Node* n = producer(g, tensor);
  if (!n) return r;
  auto clip = [&](int64_t lo, int64_t hi) {
    r.lo = std::max(r.lo, lo);
    r.hi = std::min(r.hi, hi);
  };
  switch (n->kind()) {
    case OpKind::Conv: clip(n->as<ConvParams>().rq.lo, n->as<ConvParams>().rq.hi); break;
    case OpKind::Gemm: clip(n->as<GemmParams>().rq.lo, n->as<GemmParams>().rq.hi); break;
    case OpKind::Add: clip(n->as<AddParams>().rq.lo, n->as<AddParams>().rq.hi); break;
    case OpKind::Mul: clip(n->as<MulParams>().rq.lo, n->as<MulParams>().rq.hi); break;
    case OpKind::Requant: clip(n->as<RequantParams>().rq.lo, n->as<RequantParams>().rq.hi); break;
    case OpKind::Clip: clip(n->as<ClipParams>().lo, n->as<ClipParams>().hi); break;
    case OpKind::Pool: {
      const PoolParams& p = n->as<PoolParams>();
      clip(p.rq.lo, p.rq.hi);
      if (p.kind == PoolParams::Kind::Max && p.x_zp == 0 && !n->inputs.empty()) {
        const ValueRange in = value_range(g, n->inputs[0]);
        clip(in.lo, in.hi);
      }
      break;
    }
    case OpKind::Reshape:
    case OpKind::Transpose:
      if (!n->inputs.empty()) {
        const ValueRange in = value_range(g, n->inputs[0]);
        clip(in.lo, in.hi);
      }
      break;
    default: break;
  }
  return r;
}

std::optional<ShiftRequant> diana_shift_form(const Graph& g, const Node& n, std::string& why) {
  switch (n.kind()) {
    case OpKind::Conv: {
      const ConvParams& p = n.as<ConvParams>();
      return to_shift_requant(p.rq, p.bias, g.tensor(n.outputs[0]).shape.at(1), why);
    }
    case OpKind::Gemm: {
      const GemmParams& p = n.as<GemmParams>();
      const Shape& ys = g.tensor(n.outputs[0]).shape;
      const int last = static_cast<int>(ys.size()) - 1;
      if (p.rq.kind == Requant::Kind::Integer && p.rq.channels() > 1 && p.rq.axis != last) {
        why = "requant constants vary along the rows, not the output channels";
        return std::nullopt;
      }
      const bool row_bias = p.bias.size() > 1 && !(p.bias_shape.size() >= 1 && p.bias_shape.back() == ys[last] &&
                                                   numel(p.bias_shape) == ys[last]);
      if (row_bias) {
        why = "bias varies along the rows, not the output channels";
        return std::nullopt;
      }
      return to_shift_requant(p.rq, p.bias, ys[last], why);
    }
    case OpKind::Add: {
      const AddParams& p = n.as<AddParams>();
      // y = rq((x1 + x2) >> shift_sum): a shift form (t + o) >> s of rq gives
      // (x1 + x2 + o·2^shift_sum) >> (shift_sum + s).
      ShiftRequant s;
      if (p.rq.channels() > 1) {
        why = "the add's requant varies per channel (the pattern has one shift)";
        return std::nullopt;
      }
      if (p.rq.kind == Requant::Kind::None) {
        s.offset = {0};
        s.lo = p.rq.lo, s.hi = p.rq.hi;
      } else {
        auto r = to_shift_requant(p.rq, {}, 1, why);
        if (!r) return std::nullopt;
        s = *r;
        s.offset[0] *= int64_t{1} << p.shift_sum;
      }
      s.shift += static_cast<int>(p.shift_sum);
      return s;
    }
    default:
      why = std::string(op_name(n.kind())) + " has no output stage";
      return std::nullopt;
  }
}

OpParams diana_params(const Graph& g, const Node& n) {
  std::string why;
  const auto s = diana_shift_form(g, n, why);
  if (!s) throw std::runtime_error("node '" + n.name + "': " + why);
  OpParams out = n.params;
  if (auto* c = std::get_if<ConvParams>(&out)) {
    c->bias.clear();
    c->rq = shift_form_requant(*s, 1);
  } else if (auto* m = std::get_if<GemmParams>(&out)) {
    m->bias.clear();
    m->bias_shape.clear();
    m->rq = shift_form_requant(*s, static_cast<int>(g.tensor(n.outputs[0]).shape.size()) - 1);
  } else if (auto* a = std::get_if<AddParams>(&out)) {
    a->shift_sum = 0;
    a->rq = shift_form_requant(*s, -1);
  }
  return out;
}

std::string soma_rejects(const Graph& g, int node, const PlatformSpec& spec) {
  const Node& n = g.nodes.at(static_cast<size_t>(node));
  if (n.outputs.size() != 1) return "unexpected operands";
  switch (n.kind()) {
    case OpKind::Conv: return n.inputs.size() == 2 ? soma_conv(g, n, spec) : "unexpected operands";
    case OpKind::Gemm: return n.inputs.size() == 2 ? soma_dense(g, n, spec) : "unexpected operands";
    case OpKind::Add: return n.inputs.size() == 2 ? soma_add(g, n, spec) : "unexpected operands";
    case OpKind::Pool: return soma_pool(g, n, spec);
    default: return fmt::format("{} is not offloaded", op_name(n.kind()));
  }
}

std::string aimc_rejects(const Graph& g, int node, const PlatformSpec& spec) {
  const Node& n = g.nodes.at(static_cast<size_t>(node));
  const AimcSpec& a = spec.aimc;
  if (n.kind() != OpKind::Conv) return fmt::format("{} is not a convolution", op_name(n.kind()));
  if (n.inputs.size() != 2 || n.outputs.size() != 1) return "unexpected operands";
  const ConvParams& p = n.as<ConvParams>();
  const Shape& xs = g.tensor(n.inputs[0]).shape;
  if (xs.size() != 4 || p.is_1d) return "not a 2-D convolution";
  if (p.groups != 1) return fmt::format("groups {}, expected 1", p.groups);
  if (auto r = by_four(g, n.outputs[0], "output"); !r.empty()) return r;
  const int64_t wmax = (a.w_levels - 1) / 2;
  if (auto r = const_weights(g, n.inputs[1], -wmax, wmax, "ternary"); !r.empty()) return r;
  std::string why;
  const auto s = diana_shift_form(g, n, why);
  if (!s) return why;
  const int64_t half = int64_t{1} << (a.out_bits - 1);
  if (auto r = stage_limits(*s, 31, -half, half - 1, fmt::format("the ADC's {}-bit range", a.out_bits).c_str());
      !r.empty())
    return r;
  if (auto r = conv_attrs(p, spec); !r.empty()) return r;
  if (p.x_zp != 0 || std::any_of(p.w_zp.begin(), p.w_zp.end(), [](int64_t z) { return z != 0; })) return "zero point";
  if (auto r = by_four(g, n.inputs[0], "input"); !r.empty()) return r;
  const int64_t in_max = (int64_t{1} << (a.act_bits - 1)) - 1;
  if (auto r = in_range(g, n.inputs[0], -in_max, in_max,
                        fmt::format("the DACs' {}-bit signed-magnitude range", a.act_bits).c_str());
      !r.empty())
    return r;
  const int64_t rows = xs[1] * p.kh * p.kw;
  if (rows > a.rows || (p.kh == 3 && p.kw == 3 && xs[1] > a.max_cin_3x3))
    return fmt::format("needs {} rows ({} input channels x {}x{}), the array has {}{}: input channels cannot be split "
                       "over passes (each pass's ADC would quantise a partial sum)",
                       rows, xs[1], p.kh, p.kw, a.rows,
                       p.kh == 3 && p.kw == 3 ? fmt::format(" (at most {} channels for 3x3)", a.max_cin_3x3) : "");
  return "";
}

}  // namespace edgesim
