// Matching and folding of integer requant chains (see requant_chain.h). The chain is walked
// forward from the fused op's output while each tensor has a single consumer; every accepted
// node updates an affine state (k·acc + λ)·mul, then an optional divisor (Div or
// RequantShift) and clamps. The folding keeps the canonical meaning exactly:
//   Mul(c)   scalar: mul *= c            vector: k *= c, λ *= c
//   Add(c)   λ += c   (after first pushing mul into k and λ, so that the order is kept)
//   Div(d)   floor division by d; shift = round(log2 d); d kept as `div` unless a power of 2
//   RequantShift(m, a, D): k *= m, λ = λ·m + a, shift = log2 D, r = D/2, clamp to n_levels
//   Clip / Relu: narrow [lo, hi]; after a clamp only Cast, Floor and further clamps may follow.
#include "compiler/frontend/requant_chain.h"

#include <algorithm>
#include <cmath>

namespace edgesim::frontend {

bool is_power_of_two(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

int log2_exact(int64_t v) {
  int s = 0;
  while ((int64_t{1} << s) < v) ++s;
  return s;
}

namespace {

int64_t mul_checked(int64_t a, int64_t b, const OnnxNode& n) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) n.fail("requant constants overflow 64 bits while folding");
  return r;
}

int64_t add_checked(int64_t a, int64_t b, const OnnxNode& n) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) n.fail("requant constants overflow 64 bits while folding");
  return r;
}

struct Affine {
  std::vector<int64_t> k{1}, lam{0};
  int axis = -1;
  int64_t mul = 1;

  // Brings a vector of size 1 or n to the common channel count.
  void adopt(const AxisInts& c, const OnnxNode& n, int required_axis) {
    if (c.axis < 0) return;
    if (required_axis != -2 && c.axis != required_axis)
      n.fail("per-channel constant varies along axis " + std::to_string(c.axis) + ", expected axis " +
             std::to_string(required_axis));
    if (axis >= 0 && axis != c.axis)
      n.fail("per-channel constants vary along different axes (" + std::to_string(axis) + " and " +
             std::to_string(c.axis) + ")");
    axis = c.axis;
    const size_t len = c.v.size();
    if (k.size() == 1) k.assign(len, k[0]);
    if (lam.size() == 1) lam.assign(len, lam[0]);
  }
  static int64_t at(const std::vector<int64_t>& v, size_t i) { return v.size() == 1 ? v[0] : v[i]; }
  void scale(const AxisInts& c, const OnnxNode& n, int ra) {
    adopt(c, n, ra);
    for (size_t i = 0; i < k.size(); ++i) k[i] = mul_checked(k[i], at(c.v, i), n);
    for (size_t i = 0; i < lam.size(); ++i) lam[i] = mul_checked(lam[i], at(c.v, i), n);
  }
  void push_mul(const OnnxNode& n) {
    if (mul == 1) return;
    for (auto& x : k) x = mul_checked(x, mul, n);
    for (auto& x : lam) x = mul_checked(x, mul, n);
    mul = 1;
  }
  void add(const AxisInts& c, const OnnxNode& n, int ra) {
    push_mul(n);
    adopt(c, n, ra);
    for (size_t i = 0; i < lam.size(); ++i) lam[i] = add_checked(lam[i], at(c.v, i), n);
  }
};

// The constant operand of a binary op whose other operand is `cur`; nullptr if none.
const ConstTensor* const_operand(Builder& b, const OnnxNode& n, const std::string& cur) {
  if (n.n_in() != 2) return nullptr;
  const std::string& a = n.inputs[0];
  const std::string& c = n.inputs[1];
  if (a == cur && b.is_const(c)) return b.model.find_const(c);
  if (c == cur && b.is_const(a)) return b.model.find_const(a);
  return nullptr;
}

bool is_identity_cast(const OnnxNode& n) {
  const int64_t to = n.get_int("to", 0);
  return to == kFloat || to == kDouble || to == kInt32 || to == kInt64 || to == kFloat16;
}

bool is_half(const ConstTensor& c) {
  const auto v = c.as_doubles();
  return v.size() == 1 && v[0] == 0.5;
}

}  // namespace

