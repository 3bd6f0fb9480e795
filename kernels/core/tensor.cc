#include "kernels/core/tensor.h"

#include <stdexcept>

namespace edgesim {

int64_t shape_numel(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return n;
}

std::string shape_str(const Shape& s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i) {
    if (i) r += ", ";
    r += std::to_string(s[i]);
  }
  return r + "]";
}

Shape contiguous_strides(const Shape& s) {
  Shape st(s.size(), 1);
  for (int64_t i = static_cast<int64_t>(s.size()) - 2; i >= 0; --i) st[i] = st[i + 1] * s[i + 1];
  return st;
}

int64_t load_int(DType t, const std::byte* p) {
  switch (t) {
    case DType::U8: return *reinterpret_cast<const uint8_t*>(p);
    case DType::I8: return *reinterpret_cast<const int8_t*>(p);
    case DType::I16: { int16_t v; std::memcpy(&v, p, 2); return v; }
    case DType::I32: { int32_t v; std::memcpy(&v, p, 4); return v; }
    case DType::I64: { int64_t v; std::memcpy(&v, p, 8); return v; }
    case DType::F32: { float v; std::memcpy(&v, p, 4); return static_cast<int64_t>(v); }
  }
  return 0;
}

void store_int(DType t, std::byte* p, int64_t v) {
  switch (t) {
    case DType::U8: *reinterpret_cast<uint8_t*>(p) = static_cast<uint8_t>(v); break;
    case DType::I8: *reinterpret_cast<int8_t*>(p) = static_cast<int8_t>(v); break;
    case DType::I16: { int16_t x = static_cast<int16_t>(v); std::memcpy(p, &x, 2); break; }
    case DType::I32: { int32_t x = static_cast<int32_t>(v); std::memcpy(p, &x, 4); break; }
    case DType::I64: std::memcpy(p, &v, 8); break;
    case DType::F32: { float x = static_cast<float>(v); std::memcpy(p, &x, 4); break; }
  }
}

double load_f64(DType t, const std::byte* p) {
  if (t == DType::F32) { float v; std::memcpy(&v, p, 4); return v; }
  return static_cast<double>(load_int(t, p));
}

void store_f32(DType t, std::byte* p, double v) {
  if (t != DType::F32) throw std::logic_error("store_f32 on integer tensor");
  float x = static_cast<float>(v);
  std::memcpy(p, &x, 4);
}

namespace {
// Visits every element of a view in row-major order of its shape, passing its element offset.
template <class F>
void for_each_offset(const View& v, F&& f) {
  const int64_t n = v.numel();
  if (n == 0) return;
  std::vector<int64_t> idx(v.shape.size(), 0);
  int64_t off = 0;
  for (int64_t k = 0; k < n; ++k) {
    f(off);
    for (int64_t d = static_cast<int64_t>(idx.size()) - 1; d >= 0; --d) {
      if (++idx[d] < v.shape[d]) { off += v.strides[d]; break; }
      off -= (v.shape[d] - 1) * v.strides[d];
      idx[d] = 0;
    }
  }
}
}  // namespace

std::vector<int64_t> View::to_ints() const {
  std::vector<int64_t> r;
  r.reserve(numel());
  for_each_offset(*this, [&](int64_t o) { r.push_back(load_int(dtype, ptr(o))); });
  return r;
}

std::vector<double> View::to_f64() const {
  std::vector<double> r;
  r.reserve(numel());
  for_each_offset(*this, [&](int64_t o) { r.push_back(load_f64(dtype, ptr(o))); });
  return r;
}

void View::from_ints(const std::vector<int64_t>& v) const {
  size_t i = 0;
  for_each_offset(*this, [&](int64_t o) { store_int(dtype, ptr(o), v[i++]); });
}

void View::from_f64(const std::vector<double>& v) const {
  size_t i = 0;
  for_each_offset(*this, [&](int64_t o) { store_f32(dtype, ptr(o), v[i++]); });
}

Tensor::Tensor(DType t, Shape s)
    : dtype_(t), shape_(std::move(s)), bytes_(static_cast<size_t>(shape_numel(shape_)) * dtype_size(t)) {}

Tensor Tensor::from_ints(DType t, Shape s, const std::vector<int64_t>& values) {
  Tensor r(t, std::move(s));
  if (static_cast<int64_t>(values.size()) != r.numel())
    throw std::invalid_argument("Tensor::from_ints: " + std::to_string(values.size()) +
                                " values for shape " + shape_str(r.shape_));
  for (int64_t i = 0; i < r.numel(); ++i) r.set_int(i, values[i]);
  return r;
}

Tensor Tensor::from_f32(Shape s, const std::vector<float>& values) {
  Tensor r(DType::F32, std::move(s));
  if (static_cast<int64_t>(values.size()) != r.numel())
    throw std::invalid_argument("Tensor::from_f32: value count does not match shape");
  std::memcpy(r.data(), values.data(), values.size() * 4);
  return r;
}

std::vector<int64_t> Tensor::to_ints() const { return view().to_ints(); }
std::vector<double> Tensor::to_f64() const { return view().to_f64(); }

View Tensor::view() { return View{dtype_, bytes_.data(), shape_, contiguous_strides(shape_)}; }
View Tensor::view() const {
  return View{dtype_, const_cast<std::byte*>(bytes_.data()), shape_, contiguous_strides(shape_)};
}

Tensor Tensor::reshaped(Shape s) const {
  if (shape_numel(s) != numel())
    throw std::invalid_argument("Tensor::reshaped: " + shape_str(shape_) + " -> " + shape_str(s));
  Tensor r = *this;
  r.shape_ = std::move(s);
  return r;
}

bool Tensor::same_values(const Tensor& o) const {
  if (numel() != o.numel()) return false;
  for (int64_t i = 0; i < numel(); ++i)
    if (get_f64(i) != o.get_f64(i)) return false;
  return true;
}

}  // namespace edgesim
