// Typed, row-wise access to strided Views for the optimised kernels (kernels/optimized.h):
// the element type is dispatched once per call and each row (the view's last axis) is walked
// with its stride, instead of one dtype switch per element as View::to_ints does. Views are
// gathered into dense int16 / int32 buffers (zero point removed) and results stored back with
// the range check of store_ints_checked.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <algorithm>
#include <limits>
#include <vector>

#include "kernels/core/tensor.h"

namespace edgesim::dense {

// Calls f(T{}) with T the C++ type of integer dtype t; returns false for F32 (f not called).
template <class F>
bool with_int_type(DType t, F&& f) {
  switch (t) {
    case DType::U8: f(uint8_t{}); return true;
    case DType::I8: f(int8_t{}); return true;
    case DType::I16: f(int16_t{}); return true;
    case DType::I32: f(int32_t{}); return true;
    case DType::I64: f(int64_t{}); return true;
    case DType::F32: return false;
  }
  return false;
}

// Visits the rows of v (its last axis; a rank-0 view is one row of one element) in row-major
// order: f(row_index, element_offset_of_the_row's_first_element). Rows have v.shape.back()
// elements, element stride v.strides.back().
template <class F>
void for_each_row(const View& v, F&& f) {
  const size_t r = v.shape.size();
  if (r == 0) {
    f(int64_t{0}, int64_t{0});
    return;
  }
  for (int64_t d : v.shape)
    if (d == 0) return;
  int64_t rows = 1;
  for (size_t d = 0; d + 1 < r; ++d) rows *= v.shape[d];
  std::vector<int64_t> idx(r, 0);
  int64_t off = 0;
  for (int64_t row = 0; row < rows; ++row) {
    f(row, off);
    for (int64_t d = static_cast<int64_t>(r) - 2; d >= 0; --d) {
      if (++idx[d] < v.shape[d]) {
        off += v.strides[d];
        break;
      }
      off -= (v.shape[d] - 1) * v.strides[d];
      idx[d] = 0;
    }
  }
}

// Element i of type T at p (memcpy: tiles inside memory arrays need not be aligned).
template <class T>
T load(const std::byte* p, int64_t i) {
  T v;
  std::memcpy(&v, p + i * static_cast<int64_t>(sizeof(T)), sizeof(T));
  return v;
}

// Copies the elements of src into dst when both have the same dtype and shape (row by row, a
// memcpy per contiguous row); returns false, copying nothing, otherwise.
bool copy_same(const View& src, const View& dst);

// Range [lo, hi] of (value − sub) over every value of integer dtype t.
inline void shifted_range(DType t, int64_t sub, int64_t& lo, int64_t& hi) {
  lo = dtype_min(t) - sub;
  hi = dtype_max(t) - sub;
}
inline int64_t max_abs(int64_t lo, int64_t hi) { return std::max(lo < 0 ? -lo : lo, hi < 0 ? -hi : hi); }

// Copies the elements of v, row by row, as D(value − sub): row `row` goes to dst(row) with
// consecutive elements dst_step apart. The caller guarantees that every value − sub fits D
// (v integer). Returns false (nothing copied) when v is F32.
template <class D, class Dst>
bool gather_rows(const View& v, int64_t sub, Dst&& dst, int64_t dst_step = 1) {
  const int64_t len = v.shape.empty() ? 1 : v.shape.back();
  const int64_t st = v.shape.empty() ? 1 : v.strides.back();
  return with_int_type(v.dtype, [&](auto tag) {
    using T = decltype(tag);
    for_each_row(v, [&](int64_t row, int64_t off) {
      D* d = dst(row);
      const std::byte* s = v.base + off * static_cast<int64_t>(sizeof(T));
      if (st == 1 && dst_step == 1) {
        for (int64_t i = 0; i < len; ++i) d[i] = static_cast<D>(static_cast<int64_t>(load<T>(s, i)) - sub);
      } else {
        for (int64_t i = 0; i < len; ++i)
          d[i * dst_step] = static_cast<D>(static_cast<int64_t>(load<T>(s, i * st)) - sub);
      }
    });
  });
}

// Writes row-major values into integer view y. Returns false, writing nothing, when y is F32 or
// a value lies outside y's dtype (the optimised kernel then declines and the reference kernel,
// computing the same values, reports the error).
bool store_checked(const View& y, const std::vector<int64_t>& v);

// Element n of the outermost axis of v, as a view of the same rank with that axis of size 1.
inline View batch_item(const View& v, int64_t n) {
  View r = v;
  r.base = v.ptr(n * v.strides[0]);
  r.shape[0] = 1;
  return r;
}

// y's rows (last axis) permuted so that axis order `perm` becomes the logical order: the view
// with shape[i] = v.shape[perm[i]], strides[i] = v.strides[perm[i]].
View permuted(const View& v, const std::vector<int>& perm);

}  // namespace edgesim::dense
