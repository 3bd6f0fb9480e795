// TensorProto decoding and the ConstTensor value accessors. A TensorProto stores its values
// either in raw_data (little-endian bytes of the element type) or in one of the typed
// repeated fields (int32_data also carries 8/16-bit integers, bool and float16 bits). The
// element count must equal the product of dims; anything else is an ImportError naming the
// tensor, so a corrupt file can never make the importer read out of bounds.
#include "compiler/frontend/tensor_proto.h"

#include <cmath>
#include <cstring>
#include <fstream>
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

namespace {

double half_to_double(uint16_t h) {
  const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  const double s = (h & 0x8000) ? -1.0 : 1.0;
  if (e == 0) return s * std::ldexp(m, -24);
  if (e == 31) return m ? NAN : s * INFINITY;
  return s * std::ldexp(m + 1024, e - 25);
}

size_t elem_bytes(int t) {
  switch (t) {
    case kUint8: case kInt8: case kBool: return 1;
    case kUint16: case kInt16: case kFloat16: return 2;
    case kFloat: case kInt32: case kUint32: return 4;
    case kInt64: case kUint64: case kDouble: return 8;
    default: return 0;
  }
}

// One element of raw little-endian bytes (the host is little-endian on every supported target).
void push_raw(ConstTensor& c, const char* p) {
  switch (c.elem_type) {
    case kUint8: case kBool: c.ints.push_back(static_cast<uint8_t>(*p)); break;
    case kInt8: c.ints.push_back(static_cast<int8_t>(*p)); break;
    case kUint16: { uint16_t v; std::memcpy(&v, p, 2); c.ints.push_back(v); break; }
    case kInt16: { int16_t v; std::memcpy(&v, p, 2); c.ints.push_back(v); break; }
    case kInt32: { int32_t v; std::memcpy(&v, p, 4); c.ints.push_back(v); break; }
    case kUint32: { uint32_t v; std::memcpy(&v, p, 4); c.ints.push_back(v); break; }
    case kInt64: { int64_t v; std::memcpy(&v, p, 8); c.ints.push_back(v); break; }
    case kUint64: { uint64_t v; std::memcpy(&v, p, 8); c.ints.push_back(static_cast<int64_t>(v)); break; }
    case kFloat: { float v; std::memcpy(&v, p, 4); c.reals.push_back(v); break; }
    case kDouble: { double v; std::memcpy(&v, p, 8); c.reals.push_back(v); break; }
    case kFloat16: { uint16_t v; std::memcpy(&v, p, 2); c.reals.push_back(half_to_double(v)); break; }
    default: break;
  }
}

}  // namespace

