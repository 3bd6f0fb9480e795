// QuantizeLinear / DequantizeLinear (opset 13 semantics, per tensor or per axis) and the
// quantisation-parameter helpers shared by the QDQ and QLinear importers.
//
// A DequantizeLinear emits nothing at first: its output becomes a Dequant value that the
// consuming Conv / Gemm / MatMul / pool absorbs into an integer node (qdq_ops.cc). Only when
// some other consumer needs the float tensor (or it is a graph output) is it materialised as
// a Dequantize node. A QuantizeLinear of a Dequant value with identical parameters is the
// identity on the integers; otherwise it becomes a Quantize node (float in, int out).
#include "compiler/frontend/qdq.h"

#include <cmath>

#include "compiler/frontend/handlers.h"
#include "compiler/frontend/shape_infer.h"

namespace edgesim::frontend {

DType qtype_dtype(int t, const OnnxNode& n) {
  switch (t) {
    case kUint8: return DType::U8;
    case kInt8: return DType::I8;
    case kInt32: return DType::I32;
    default: n.fail(std::string("quantised type ") + onnx_type_name(t) + " is outside the int8 scope");
  }
}

int64_t qmin(int t) { return t == kInt8 ? -128 : t == kInt32 ? kI32Min : 0; }
int64_t qmax(int t) { return t == kInt8 ? 127 : t == kInt32 ? kI32Max : 255; }

QParams read_qparams(Builder& b, const OnnxNode& n, const std::string& scale_name, const std::string& zp_name,
                     int64_t axis_attr, size_t data_rank) {
  QParams q;
  const ConstTensor& s = b.constant(scale_name, n);
  q.scale = s.as_doubles();
  if (q.scale.empty()) n.fail("empty scale '" + scale_name + "'");
  for (double v : q.scale)
    if (!(v > 0) || !std::isfinite(v)) n.fail("scale '" + scale_name + "' must be positive and finite");
  if (!zp_name.empty()) {
    const ConstTensor& z = b.constant(zp_name, n);
    q.zp = z.as_ints(n.where);
    q.type = z.elem_type;
    if (q.zp.size() != 1 && q.zp.size() != q.scale.size())
      n.fail("zero point '" + zp_name + "' has " + std::to_string(q.zp.size()) + " entries for " +
             std::to_string(q.scale.size()) + " scales");
    if (q.zp.size() == 1 && q.scale.size() > 1) q.zp.assign(q.scale.size(), q.zp[0]);
  }
  if (q.scale.size() > 1) {
    if (s.shape.size() != 1) n.fail("per-axis scale '" + scale_name + "' must be 1-D");
    q.axis = static_cast<int>(norm_axis(axis_attr, static_cast<int64_t>(data_rank), n));
  }
  if (q.type != kUint8 && q.type != kInt8 && q.type != kInt32) qtype_dtype(q.type, n);
  for (size_t i = 0; i < q.zp.size(); ++i)
    if (q.zp[i] < qmin(q.type) || q.zp[i] > qmax(q.type)) n.fail("zero point out of range of its type");
  return q;
}

QParams qparams_of(const Value& v) {
  QParams q;
  q.scale = v.scale;
  q.zp = v.zp;
  q.type = v.zp_type;
  q.axis = v.axis;
  return q;
}

QTail match_q_tail(Builder& b, const OnnxNode& anchor, const std::string& from, size_t out_rank) {
  QTail t;
  std::string cur = from;
  double flo = -INFINITY, fhi = INFINITY;
  while (true) {
    const OnnxNode* nx = b.fusable_next(cur);
    if (!nx)
      anchor.fail("an op on dequantized inputs must feed exactly one QuantizeLinear "
                  "(float results are not supported)");
    if (nx->op == "Relu") {
      flo = std::max(flo, 0.0);
    } else if (nx->op == "Clip" && nx->in(0) == cur) {
      if (nx->has("min")) flo = std::max(flo, nx->get_float("min", -INFINITY));
      if (nx->has("max")) fhi = std::min(fhi, nx->get_float("max", INFINITY));
      if (!nx->in(1).empty()) flo = std::max(flo, b.constant(nx->in(1), *nx).scalar_double(nx->where));
      if (!nx->in(2).empty()) fhi = std::min(fhi, b.constant(nx->in(2), *nx).scalar_double(nx->where));
    } else if (nx->op == "QuantizeLinear" && nx->in(0) == cur) {
      t.y = read_qparams(b, *nx, nx->in(1), nx->in(2), nx->get_int("axis", 1), out_rank);
      if (!t.y.per_tensor()) nx->fail("per-axis output quantisation of a QDQ group is not supported");
      b.claim(nx->index);
      t.ops.push_back(nx->op);
      t.out = nx->outputs[0];
      break;
    } else {
      anchor.fail("an op on dequantized inputs must be followed by QuantizeLinear, found " + nx->op + " '" +
                  nx->name + "'");
    }
    b.claim(nx->index);
    t.ops.push_back(nx->op);
    cur = nx->outputs[0];
  }
  t.lo = qmin(t.y.type);
  t.hi = qmax(t.y.type);
  const double ys = t.y.scale[0];
  const int64_t yz = t.y.zp_at(0);
  if (std::isfinite(flo)) t.lo = std::max(t.lo, round_half_even(flo / ys) + yz);
  if (std::isfinite(fhi)) t.hi = std::min(t.hi, round_half_even(fhi / ys) + yz);
  if (t.lo > t.hi) anchor.fail("Relu/Clip range excludes every quantised value");
  return t;
}

Requant float_requant(const QParams& x, const QParams& w, const QParams& y, int64_t lo, int64_t hi, int axis) {
  Requant rq;
  rq.kind = Requant::Kind::Float;
  const size_t n = std::max(x.scale.size(), w.scale.size());
  for (size_t c = 0; c < n; ++c) rq.scale.push_back(x.scale_at(c) * w.scale_at(c) / y.scale[0]);
  rq.axis = n > 1 ? axis : -1;
  rq.zp = y.zp_at(0);
  rq.lo = lo;
  rq.hi = hi;
  return rq;
}

void import_dequantize(Builder& b, const OnnxNode& n) {
  if (n.n_in() < 2 || n.outputs.size() != 1) n.fail("DequantizeLinear needs (x, x_scale[, x_zero_point])");
  const std::string& x = n.in(0);
  int xtype;
  size_t rank;
  if (const ConstTensor* c = b.model.find_const(x)) {
    xtype = c->elem_type;
    rank = c->shape.size();
  } else {
    const Value* v = b.value(x);
    if (!v || v->kind != Value::Kind::Real) n.fail("input '" + x + "' must be an integer tensor");
    const DType dt = b.desc(v->tid).dtype;
    if (!dtype_is_int(dt)) n.fail("input '" + x + "' is a float tensor");
    if (dt != DType::U8 && dt != DType::I8 && dt != DType::I32)
      n.fail(std::string("input '") + x + "' of type " + dtype_name(dt) + " is outside the int8 scope");
    xtype = dt == DType::I8 ? kInt8 : dt == DType::I32 ? kInt32 : kUint8;
    rank = b.desc(v->tid).shape.size();
  }
  QParams q = read_qparams(b, n, n.in(1), n.in(2), n.get_int("axis", 1), rank);
  q.type = xtype;
  if (xtype == kInt32)
    for (int64_t z : q.zp)
      if (z != 0) n.fail("an int32 input requires a zero point of 0");
  Value v;
  v.kind = Value::Kind::Dequant;
  v.src = x;
  v.scale = q.scale;
  v.zp = q.zp;
  v.zp_type = q.type;
  v.axis = q.axis;
  b.set_value(n.outputs[0], v);
}

void import_quantize(Builder& b, const OnnxNode& n) {
  if (n.n_in() < 2 || n.outputs.size() != 1) n.fail("QuantizeLinear needs (x, y_scale[, y_zero_point])");
  const Shape xs = b.shape_of(n.in(0), n);
  const QParams y = read_qparams(b, n, n.in(1), n.in(2), n.get_int("axis", 1), xs.size());
  if (Value* v = b.value(n.in(0)); v && v->kind == Value::Kind::Dequant) {
    const QParams x = qparams_of(*v);
    const bool same = x.scale == y.scale && x.axis == y.axis && x.type == y.type &&
                      x.zp_at(0) == y.zp_at(0) && (x.zp.size() <= 1 ? y.zp.size() <= 1 : x.zp == y.zp);
    if (same) {
      b.set_real(n.outputs[0], b.real(v->src, n));
      return;
    }
  }
  const int x = b.real(n.in(0), n);
  const DType xt = b.desc(x).dtype;
  if (xt != DType::F32 && xt != DType::I32) n.fail("input must be float or int32");
  QuantizeParams p;
  p.axis = y.axis;
  p.scale.assign(y.scale.begin(), y.scale.end());
  p.zp = y.zp.empty() ? std::vector<int64_t>{0} : y.zp;
  const int out = b.new_tensor(n.outputs[0], qtype_dtype(y.type, n), xs);
  b.emit(make_node(n, p, {x}, out, {"QuantizeLinear"}));
  b.set_real(n.outputs[0], out);
}

}  // namespace edgesim::frontend
