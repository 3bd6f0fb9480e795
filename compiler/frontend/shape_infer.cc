// Shape inference of the imported ops (see shape_infer.h).
#include "compiler/frontend/shape_infer.h"

#include <algorithm>
#include <stdexcept>

#include "kernels/core/shape_rules.h"

namespace edgesim::frontend {

int64_t norm_axis(int64_t axis, int64_t rank, const OnnxNode& n) {
  const int64_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank) n.fail("axis " + std::to_string(axis) + " out of range for rank " + std::to_string(rank));
  return a;
}

Shape broadcast_or_fail(const Shape& a, const Shape& b, const OnnxNode& n) {
  try {
    return broadcast_shapes(a, b);
  } catch (const std::exception&) {
    n.fail("shapes " + shape_str(a) + " and " + shape_str(b) + " do not broadcast");
  }
}

Shape matmul_or_fail(const Shape& a, const Shape& b, bool ta, bool tb, const OnnxNode& n) {
  if (a.size() < 2 || b.size() < 2)
    n.fail("matrix operands must have rank >= 2, got " + shape_str(a) + " and " + shape_str(b));
  try {
    return matmul_output_shape(a, b, ta, tb);
  } catch (const std::exception&) {
    n.fail("matrix shapes " + shape_str(a) + " and " + shape_str(b) + " do not match");
  }
}

Shape conv_shape(const Shape& x, const Shape& w, const ConvParams& p, const OnnxNode& n) {
  if ((x.size() != 4 && x.size() != 3) || w.size() != x.size())
    n.fail("expects input and weight of rank 4 (or 3 for 1-D), got " + shape_str(x) + " and " + shape_str(w));
  const bool one_d = x.size() == 3;
  const int64_t cin = x[1], cout = w[0];
  if (p.groups < 1 || cin % p.groups != 0 || cout % p.groups != 0)
    n.fail("group=" + std::to_string(p.groups) + " does not divide input channels " + std::to_string(cin) +
           " and output channels " + std::to_string(cout));
  if (w[1] * p.groups != cin)
    n.fail("weight " + shape_str(w) + " needs " + std::to_string(cin / p.groups) + " input channels per group");
  const int64_t h = one_d ? 1 : x[2], wd = one_d ? x[2] : x[3];
  const int64_t kh = one_d ? 1 : w[2], kw = one_d ? w[2] : w[3];
  if (kh != p.kh || kw != p.kw) n.fail("kernel_shape does not match weight " + shape_str(w));
  const int64_t ho = ConvParams::out_size(h, p.kh, p.sh, p.dh, p.pad_t, p.pad_b);
  const int64_t wo = ConvParams::out_size(wd, p.kw, p.sw, p.dw, p.pad_l, p.pad_r);
  if (ho < 1 || wo < 1) n.fail("output would be empty for input " + shape_str(x));
  return one_d ? Shape{x[0], cout, wo} : Shape{x[0], cout, ho, wo};
}

Shape pool_shape(const Shape& x, const PoolParams& p, const OnnxNode& n) {
  if (x.size() != 4 && x.size() != 3) n.fail("expects an input of rank 4 (or 3 for 1-D), got " + shape_str(x));
  const bool one_d = x.size() == 3;
  if (p.global) return one_d ? Shape{x[0], x[1], 1} : Shape{x[0], x[1], 1, 1};
  const int64_t h = one_d ? 1 : x[2], w = one_d ? x[2] : x[3];
  const int64_t ho = pool_out_size(h, p.kh, p.sh, p.pad_t, p.pad_b, p.ceil_mode);
  const int64_t wo = pool_out_size(w, p.kw, p.sw, p.pad_l, p.pad_r, p.ceil_mode);
  if (ho < 1 || wo < 1) n.fail("output would be empty for input " + shape_str(x));
  return one_d ? Shape{x[0], x[1], wo} : Shape{x[0], x[1], ho, wo};
}

Shape reshape_shape(const Shape& in, const std::vector<int64_t>& spec, bool allowzero, const OnnxNode& n) {
  Shape out;
  int infer = -1;
  int64_t known = 1;
  for (size_t i = 0; i < spec.size(); ++i) {
    int64_t d = spec[i];
    if (d == 0 && !allowzero) {
      if (i >= in.size()) n.fail("shape entry 0 at axis " + std::to_string(i) + " has no input dimension to copy");
      d = in[i];
    }
    if (d == -1) {
      if (infer >= 0) n.fail("shape has more than one -1");
      infer = static_cast<int>(i);
      out.push_back(1);
      continue;
    }
    if (d < 0) n.fail("invalid shape entry " + std::to_string(d));
    out.push_back(d);
    // A product past int64 cannot equal the input's bounded element count (shape_numel(out)
    // below forms the same prefix products).
    if (__builtin_mul_overflow(known, d, &known))
      n.fail("cannot reshape " + shape_str(in) + " to " + shape_str(spec) + ": the element count overflows int64");
  }
  const int64_t total = shape_numel(in);
  if (infer >= 0) {
    if (known == 0 || total % known != 0)
      n.fail("cannot reshape " + shape_str(in) + " to " + shape_str(spec));
    out[static_cast<size_t>(infer)] = total / known;
  }
  if (shape_numel(out) != total) n.fail("cannot reshape " + shape_str(in) + " to " + shape_str(out));
  return out;
}

Shape flatten_shape(const Shape& in, int64_t axis, const OnnxNode& n) {
  const auto r = static_cast<int64_t>(in.size());
  const int64_t a = axis < 0 ? axis + r : axis;
  if (a < 0 || a > r) n.fail("Flatten axis " + std::to_string(axis) + " out of range for rank " + std::to_string(r));
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < r; ++i) (i < a ? outer : inner) *= in[static_cast<size_t>(i)];
  return {outer, inner};
}

Shape squeeze_shape(const Shape& in, const std::vector<int64_t>& axes, const OnnxNode& n) {
  const auto r = static_cast<int64_t>(in.size());
  std::vector<bool> drop(in.size(), false);
  if (axes.empty()) {
    for (size_t i = 0; i < in.size(); ++i) drop[i] = in[i] == 1;
  } else {
    for (int64_t a : axes) {
      const int64_t x = norm_axis(a, r, n);
      if (in[static_cast<size_t>(x)] != 1) n.fail("cannot squeeze axis " + std::to_string(a) + " of " + shape_str(in));
      drop[static_cast<size_t>(x)] = true;
    }
  }
  Shape out;
  for (size_t i = 0; i < in.size(); ++i)
    if (!drop[i]) out.push_back(in[i]);
  return out;
}

Shape unsqueeze_shape(const Shape& in, const std::vector<int64_t>& axes, const OnnxNode& n) {
  const auto r = static_cast<int64_t>(in.size() + axes.size());
  std::vector<bool> ins(static_cast<size_t>(r), false);
  for (int64_t a : axes) {
    const int64_t x = norm_axis(a, r, n);
    if (ins[static_cast<size_t>(x)]) n.fail("repeated Unsqueeze axis " + std::to_string(a));
    ins[static_cast<size_t>(x)] = true;
  }
  Shape out;
  size_t j = 0;
  for (int64_t i = 0; i < r; ++i) out.push_back(ins[static_cast<size_t>(i)] ? 1 : in[j++]);
  return out;
}

}  // namespace edgesim::frontend
