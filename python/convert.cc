// Python <-> edgesim conversions (convert.h).
#include "python/convert.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace py = pybind11;

namespace edgesim::python {

py::object from_json_text(const std::string& text) { return py::module_::import("json").attr("loads")(text); }

py::object from_json(const nlohmann::json& j) { return from_json_text(j.dump()); }

py::array to_numpy(const Tensor& t) {
  std::vector<py::ssize_t> shape(t.shape().begin(), t.shape().end());
  auto make = [&](auto tag) {
    using T = decltype(tag);
    py::array_t<T> a(shape);
    if (t.nbytes() > 0) std::memcpy(a.mutable_data(), t.data(), t.nbytes());
    return py::array(a);
  };
  switch (t.dtype()) {
    case DType::U8: return make(uint8_t{});
    case DType::I8: return make(int8_t{});
    case DType::I16: return make(int16_t{});
    case DType::I32: return make(int32_t{});
    case DType::I64: return make(int64_t{});
    case DType::F32: return make(float{});
  }
  throw std::runtime_error("unknown tensor dtype");
}

Tensor to_tensor(const py::handle& value, const TensorDesc& desc) {
  const py::array a = py::array::ensure(value);
  if (!a) throw std::invalid_argument(fmt::format("input '{}': not an array", desc.name));
  Shape shape(a.shape(), a.shape() + a.ndim());
  if (shape != desc.shape) {
    std::string want, got;
    for (int64_t d : desc.shape) want += (want.empty() ? "" : "x") + std::to_string(d);
    for (int64_t d : shape) got += (got.empty() ? "" : "x") + std::to_string(d);
    throw std::invalid_argument(fmt::format("input '{}': shape {} given, the network takes {}", desc.name, got, want));
  }
  // Integers for an integer input (any width: every value is range-checked below), numbers for
  // a float one; a bool, float, complex or object array would be cast silently. Floats of
  // integer values are taken where the file declares the input FLOAT (its type inferred), as the
  // CLI takes Deeploy's float32 inputs.npz.
  const char kind = a.dtype().kind();
  const bool integer = kind == 'i' || kind == 'u';
  if (kind == 'f' && desc.dtype != DType::F32 && desc.dtype_inferred) {
    const py::array_t<double, py::array::c_style | py::array::forcecast> f(a);
    for (py::ssize_t i = 0; i < f.size(); ++i)
      if (!std::isfinite(f.data()[i]) || f.data()[i] != std::floor(f.data()[i]))
        throw std::invalid_argument(fmt::format("input '{}': value {} at index {} is not an integer, but the input is {}",
                                                desc.name, f.data()[i], i, dtype_name(desc.dtype)));
  } else if (!(integer || (desc.dtype == DType::F32 && kind == 'f'))) {
    const std::string got = kind == 'b' ? "bool" : kind == 'f' ? "floating-point" : "non-numeric";
    throw std::invalid_argument(fmt::format("input '{}': a {} array (dtype {}) for an {} input ({})", desc.name, got,
                                            py::str(a.dtype()).cast<std::string>(),
                                            desc.dtype == DType::F32 ? "f32" : "integer", dtype_name(desc.dtype)));
  }
  if (desc.dtype == DType::F32) {
    const py::array_t<float, py::array::c_style | py::array::forcecast> f(a);
    return Tensor::from_f32(shape, std::vector<float>(f.data(), f.data() + f.size()));
  }
  const py::array_t<int64_t, py::array::c_style | py::array::forcecast> v(a);
  const std::vector<int64_t> ints(v.data(), v.data() + v.size());
  const int bits = static_cast<int>(dtype_size(desc.dtype)) * 8;
  const bool is_unsigned = desc.dtype == DType::U8;
  const int64_t lo = is_unsigned ? 0 : bits >= 64 ? INT64_MIN : -(int64_t{1} << (bits - 1));
  const int64_t hi = bits >= 64 ? INT64_MAX : is_unsigned ? (int64_t{1} << bits) - 1 : (int64_t{1} << (bits - 1)) - 1;
  for (int64_t x : ints)
    if (x < lo || x > hi)
      throw std::invalid_argument(fmt::format("input '{}': value {} does not fit {}", desc.name, x, dtype_name(desc.dtype)));
  return Tensor::from_ints(desc.dtype, shape, ints);
}

}  // namespace edgesim::python
