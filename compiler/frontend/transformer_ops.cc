// Deeploy's integer transformer ops (docs/dialects.md) as fused Graph nodes:
//   iSoftmax, ITAMax            -> Softmax (uint8 [0, N−1] output)
//   iRMSNorm(x, w), iLayerNorm(x, w, b) -> Norm (weights inside the params)
//   iHardswish, iGELU [+ RequantShift]  -> Act (the requant merged, as Deeploy's
//                                          iHardswishRequantMergePass / iGELURequantMergePass do)
//   IntegerMean                 -> Mean
//   Gather (scalar index)       -> Gather
//   Mul of two runtime tensors  -> Mul (int32 product; a following RequantShift stays its own
//                                  node, as Deeploy's PULP Mul kernel writes int32)
// Attribute values outside the ops' documented domain are import errors naming the node and
// the attribute (e.g. iSoftmax log2 = 0, a norm D that is not a power of two, iSoftmax
// coefficients with which the kernel's int64 arithmetic would overflow).
#include <algorithm>

#include <fmt/format.h>

#include "compiler/frontend/handlers.h"
#include "compiler/frontend/requant_chain.h"
#include "kernels/core/shape_rules.h"
#include "kernels/reference.h"

namespace edgesim::frontend {

namespace {

int64_t attr_required(const OnnxNode& n, const std::string& a) {
  if (!n.has(a)) n.fail("missing attribute '" + a + "'");
  return n.get_int(a, 0);
}

[[noreturn]] void bad_attr(const OnnxNode& n, const std::string& a, int64_t v, const std::string& why) {
  n.fail("unsupported attribute value " + a + "=" + std::to_string(v) + " (" + why + ")");
}

int64_t levels_of(const OnnxNode& n) {
  const int64_t levels = n.get_int("n_levels", 256);
  if (levels < 2 || levels > 65536) bad_attr(n, "n_levels", levels, "must be in 2..65536");
  return levels;
}

int unary_input(Builder& b, const OnnxNode& n, size_t n_consts) {
  if (n.n_in() != 1 + n_consts || n.outputs.size() != 1)
    n.fail(n.op + " needs " + std::to_string(1 + n_consts) + " input(s) and one output");
  const int x = int_input(b, n.in(0), n);
  if (b.desc(x).shape.empty()) n.fail(n.op + " of a scalar");
  return x;
}

// A per-position vector of the last axis (norm weight / bias).
std::vector<int64_t> row_vector(Builder& b, const OnnxNode& n, size_t i, int64_t len) {
  const ConstTensor& c = b.constant(n.in(i), n);
  if (c.numel() != len)
    n.fail("input '" + c.name + "' of shape " + shape_str(c.shape) + " needs " + std::to_string(len) +
           " values (one per position of the last axis)");
  return c.as_ints(n.where);
}

void emit_unary(Builder& b, const OnnxNode& n, OpParams p, int x, DType dt, const std::string& out_name,
                std::vector<std::string> fused) {
  const int out = b.new_tensor(out_name, dt, b.desc(x).shape);
  b.emit(make_node(n, std::move(p), {x}, out, std::move(fused)));
  b.set_real(out_name, out);
}

// iSoftmax computes e = (A·q² + C) >> z in int64 with |q| <= max(L, D) + |B| (D the spread of
// the input dtype: q = x − max + z·L + B), sums a row of them and multiplies each by N − 1
// (kernels/softmax/reference.cc). Attributes with which some input of that dtype overflows int64
// are refused, naming the attribute that makes it overflow: coeffC alone, then coeffB (or log2)
// in q², then coeffA.
void check_isoftmax_range(const OnnxNode& n, const SoftmaxParams& p, DType in, int64_t row) {
  using u128 = unsigned __int128;
  const int64_t scale = std::max<int64_t>({row, p.n_levels - 1, 1});
  const u128 limit = static_cast<u128>(INT64_MAX) / static_cast<u128>(scale);
  const u128 spread = static_cast<u128>(static_cast<__int128>(dtype_max(in)) - dtype_min(in));
  const u128 mag_b = p.coeff_b < 0 ? -static_cast<u128>(p.coeff_b) : static_cast<u128>(p.coeff_b);
  const u128 base = std::max<u128>(spread, static_cast<u128>(p.log2));
  const u128 q = base + mag_b;
  auto fail = [&](const char* attr, int64_t v) {
    bad_attr(n, attr, v,
             fmt::format("coeffA*(|x - max| + |coeffB|)^2 + coeffC, summed over a row of {} and scaled by n_levels - 1, "
                         "overflows int64 for {} input",
                         row, dtype_name(in)));
  };
  if (static_cast<u128>(p.coeff_c) > limit) fail("coeffC", p.coeff_c);
  if (q > limit || q * q > limit) {
    if (static_cast<u128>(p.log2) > spread && (mag_b == 0 || base > limit || base * base > limit)) fail("log2", p.log2);
    fail("coeffB", p.coeff_b);
  }
  if (static_cast<u128>(p.coeff_a) * (q * q) > limit - static_cast<u128>(p.coeff_c)) fail("coeffA", p.coeff_a);
}

}  // namespace

void import_softmax(Builder& b, const OnnxNode& n) {
  const int x = unary_input(b, n, 0);
  SoftmaxParams p;
  p.n_levels = levels_of(n);
  if (n.op == "ITAMax") {
    p.kind = SoftmaxParams::Kind::ITAMax;
  } else {
    p.coeff_a = attr_required(n, "coeffA");
    p.coeff_b = attr_required(n, "coeffB");
    p.coeff_c = attr_required(n, "coeffC");
    p.log2 = attr_required(n, "log2");
    if (p.log2 < 1) bad_attr(n, "log2", p.log2, "the exponent step must be >= 1");
    if (p.coeff_a < 1) bad_attr(n, "coeffA", p.coeff_a, "must be >= 1");
    if (p.coeff_c < 0) bad_attr(n, "coeffC", p.coeff_c, "must be >= 0");
    check_isoftmax_range(n, p, b.desc(x).dtype, b.desc(x).shape.back());
  }
  emit_unary(b, n, p, x, dtype_for_range(0, p.n_levels - 1), n.outputs[0], {n.op});
}

void import_norm(Builder& b, const OnnxNode& n) {
  const bool layer = n.op == "iLayerNorm";
  const int x = unary_input(b, n, layer ? 2 : 1);
  NormParams p;
  p.kind = layer ? NormParams::Kind::Layer : NormParams::Kind::RMS;
  p.n_levels = levels_of(n);
  const int64_t d = attr_required(n, "D");
  if (!is_power_of_two(d)) bad_attr(n, "D", d, "must be a power of two");
  p.log2_d = log2_exact(d);
  const int64_t len = b.desc(x).shape.back();
  if (len < 1) n.fail(n.op + " over an empty last axis");
  p.weight = row_vector(b, n, 1, len);
  if (layer) p.bias = row_vector(b, n, 2, len);
  emit_unary(b, n, p, x, dtype_for_range(-(p.n_levels / 2), p.n_levels / 2 - 1), n.outputs[0], {n.op});
}

void import_act(Builder& b, const OnnxNode& n) {
  const int x = unary_input(b, n, 0);
  ActParams p;
  if (n.op == "iGELU") {
    p.kind = ActParams::Kind::GELU;
    p.b = attr_required(n, "b");
    p.one = attr_required(n, "one");
    if (p.b >= 0) bad_attr(n, "b", p.b, "must be negative");
  } else {
    p.kind = ActParams::Kind::Hardswish;
    p.one_over_six = attr_required(n, "one_over_six");
    p.six = attr_required(n, "six");
    p.three = attr_required(n, "three");
    if (p.six < 0) bad_attr(n, "six", p.six, "must be >= 0");
  }
  ChainStart s;
  s.anchor = &n;
  s.from = n.outputs[0];
  s.shape = b.desc(x).shape;
  s.required_axis = -1;   // per-tensor requant only (RQSiHardswish / RQSiGELU take scalars)
  const ChainResult r = match_int_chain(b, s);
  p.rq = r.rq;
  std::vector<std::string> fused{n.op};
  fused.insert(fused.end(), r.ops.begin(), r.ops.end());
  emit_unary(b, n, p, x, dtype_for_range(p.rq.lo, p.rq.hi), r.out, fused);
}

void import_integer_mean(Builder& b, const OnnxNode& n) {
  const int x = unary_input(b, n, 0);
  const Shape& xs = b.desc(x).shape;
  MeanParams p;
  p.keepdims = n.get_int("keepdims", 1) != 0;
  const auto rank = static_cast<int64_t>(xs.size());
  for (int64_t a : n.get_ints("axes", {})) {
    const int64_t ax = a < 0 ? a + rank : a;
    if (ax < 0 || ax >= rank) bad_attr(n, "axes", a, "out of range for rank " + std::to_string(rank));
    bool seen = false;
    for (int64_t q : p.axes) seen = seen || q == ax;
    if (!seen) p.axes.push_back(ax);
  }
  if (p.axes.empty()) n.fail("IntegerMean without axes");
  std::sort(p.axes.begin(), p.axes.end());
  const int out = b.new_tensor(n.outputs[0], b.desc(x).dtype, mean_output_shape(p, xs));
  b.emit(make_node(n, p, {x}, out, {n.op}));
  b.set_real(n.outputs[0], out);
}

void import_gather(Builder& b, const OnnxNode& n) {
  if (n.n_in() != 2 || n.outputs.size() != 1) n.fail("Gather needs inputs (data, indices) and one output");
  const int x = int_input(b, n.in(0), n);
  const Shape& xs = b.desc(x).shape;
  const ConstTensor& idx = b.constant(n.in(1), n);
  if (!idx.shape.empty()) n.fail("unsupported Gather: only a scalar (rank-0) index is supported, got " + shape_str(idx.shape));
  const auto rank = static_cast<int64_t>(xs.size());
  GatherParams p;
  p.axis = n.get_int("axis", 0);
  if (p.axis < 0) p.axis += rank;
  if (p.axis < 0 || p.axis >= rank) bad_attr(n, "axis", n.get_int("axis", 0), "out of range for rank " + std::to_string(rank));
  p.index = idx.scalar_int(n.where);
  const int64_t dim = xs[static_cast<size_t>(p.axis)];
  if (p.index < 0) p.index += dim;
  if (p.index < 0 || p.index >= dim) n.fail("Gather index " + std::to_string(idx.scalar_int(n.where)) + " out of range for dimension " + std::to_string(dim));
  Shape ys = xs;
  ys.erase(ys.begin() + p.axis);
  const int out = b.new_tensor(n.outputs[0], b.desc(x).dtype, ys);
  if (b.inferred(x)) b.mark_inferred(out);
  b.emit(make_node(n, p, {x}, out, {"Gather"}));
  b.set_real(n.outputs[0], out);
}

void import_runtime_mul(Builder& b, const OnnxNode& n) {
  const int a = int_input(b, n.in(0), n), c = int_input(b, n.in(1), n);
  Shape ys;
  try {
    ys = broadcast_shapes(b.desc(a).shape, b.desc(c).shape);
  } catch (const std::exception& e) {
    n.fail(std::string("operands do not broadcast: ") + e.what());
  }
  const int64_t lo = std::min({b.lo_of(a) * b.lo_of(c), b.lo_of(a) * b.hi_of(c), b.hi_of(a) * b.lo_of(c),
                               b.hi_of(a) * b.hi_of(c)});
  const int64_t hi = std::max({b.lo_of(a) * b.lo_of(c), b.lo_of(a) * b.hi_of(c), b.hi_of(a) * b.lo_of(c),
                               b.hi_of(a) * b.hi_of(c)});
  if (lo < kI32Min || hi > kI32Max) n.fail("the product of the operands' types exceeds int32");
  MulParams p;
  p.rq.lo = kI32Min;
  p.rq.hi = kI32Max;
  const int out = b.new_tensor(n.outputs[0], DType::I32, ys);
  b.emit(make_node(n, p, {a, c}, out, {"Mul"}));
  b.set_real(n.outputs[0], out);
}

}  // namespace edgesim::frontend