ConstTensor decode_tensor_proto(const onnx::TensorProto& t, const std::string& where) {
  ConstTensor c;
  c.name = t.name();
  c.elem_type = t.data_type();
  const std::string who = where + ": tensor '" + c.name + "'";
  if (elem_bytes(c.elem_type) == 0)
    throw ImportError(who + " has unsupported element type " + onnx_type_name(c.elem_type) + " (" +
                      std::to_string(c.elem_type) + ")");
  if (t.data_location() == onnx::TensorProto::EXTERNAL || t.external_data_size() > 0)
    throw ImportError(who + " uses external data, which is not supported");
  int64_t n = 1;
  for (int64_t d : t.dims()) {
    if (d < 0 || d > (int64_t{1} << 40) || (d > 0 && n > (int64_t{1} << 40) / d))
      throw ImportError(who + " has an invalid dimension " + std::to_string(d));
    c.shape.push_back(d);
    n *= d;
  }
  const auto count = static_cast<size_t>(n);
  if (t.has_raw_data()) {
    const std::string& raw = t.raw_data();
    const size_t eb = elem_bytes(c.elem_type);
    if (raw.size() != count * eb)
      throw ImportError(who + " holds " + std::to_string(raw.size()) + " raw bytes, dims " + shape_str(c.shape) +
                        " need " + std::to_string(count * eb));
    for (size_t i = 0; i < count; ++i) push_raw(c, raw.data() + i * eb);
    return c;
  }
  size_t have = 0;
  switch (c.elem_type) {
    case kFloat:
      have = static_cast<size_t>(t.float_data_size());
      for (float v : t.float_data()) c.reals.push_back(v);
      break;
    case kDouble:
      have = static_cast<size_t>(t.double_data_size());
      for (double v : t.double_data()) c.reals.push_back(v);
      break;
    case kFloat16:
      have = static_cast<size_t>(t.int32_data_size());
      for (int32_t v : t.int32_data()) c.reals.push_back(half_to_double(static_cast<uint16_t>(v)));
      break;
    case kInt64:
      have = static_cast<size_t>(t.int64_data_size());
      for (int64_t v : t.int64_data()) c.ints.push_back(v);
      break;
    case kUint32: case kUint64:
      have = static_cast<size_t>(t.uint64_data_size());
      for (uint64_t v : t.uint64_data()) c.ints.push_back(static_cast<int64_t>(v));
      break;
    default:   // 8/16/32-bit integers and bool live in int32_data
      have = static_cast<size_t>(t.int32_data_size());
      for (int32_t v : t.int32_data()) {
        if (c.elem_type == kUint8 || c.elem_type == kBool) c.ints.push_back(static_cast<uint8_t>(v));
        else if (c.elem_type == kInt8) c.ints.push_back(static_cast<int8_t>(v));
        else if (c.elem_type == kUint16) c.ints.push_back(static_cast<uint16_t>(v));
        else if (c.elem_type == kInt16) c.ints.push_back(static_cast<int16_t>(v));
        else c.ints.push_back(v);
      }
      break;
  }
  if (have != count)
    throw ImportError(who + " holds " + std::to_string(have) + " values, dims " + shape_str(c.shape) + " need " +
                      std::to_string(count));
  return c;
}

std::vector<int64_t> ConstTensor::as_ints(const std::string& where) const {
  if (!is_real()) return ints;
  std::vector<int64_t> r;
  r.reserve(reals.size());
  for (size_t i = 0; i < reals.size(); ++i) {
    const double v = reals[i];
    if (!std::isfinite(v) || v != std::floor(v) || std::fabs(v) > 9.0e18) {
      std::ostringstream s;
      s.precision(9);
      s << v;
      throw ImportError(where + ": tensor '" + name + "' holds the non-integer value " + s.str() + " at index " +
                        std::to_string(i) + " (integer dialects need integer-valued constants)");
    }
    r.push_back(static_cast<int64_t>(v));
  }
  return r;
}

std::vector<double> ConstTensor::as_doubles() const {
  if (is_real()) return reals;
  return std::vector<double>(ints.begin(), ints.end());
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
  if (c.is_real()) c.reals = t.to_f64();
  else c.ints = t.to_ints();
  return c;
}

}  // namespace edgesim::frontend

namespace edgesim {

Tensor read_tensor_proto_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw ImportError(path + ": cannot open file");
  std::ostringstream ss;
  ss << f.rdbuf();
  const std::string bytes = ss.str();
  onnx::TensorProto t;
  if (bytes.empty() || !t.ParseFromString(bytes))
    throw ImportError(path + ": not a serialized onnx.TensorProto (protobuf parse failed)");
  if (t.data_type() == 0 && t.dims_size() == 0)
    throw ImportError(path + ": not a serialized onnx.TensorProto (no data type)");
  const frontend::ConstTensor c = frontend::decode_tensor_proto(t, path);
  DType dt;
  switch (c.elem_type) {
    case frontend::kFloat: return Tensor::from_f32(c.shape, std::vector<float>(c.reals.begin(), c.reals.end()));
    case frontend::kUint8: case frontend::kBool: dt = DType::U8; break;
    case frontend::kInt8: dt = DType::I8; break;
    case frontend::kInt16: dt = DType::I16; break;
    case frontend::kUint16: case frontend::kInt32: dt = DType::I32; break;
    case frontend::kInt64: case frontend::kUint32: dt = DType::I64; break;
    default:
      throw ImportError(path + ": element type " + frontend::onnx_type_name(c.elem_type) +
                        " is not supported for tensors");
  }
  return Tensor::from_ints(dt, c.shape, c.ints);
}

}  // namespace edgesim
