// ConstTensor: a constant of the ONNX file (initializer, Constant node, attribute tensor or an
// ImportOptions constant input) as the bytes of its ONNX element type. Values stay in that
// form until a handler asks for them: raw_data is moved in without touching an element, and a
// weight becomes an edgesim Tensor in one pass straight from the typed bytes (no per-element
// int64 / double vectors on the way). Small constants (scales, zero points, biases, pads)
// are read as int64 / double vectors. Internal to compiler/frontend.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/core/tensor.h"

namespace edgesim::frontend {

// ONNX TensorProto element types used by the importer (values from onnx.proto).
enum OnnxType : int {
  kUndefined = 0, kFloat = 1, kUint8 = 2, kInt8 = 3, kUint16 = 4, kInt16 = 5, kInt32 = 6,
  kInt64 = 7, kString = 8, kBool = 9, kFloat16 = 10, kDouble = 11, kUint32 = 12, kUint64 = 13,
};
bool is_real_type(int elem_type);          // FLOAT, FLOAT16, DOUBLE
const char* onnx_type_name(int elem_type);
size_t onnx_elem_bytes(int elem_type);     // 0 for types the importer does not decode

struct ConstTensor {
  std::string name;
  int elem_type = kUndefined;
  Shape shape;
  std::string bytes;   // numel() little-endian elements of elem_type (FLOAT16 as IEEE half bits)

  bool is_real() const { return is_real_type(elem_type); }
  int64_t numel() const { return shape_numel(shape); }
  // Values as exact integers. A real value with a fractional part (or out of int64 range) is
  // an ImportError "<where>: tensor '<name>' holds the non-integer value v at index i".
  std::vector<int64_t> as_ints(const std::string& where) const;
  std::vector<double> as_doubles() const;
  int64_t scalar_int(const std::string& where) const;     // requires exactly one element
  double scalar_double(const std::string& where) const;
  // The whole constant as a Tensor of integers in the narrowest dtype holding its range
  // (dtype_for_range); real types must hold integers (the ImportError of as_ints otherwise).
  Tensor to_int_tensor(const std::string& where) const;
  // The whole constant converted element by element to dtype t (integers and F32 truncate /
  // round as a C++ conversion does; callers choose t so that nothing is lost).
  Tensor to_tensor(DType t) const;

  // A 0-d (scalar) or 1-d constant of the given values.
  static ConstTensor of_int64(std::string name, const std::vector<int64_t>& v, bool vector);
  static ConstTensor of_float(std::string name, const std::vector<double>& v, bool vector);
};

// A Tensor (from ImportOptions or a .pb file) as a ConstTensor (same bytes).
ConstTensor const_from_tensor(const std::string& name, const Tensor& t);

}  // namespace edgesim::frontend
