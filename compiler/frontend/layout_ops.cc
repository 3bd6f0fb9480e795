// Layout ops and identities.
//   Pad: a chain of constant-0 Pads feeding a Conv or pool merges into that op's pads
//        (H/W only; N/C padding there is an error; docs/dialects.md "NEMO", P6); all-zero Pads are
//        identities; anything else becomes a Pad node.
//   Reshape / Flatten / Squeeze / Unsqueeze -> Reshape node (NCHW kept, ONNX element order);
//   Transpose -> Transpose; Concat -> Concat (negative axis normalised).
//   Cast, Floor, Identity, Dropout on integer values -> no node (the value is aliased).
// Reshape-like ops and Transpose on a per-tensor DequantizeLinear output move to the integer
// side, so QDQ graphs keep Q → Flatten → DQ and DQ → Flatten → Q chains integer.
#include <cmath>

#include "compiler/frontend/handlers.h"
#include "compiler/frontend/shape_infer.h"

namespace edgesim::frontend {

namespace {

struct PadSpec {
  std::vector<int64_t> pads;
  int64_t value = 0;
};

PadSpec pad_spec(Builder& b, const OnnxNode& n, size_t rank) {
  PadSpec s;
  const std::string mode = n.get_string("mode", "constant");
  if (mode != "constant") n.fail("unsupported attribute mode=" + mode + " (only constant)");
  if (n.has("pads")) s.pads = n.get_ints("pads", {});
  else if (!n.in(1).empty()) s.pads = b.constant(n.in(1), n).as_ints(n.where);
  else n.fail("missing pads");
  if (!n.in(3).empty()) n.fail("Pad with an axes input is not supported");
  double v = n.get_float("value", 0.0);
  if (!n.in(2).empty()) v = b.constant(n.in(2), n).scalar_double(n.where);
  // Range first: converting a double beyond int64 (or NaN) is undefined (found by fuzzing).
  if (!(std::fabs(v) < 0x1p62) || v != std::trunc(v)) n.fail("pad value must be an integer (|value| < 2^62)");
  s.value = static_cast<int64_t>(v);
  if (s.pads.size() != 2 * rank)
    n.fail(std::to_string(s.pads.size()) + " pads for an input of rank " + std::to_string(rank));
  for (int64_t p : s.pads)
    if (p < 0) n.fail("negative pads (cropping) are not supported");
  return s;
}

bool all_zero(const std::vector<int64_t>& v) {
  for (int64_t x : v)
    if (x) return false;
  return true;
}

// Reshape-like op on a real tensor or a per-tensor Dequant value.
void reshape_to(Builder& b, const OnnxNode& n, const Shape& out_shape, std::vector<std::string> fused) {
  const std::string& in = n.in(0);
  if (Value* v = b.value(in); v && v->kind == Value::Kind::Dequant && v->axis < 0) {
    const Value dq = *v;
    const int src = b.real(dq.src, n);
    const std::string qname = n.outputs[0] + "#q";
    const int out = b.new_tensor(qname, b.desc(src).dtype, out_shape);
    b.emit(make_node(n, ReshapeParams{}, {src}, out, fused));
    b.set_real(qname, out);
    Value nv = dq;
    nv.src = qname;
    b.set_value(n.outputs[0], nv);
    return;
  }
  const int x = int_input(b, in, n);
  const int out = b.new_tensor(n.outputs[0], b.vtype(x), out_shape);
  if (b.inferred(x)) b.mark_inferred(out);
  b.emit(make_node(n, ReshapeParams{}, {x}, out, fused));
  b.set_real(n.outputs[0], out);
}

}  // namespace

void import_pad(Builder& b, const OnnxNode& n) {
  if (n.n_in() < 1 || n.outputs.size() != 1) n.fail("Pad needs an input and one output");
  const Shape xs = b.shape_of(n.in(0), n);
  const PadSpec first = pad_spec(b, n, xs.size());
  const size_t r = xs.size();

  // Follow single-consumer Pads to a Conv / pool that can absorb them.
  std::vector<int64_t> total = first.pads;
  std::vector<const OnnxNode*> chain{&n};
  bool zero_value = first.value == 0;
  std::string cur = n.outputs[0];
  const OnnxNode* consumer = nullptr;
  while (const OnnxNode* nx = b.fusable_next(cur)) {
    if (nx->op == "Pad" && nx->in(0) == cur) {
      const PadSpec s = pad_spec(b, *nx, r);
      zero_value = zero_value && (s.value == 0 || all_zero(s.pads));
      for (size_t i = 0; i < total.size(); ++i) total[i] += s.pads[i];
      chain.push_back(nx);
      cur = nx->outputs[0];
      continue;
    }
    if ((nx->op == "Conv" || nx->op == "MaxPool" || nx->op == "AveragePool") && nx->in(0) == cur) consumer = nx;
    break;
  }
  const Value* xv = b.value(n.in(0));
  const bool int_src = b.is_const(n.in(0)) || (xv && xv->kind == Value::Kind::Real);
  if (consumer && int_src && zero_value && (r == 3 || r == 4)) {
    const int x = int_input(b, n.in(0), n);
    const bool max_ok = consumer->op != "MaxPool" || b.lo_of(x) >= 0;   // zero pad = real zeros
    if (max_ok) {
      if (total[0] || total[1] || total[r] || total[r + 1])
        n.fail("pads the N or C axis and cannot merge into " + consumer->op + " '" + consumer->name + "'");
      PendingPad pp;
      pp.src = n.in(0);
      if (r == 4) { pp.t = total[2]; pp.l = total[3]; pp.b = total[6]; pp.r = total[7]; }
      else { pp.l = total[2]; pp.r = total[5]; }
      for (const OnnxNode* p : chain) {
        b.claim(p->index);
        pp.ops.push_back("Pad");
      }
      b.pending_pads[consumer->index] = pp;
      return;
    }
  }
  if (all_zero(first.pads)) {   // identity
    if (const Value* v = b.value(n.in(0))) b.set_value(n.outputs[0], *v);
    else b.set_real(n.outputs[0], b.real(n.in(0), n));
    return;
  }
  const int x = int_input(b, n.in(0), n);
  PadParams p;
  p.pads = first.pads;
  p.value = first.value;
  Shape os = xs;
  for (size_t i = 0; i < r; ++i) os[i] += first.pads[i] + first.pads[i + r];
  const DType dt = dtype_for_range(std::min(b.lo_of(x), p.value), std::max(b.hi_of(x), p.value));
  const int out = b.new_tensor(n.outputs[0], dt, os);
  if (b.inferred(x)) b.mark_inferred(out);
  b.emit(make_node(n, p, {x}, out, {"Pad"}));
  b.set_real(n.outputs[0], out);
}

void import_concat(Builder& b, const OnnxNode& n) {
  if (n.n_in() < 1 || n.outputs.size() != 1) n.fail("Concat needs inputs and one output");
  std::vector<int> ins;
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (const auto& i : n.inputs) {
    if (i.empty()) continue;
    if (is_dequant(b, i)) n.fail("Concat of dequantized (float) tensors is not supported");
    ins.push_back(int_input(b, i, n));
    lo = std::min(lo, b.lo_of(ins.back()));
    hi = std::max(hi, b.hi_of(ins.back()));
  }
  const Shape& s0 = b.desc(ins[0]).shape;
  ConcatParams p;
  if (!n.has("axis")) n.fail("missing attribute axis");
  p.axis = norm_axis(n.get_int("axis", 0), static_cast<int64_t>(s0.size()), n);
  Shape os = s0;
  os[static_cast<size_t>(p.axis)] = 0;
  for (int t : ins) {
    const Shape& s = b.desc(t).shape;
    if (s.size() != s0.size()) n.fail("inputs differ in rank");
    for (size_t d = 0; d < s.size(); ++d)
      if (static_cast<int64_t>(d) != p.axis && s[d] != s0[d])
        n.fail("input shapes " + shape_str(s0) + " and " + shape_str(s) + " differ off the concat axis");
    os[static_cast<size_t>(p.axis)] += s[static_cast<size_t>(p.axis)];
  }
  // Empty operands (the zero-length KV caches of Deeploy's *_parallel graphs) contribute nothing;
  // with one operand left the Concat is that tensor (Deeploy's SkipEmptyConcatPass).
  std::vector<int> kept;
  for (int t : ins)
    if (shape_numel(b.desc(t).shape) > 0) kept.push_back(t);
  if (kept.size() == 1 && ins.size() > 1) {
    b.set_real(n.outputs[0], kept[0]);
    return;
  }
  if (!kept.empty()) {
    ins = kept;
    lo = INT64_MAX, hi = INT64_MIN;
    for (int t : ins) lo = std::min(lo, b.lo_of(t)), hi = std::max(hi, b.hi_of(t));
  }
  const int out = b.new_tensor(n.outputs[0], dtype_for_range(lo, hi), os);
  for (int t : ins)
    if (b.inferred(t)) b.mark_inferred(out);
  b.emit(make_node(n, p, ins, out, {"Concat"}));
  b.set_real(n.outputs[0], out);
}

void import_reshape(Builder& b, const OnnxNode& n) {
  if (n.n_in() < 1 || n.outputs.size() != 1) n.fail("expects an input and one output");
  const Shape xs = b.shape_of(n.in(0), n);
  Shape os;
  if (n.op == "Flatten") {
    os = flatten_shape(xs, n.get_int("axis", 1), n);
  } else if (n.op == "Reshape") {
    std::vector<int64_t> spec;
    if (!n.in(1).empty()) spec = b.constant(n.in(1), n).as_ints(n.where);
    else if (n.has("shape")) spec = n.get_ints("shape", {});
    else n.fail("missing target shape");
    os = reshape_shape(xs, spec, n.get_int("allowzero", 0) != 0, n);
  } else {
    std::vector<int64_t> axes = n.get_ints("axes", {});
    if (!n.in(1).empty()) axes = b.constant(n.in(1), n).as_ints(n.where);
    os = n.op == "Squeeze" ? squeeze_shape(xs, axes, n) : unsqueeze_shape(xs, axes, n);
  }
  reshape_to(b, n, os, {n.op});
}

void import_transpose(Builder& b, const OnnxNode& n) {
  if (n.n_in() != 1 || n.outputs.size() != 1) n.fail("Transpose needs one input and one output");
  const int x = int_input(b, n.in(0), n);
  const Shape& xs = b.desc(x).shape;
  TransposeParams p;
  for (size_t i = xs.size(); i > 0; --i) p.perm.push_back(static_cast<int64_t>(i - 1));
  p.perm = n.get_ints("perm", p.perm);
  if (p.perm.size() != xs.size()) n.fail("perm has " + std::to_string(p.perm.size()) + " entries for rank " + std::to_string(xs.size()));
  Shape os(xs.size());
  std::vector<bool> seen(xs.size(), false);
  for (size_t d = 0; d < p.perm.size(); ++d) {
    const int64_t a = p.perm[d];
    if (a < 0 || a >= static_cast<int64_t>(xs.size()) || seen[static_cast<size_t>(a)]) n.fail("perm is not a permutation");
    seen[static_cast<size_t>(a)] = true;
    os[d] = xs[static_cast<size_t>(a)];
  }
  const int out = b.new_tensor(n.outputs[0], b.vtype(x), os);
  if (b.inferred(x)) b.mark_inferred(out);
  b.emit(make_node(n, p, {x}, out, {"Transpose"}));
  b.set_real(n.outputs[0], out);
}

void import_identity(Builder& b, const OnnxNode& n) {
  if (n.n_in() < 1 || n.outputs.empty()) n.fail("expects an input and an output");
  if (is_dequant(b, n.in(0)) && n.op != "Identity" && n.op != "Dropout")
    n.fail(n.op + " on dequantized (float) tensors is not supported");
  if (n.op == "Cast") {   // only casts that cannot change an integer value are identities
    const int64_t to = n.get_int("to", 0);
    const Value* v = b.value(n.in(0));
    if (!is_real_type(static_cast<int>(to)) && v && v->kind == Value::Kind::Real) {
      int64_t lo = 0, hi = 0;
      switch (to) {
        case kUint8: hi = 255; break;
        case kInt8: lo = -128; hi = 127; break;
        case kUint16: hi = 65535; break;
        case kInt16: lo = -32768; hi = 32767; break;
        case kInt32: lo = kI32Min; hi = kI32Max; break;
        case kInt64: lo = INT64_MIN; hi = INT64_MAX; break;
        default: n.fail("unsupported Cast target type " + std::string(onnx_type_name(static_cast<int>(to))));
      }
      if (b.lo_of(v->tid) < lo || b.hi_of(v->tid) > hi)
        n.fail(std::string("Cast to ") + onnx_type_name(static_cast<int>(to)) + " may change values of type " +
               dtype_name(b.vtype(v->tid)));
    }
  }
  if (const Value* v = b.value(n.in(0))) b.set_value(n.outputs[0], *v);
  else b.set_real(n.outputs[0], b.real(n.in(0), n));
}

}  // namespace edgesim::frontend