int64_t true_integer_div_factor(const OnnxNode& n) {
  for (const char* a : {"Delta", "eps", "eta", "y"})
    if (!n.has(a)) n.fail(std::string("missing attribute '") + a + "'");
  const int64_t delta = n.get_int("Delta", 0), eps = n.get_int("eps", 0), eta = n.get_int("eta", 0),
                y = n.get_int("y", 0);
  const int64_t den = mul_checked(y, eta, n) + eps;
  if (den <= 0)
    n.fail("unsupported attribute values y=" + std::to_string(y) + ", eta=" + std::to_string(eta) + ", eps=" +
           std::to_string(eps) + " (the divisor y·eta + eps must be positive)");
  return floor_div(mul_checked(delta, eta, n), den);
}

bool is_identity_requant(const Requant& rq, int64_t lo, int64_t hi) {
  if (rq.kind != Requant::Kind::Integer || rq.div != 0 || rq.shift < 0 || rq.shift > 62) return false;
  if (rq.lo > lo || rq.hi < hi) return false;
  const int64_t one = int64_t{1} << rq.shift;
  for (size_t c = 0; c < std::max(rq.k.size(), rq.lambda.size()); ++c) {
    const int64_t k = rq.k[rq.k.size() == 1 ? 0 : c], lam = rq.lambda[rq.lambda.size() == 1 ? 0 : c];
    int64_t slope = 0, off = 0;
    if (__builtin_mul_overflow(k, rq.mul, &slope) || __builtin_mul_overflow(lam, rq.mul, &off)) return false;
    if (slope != one || off + rq.round < 0 || off + rq.round >= one) return false;
  }
  return true;
}

void clip_bounds(Builder& b, const OnnxNode& n, int64_t& lo, int64_t& hi) {
  double mn = -INFINITY, mx = INFINITY;
  if (n.has("min") || n.has("max")) {
    mn = n.get_float("min", -INFINITY);
    mx = n.get_float("max", INFINITY);
  }
  if (!n.in(1).empty()) mn = b.constant(n.in(1), n).scalar_double(n.where);
  if (!n.in(2).empty()) mx = b.constant(n.in(2), n).scalar_double(n.where);
  auto to_int = [&](double v, int64_t inf) -> int64_t {
    if (std::isinf(v) || std::fabs(v) >= 9.0e18) return inf;
    if (v != std::floor(v)) n.fail("Clip bound " + std::to_string(v) + " is not an integer");
    return static_cast<int64_t>(v);
  };
  lo = std::max(lo, to_int(mn, INT64_MIN));
  hi = std::min(hi, to_int(mx, INT64_MAX));
  if (lo > hi) n.fail("Clip range is empty");
}

Requant requant_shift_params(Builder& b, const OnnxNode& n, const Shape& shape) {
  if (n.n_in() != 3) n.fail("RequantShift needs inputs (x, mul, add)");
  Requant rq;
  rq.kind = Requant::Kind::Integer;
  const AxisInts m = axis_ints(b.constant(n.in(1), n), shape, n);
  const AxisInts a = axis_ints(b.constant(n.in(2), n), shape, n);
  if (m.axis >= 0 && a.axis >= 0 && m.axis != a.axis)
    n.fail("RequantShift mul and add vary along different axes");
  rq.axis = m.axis >= 0 ? m.axis : a.axis;
  const size_t len = std::max(m.v.size(), a.v.size());
  rq.k = m.v.size() == len ? m.v : std::vector<int64_t>(len, m.v[0]);
  rq.lambda = a.v.size() == len ? a.v : std::vector<int64_t>(len, a.v[0]);
  if (!n.has("div")) n.fail("RequantShift without attribute 'div'");
  const int64_t div = n.get_int("div", 1);
  if (!is_power_of_two(div)) n.fail("RequantShift div=" + std::to_string(div) + " is not a power of two");
  rq.shift = log2_exact(div);
  rq.round = div / 2;
  const int64_t levels = n.has("n_levels_out") ? n.get_int("n_levels_out", 256) : n.get_int("n_levels", 256);
  if (levels < 2 || levels > (int64_t{1} << 32)) n.fail("RequantShift n_levels=" + std::to_string(levels) + " out of range");
  const bool is_signed = n.get_int("signed", 1) != 0;
  rq.lo = is_signed ? -levels / 2 : 0;
  rq.hi = is_signed ? levels / 2 - 1 : levels - 1;
  return rq;
}

