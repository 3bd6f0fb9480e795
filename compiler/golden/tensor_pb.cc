// ONNX TensorProto golden files (libonnx-testdata input_<i>.pb / output_<j>.pb). The protobuf
// decoding is the frontend's read_tensor_proto_file, so raw_data, typed fields and external
// layouts are handled in one place; this wrapper only turns the typed Tensor into a
// GoldenArray and the frontend's ImportError into a GoldenError.
#include "compiler/frontend/import.h"
#include "compiler/golden/detail.h"
#include "compiler/golden/golden.h"

namespace edgesim {

GoldenArray read_tensor_pb(const std::string& path) {
  golden_detail::require_file(path);   // uniform "cannot open" error before protobuf parsing
  Tensor t;
  try {
    t = read_tensor_proto_file(path);
  } catch (const ImportError& e) {
    throw GoldenError(e.what());
  }
  GoldenArray a;
  a.name = golden_detail::file_name(path);
  a.shape = t.shape();
  a.values = t.to_f64();
  a.is_float = t.dtype() == DType::F32;
  a.kind = a.is_float ? 'f' : t.dtype() == DType::U8 ? 'u' : 'i';
  a.elem_bytes = static_cast<int>(dtype_size(t.dtype()));
  return a;
}

}  // namespace edgesim
