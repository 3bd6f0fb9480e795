// ConstTensor value access over the typed bytes (const_tensor.h). Every reader dispatches once
// on the element type and then runs a plain loop over the elements of that C++ type.
#include "compiler/frontend/const_tensor.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

#include "compiler/frontend/import.h"

namespace edgesim::frontend {

bool is_real_type(int t) { return t == kFloat || t == kFloat16 || t == kDouble; }

const char* onnx_type_name(int t) {
  switch (t) {
    case kFloat: return "FLOAT";
    case kUint8: return "UINT8";
    case kInt8: return "INT8";
    case kUint16: return "UINT16";
    case kInt16: return "INT16";
    case kInt32: return "INT32";
    case kInt64: return "INT64";
    case kString: return "STRING";
    case kBool: return "BOOL";
    case kFloat16: return "FLOAT16";
    case kDouble: return "DOUBLE";
    case kUint32: return "UINT32";
    case kUint64: return "UINT64";
    default: return "UNSUPPORTED";
  }
}

size_t onnx_elem_bytes(int t) {
  switch (t) {
    case kUint8: case kInt8: case kBool: return 1;
    case kUint16: case kInt16: case kFloat16: return 2;
    case kFloat: case kInt32: case kUint32: return 4;
    case kInt64: case kUint64: case kDouble: return 8;
    default: return 0;
  }
}

namespace {

struct Half {   // IEEE 754 binary16 bits
  uint16_t bits;
};

double to_double(Half h) {
  const int e = (h.bits >> 10) & 0x1f, m = h.bits & 0x3ff;
  const double s = (h.bits & 0x8000) ? -1.0 : 1.0;
  if (e == 0) return s * std::ldexp(m, -24);
  if (e == 31) return m ? NAN : s * INFINITY;
  return s * std::ldexp(m + 1024, e - 25);
}
template <class T>
double to_double(T v) {
  return static_cast<double>(v);
}

// Calls f(const T* unused_tag, const char* bytes, size_t n) with T the element's C++ type.
template <class F>
decltype(auto) with_elems(const ConstTensor& c, F&& f) {
  const char* p = c.bytes.data();
  const auto n = static_cast<size_t>(c.numel());
  switch (c.elem_type) {
    case kUint8: case kBool: return f(static_cast<const uint8_t*>(nullptr), p, n);
    case kInt8: return f(static_cast<const int8_t*>(nullptr), p, n);
    case kUint16: return f(static_cast<const uint16_t*>(nullptr), p, n);
    case kInt16: return f(static_cast<const int16_t*>(nullptr), p, n);
    case kInt32: return f(static_cast<const int32_t*>(nullptr), p, n);
    case kUint32: return f(static_cast<const uint32_t*>(nullptr), p, n);
    case kInt64: return f(static_cast<const int64_t*>(nullptr), p, n);
    case kUint64: return f(static_cast<const uint64_t*>(nullptr), p, n);
    case kFloat: return f(static_cast<const float*>(nullptr), p, n);
    case kDouble: return f(static_cast<const double*>(nullptr), p, n);
    case kFloat16: return f(static_cast<const Half*>(nullptr), p, n);
    default: throw ImportError("tensor '" + c.name + "': element type " + onnx_type_name(c.elem_type) + " has no values");
  }
}

template <class T>
T load(const char* p, size_t i) {
  T v;
  std::memcpy(&v, p + i * sizeof(T), sizeof(T));
  return v;
}

// A real value that is not an exact int64 integer: the ImportError of as_ints.
[[noreturn]] void non_integer(const ConstTensor& c, const std::string& where, double v, size_t i) {
  std::ostringstream s;
  s.precision(9);
  s << v;
  throw ImportError(where + ": tensor '" + c.name + "' holds the non-integer value " + s.str() + " at index " +
                    std::to_string(i) + " (integer dialects need integer-valued constants)");
}

bool exact_int(double v) { return std::isfinite(v) && v == std::floor(v) && std::fabs(v) <= 9.0e18; }

// One element converted to D. Reals out of D's range saturate (NaN gives 0), so that no
// conversion is undefined behaviour whatever the file holds; callers that need exact values
// check them first (to_int_tensor).
template <class D, class S>
D cast_elem(S s) {
  if constexpr (std::is_same_v<S, Half>) {
    return cast_elem<D>(to_double(s));
  } else if constexpr (std::is_floating_point_v<S> && std::is_integral_v<D>) {
    const double lo = static_cast<double>(std::numeric_limits<D>::min());
    const double hi = static_cast<double>(std::numeric_limits<D>::max()) + 1.0;   // exclusive, exact
    if (std::isnan(s)) return 0;
    if (s < lo) return std::numeric_limits<D>::min();
    if (s >= hi) return std::numeric_limits<D>::max();
    return static_cast<D>(s);
  } else if constexpr (std::is_same_v<S, double> && std::is_same_v<D, float>) {
    if (std::fabs(s) > std::numeric_limits<float>::max() && std::isfinite(s)) return s > 0 ? INFINITY : -INFINITY;
    return static_cast<float>(s);
  } else {
    return static_cast<D>(s);
  }
}

template <class D, class S>
void convert(const char* p, size_t n, std::byte* dst) {
  for (size_t i = 0; i < n; ++i) {
    const D d = cast_elem<D>(load<S>(p, i));
    std::memcpy(dst + i * sizeof(D), &d, sizeof(D));
  }
}

template <class S>
void convert_to(DType t, const char* p, size_t n, std::byte* dst) {
  switch (t) {
    case DType::U8: return convert<uint8_t, S>(p, n, dst);
    case DType::I8: return convert<int8_t, S>(p, n, dst);
    case DType::I16: return convert<int16_t, S>(p, n, dst);
    case DType::I32: return convert<int32_t, S>(p, n, dst);
    case DType::I64: return convert<int64_t, S>(p, n, dst);
    case DType::F32: return convert<float, S>(p, n, dst);
  }
}

}  // namespace

std::vector<int64_t> ConstTensor::as_ints(const std::string& where) const {
  return with_elems(*this, [&](auto tag, const char* p, size_t n) {
    using T = std::remove_const_t<std::remove_pointer_t<decltype(tag)>>;
    std::vector<int64_t> r(n);
    for (size_t i = 0; i < n; ++i) {
      const T v = load<T>(p, i);
      if constexpr (std::is_integral_v<T>) {
        r[i] = static_cast<int64_t>(v);
      } else {
        const double d = to_double(v);
        if (!exact_int(d)) non_integer(*this, where, d, i);
        r[i] = static_cast<int64_t>(d);
      }
    }
    return r;
  });
}

std::vector<double> ConstTensor::as_doubles() const {
  return with_elems(*this, [&](auto tag, const char* p, size_t n) {
    using T = std::remove_const_t<std::remove_pointer_t<decltype(tag)>>;
    std::vector<double> r(n);
    for (size_t i = 0; i < n; ++i) r[i] = to_double(load<T>(p, i));
    return r;
  });
}

int64_t ConstTensor::scalar_int(const std::string& where) const {
  if (numel() != 1)
    throw ImportError(where + ": tensor '" + name + "' must be a scalar, has shape " + shape_str(shape));
  return as_ints(where)[0];
}

double ConstTensor::scalar_double(const std::string& where) const {
  if (numel() != 1)
    throw ImportError(where + ": tensor '" + name + "' must be a scalar, has shape " + shape_str(shape));
  return as_doubles()[0];
}

Tensor ConstTensor::to_tensor(DType t) const {
  Tensor r(t, shape);
  with_elems(*this, [&](auto tag, const char* p, size_t n) {
    using T = std::remove_const_t<std::remove_pointer_t<decltype(tag)>>;
    convert_to<T>(t, p, n, r.data());
  });
  return r;
}

Tensor ConstTensor::to_int_tensor(const std::string& where) const {
  int64_t lo = 0, hi = 0;
  with_elems(*this, [&](auto tag, const char* p, size_t n) {
    using T = std::remove_const_t<std::remove_pointer_t<decltype(tag)>>;
    if (n == 0) return;
    lo = std::numeric_limits<int64_t>::max();
    hi = std::numeric_limits<int64_t>::min();
    for (size_t i = 0; i < n; ++i) {
      int64_t v;
      if constexpr (std::is_integral_v<T>) {
        v = static_cast<int64_t>(load<T>(p, i));
      } else {
        const double d = to_double(load<T>(p, i));
        if (!exact_int(d)) non_integer(*this, where, d, i);
        v = static_cast<int64_t>(d);
      }
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
  });
  return to_tensor(dtype_for_range(lo, hi));
}

ConstTensor ConstTensor::of_int64(std::string name, const std::vector<int64_t>& v, bool vector) {
  ConstTensor c;
  c.name = std::move(name);
  c.elem_type = kInt64;
  if (vector) c.shape = {static_cast<int64_t>(v.size())};
  c.bytes.assign(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(int64_t));
  return c;
}

ConstTensor ConstTensor::of_float(std::string name, const std::vector<double>& v, bool vector) {
  ConstTensor c;
  c.name = std::move(name);
  c.elem_type = kFloat;
  if (vector) c.shape = {static_cast<int64_t>(v.size())};
  c.bytes.resize(v.size() * sizeof(float));
  for (size_t i = 0; i < v.size(); ++i) {
    const auto f = static_cast<float>(v[i]);
    std::memcpy(c.bytes.data() + i * sizeof(float), &f, sizeof(float));
  }
  return c;
}

ConstTensor const_from_tensor(const std::string& name, const Tensor& t) {
  ConstTensor c;
  c.name = name;
  c.shape = t.shape();
  switch (t.dtype()) {
    case DType::U8: c.elem_type = kUint8; break;
    case DType::I8: c.elem_type = kInt8; break;
    case DType::I16: c.elem_type = kInt16; break;
    case DType::I32: c.elem_type = kInt32; break;
    case DType::I64: c.elem_type = kInt64; break;
    case DType::F32: c.elem_type = kFloat; break;
  }
  c.bytes.assign(reinterpret_cast<const char*>(t.data()), t.nbytes());
  return c;
}

}  // namespace edgesim::frontend
