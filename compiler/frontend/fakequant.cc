// Float fake-quantisation graphs (dialect "fakequant", docs/dialects.md "Deeploy transformer ops":
// Deeploy's Models/Transformer_DeepQuant). Every quantiser is Div(s) → Add(z) → Round →
// Clip(lo, hi) and every dequantiser Sub(z) → Mul(s), all on float32 tensors. The importer
//   * folds the quantisers of constants (weights, bias) at import time, in float32 in graph
//     order (fold_constants), so the integer weights become ordinary integer constants;
//   * turns every run of element-wise float ops on a runtime tensor into one FloatChain node,
//     evaluated in float32 step by step (kernels/fakequant); a chain ending in Round → Clip
//     with integer bounds produces the integer tensor itself;
//   * leaves the MatMul of quantised integers (and its bias Add) to the integer Gemm path. That
//     is exact only while every partial sum is an integer below 2^24 (float32 adds integers
//     exactly there), which import_matmul's caller cannot see: import_float_chain checks the
//     bound on the chain that reads the Gemm's accumulator and refuses the graph otherwise.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "compiler/frontend/handlers.h"
#include "kernels/core/shape_rules.h"

namespace edgesim::frontend {

namespace {

bool foldable(const std::string& op) {
  return op == "Cast" || op == "Div" || op == "Add" || op == "Sub" || op == "Mul" || op == "Round" ||
         op == "Clip" || op == "Transpose" || op == "Identity";
}

float f32(double v) { return static_cast<float>(v); }

// out's values as float32 (the constant's bytes, ConstTensor::bytes).
void set_floats(ConstTensor& out, const std::vector<double>& v) {
  out.elem_type = kFloat;
  out.bytes.resize(v.size() * sizeof(float));
  for (size_t i = 0; i < v.size(); ++i) {
    const float f = f32(v[i]);
    std::memcpy(out.bytes.data() + i * sizeof(float), &f, sizeof(float));
  }
}

// Float32 element-wise evaluation of a foldable op on constant operands (NumPy broadcasting).
bool eval_const(const OnnxModel& m, const OnnxNode& n, ConstTensor& out) {
  std::vector<const ConstTensor*> in;
  for (const auto& i : n.inputs) {
    if (i.empty()) { in.push_back(nullptr); continue; }
    const ConstTensor* c = m.find_const(i);
    if (!c) return false;
    in.push_back(c);
  }
  if (in.empty() || !in[0]) return false;
  out.name = n.outputs.at(0);
  out.elem_type = kFloat;
  if (n.op == "Cast") {
    const int64_t to = n.get_int("to", kFloat);
    out.shape = in[0]->shape;
    if (is_real_type(static_cast<int>(to))) {
      set_floats(out, in[0]->as_doubles());
      return true;
    }
    return false;
  }
  if (n.op == "Identity") { out = *in[0]; out.name = n.outputs[0]; return true; }
  if (n.op == "Transpose") {
    const size_t r = in[0]->shape.size();
    std::vector<int64_t> perm = n.get_ints("perm", {});
    if (perm.empty()) for (size_t d = 0; d < r; ++d) perm.push_back(static_cast<int64_t>(r - 1 - d));
    if (perm.size() != r) n.fail("perm does not match the rank");
    // The elements move as they are (bytes of the input's type).
    const ConstTensor& x = *in[0];
    const size_t esz = x.numel() > 0 ? x.bytes.size() / static_cast<size_t>(x.numel()) : 0;
    const Shape st = contiguous_strides(x.shape);
    for (size_t d = 0; d < r; ++d) out.shape.push_back(x.shape[static_cast<size_t>(perm[d])]);
    out.elem_type = x.elem_type;
    out.bytes.resize(x.bytes.size());
    std::vector<int64_t> idx(r, 0);
    for (int64_t e = 0; e < shape_numel(out.shape); ++e) {
      int64_t src = 0;
      for (size_t d = 0; d < r; ++d) src += idx[d] * st[static_cast<size_t>(perm[d])];
      std::memcpy(out.bytes.data() + static_cast<size_t>(e) * esz, x.bytes.data() + static_cast<size_t>(src) * esz, esz);
      for (size_t d = r; d-- > 0;) {
        if (++idx[d] < out.shape[d]) break;
        idx[d] = 0;
      }
    }
    return true;
  }
  if (n.op == "Round") {
    out.shape = in[0]->shape;
    std::vector<double> v = in[0]->as_doubles();
    for (double& x : v) x = std::nearbyint(f32(x));
    set_floats(out, v);
    return true;
  }
  if (n.op == "Clip") {
    const float lo = in.size() > 1 && in[1] ? f32(in[1]->scalar_double(n.where)) : -INFINITY;
    const float hi = in.size() > 2 && in[2] ? f32(in[2]->scalar_double(n.where)) : INFINITY;
    out.shape = in[0]->shape;
    std::vector<double> v = in[0]->as_doubles();
    for (double& x : v) x = std::fmin(std::fmax(f32(x), lo), hi);
    set_floats(out, v);
    return true;
  }
  if (in.size() != 2 || !in[1]) return false;
  out.shape = broadcast_shapes(in[0]->shape, in[1]->shape);
  const auto ia = broadcast_source_index(in[0]->shape, out.shape);
  const auto ib = broadcast_source_index(in[1]->shape, out.shape);
  const std::vector<double> a = in[0]->as_doubles(), b = in[1]->as_doubles();
  std::vector<double> vals;
  vals.reserve(ia.size());
  for (size_t e = 0; e < ia.size(); ++e) {
    const float x = f32(a[static_cast<size_t>(ia[e])]), y = f32(b[static_cast<size_t>(ib[e])]);
    float r = 0;
    if (n.op == "Add") r = x + y;
    else if (n.op == "Sub") r = x - y;
    else if (n.op == "Mul") r = x * y;
    else r = x / y;
    vals.push_back(r);
  }
  set_floats(out, vals);
  return true;
}

}  // namespace

void fold_constants(OnnxModel& m) {
  for (OnnxNode& n : m.nodes) {
    if (n.op == "Constant" || !foldable(n.op) || n.outputs.size() != 1 || m.is_output(n.outputs[0])) continue;
    if (!(n.domain.empty() || n.domain == "ai.onnx")) continue;
    ConstTensor c;
    if (!eval_const(m, n, c)) continue;
    m.consts[c.name] = std::move(c);
    n.op = "Constant";   // skipped by the import loop like any Constant node
  }
}

bool is_float_chain_op(const std::string& op) {
  return op == "Div" || op == "Add" || op == "Sub" || op == "Mul" || op == "Round" || op == "Clip";
}

void import_float_chain(Builder& b, const OnnxNode& anchor) {
  std::string xname;
  for (const auto& i : anchor.inputs)
    if (!i.empty() && !b.is_const(i)) xname = i;
  if (xname.empty()) anchor.fail("operates on constants only");
  const int x = b.real(xname, anchor);
  const TensorDesc& xd = b.desc(x);
  // Integers enter float32 exactly only below 2^24. For the accumulator of a folded MatMul the
  // bound K·max|a|·max|w| + max|bias| also bounds every partial sum the float graph formed.
  if (dtype_is_int(xd.dtype)) {
    int64_t bound = std::max(std::abs(b.lo_of(x)), std::abs(b.hi_of(x)));
    for (const Node& g : b.graph.nodes) {
      if (g.outputs.at(0) != x || g.kind() != OpKind::Gemm || g.as<GemmParams>().rq.enabled()) continue;
      const TensorDesc& a = b.desc(g.inputs.at(0));
      const TensorDesc& w = b.desc(g.inputs.at(1));
      if (!w.is_const()) break;
      int64_t wmax = 0, bmax = 0;
      for (int64_t v : w.constant->to_ints()) wmax = std::max(wmax, std::abs(v));
      for (int64_t v : g.as<GemmParams>().bias) bmax = std::max(bmax, std::abs(v));
      const int64_t k = g.as<GemmParams>().trans_a ? a.shape.at(a.shape.size() - 2) : a.shape.back();
      const int64_t amax = std::max(std::abs(dtype_min(a.dtype)), std::abs(dtype_max(a.dtype)));
      bound = k * amax * wmax + bmax;
    }
    if (bound >= (int64_t{1} << 24))
      anchor.fail("its integer input (|values| up to " + std::to_string(bound) +
                  ") is not exact in float32: the float graph's sums would round");
  }
  FloatChainParams p;
  std::vector<std::string> fused;
  std::string cur = xname;
  const OnnxNode* np = &anchor;
  bool round_then_clip = false, rounded = false;
  float lo = 0, hi = 0;
  while (np) {
    const OnnxNode& n = *np;
    if (!is_float_chain_op(n.op) || n.outputs.size() != 1) break;
    FloatStep s;
    if (n.op == "Round") {
      if (n.n_in() != 1) break;
      s.op = FloatStep::Op::Round;
      rounded = true;
    } else if (n.op == "Clip") {
      if (n.inputs[0] != cur) break;
      s.op = FloatStep::Op::Clip;
      s.lo = !n.in(1).empty() ? f32(b.constant(n.in(1), n).scalar_double(n.where)) : -INFINITY;
      s.hi = !n.in(2).empty() ? f32(b.constant(n.in(2), n).scalar_double(n.where)) : INFINITY;
      round_then_clip = rounded && std::isfinite(s.lo) && std::isfinite(s.hi) && s.lo == std::floor(s.lo) &&
                        s.hi == std::floor(s.hi);
      lo = s.lo, hi = s.hi;
    } else {
      if (n.n_in() != 2) break;
      const bool left = n.inputs[0] == cur && b.is_const(n.inputs[1]);
      const bool right = n.inputs[1] == cur && b.is_const(n.inputs[0]);
      if (!left && !right) break;
      const ConstTensor& c = b.constant(left ? n.inputs[1] : n.inputs[0], n);
      if (c.numel() != 1) n.fail("float chain constants must be scalars, got " + shape_str(c.shape));
      s.value = f32(c.scalar_double(n.where));
      s.reversed = right;
      s.op = n.op == "Add" ? FloatStep::Op::Add : n.op == "Sub" ? FloatStep::Op::Sub
           : n.op == "Mul" ? FloatStep::Op::Mul : FloatStep::Op::Div;
      if ((s.op == FloatStep::Op::Add || s.op == FloatStep::Op::Mul) && s.reversed) s.reversed = false;
    }
    if (n.op != "Clip") round_then_clip = false;
    p.steps.push_back(s);
    fused.push_back(n.op);
    b.claim(n.index);
    cur = n.outputs[0];
    np = b.fusable_next(cur);
  }
  if (p.steps.empty()) anchor.fail("cannot import this " + anchor.op + " as a float fake-quantisation step");
  const DType dt = round_then_clip ? dtype_for_range(static_cast<int64_t>(lo), static_cast<int64_t>(hi)) : DType::F32;
  const int out = b.new_tensor(cur, dt, xd.shape);
  b.emit(make_node(anchor, p, {x}, out, fused));
  b.set_real(cur, out);
}

}  // namespace edgesim::frontend
