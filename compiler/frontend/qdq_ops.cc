// QDQ groups (docs/dialects.md "Standard ONNX int8"): DQ(x), DQ(w) [, DQ(bias int32)] → Conv / Gemm
// / MatMul [→ Relu / Clip] → Q, and DQ(x) → MaxPool / AveragePool / GlobalAveragePool → Q, imported
// as one integer node with QLinearConv semantics: zero points as params, the float requant scale[c]
// = x_s·w_s[c]/y_s computed in double from the float32 scales, rne, clamp to the output type
// narrowed by Relu / Clip. Also the Conv / Gemm emitters that QLinearConv and QLinearMatMul share.
#include <cmath>

#include <fmt/format.h>

#include "compiler/frontend/handlers.h"
#include "compiler/frontend/qdq.h"
#include "compiler/frontend/shape_infer.h"

namespace edgesim::frontend {

namespace {

std::vector<int64_t> nonzero_or_empty(const std::vector<int64_t>& v) {
  for (int64_t x : v)
    if (x) return v;
  return {};
}

// The integer side of a per-tensor Dequant input.
int dq_input(Builder& b, const std::string& name, const OnnxNode& n, QParams& q) {
  Value* v = b.value(name);
  if (!v || v->kind != Value::Kind::Dequant) n.fail("input '" + name + "' must come from DequantizeLinear");
  q = qparams_of(*v);
  const std::string src = v->src;
  const int t = b.is_const(src) ? b.const_tensor(src, n) : b.real(src, n);
  if (!dtype_is_int(b.desc(t).dtype)) n.fail("input '" + name + "' dequantizes a float tensor");
  return t;
}

// Integer bias from DQ(bias int32) with scale x_s·w_s (checked to float32 precision).
std::vector<int64_t> dq_bias(Builder& b, const OnnxNode& n, const std::string& name, const QParams& x,
                             const QParams& w, Shape& shape) {
  Value* v = b.value(name);
  if (!v || v->kind != Value::Kind::Dequant || !b.is_const(v->src))
    n.fail("bias '" + name + "' must be DequantizeLinear of an int32 constant");
  const QParams bq = qparams_of(*v);
  for (size_t c = 0; c < std::max(bq.scale.size(), w.scale.size()); ++c) {
    const double want = x.scale[0] * w.scale_at(c), got = bq.scale_at(c);
    if (std::fabs(got - want) > 1e-6 * want)
      n.fail(fmt::format("bias scale {:g} differs from x_scale*w_scale = {:g}", got, want));
    if (bq.zp_at(c) != 0) n.fail("bias zero point must be 0");
  }
  const ConstTensor& c = b.constant(v->src, n);
  shape = c.numel() == 1 ? Shape{} : c.shape;
  return c.as_ints(n.where);
}

}  // namespace

void emit_qconv(Builder& b, QGroup g) {
  const OnnxNode& n = *g.anchor;
  const int w = b.is_const(g.w_name) ? b.const_tensor(g.w_name, n) : int_input(b, g.w_name, n);
  ConvParams p = conv_attrs(n, b.desc(g.x).shape, b.desc(w).shape);
  const Shape out_shape = conv_shape(b.desc(g.x).shape, b.desc(w).shape, p, n);
  const auto cout = static_cast<size_t>(out_shape[1]);
  if (!g.xq.per_tensor()) n.fail("x must be quantised per tensor");
  if (g.wq.scale.size() > 1 && (g.wq.scale.size() != cout || g.wq.axis != 0))
    n.fail("weight quantisation must be per tensor or per output channel (axis 0)");
  p.x_zp = g.xq.zp_at(0);
  p.w_zp = nonzero_or_empty(g.wq.zp);
  if (!g.bias.empty()) {
    if (g.bias.size() == 1) g.bias.assign(cout, g.bias[0]);
    if (g.bias.size() != cout) n.fail("bias must hold one value per output channel");
    p.bias = g.bias;
  }
  DType dt = DType::I32;
  if (g.has_rq) {
    p.rq = float_requant(g.xq, g.wq, g.yq, g.lo, g.hi, 1);
    dt = qtype_dtype(g.yq.type, n);
  } else {
    p.rq.lo = kI32Min;
    p.rq.hi = kI32Max;
  }
  const int out = b.new_tensor(g.out, dt, out_shape);
  b.emit(make_node(n, p, {g.x, w}, out, g.fused));
  b.set_real(g.out, out);
}

void emit_qgemm(Builder& b, QGroup g, bool trans_a, bool trans_b) {
  const OnnxNode& n = *g.anchor;
  const int w = b.is_const(g.w_name) ? b.const_tensor(g.w_name, n) : int_input(b, g.w_name, n);
  const Shape& as = b.desc(g.x).shape;
  const Shape& ws = b.desc(w).shape;
  const Shape out_shape = matmul_or_fail(as, ws, trans_a, trans_b, n);
  const auto orank = static_cast<int>(out_shape.size());
  GemmParams p;
  p.trans_a = trans_a;
  p.trans_b = trans_b;
  // Per-row a parameters live on a's M axis, per-column b parameters on b's N axis.
  const int a_m_axis = static_cast<int>(as.size()) - (trans_a ? 1 : 2);
  const int b_n_axis = static_cast<int>(ws.size()) - (trans_b ? 2 : 1);
  const bool a_rows = g.xq.scale.size() > 1 || g.xq.zp.size() > 1;
  const bool b_cols = g.wq.scale.size() > 1 || g.wq.zp.size() > 1;
  if (a_rows && g.xq.axis != a_m_axis) n.fail("a's quantisation must be per tensor or per row");
  if (b_cols && g.wq.axis != b_n_axis) n.fail("b's quantisation must be per tensor or per column");
  if (a_rows && b_cols && (g.xq.scale.size() > 1 && g.wq.scale.size() > 1))
    n.fail("per-row and per-column scales at once are not supported");
  p.a_zp = nonzero_or_empty(g.xq.zp);
  p.b_zp = nonzero_or_empty(g.wq.zp);
  if (!g.bias.empty()) {
    p.bias = g.bias;
    p.bias_shape = g.bias_shape;
  }
  DType dt = DType::I32;
  if (g.has_rq) {
    const bool rows = g.xq.scale.size() > 1;
    p.rq = float_requant(g.xq, g.wq, g.yq, g.lo, g.hi, rows ? orank - 2 : orank - 1);
    dt = qtype_dtype(g.yq.type, n);
  } else {
    p.rq.lo = kI32Min;
    p.rq.hi = kI32Max;
  }
  const int out = b.new_tensor(g.out, dt, out_shape);
  b.emit(make_node(n, p, {g.x, w}, out, g.fused));
  b.set_real(g.out, out);
}

void import_qdq_conv(Builder& b, const OnnxNode& n) {
  QGroup g;
  g.anchor = &n;
  g.x = dq_input(b, n.in(0), n, g.xq);
  Value* wv = b.value(n.in(1));
  if (!wv || wv->kind != Value::Kind::Dequant) n.fail("weight '" + n.in(1) + "' must come from DequantizeLinear");
  g.wq = qparams_of(*wv);
  g.w_name = wv->src;
  if (!n.in(2).empty()) g.bias = dq_bias(b, n, n.in(2), g.xq, g.wq, g.bias_shape);
  const QTail t = match_q_tail(b, n, n.outputs[0], b.shape_of(n.in(0), n).size());
  g.yq = t.y;
  g.lo = t.lo;
  g.hi = t.hi;
  g.out = t.out;
  g.fused = {"Conv"};
  g.fused.insert(g.fused.end(), t.ops.begin(), t.ops.end());
  emit_qconv(b, g);
}

void import_qdq_gemm(Builder& b, const OnnxNode& n) {
  const bool gemm = n.op == "Gemm";
  if (gemm && n.get_float("alpha", 1.0) != 1.0) n.fail("unsupported attribute alpha (only 1)");
  if (gemm && !n.in(2).empty() && n.get_float("beta", 1.0) != 1.0) n.fail("unsupported attribute beta (only 1)");
  QGroup g;
  g.anchor = &n;
  g.x = dq_input(b, n.in(0), n, g.xq);
  Value* wv = b.value(n.in(1));
  if (!wv || wv->kind != Value::Kind::Dequant) n.fail("weight '" + n.in(1) + "' must come from DequantizeLinear");
  g.wq = qparams_of(*wv);
  g.w_name = wv->src;
  if (gemm && !n.in(2).empty()) g.bias = dq_bias(b, n, n.in(2), g.xq, g.wq, g.bias_shape);
  const QTail t = match_q_tail(b, n, n.outputs[0], b.shape_of(n.in(0), n).size());
  g.yq = t.y;
  g.lo = t.lo;
  g.hi = t.hi;
  g.out = t.out;
  g.fused = {n.op};
  g.fused.insert(g.fused.end(), t.ops.begin(), t.ops.end());
  emit_qgemm(b, g, gemm && n.get_int("transA", 0) != 0, gemm && n.get_int("transB", 0) != 0);
}

void import_qdq_pool(Builder& b, const OnnxNode& n) {
  QParams xq;
  const int x = dq_input(b, n.in(0), n, xq);
  if (!xq.per_tensor()) n.fail("pool input must be quantised per tensor");
  const Shape xs = b.desc(x).shape;
  PoolParams p = pool_attrs(n, xs);
  const Shape out_shape = pool_shape(xs, p, n);
  const QTail t = match_q_tail(b, n, n.outputs[0], xs.size());
  const bool same = xq.scale[0] == t.y.scale[0] && xq.zp_at(0) == t.y.zp_at(0);
  if (p.kind == PoolParams::Kind::Max && same) {
    p.rq.lo = t.lo;   // max commutes with an identical requant: only the clamp remains
    p.rq.hi = t.hi;
  } else {
    const double window = static_cast<double>(p.kh * p.kw);
    QParams unit;
    unit.scale = {p.kind == PoolParams::Kind::Sum ? 1.0 / window : 1.0};
    p.x_zp = xq.zp_at(0);
    p.rq = float_requant(xq, unit, t.y, t.lo, t.hi, 1);
  }
  std::vector<std::string> fused{n.op};
  fused.insert(fused.end(), t.ops.begin(), t.ops.end());
  const int out = b.new_tensor(t.out, qtype_dtype(t.y.type, n), out_shape);
  b.emit(make_node(n, p, {x}, out, fused));
  b.set_real(t.out, out);
}

}  // namespace edgesim::frontend
