// Element-wise anchors: residual Adds and the requant chains that stand alone.
//
//   NEMO P3      Mul(x1, a), Mul(x2, b) → Add → Div(2^c) → Floor [→ P2 requant]
//                The Muls become Scaled values (no node) and fold into AddParams mul1/mul2.
//   QuantLab     Add with in1_*/in2_*/out_* attributes: per-input requant, sum, optional
//                output requant, clamp to [0, out_n_levels − 1]; in1 = the FIRST ONNX input.
//   Deeploy      Add [→ RequantShift]; without one the sum is unsaturated (int32).
// A Mul / Div / Add(constant) / RequantShift / Clip / Relu that no anchor absorbed (its input
// has several consumers, e.g. Deeploy's RequantShift feeding a residual Add) starts a chain of
// its own and becomes a Requant (or Clip) node.
#include "compiler/frontend/handlers.h"
#include "compiler/frontend/requant_chain.h"
#include "compiler/frontend/shape_infer.h"

namespace edgesim::frontend {

namespace {

bool has_quantlab_attrs(const OnnxNode& n) {
  for (const char* a : {"in1_mul", "in2_mul", "in1_rq", "in2_rq", "out_rq", "out_n_levels"})
    if (n.has(a)) return true;
  return false;
}

// QuantLab attribute Add (docs/dialects.md "QuantLab"): AddParams with the per-input requants.
Requant quantlab_add(const OnnxNode& n, AddParams& p) {
  auto side = [&](const std::string& pre, int64_t& mul, int64_t& add, int64_t& shift) {
    if (n.get_int(pre + "_rq", 0) == 0) return;
    mul = n.get_int(pre + "_mul", 1);
    add = n.get_int(pre + "_add", 0);
    shift = n.get_int(pre + "_shift", 0);
    if (shift < 0 || shift > 62) n.fail("attribute " + pre + "_shift out of range");
  };
  side("in1", p.mul1, p.add1, p.shift1);
  side("in2", p.mul2, p.add2, p.shift2);
  Requant rq;
  if (n.get_int("out_rq", 0) != 0) {
    rq.kind = Requant::Kind::Integer;
    rq.k = {n.get_int("out_mul", 1)};
    rq.lambda = {n.get_int("out_add", 0)};
    rq.shift = static_cast<int>(n.get_int("out_shift", 0));
    if (rq.shift < 0 || rq.shift > 62) n.fail("attribute out_shift out of range");
  }
  const int64_t levels = n.get_int("out_n_levels", 256);
  if (levels < 2) n.fail("attribute out_n_levels must be at least 2");
  rq.lo = 0;
  rq.hi = levels - 1;
  return rq;
}

}  // namespace

void import_add(Builder& b, const OnnxNode& n) {
  if (n.n_in() != 2 || n.outputs.size() != 1) n.fail("Add needs two inputs and one output");
  if (b.is_const(n.in(0)) || b.is_const(n.in(1))) return import_requant_chain(b, n);
  if (is_dequant(b, n.in(0)) || is_dequant(b, n.in(1))) n.fail("Add of dequantized (float) tensors is not supported");
  AddParams p;
  std::vector<std::string> fused;
  auto operand = [&](const std::string& name, int64_t& mul) {
    if (Value* v = b.value(name); v && v->kind == Value::Kind::Scaled) {
      mul = v->factor;
      fused.push_back("Mul");
      return v->tid;
    }
    return int_input(b, name, n);
  };
  const bool ql = has_quantlab_attrs(n);
  const int x1 = operand(n.in(0), p.mul1);
  const int x2 = operand(n.in(1), p.mul2);
  const Shape out_shape = broadcast_or_fail(b.desc(x1).shape, b.desc(x2).shape, n);
  fused.push_back("Add");

  ChainStart s;
  s.anchor = &n;
  s.shape = out_shape;
  s.from = n.outputs[0];
  Requant ql_rq;
  if (ql) {
    if (p.mul1 != 1 || p.mul2 != 1) n.fail("QuantLab Add with Mul-scaled inputs is not supported");
    ql_rq = quantlab_add(n, p);
    s.saturated = true;
    s.lo = ql_rq.lo;
    s.hi = ql_rq.hi;
  } else if (const OnnxNode* d = b.fusable_next(n.outputs[0]);
             d && d->op == "Div" && d->n_in() == 2 && d->in(0) == n.outputs[0] && b.is_const(d->in(1))) {
    // NEMO P3: ⌊(a·x1 + b·x2) / 2^c⌋ as shift_sum (the P2 requant may follow).
    const int64_t c = b.constant(d->in(1), *d).scalar_int(d->where);
    const OnnxNode* f = b.fusable_next(d->outputs[0]);
    if (is_power_of_two(c) && f && f->op == "Floor") {
      p.shift_sum = log2_exact(c);
      b.claim(d->index);
      b.claim(f->index);
      fused.push_back("Div");
      fused.push_back("Floor");
      s.from = f->outputs[0];
    }
  }
  const ChainResult r = match_int_chain(b, s);
  if (ql) {
    p.rq = ql_rq;
    p.rq.lo = r.rq.lo;
    p.rq.hi = r.rq.hi;
  } else {
    p.rq = r.rq;
  }
  fused.insert(fused.end(), r.ops.begin(), r.ops.end());
  const int out = b.new_tensor(r.out, dtype_for_range(p.rq.lo, p.rq.hi), out_shape);
  b.emit(make_node(n, p, {x1, x2}, out, fused));
  b.set_real(r.out, out);
}

void import_mul(Builder& b, const OnnxNode& n) {
  if (n.n_in() != 2 || n.outputs.size() != 1) n.fail("Mul needs two inputs and one output");
  const bool c0 = b.is_const(n.in(0)), c1 = b.is_const(n.in(1));
  if (!c0 && !c1) return import_runtime_mul(b, n);
  if (c0 == c1) {
    throw ImportError(b.model.path + ": unsupported op 'Mul' at node '" + n.name + "' (" +
                      "of two constants; constant folding is not supported)");
  }
  const std::string& xname = c0 ? n.in(1) : n.in(0);
  const ConstTensor& c = b.constant(c0 ? n.in(0) : n.in(1), n);
  const Value* xv = b.value(xname);
  const auto& users = b.model.users(n.outputs[0]);
  if (c.numel() == 1 && xv && xv->kind == Value::Kind::Real && users.size() == 1 && !b.model.is_output(n.outputs[0])) {
    const OnnxNode& add = b.model.nodes[static_cast<size_t>(users[0])];
    if (add.op == "Add" && add.n_in() == 2 && !b.is_const(add.in(0)) && !b.is_const(add.in(1)) &&
        !has_quantlab_attrs(add)) {
      Value v;
      v.kind = Value::Kind::Scaled;
      v.tid = xv->tid;
      v.factor = c.scalar_int(n.where);
      b.set_value(n.outputs[0], v);
      return;
    }
  }
  import_requant_chain(b, n);
}

void import_requant_chain(Builder& b, const OnnxNode& n) {
  if (n.outputs.size() != 1) n.fail("expects one output");
  std::string xname;
  for (size_t i = 0; i < n.n_in() && xname.empty(); ++i)
    if (!n.inputs[i].empty() && !b.is_const(n.inputs[i])) xname = n.inputs[i];
  if (xname.empty()) n.fail("operates on constants only (constant folding is not supported)");
  if (is_dequant(b, xname)) n.fail(n.op + " on dequantized (float) tensors is not supported");
  const int x = int_input(b, xname, n);
  ChainStart s;
  s.anchor = &n;
  s.from = xname;
  s.shape = b.desc(x).shape;
  s.first = &n;
  s.lo = b.lo_of(x);
  s.hi = b.hi_of(x);
  const ChainResult r = match_int_chain(b, s);
  int out;
  if (r.rq.kind == Requant::Kind::None) {
    ClipParams p;
    p.lo = r.rq.lo;
    p.hi = r.rq.hi;
    const int64_t lo = std::max(p.lo, b.lo_of(x)), hi = std::min(p.hi, b.hi_of(x));
    if (lo > hi) n.fail("clip range excludes every value of the input type");
    out = b.new_tensor(r.out, dtype_for_range(lo, hi), s.shape);
    if (b.inferred(x)) b.mark_inferred(out);
    b.emit(make_node(n, p, {x}, out, r.ops));
  } else if (b.graph.dialect == "deeploy" && is_identity_requant(r.rq, b.lo_of(x), b.hi_of(x))) {
    out = x;   // unity RequantShift (Deeploy's SkipUnityRequantPass): the tensor passes through
  } else {
    RequantParams p;
    p.rq = r.rq;
    out = b.new_tensor(r.out, dtype_for_range(p.rq.lo, p.rq.hi), s.shape);
    b.emit(make_node(n, p, {x}, out, r.ops));
  }
  b.set_real(r.out, out);
}

}  // namespace edgesim::frontend
