// Conv, Gemm and MatMul anchors of the integer dialects: the op's own attributes, merged
// Pads (docs/dialects.md "NEMO", P6), its bias, then the requant chain that follows
// (requant_chain.h).
// The result is one Conv or Gemm node: NEMO P1 / QuantLab / Deeploy RequantShift layers, or a
// raw int32 accumulator (NEMO P7, Deeploy PW_2D, BARVINN SimpleConv). Inputs coming from
// DequantizeLinear are handed to the QDQ importer (qdq_ops.cc).
#include <algorithm>

#include "compiler/frontend/handlers.h"
#include "compiler/frontend/requant_chain.h"
#include "compiler/frontend/shape_infer.h"

namespace edgesim::frontend {

ConvParams conv_attrs(const OnnxNode& n, const Shape& x, const Shape& w) {
  if ((x.size() != 4 && x.size() != 3) || w.size() != x.size())
    n.fail("expects input and weight of rank 4 (or 3 for 1-D), got " + shape_str(x) + " and " + shape_str(w));
  const bool one_d = x.size() == 3;
  const size_t sp = one_d ? 1 : 2;   // spatial dims
  ConvParams p;
  p.is_1d = one_d;
  const std::string ap = n.get_string("auto_pad", "NOTSET");
  if (ap != "NOTSET" && ap != "VALID" && !ap.empty()) n.fail("unsupported attribute auto_pad=" + ap);
  std::vector<int64_t> ks(w.begin() + 2, w.end());
  if (n.has("kernel_shape") && n.get_ints("kernel_shape", {}) != ks)
    n.fail("kernel_shape " + shape_str(n.get_ints("kernel_shape", {})) + " does not match weight " + shape_str(w));
  const auto strides = n.get_ints("strides", std::vector<int64_t>(sp, 1));
  const auto dil = n.get_ints("dilations", std::vector<int64_t>(sp, 1));
  auto pads = n.get_ints("pads", std::vector<int64_t>(2 * sp, 0));
  if (ap == "VALID") pads.assign(2 * sp, 0);
  if (strides.size() != sp || dil.size() != sp || pads.size() != 2 * sp)
    n.fail("strides / dilations / pads do not match the " + std::to_string(sp) + "-D kernel");
  for (int64_t v : strides) if (v < 1) n.fail("invalid stride " + std::to_string(v));
  for (int64_t v : dil) if (v < 1) n.fail("invalid dilation " + std::to_string(v));
  for (int64_t v : pads) if (v < 0) n.fail("negative pads are not supported");
  p.groups = n.get_int("group", 1);
  if (one_d) {
    p.kw = ks[0]; p.sw = strides[0]; p.dw = dil[0]; p.pad_l = pads[0]; p.pad_r = pads[1];
  } else {
    p.kh = ks[0]; p.kw = ks[1]; p.sh = strides[0]; p.sw = strides[1]; p.dh = dil[0]; p.dw = dil[1];
    p.pad_t = pads[0]; p.pad_l = pads[1]; p.pad_b = pads[2]; p.pad_r = pads[3];
  }
  return p;
}

namespace {

// Per-output-channel bias vector for a conv with cout channels (shape [M], [1,M,1,1], scalar).
bool conv_bias(const ConstTensor& c, const Shape& out, const OnnxNode& n, ConvParams& p) {
  const int ax = const_axis(c, out, n);
  if (ax != -1 && ax != 1) return false;
  std::vector<int64_t> v = c.as_ints(n.where);
  if (ax < 0) v.assign(static_cast<size_t>(out[1]), v[0]);
  if (p.bias.empty()) p.bias = v;
  else for (size_t i = 0; i < v.size(); ++i) p.bias[i] += v[i];
  return true;
}

// Gemm / MatMul bias broadcast onto the trailing [M, N] of the output.
bool gemm_bias(const ConstTensor& c, const Shape& out, GemmParams& p, const std::string& where) {
  if (!p.bias.empty() || out.size() < 2) return false;
  Shape s = c.shape;
  while (s.size() > 2 && s.front() == 1) s.erase(s.begin());
  const int64_t M = out[out.size() - 2], N = out.back();
  if (c.numel() == 1) s.clear();
  else if (s.size() == 1) { if (s[0] != N) return false; }
  else if (s.size() == 2) { if ((s[0] != 1 && s[0] != M) || (s[1] != 1 && s[1] != N)) return false; }
  else return false;
  p.bias = c.as_ints(where);
  p.bias_shape = s;
  return true;
}

void finish_gemm(Builder& b, const OnnxNode& n, int a, int w, GemmParams p, const Shape& out_shape,
                 std::vector<std::string> fused) {
  ChainStart s;
  s.anchor = &n;
  s.from = n.outputs[0];
  s.shape = out_shape;
  s.take_bias = [&](const ConstTensor& c, const OnnxNode& add) {
    return gemm_bias(c, out_shape, p, add.where);
  };
  const ChainResult r = match_int_chain(b, s);
  p.rq = r.rq;
  fused.insert(fused.end(), r.ops.begin(), r.ops.end());
  const int out = b.new_tensor(r.out, dtype_for_range(p.rq.lo, p.rq.hi), out_shape);
  b.emit(make_node(n, p, {a, w}, out, fused));
  b.set_real(r.out, out);
}

int weight_input(Builder& b, const std::string& name, const OnnxNode& n) {
  return b.is_const(name) ? b.const_tensor(name, n) : int_input(b, name, n);
}

}  // namespace

void import_conv(Builder& b, const OnnxNode& n) {
  if (n.n_in() < 2 || n.outputs.size() != 1) n.fail("Conv needs inputs (x, w[, B]) and one output");
  if (is_dequant(b, n.in(0))) return import_qdq_conv(b, n);
  std::string xname = n.in(0);
  std::vector<std::string> fused;
  const PendingPad* pp = nullptr;
  if (auto it = b.pending_pads.find(n.index); it != b.pending_pads.end()) {
    pp = &it->second;
    xname = pp->src;
    fused = pp->ops;
  }
  const int x = int_input(b, xname, n);
  const int w = weight_input(b, n.in(1), n);
  ConvParams p = conv_attrs(n, b.desc(x).shape, b.desc(w).shape);
  if (pp) { p.pad_t += pp->t; p.pad_l += pp->l; p.pad_b += pp->b; p.pad_r += pp->r; }
  const Shape out_shape = conv_shape(b.desc(x).shape, b.desc(w).shape, p, n);
  if (!n.in(2).empty()) {   // ONNX Conv's B is [M]
    const ConstTensor& c = b.constant(n.in(2), n);
    if (c.shape.size() != 1 || c.shape[0] != out_shape[1])
      n.fail("bias '" + c.name + "' of shape " + shape_str(c.shape) + " needs one value per output channel");
    p.bias = c.as_ints(n.where);
  }
  fused.push_back("Conv");

  ChainStart s;
  s.anchor = &n;
  s.from = n.outputs[0];
  s.shape = out_shape;
  s.required_axis = 1;
  s.take_bias = [&](const ConstTensor& c, const OnnxNode& add) { return conv_bias(c, out_shape, add, p); };
  const ChainResult r = match_int_chain(b, s);
  p.rq = r.rq;
  fused.insert(fused.end(), r.ops.begin(), r.ops.end());
  const int out = b.new_tensor(r.out, dtype_for_range(p.rq.lo, p.rq.hi), out_shape);
  b.emit(make_node(n, p, {x, w}, out, fused));
  b.set_real(r.out, out);
}

void import_gemm(Builder& b, const OnnxNode& n) {
  if (n.n_in() < 2 || n.outputs.size() != 1) n.fail("Gemm needs inputs (A, B[, C]) and one output");
  if (is_dequant(b, n.in(0))) return import_qdq_gemm(b, n);
  if (n.get_float("alpha", 1.0) != 1.0) n.fail("unsupported attribute alpha=" + std::to_string(n.get_float("alpha", 1.0)) + " (only 1)");
  if (!n.in(2).empty() && n.get_float("beta", 1.0) != 1.0)
    n.fail("unsupported attribute beta=" + std::to_string(n.get_float("beta", 1.0)) + " (only 1)");
  const int a = int_input(b, n.in(0), n);
  const int w = weight_input(b, n.in(1), n);
  GemmParams p;
  p.trans_a = n.get_int("transA", 0) != 0;
  p.trans_b = n.get_int("transB", 0) != 0;
  if (b.desc(a).shape.size() != 2 || b.desc(w).shape.size() != 2)
    n.fail("Gemm operands must be 2-D, got " + shape_str(b.desc(a).shape) + " and " + shape_str(b.desc(w).shape));
  const Shape out_shape = matmul_or_fail(b.desc(a).shape, b.desc(w).shape, p.trans_a, p.trans_b, n);
  if (!n.in(2).empty()) {
    const ConstTensor& c = b.constant(n.in(2), n);
    if (!gemm_bias(c, out_shape, p, n.where))
      n.fail("bias C of shape " + shape_str(c.shape) + " does not broadcast onto " + shape_str(out_shape));
  }
  finish_gemm(b, n, a, w, p, out_shape, {"Gemm"});
}

void import_matmul(Builder& b, const OnnxNode& n) {
  if (n.n_in() != 2 || n.outputs.size() != 1) n.fail("MatMul needs inputs (A, B) and one output");
  if (is_dequant(b, n.in(0))) return import_qdq_gemm(b, n);
  const int a = int_input(b, n.in(0), n);
  const int w = weight_input(b, n.in(1), n);
  const Shape out_shape = matmul_or_fail(b.desc(a).shape, b.desc(w).shape, false, false, n);
  finish_gemm(b, n, a, w, GemmParams{}, out_shape, {"MatMul"});
}

}  // namespace edgesim::frontend
