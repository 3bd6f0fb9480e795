// Pooling anchors of the integer dialects.
//   MaxPool [→ requant chain]                                  (NEMO P5, Deeploy)
//   AveragePool / GlobalAveragePool → Mul(kh·kw) [→ chain]     (NEMO P4, MobileNet pool)
// An integer AveragePool is only meaningful as the window sum: ONNX's float mean times
// kh·kw. The Mul(kh·kw) is therefore required and folded into PoolParams::Kind::Sum; the
// division that follows (Mul(m) → Div(2^s) → Floor, or a RequantShift) becomes the pool's
// requant. Merged Pads add to the pool's own pads (docs/dialects.md "NEMO", P6).
#include <algorithm>

#include "compiler/frontend/handlers.h"
#include "compiler/frontend/requant_chain.h"
#include "compiler/frontend/shape_infer.h"

namespace edgesim::frontend {

PoolParams pool_attrs(const OnnxNode& n, const Shape& x) {
  if (x.size() != 4 && x.size() != 3) n.fail("expects an input of rank 4 (or 3 for 1-D), got " + shape_str(x));
  const bool one_d = x.size() == 3;
  const size_t sp = one_d ? 1 : 2;
  PoolParams p;
  p.is_1d = one_d;
  p.kind = (n.op == "MaxPool" || n.op == "GlobalMaxPool") ? PoolParams::Kind::Max : PoolParams::Kind::Sum;
  if (n.op == "GlobalAveragePool" || n.op == "GlobalMaxPool") {
    p.global = true;
    p.kh = one_d ? 1 : x[2];
    p.kw = x.back();
    return p;
  }
  const std::string ap = n.get_string("auto_pad", "NOTSET");
  if (ap != "NOTSET" && ap != "VALID" && !ap.empty()) n.fail("unsupported attribute auto_pad=" + ap);
  if (!n.has("kernel_shape")) n.fail("missing attribute kernel_shape");
  const auto ks = n.get_ints("kernel_shape", {});
  const auto st = n.get_ints("strides", std::vector<int64_t>(sp, 1));
  auto pads = n.get_ints("pads", std::vector<int64_t>(2 * sp, 0));
  if (ap == "VALID") pads.assign(2 * sp, 0);
  const auto dil = n.get_ints("dilations", std::vector<int64_t>(sp, 1));
  if (ks.size() != sp || st.size() != sp || pads.size() != 2 * sp || dil.size() != sp)
    n.fail("kernel_shape / strides / pads do not match the " + std::to_string(sp) + "-D input " + shape_str(x));
  for (int64_t d : dil) if (d != 1) n.fail("unsupported attribute dilations (only 1)");
  for (int64_t v : ks) if (v < 1) n.fail("invalid kernel_shape");
  for (int64_t v : st) if (v < 1) n.fail("invalid stride " + std::to_string(v));
  for (int64_t v : pads) if (v < 0) n.fail("negative pads are not supported");
  if (n.get_int("storage_order", 0) != 0) n.fail("unsupported attribute storage_order=1");
  p.ceil_mode = n.get_int("ceil_mode", 0) != 0;
  if (one_d) {
    p.kw = ks[0]; p.sw = st[0]; p.pad_l = pads[0]; p.pad_r = pads[1];
  } else {
    p.kh = ks[0]; p.kw = ks[1]; p.sh = st[0]; p.sw = st[1];
    p.pad_t = pads[0]; p.pad_l = pads[1]; p.pad_b = pads[2]; p.pad_r = pads[3];
  }
  if (p.kind == PoolParams::Kind::Sum && n.get_int("count_include_pad", 0) == 0 &&
      (p.pad_t || p.pad_l || p.pad_b || p.pad_r))
    n.fail("padded AveragePool with count_include_pad=0 has no integer window-sum form");
  return p;
}

void import_pool(Builder& b, const OnnxNode& n) {
  if (n.n_in() != 1 || n.outputs.size() != 1) n.fail("expects one input and one output");
  if (is_dequant(b, n.in(0))) return import_qdq_pool(b, n);
  std::string xname = n.in(0);
  std::vector<std::string> fused;
  const PendingPad* pp = nullptr;
  if (auto it = b.pending_pads.find(n.index); it != b.pending_pads.end()) {
    pp = &it->second;
    xname = pp->src;
    fused = pp->ops;
  }
  const int x = int_input(b, xname, n);
  const Shape& xs = b.desc(x).shape;
  PoolParams p = pool_attrs(n, xs);
  if (pp) { p.pad_t += pp->t; p.pad_l += pp->l; p.pad_b += pp->b; p.pad_r += pp->r; }
  const Shape out_shape = pool_shape(xs, p, n);
  fused.push_back(n.op);

  ChainStart s;
  s.anchor = &n;
  s.shape = out_shape;
  s.required_axis = 1;
  s.from = n.outputs[0];
  if (p.kind == PoolParams::Kind::Max) {
    s.lo = INT64_MIN;   // the max stays within the input's range: no clamp of its own
    s.hi = INT64_MAX;
  } else {
    // Mul(kh·kw) turns ONNX's float mean into the exact integer window sum.
    const OnnxNode* m = b.fusable_next(n.outputs[0]);
    const int64_t window = p.kh * p.kw;
    bool ok = m && m->op == "Mul" && m->n_in() == 2;
    std::string c;
    if (ok) c = m->inputs[0] == n.outputs[0] ? m->inputs[1] : m->inputs[0];
    ok = ok && b.is_const(c) && b.model.find_const(c)->numel() == 1 &&
         b.model.find_const(c)->as_doubles()[0] == static_cast<double>(window);
    if (!ok)
      n.fail("an integer " + n.op + " must be followed by Mul(" + std::to_string(window) +
             ") (the window size) so that it computes the exact window sum");
    b.claim(m->index);
    fused.push_back("Mul");
    s.from = m->outputs[0];
  }
  const ChainResult r = match_int_chain(b, s);
  p.rq = r.rq;
  const bool plain_max = p.rq.kind == Requant::Kind::None && p.kind == PoolParams::Kind::Max;
  const DType dt = plain_max ? dtype_for_range(std::max(p.rq.lo, b.lo_of(x)), std::min(p.rq.hi, b.hi_of(x)))
                             : dtype_for_range(p.rq.lo, p.rq.hi);
  fused.insert(fused.end(), r.ops.begin(), r.ops.end());
  const int out = b.new_tensor(r.out, dt, out_shape);
  if (plain_max && b.inferred(x)) b.mark_inferred(out);
  b.emit(make_node(n, p, {x}, out, fused));
  b.set_real(r.out, out);
}

}  // namespace edgesim::frontend
