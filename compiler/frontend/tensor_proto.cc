// TensorProto decoding into ConstTensor (const_tensor.h). A TensorProto stores its values
// either in raw_data (little-endian bytes of the element type) or in one of the typed
// repeated fields (int32_data also carries 8/16-bit integers, bool and float16 bits). The
// element count must equal the product of dims; anything else is an ImportError naming the
// tensor, so a corrupt file can never make the importer read out of bounds. raw_data is moved
// out of the message, not copied: a weight's bytes are never touched element by element here.
#include "compiler/frontend/tensor_proto.h"

#include <cstring>
#include <fstream>

#include "compiler/frontend/import.h"
#include "compiler/frontend/read_file.h"

namespace edgesim::frontend {

namespace {

// Packs the values of a typed repeated field into little-endian elements of type T.
template <class T, class Field>
void pack(std::string& out, const Field& values) {
  out.resize(static_cast<size_t>(values.size()) * sizeof(T));
  size_t i = 0;
  for (auto v : values) {
    const auto e = static_cast<T>(v);
    std::memcpy(out.data() + i++ * sizeof(T), &e, sizeof(T));
  }
}

}  // namespace

ConstTensor decode_tensor_proto(onnx::TensorProto& t, const std::string& where) {
  ConstTensor c;
  c.name = t.name();
  c.elem_type = t.data_type();
  const std::string who = where + ": tensor '" + c.name + "'";
  const size_t eb = onnx_elem_bytes(c.elem_type);
  if (eb == 0)
    throw ImportError(who + " has unsupported element type " + onnx_type_name(c.elem_type) + " (" +
                      std::to_string(c.elem_type) + ")");
  if (t.data_location() == onnx::TensorProto::EXTERNAL || t.external_data_size() > 0)
    throw ImportError(who + " uses external data, which is not supported");
  // `extent`, the product of the non-zero dims, is bounded too: a zero dim makes the tensor
  // empty, but its strides still multiply the others (fuzz_tensor_pb: dims 0, 119, 3, 119, ...
  // overflowed int64 in contiguous_strides).
  int64_t n = 1, extent = 1;
  for (int64_t d : t.dims()) {
    if (d < 0 || d > (int64_t{1} << 40) || (d > 0 && extent > (int64_t{1} << 40) / d))
      throw ImportError(who + " has an invalid dimension " + std::to_string(d));
    c.shape.push_back(d);
    n *= d;
    if (d > 0) extent *= d;
  }
  const auto count = static_cast<size_t>(n);
  if (t.has_raw_data()) {
    if (t.raw_data().size() != count * eb)
      throw ImportError(who + " holds " + std::to_string(t.raw_data().size()) + " raw bytes, dims " +
                        shape_str(c.shape) + " need " + std::to_string(count * eb));
    c.bytes.swap(*t.mutable_raw_data());
    return c;
  }
  size_t have = 0;
  switch (c.elem_type) {
    case kFloat:
      have = static_cast<size_t>(t.float_data_size());
      pack<float>(c.bytes, t.float_data());
      break;
    case kDouble:
      have = static_cast<size_t>(t.double_data_size());
      pack<double>(c.bytes, t.double_data());
      break;
    case kInt64:
      have = static_cast<size_t>(t.int64_data_size());
      pack<int64_t>(c.bytes, t.int64_data());
      break;
    case kUint32:
      have = static_cast<size_t>(t.uint64_data_size());
      pack<uint32_t>(c.bytes, t.uint64_data());
      break;
    case kUint64:
      have = static_cast<size_t>(t.uint64_data_size());
      pack<uint64_t>(c.bytes, t.uint64_data());
      break;
    default:   // 8/16/32-bit integers, bool and float16 bits live in int32_data
      have = static_cast<size_t>(t.int32_data_size());
      if (eb == 1) pack<uint8_t>(c.bytes, t.int32_data());
      else if (eb == 2) pack<uint16_t>(c.bytes, t.int32_data());
      else pack<int32_t>(c.bytes, t.int32_data());
      break;
  }
  if (have != count)
    throw ImportError(who + " holds " + std::to_string(have) + " values, dims " + shape_str(c.shape) + " need " +
                      std::to_string(count));
  return c;
}

}  // namespace edgesim::frontend

namespace edgesim {

Tensor read_tensor_proto_file(const std::string& path) {
  onnx::TensorProto t;
  {
    const frontend::FileBytes bytes(path, "a TensorProto file");
    if (bytes.size() == 0 || bytes.size() > static_cast<size_t>(INT32_MAX) ||
        !t.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
      throw ImportError(path + ": not a serialized onnx.TensorProto (protobuf parse failed)");
  }
  if (t.data_type() == 0 && t.dims_size() == 0)
    throw ImportError(path + ": not a serialized onnx.TensorProto (no data type)");
  const frontend::ConstTensor c = frontend::decode_tensor_proto(t, path);
  switch (c.elem_type) {
    case frontend::kFloat: return c.to_tensor(DType::F32);
    case frontend::kUint8: case frontend::kBool: return c.to_tensor(DType::U8);
    case frontend::kInt8: return c.to_tensor(DType::I8);
    case frontend::kInt16: return c.to_tensor(DType::I16);
    case frontend::kUint16: case frontend::kInt32: return c.to_tensor(DType::I32);
    case frontend::kInt64: case frontend::kUint32: return c.to_tensor(DType::I64);
    default:
      throw ImportError(path + ": element type " + frontend::onnx_type_name(c.elem_type) +
                        " is not supported for tensors");
  }
}

}  // namespace edgesim
