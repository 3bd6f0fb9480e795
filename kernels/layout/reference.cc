// Reference layout kernels: constant Pad (any rank, negative pads crop as ONNX allows),
// Concat along any axis, Reshape (row-major order unchanged) and Transpose. They move values
// without arithmetic; every output goes through the checked store, so a dtype change between
// input and output can never wrap silently.
#include <stdexcept>
#include <string>

#include "kernels/core/shape_rules.h"
#include "kernels/reference.h"

namespace edgesim {

void pad_reference(const PadParams& p, const View& x, const View& y) {
  const int64_t r = x.rank();
  if (static_cast<int64_t>(p.pads.size()) != 2 * r)
    throw std::invalid_argument("pad: " + std::to_string(p.pads.size()) + " pads for rank " + std::to_string(r));
  Shape expect(r);
  for (int64_t d = 0; d < r; ++d) expect[d] = x.shape[d] + p.pads[d] + p.pads[d + r];
  if (expect != y.shape)
    throw std::invalid_argument("pad: output shape " + shape_str(y.shape) + ", expected " + shape_str(expect));
  if (shape_numel(y.shape) == 0) return;

  const std::vector<int64_t> xv = x.to_ints();
  const Shape xs = contiguous_strides(x.shape);
  std::vector<int64_t> out(static_cast<size_t>(y.numel()));
  std::vector<int64_t> idx(r, 0);   // output index, row-major odometer
  for (int64_t& o : out) {
    int64_t src = 0;
    bool inside = true;
    for (int64_t d = 0; d < r && inside; ++d) {
      const int64_t i = idx[d] - p.pads[d];   // input index along d (crop when pad < 0)
      inside = i >= 0 && i < x.shape[d];
      src += i * xs[d];
    }
    o = inside ? xv[src] : p.value;
    for (int64_t d = r - 1; d >= 0; --d) {
      if (++idx[d] < y.shape[d]) break;
      idx[d] = 0;
    }
  }
  store_ints_checked(y, out);
}

void concat_reference(const ConcatParams& p, const std::vector<View>& xs, const View& y) {
  if (xs.empty()) throw std::invalid_argument("concat: no inputs");
  const int64_t r = y.rank();
  if (p.axis < 0 || p.axis >= r) throw std::invalid_argument("concat: axis " + std::to_string(p.axis) + " out of range");
  int64_t total = 0;
  for (const View& v : xs) {
    bool same = v.rank() == r;
    for (int64_t d = 0; same && d < r; ++d) same = d == p.axis || v.shape[d] == y.shape[d];
    if (!same)
      throw std::invalid_argument("concat: input " + shape_str(v.shape) + " does not fit output " +
                                  shape_str(y.shape) + " along axis " + std::to_string(p.axis));
    total += v.shape[p.axis];
  }
  if (total != y.shape[p.axis])
    throw std::invalid_argument("concat: inputs sum to " + std::to_string(total) + " along axis, output has " +
                                std::to_string(y.shape[p.axis]));

  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < p.axis; ++d) outer *= y.shape[d];
  for (int64_t d = p.axis + 1; d < r; ++d) inner *= y.shape[d];
  std::vector<std::vector<int64_t>> vals;
  for (const View& v : xs) vals.push_back(v.to_ints());
  std::vector<int64_t> out;
  out.reserve(static_cast<size_t>(y.numel()));
  for (int64_t o = 0; o < outer; ++o)
    for (size_t i = 0; i < xs.size(); ++i) {
      const int64_t chunk = xs[i].shape[p.axis] * inner;
      out.insert(out.end(), vals[i].begin() + o * chunk, vals[i].begin() + (o + 1) * chunk);
    }
  store_ints_checked(y, out);
}

void reshape_reference(const View& x, const View& y) {
  if (x.numel() != y.numel())
    throw std::invalid_argument("reshape: " + shape_str(x.shape) + " -> " + shape_str(y.shape) +
                                " changes the element count");
  store_ints_checked(y, x.to_ints());
}

void transpose_reference(const TransposeParams& p, const View& x, const View& y) {
  const int64_t r = x.rank();
  std::vector<bool> seen(r, false);
  bool ok = static_cast<int64_t>(p.perm.size()) == r;
  for (int64_t d = 0; ok && d < r; ++d) {
    ok = p.perm[d] >= 0 && p.perm[d] < r && !seen[p.perm[d]];
    if (ok) seen[p.perm[d]] = true;
  }
  if (!ok) throw std::invalid_argument("transpose: perm is not a permutation of rank " + std::to_string(r));
  // A permuted view of x reads the elements in the output's row-major order.
  View t = x;
  for (int64_t d = 0; d < r; ++d) {
    t.shape[d] = x.shape[p.perm[d]];
    t.strides[d] = x.strides[p.perm[d]];
  }
  if (t.shape != y.shape)
    throw std::invalid_argument("transpose: output shape " + shape_str(y.shape) + ", expected " + shape_str(t.shape));
  store_ints_checked(y, t.to_ints());
}

}  // namespace edgesim

namespace edgesim {

void gather_reference(const GatherParams& p, const View& x, const View& y) {
  if (p.axis < 0 || p.axis >= x.rank() || p.index < 0 || p.index >= x.shape[static_cast<size_t>(p.axis)])
    throw std::invalid_argument("gather: axis " + std::to_string(p.axis) + " index " + std::to_string(p.index) +
                                " out of range for " + shape_str(x.shape));
  Shape expect = x.shape;
  expect.erase(expect.begin() + p.axis);
  if (expect != y.shape)
    throw std::invalid_argument("gather: output shape " + shape_str(y.shape) + ", expected " + shape_str(expect));
  View slice = x;   // the slice at `index`, axis dropped: same strides without that axis
  slice.base = x.ptr(p.index * x.strides[static_cast<size_t>(p.axis)]);
  slice.shape.erase(slice.shape.begin() + p.axis);
  slice.strides.erase(slice.strides.begin() + p.axis);
  store_ints_checked(y, slice.to_ints());
}

}  // namespace edgesim
