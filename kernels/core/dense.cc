#include "kernels/core/dense.h"


namespace edgesim::dense {

bool store_checked(const View& y, const std::vector<int64_t>& v) {
  if (!dtype_is_int(y.dtype)) return false;
  const int64_t lo = dtype_min(y.dtype), hi = dtype_max(y.dtype);
  if (static_cast<int64_t>(v.size()) != y.numel()) return false;
  for (int64_t e : v)
    if (e < lo || e > hi) return false;
  const int64_t len = y.shape.empty() ? 1 : y.shape.back();
  const int64_t st = y.shape.empty() ? 1 : y.strides.back();
  return with_int_type(y.dtype, [&](auto tag) {
    using T = decltype(tag);
    const int64_t* src = v.data();
    for_each_row(y, [&](int64_t, int64_t off) {
      std::byte* d = y.base + off * static_cast<int64_t>(sizeof(T));
      for (int64_t i = 0; i < len; ++i) {
        const auto e = static_cast<T>(src[i]);
        std::memcpy(d + i * st * static_cast<int64_t>(sizeof(T)), &e, sizeof(T));
      }
      src += len;
    });
  });
}

namespace {

template <class T>
void strided_copy(const std::byte* s, int64_t ss, std::byte* d, int64_t ds, int64_t len) {
  for (int64_t i = 0; i < len; ++i) {
    T v;
    std::memcpy(&v, s + i * ss * static_cast<int64_t>(sizeof(T)), sizeof(T));
    std::memcpy(d + i * ds * static_cast<int64_t>(sizeof(T)), &v, sizeof(T));
  }
}

}  // namespace

bool copy_same(const View& src, const View& dst) {
  if (src.dtype != dst.dtype || src.shape != dst.shape) return false;
  const size_t r = dst.shape.size();
  const auto es = static_cast<int64_t>(dtype_size(dst.dtype));
  const int64_t len = r == 0 ? 1 : dst.shape.back();
  const int64_t ss = r == 0 ? 1 : src.strides.back(), ds = r == 0 ? 1 : dst.strides.back();
  // Walk dst's rows; src's offset follows the same index.
  std::vector<int64_t> idx(r, 0);
  int64_t so = 0;
  for_each_row(dst, [&](int64_t, int64_t doff) {
    std::byte* d = dst.base + doff * es;
    const std::byte* s = src.base + so * es;
    if (ss == 1 && ds == 1) std::memcpy(d, s, static_cast<size_t>(len * es));
    else if (es == 1) strided_copy<uint8_t>(s, ss, d, ds, len);
    else if (es == 2) strided_copy<uint16_t>(s, ss, d, ds, len);
    else if (es == 4) strided_copy<uint32_t>(s, ss, d, ds, len);
    else strided_copy<uint64_t>(s, ss, d, ds, len);
    for (int64_t k = static_cast<int64_t>(r) - 2; k >= 0; --k) {
      if (++idx[k] < dst.shape[k]) {
        so += src.strides[k];
        break;
      }
      so -= (dst.shape[k] - 1) * src.strides[k];
      idx[k] = 0;
    }
  });
  return true;
}

View permuted(const View& v, const std::vector<int>& perm) {
  View r = v;
  for (size_t i = 0; i < perm.size(); ++i) {
    r.shape[i] = v.shape[static_cast<size_t>(perm[i])];
    r.strides[i] = v.strides[static_cast<size_t>(perm[i])];
  }
  return r;
}

}  // namespace edgesim::dense
