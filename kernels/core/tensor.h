// Tensor (owning, contiguous, row-major) and View (non-owning, strided) over typed bytes.
// Reference kernels read and write Views so that the same kernel runs on a whole tensor
// (interpreter) and on a tile inside a memory-level byte array (tiled executor): a View
// is dtype + base pointer + logical shape + element strides.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/core/dtype.h"

namespace edgesim {

using Shape = std::vector<int64_t>;

int64_t shape_numel(const Shape& s);
std::string shape_str(const Shape& s);          // "[1, 3, 8, 8]"
Shape contiguous_strides(const Shape& s);       // row-major element strides

// Load / store one element of type t at p, converting to/from int64 (integers) or double.
int64_t load_int(DType t, const std::byte* p);
void store_int(DType t, std::byte* p, int64_t v);   // v must be in range of t (caller clamps)
double load_f64(DType t, const std::byte* p);        // integers convert exactly
void store_f32(DType t, std::byte* p, double v);     // t must be F32

struct View {
  DType dtype = DType::I8;
  std::byte* base = nullptr;
  Shape shape;
  Shape strides;   // in elements, same rank as shape

  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
  int64_t numel() const { return shape_numel(shape); }
  int64_t offset(const int64_t* idx) const {
    int64_t o = 0;
    for (size_t i = 0; i < shape.size(); ++i) o += idx[i] * strides[i];
    return o;
  }
  std::byte* ptr(int64_t elem_offset) const {
    return base + elem_offset * static_cast<int64_t>(dtype_size(dtype));
  }
  int64_t get(std::initializer_list<int64_t> idx) const { return load_int(dtype, ptr(offset(idx.begin()))); }
  void set(std::initializer_list<int64_t> idx, int64_t v) const { store_int(dtype, ptr(offset(idx.begin())), v); }
  // Copies the viewed elements, in row-major order of `shape`, into int64 / double vectors.
  std::vector<int64_t> to_ints() const;
  std::vector<double> to_f64() const;
  // Writes row-major values into the viewed elements (integers must already be in range).
  void from_ints(const std::vector<int64_t>& v) const;
  void from_f64(const std::vector<double>& v) const;   // F32 views only
};

class Tensor {
 public:
  Tensor() = default;
  Tensor(DType t, Shape s);                                   // zero-filled
  static Tensor from_ints(DType t, Shape s, const std::vector<int64_t>& values);
  static Tensor from_f32(Shape s, const std::vector<float>& values);

  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  int64_t numel() const { return shape_numel(shape_); }
  std::size_t nbytes() const { return bytes_.size(); }
  std::byte* data() { return bytes_.data(); }
  const std::byte* data() const { return bytes_.data(); }

  int64_t get_int(int64_t flat) const { return load_int(dtype_, bytes_.data() + flat * dtype_size(dtype_)); }
  void set_int(int64_t flat, int64_t v) { store_int(dtype_, bytes_.data() + flat * dtype_size(dtype_), v); }
  double get_f64(int64_t flat) const { return load_f64(dtype_, bytes_.data() + flat * dtype_size(dtype_)); }
  std::vector<int64_t> to_ints() const;
  std::vector<double> to_f64() const;

  View view();
  View view() const;   // const_cast inside: kernels never write through input views
  Tensor reshaped(Shape s) const;   // same bytes, new shape (numel must match)
  bool same_values(const Tensor& o) const;   // dtype-independent element equality

 private:
  DType dtype_ = DType::I8;
  Shape shape_;
  std::vector<std::byte> bytes_;
};

}  // namespace edgesim
