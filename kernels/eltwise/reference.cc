// Reference element-wise kernels: Add (every dialect's residual add, AddParams), Mul, Clip and
// a standalone Requant. Binary ops broadcast with NumPy rules onto the output shape; the
// requant channel is the element's position along rq.axis of the OUTPUT tensor.
#include <stdexcept>
#include <string>

#include "kernels/core/shape_rules.h"
#include "kernels/reference.h"

namespace edgesim {

namespace {

void check_binary(const char* op, const View& a, const View& b, const View& y) {
  const Shape s = broadcast_shapes(a.shape, b.shape);
  if (s != y.shape)
    throw std::invalid_argument(std::string(op) + ": output shape " + shape_str(y.shape) +
                                ", expected " + shape_str(s) + " from " + shape_str(a.shape) +
                                " and " + shape_str(b.shape));
}

void check_unary(const char* op, const View& x, const View& y) {
  if (x.shape != y.shape)
    throw std::invalid_argument(std::string(op) + ": output shape " + shape_str(y.shape) +
                                " differs from input " + shape_str(x.shape));
}

// Operand values of a binary op, expanded to the output's element order.
std::vector<int64_t> expanded(const View& v, const Shape& out) {
  const std::vector<int64_t> vals = v.to_ints();
  if (v.shape == out) return vals;
  const std::vector<int64_t> src = broadcast_source_index(v.shape, out);
  std::vector<int64_t> r(src.size());
  for (size_t i = 0; i < src.size(); ++i) r[i] = vals[src[i]];
  return r;
}

void check_shift(int64_t s, const char* what) {
  if (s < 0 || s > 62) throw std::invalid_argument(std::string("add: ") + what + " out of range: " + std::to_string(s));
}

}  // namespace

void add_reference(const AddParams& p, const View& a, const View& b, const View& y, ArithMode mode) {
  check_binary("add", a, b, y);
  check_shift(p.shift1, "shift1");
  check_shift(p.shift2, "shift2");
  check_shift(p.shift_sum, "shift_sum");
  const AxisIndex chan(y.shape, p.rq.axis);
  p.rq.validate(chan.dim);
  const std::vector<int64_t> x1 = expanded(a, y.shape), x2 = expanded(b, y.shape);
  std::vector<int64_t> out(x1.size());
  for (size_t i = 0; i < out.size(); ++i) {
    const int64_t t1 = (x1[i] * p.mul1 + p.add1) >> p.shift1;
    const int64_t t2 = (x2[i] * p.mul2 + p.add2) >> p.shift2;
    out[i] = p.rq.apply((t1 + t2) >> p.shift_sum, chan(static_cast<int64_t>(i)), mode);
  }
  store_ints_checked(y, out);
}

void mul_reference(const MulParams& p, const View& a, const View& b, const View& y, ArithMode mode) {
  check_binary("mul", a, b, y);
  const AxisIndex chan(y.shape, p.rq.axis);
  p.rq.validate(chan.dim);
  const std::vector<int64_t> x1 = expanded(a, y.shape), x2 = expanded(b, y.shape);
  std::vector<int64_t> out(x1.size());
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = p.rq.apply(x1[i] * x2[i], chan(static_cast<int64_t>(i)), mode);
  store_ints_checked(y, out);
}

void clip_reference(const ClipParams& p, const View& x, const View& y) {
  check_unary("clip", x, y);
  if (p.lo > p.hi) throw std::invalid_argument("clip: lo " + std::to_string(p.lo) + " > hi " + std::to_string(p.hi));
  std::vector<int64_t> v = x.to_ints();
  for (int64_t& e : v) e = clamp64(e, p.lo, p.hi);
  store_ints_checked(y, v);
}

void requant_reference(const RequantParams& p, const View& x, const View& y, ArithMode mode) {
  check_unary("requant", x, y);
  const AxisIndex chan(y.shape, p.rq.axis);
  p.rq.validate(chan.dim);
  std::vector<int64_t> v = x.to_ints();
  for (size_t i = 0; i < v.size(); ++i) v[i] = p.rq.apply(v[i], chan(static_cast<int64_t>(i)), mode);
  store_ints_checked(y, v);
}

}  // namespace edgesim
