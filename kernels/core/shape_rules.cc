#include "kernels/core/shape_rules.h"

#include <stdexcept>
#include <string>

namespace edgesim {

Shape broadcast_shapes(const Shape& a, const Shape& b) {
  const size_t r = std::max(a.size(), b.size());
  Shape out(r, 1);
  for (size_t i = 0; i < r; ++i) {
    const int64_t da = i < r - a.size() ? 1 : a[i - (r - a.size())];
    const int64_t db = i < r - b.size() ? 1 : b[i - (r - b.size())];
    if (da != db && da != 1 && db != 1)
      throw std::invalid_argument("shapes " + shape_str(a) + " and " + shape_str(b) +
                                  " do not broadcast");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

std::vector<int64_t> broadcast_source_index(const Shape& in, const Shape& out) {
  if (in.size() > out.size()) throw std::invalid_argument("broadcast: input rank exceeds output rank");
  // Element stride of `in` per output axis; 0 where `in` is broadcast (size 1 or missing).
  const size_t lead = out.size() - in.size();
  const Shape in_strides = contiguous_strides(in);
  Shape st(out.size(), 0);
  for (size_t i = lead; i < out.size(); ++i) {
    const int64_t d = in[i - lead];
    if (d != 1 && d != out[i])
      throw std::invalid_argument("broadcast: " + shape_str(in) + " onto " + shape_str(out));
    st[i] = d == 1 ? 0 : in_strides[i - lead];
  }
  const int64_t n = shape_numel(out);
  std::vector<int64_t> r(static_cast<size_t>(n));
  std::vector<int64_t> idx(out.size(), 0);
  int64_t off = 0;
  for (int64_t k = 0; k < n; ++k) {
    r[static_cast<size_t>(k)] = off;
    for (int64_t d = static_cast<int64_t>(out.size()) - 1; d >= 0; --d) {
      if (++idx[d] < out[d]) { off += st[d]; break; }
      off -= (out[d] - 1) * st[d];
      idx[d] = 0;
    }
  }
  return r;
}

Shape matmul_output_shape(const Shape& a, const Shape& b, bool trans_a, bool trans_b) {
  if (a.empty() || b.empty()) throw std::invalid_argument("matmul operands must have rank >= 1");
  int64_t m = 1, ka, kb, n = 1;
  if (a.size() == 1) {
    ka = a[0];
  } else {
    m = trans_a ? a[a.size() - 1] : a[a.size() - 2];
    ka = trans_a ? a[a.size() - 2] : a[a.size() - 1];
  }
  if (b.size() == 1) {
    kb = b[0];
  } else {
    kb = trans_b ? b[b.size() - 1] : b[b.size() - 2];
    n = trans_b ? b[b.size() - 2] : b[b.size() - 1];
  }
  if (ka != kb)
    throw std::invalid_argument("matmul inner dimensions differ: " + shape_str(a) +
                                (trans_a ? "^T" : "") + " x " + shape_str(b) + (trans_b ? "^T" : ""));
  const Shape ba(a.begin(), a.end() - std::min<size_t>(a.size(), 2));
  const Shape bb(b.begin(), b.end() - std::min<size_t>(b.size(), 2));
  Shape out = broadcast_shapes(ba, bb);
  if (a.size() > 1) out.push_back(m);
  if (b.size() > 1) out.push_back(n);
  return out;
}

int64_t pool_out_size(int64_t in, int64_t k, int64_t stride, int64_t pb, int64_t pe, bool ceil_mode) {
  const int64_t span = in + pb + pe - k;
  if (span < 0 || stride <= 0) return 0;
  if (!ceil_mode) return span / stride + 1;
  int64_t out = (span + stride - 1) / stride + 1;
  if ((out - 1) * stride >= in + pb) --out;   // last window must start inside input or begin pad
  return out;
}

AxisIndex::AxisIndex(const Shape& s, int64_t axis) {
  if (axis < 0) return;
  if (axis >= static_cast<int64_t>(s.size()))
    throw std::invalid_argument("axis " + std::to_string(axis) + " out of range for shape " + shape_str(s));
  dim = s[axis];
  for (size_t i = axis + 1; i < s.size(); ++i) inner *= s[i];
}

View view_4d(const View& v) {
  if (v.rank() != 3) return v;
  View r = v;
  r.shape = {v.shape[0], v.shape[1], 1, v.shape[2]};
  r.strides = {v.strides[0], v.strides[1], v.shape[2] * v.strides[2], v.strides[2]};
  return r;
}

void store_ints_checked(const View& y, const std::vector<int64_t>& v) {
  if (static_cast<int64_t>(v.size()) != y.numel())
    throw std::logic_error("store: " + std::to_string(v.size()) + " values for output " + shape_str(y.shape));
  if (dtype_is_int(y.dtype)) {
    const int64_t lo = dtype_min(y.dtype), hi = dtype_max(y.dtype);
    for (size_t i = 0; i < v.size(); ++i)
      if (v[i] < lo || v[i] > hi)
        throw std::range_error("output value " + std::to_string(v[i]) + " at flat index " +
                               std::to_string(i) + " does not fit " + dtype_name(y.dtype));
  }
  y.from_ints(v);
}

}  // namespace edgesim