namespace {

// The walk of match_int_chain: the affine state and the divisor, clamps and rounding the
// accepted nodes have folded so far.
struct ChainWalk {
  ChainWalk(Builder& builder, const ChainStart& start)
      : b(builder), s(start), clamped(s.saturated), lo(s.saturated ? s.lo : INT64_MIN),
        hi(s.saturated ? s.hi : INT64_MAX) {}

  Builder& b;
  const ChainStart& s;
  Affine st;
  bool affine = false, has_div = false, clamped, took_bias = false;
  int64_t div = 0, round = 0;
  int shift = 0;
  int64_t lo, hi;
  // ONNX Div of integer tensors truncates, of float tensors it leaves fractions: a Div must be
  // an integer division (after a Cast to int) followed by a clamp at >= 0 (so that trunc equals
  // the floor edgesim uses), or a float division that a Floor (or a Cast to int) completes.
  enum class DivMode { None, Fraction, Floor, Trunc } dmode = DivMode::None;
  bool int_domain = false;
  const OnnxNode* div_node = nullptr;

  // Folds node n, whose first input is the chain's tensor `cur`; false when it does not fit.
  bool accept(const OnnxNode& n, const std::string& cur) {
    const std::string& op = n.op;
    if (op == "Cast") return take_cast(n);
    if (op == "Floor") {
      if (n.n_in() == 1 && dmode == DivMode::Fraction) dmode = DivMode::Floor;
      return n.n_in() == 1;
    }
    if (op == "Relu") {
      const bool ok = n.n_in() == 1 && n.inputs[0] == cur;
      if (ok) { lo = std::max<int64_t>(lo, 0); clamped = true; }
      return ok;
    }
    if (op == "Clip") {
      const bool ok = n.inputs[0] == cur;
      if (ok) { clip_bounds(b, n, lo, hi); clamped = true; }
      return ok;
    }
    if (op == "Mul" && !clamped && !has_div) return take_mul(n, cur);
    if (op == "Add" && !clamped && dmode == DivMode::Fraction && round == 0 && is_power_of_two(div))
      return take_round_half(n, cur);
    if (op == "Add" && !clamped && !has_div) return take_add(n, cur);
    if (op == "Div" && !clamped && !has_div && n.n_in() == 2 && n.inputs[0] == cur && b.is_const(n.inputs[1]))
      return take_div(n);
    if (op == "TrueIntegerDiv" && !clamped && !has_div && n.n_in() == 1) {
      // y = x · ⌊Δ·η / (y·η + ε)⌋ (docs/dialects.md, "Deeploy transformer ops"): a scalar
      // multiplier, merged into the following RequantShift as Deeploy's
      // MergeTrueIntegerDivRequantShiftPass does.
      st.mul = mul_checked(st.mul, true_integer_div_factor(n), n);
      affine = true;
      return true;
    }
    if (op == "RequantShift" && !clamped && !has_div && n.inputs[0] == cur) return take_requant_shift(n);
    return false;
  }

  bool take_cast(const OnnxNode& n) {
    const bool ok = n.n_in() == 1 && is_identity_cast(n);
    const int64_t to = n.get_int("to", 0);
    if (ok) int_domain = to == kInt32 || to == kInt64;
    if (ok && int_domain && dmode == DivMode::Fraction) dmode = DivMode::Trunc;
    return ok;
  }

  bool take_mul(const OnnxNode& n, const std::string& cur) {
    const ConstTensor* c = const_operand(b, n, cur);
    if (!c) return false;
    const AxisInts v = axis_ints(*c, s.shape, n);
    if (v.axis < 0) st.mul = mul_checked(st.mul, v.v[0], n);
    else st.scale(v, n, s.required_axis);
    affine = true;
    return true;
  }

