// Decoding of onnx.TensorProto (initializers, Constant node values, attribute tensors and the
// .pb files of the ONNX node tests) into ConstTensor. Internal to compiler/frontend.
#pragma once
#include <string>

#include <onnx/onnx_pb.h>   // defines ONNX_API, then includes onnx-ml.pb.h

#include "compiler/frontend/const_tensor.h"

namespace edgesim::frontend {

// `where` prefixes error messages ("<file>: initializer 'w'"). Handles raw_data (little
// endian) and the typed repeated fields; rejects external data, strings and size mismatches.
// raw_data is moved out of `t` (left empty) into the result.
ConstTensor decode_tensor_proto(onnx::TensorProto& t, const std::string& where);

}  // namespace edgesim::frontend
