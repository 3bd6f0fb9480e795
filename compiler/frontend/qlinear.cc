// The opset-10 integer operators of standard ONNX (docs/dialects.md "Standard ONNX int8"):
//   QLinearConv(x, x_s, x_zp, w, w_s, w_zp, y_s, y_zp[, B])   -> Conv + float requant
//   QLinearMatMul(a, a_s, a_zp, b, b_s, b_zp, y_s, y_zp)       -> Gemm + float requant
//   ConvInteger(x, w[, x_zp[, w_zp]])                          -> Conv, raw int32
//   MatMulInteger(A, B[, a_zp[, b_zp]])                        -> Gemm, raw int32
// Scales and zero points must be constants (the ONNX node tests pass them as graph inputs,
// which ImportOptions::constant_inputs turns into constants).
#include "compiler/frontend/handlers.h"
#include "compiler/frontend/qdq.h"

namespace edgesim::frontend {

namespace {

// Zero point only (ConvInteger / MatMulInteger): type from the data when omitted.
QParams zp_only(Builder& b, const OnnxNode& n, const std::string& zp_name, int data_type, int axis) {
  QParams q;
  q.scale = {1.0};
  q.type = data_type;
  if (zp_name.empty()) return q;
  const ConstTensor& z = b.constant(zp_name, n);
  q.zp = z.as_ints(n.where);
  q.type = z.elem_type;
  if (q.zp.size() > 1) q.axis = axis;
  return q;
}

int elem_type_of(Builder& b, int tid) {
  switch (b.desc(tid).dtype) {
    case DType::I8: return kInt8;
    case DType::U8: return kUint8;
    default: return kInt32;
  }
}

int data_input(Builder& b, const std::string& name, const OnnxNode& n) {
  const int t = b.is_const(name) ? b.const_tensor(name, n) : int_input(b, name, n);
  return t;
}

}  // namespace

void import_qlinear_conv(Builder& b, const OnnxNode& n) {
  if (n.n_in() < 8 || n.outputs.size() != 1) n.fail("QLinearConv needs 8 or 9 inputs and one output");
  QGroup g;
  g.anchor = &n;
  g.x = data_input(b, n.in(0), n);
  const size_t xr = b.desc(g.x).shape.size();
  g.xq = read_qparams(b, n, n.in(1), n.in(2), 1, xr);
  g.w_name = n.in(3);
  g.wq = read_qparams(b, n, n.in(4), n.in(5), 0, b.shape_of(n.in(3), n).size());
  g.yq = read_qparams(b, n, n.in(6), n.in(7), 1, xr);
  if (!g.yq.per_tensor()) n.fail("y must be quantised per tensor");
  if (!n.in(8).empty()) g.bias = b.constant(n.in(8), n).as_ints(n.where);
  g.lo = qmin(g.yq.type);
  g.hi = qmax(g.yq.type);
  g.out = n.outputs[0];
  g.fused = {"QLinearConv"};
  emit_qconv(b, g);
}

void import_qlinear_matmul(Builder& b, const OnnxNode& n) {
  if (n.n_in() != 8 || n.outputs.size() != 1) n.fail("QLinearMatMul needs 8 inputs and one output");
  QGroup g;
  g.anchor = &n;
  g.x = data_input(b, n.in(0), n);
  const size_t ar = b.desc(g.x).shape.size();
  const size_t br = b.shape_of(n.in(3), n).size();
  g.xq = read_qparams(b, n, n.in(1), n.in(2), static_cast<int64_t>(ar) - 2, ar);
  g.w_name = n.in(3);
  g.wq = read_qparams(b, n, n.in(4), n.in(5), static_cast<int64_t>(br) - 1, br);
  g.yq = read_qparams(b, n, n.in(6), n.in(7), 0, ar);
  if (!g.yq.per_tensor()) n.fail("y must be quantised per tensor");
  g.lo = qmin(g.yq.type);
  g.hi = qmax(g.yq.type);
  g.out = n.outputs[0];
  g.fused = {"QLinearMatMul"};
  emit_qgemm(b, g, false, false);
}

void import_conv_integer(Builder& b, const OnnxNode& n) {
  if (n.n_in() < 2 || n.outputs.size() != 1) n.fail("ConvInteger needs (x, w[, x_zp[, w_zp]])");
  QGroup g;
  g.anchor = &n;
  g.x = data_input(b, n.in(0), n);
  g.w_name = n.in(1);
  g.xq = zp_only(b, n, n.in(2), elem_type_of(b, g.x), -1);
  if (!g.xq.per_tensor()) n.fail("x_zero_point must be a scalar");
  g.wq = zp_only(b, n, n.in(3), kUint8, 0);
  g.has_rq = false;
  g.out = n.outputs[0];
  g.fused = {"ConvInteger"};
  emit_qconv(b, g);
}

void import_matmul_integer(Builder& b, const OnnxNode& n) {
  if (n.n_in() < 2 || n.outputs.size() != 1) n.fail("MatMulInteger needs (A, B[, a_zp[, b_zp]])");
  QGroup g;
  g.anchor = &n;
  g.x = data_input(b, n.in(0), n);
  g.w_name = n.in(1);
  const auto ar = static_cast<int>(b.desc(g.x).shape.size());
  const auto br = static_cast<int>(b.shape_of(n.in(1), n).size());
  g.xq = zp_only(b, n, n.in(2), elem_type_of(b, g.x), ar - 2);
  g.wq = zp_only(b, n, n.in(3), kUint8, br - 1);
  g.has_rq = false;
  g.out = n.outputs[0];
  g.fused = {"MatMulInteger"};
  emit_qgemm(b, g, false, false);
}

}  // namespace edgesim::frontend
