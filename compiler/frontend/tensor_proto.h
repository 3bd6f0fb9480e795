// Decoding of onnx.TensorProto (initializers, Constant node values, attribute tensors and the
// .pb files of the ONNX node tests) into ConstTensor. Internal to compiler/frontend.
#pragma once
#include <string>

#include <onnx/onnx_pb.h>   // defines ONNX_API, then includes onnx-ml.pb.h

#include "compiler/frontend/onnx_model.h"

namespace edgesim::frontend {

// `where` prefixes error messages ("<file>: initializer 'w'"). Handles raw_data (little
// endian) and the typed repeated fields; rejects external data, strings and size mismatches.
ConstTensor decode_tensor_proto(const onnx::TensorProto& t, const std::string& where);

}  // namespace edgesim::frontend