  // QuantLab rounding variant: Div(2^q) → Add(0.5) → Floor (docs/dialects.md, "QuantLab").
  bool take_round_half(const OnnxNode& n, const std::string& cur) {
    const ConstTensor* c = const_operand(b, n, cur);
    const OnnxNode* nx = b.fusable_next(n.outputs[0]);
    if (!(c && is_half(*c) && nx && nx->op == "Floor" && shift > 0)) return false;
    round = int64_t{1} << (shift - 1);
    return true;
  }

  bool take_add(const OnnxNode& n, const std::string& cur) {
    const ConstTensor* c = const_operand(b, n, cur);
    if (!c) return false;
    if (!affine && !took_bias && s.take_bias && s.take_bias(*c, n)) {
      took_bias = true;
    } else {
      st.add(axis_ints(*c, s.shape, n), n, s.required_axis);
      affine = true;
    }
    return true;
  }

  bool take_div(const OnnxNode& n) {
    const int64_t d = b.constant(n.inputs[1], n).scalar_int(n.where);
    if (d <= 0) n.fail("requant divisor " + std::to_string(d) + " must be positive");
    div = d;
    shift = static_cast<int>(std::lround(std::log2(static_cast<double>(d))));
    dmode = int_domain ? DivMode::Trunc : DivMode::Fraction;
    div_node = &n;
    has_div = affine = true;
    return true;
  }

  bool take_requant_shift(const OnnxNode& n) {
    const Requant r = requant_shift_params(b, n, s.shape);
    st.push_mul(n);
    st.scale(AxisInts{r.k, r.axis}, n, s.required_axis);
    st.add(AxisInts{r.lambda, r.axis}, n, s.required_axis);
    shift = r.shift;
    round = r.round;
    div = int64_t{1} << shift;
    lo = std::max(lo, r.lo);
    hi = std::min(hi, r.hi);
    has_div = affine = clamped = true;
    return true;
  }

  // The folded requant; throws when the clamps leave no range or a Div is not completed.
  void finish(Requant& rq) const {
    // Output range: the chain input's range (raw) or int32 (requantised), narrowed by clamps.
    rq.lo = affine ? kI32Min : s.lo;
    rq.hi = affine ? kI32Max : s.hi;
    if (clamped) {
      rq.lo = std::max(rq.lo, lo);
      rq.hi = std::min(rq.hi, hi);
    }
    if (rq.lo > rq.hi) s.anchor->fail("requant clamp range is empty");
    if (dmode == DivMode::Fraction)
      div_node->fail("Div of float values must be followed by Floor (the result would not be an integer)");
    if (dmode == DivMode::Trunc && !(clamped && lo >= 0))
      div_node->fail("integer Div truncates toward zero; it is only imported when a clamp at 0 or above follows "
                     "(then truncation equals the floor division edgesim uses)");
    if (!affine) return;   // Kind::None
    rq.kind = Requant::Kind::Integer;
    rq.axis = st.axis;
    rq.k = st.k;
    rq.lambda = st.lam;
    rq.mul = st.mul;
    rq.shift = shift;
    rq.round = round;
    rq.div = has_div && !is_power_of_two(div) ? div : 0;
  }
};

}  // namespace

ChainResult match_int_chain(Builder& b, const ChainStart& s) {
  ChainResult res;
  res.out = s.from;
  ChainWalk w(b, s);
  std::string cur = s.from;
  const OnnxNode* forced = s.first;
  while (true) {
    const OnnxNode* np = forced ? forced : b.fusable_next(cur);
    if (!np) break;
    const OnnxNode& n = *np;
    const bool first = forced != nullptr;
    forced = nullptr;
    if (!(n.domain.empty() || n.domain == "ai.onnx" || n.domain == "ai.onnx.contrib")) break;
    if (n.outputs.size() != 1 || n.n_in() == 0 || n.inputs[0].empty()) break;
    if (!w.accept(n, cur)) {
      if (first) n.fail("cannot import this " + n.op + " node as a requantisation step");
      break;
    }
    b.claim(n.index);
    res.ops.push_back(n.op);
    cur = n.outputs[0];
  }
  res.out = cur;
  w.finish(res.rq);
  return res;
}

}  // namespace edgesim::frontend
