// ONNX front end: reads an int8 ONNX network in any dialect of docs/dialects.md (DORY/NEMO,
// QuantLab, Deeploy/QuantLib, standard QDQ and QLinear/Integer ops, BARVINN integer-valued
// float) and returns one integer Graph of fused ops. The protobuf is parsed directly; the
// ONNX checker is not used (docs/dialects.md "How the importer works", step 1): each node is
// validated by edgesim itself.
#pragma once
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kernels/ir/graph.h"

namespace edgesim {

// Every import failure: message is one line naming the file and, where there is one, the
// node (name and op type) and what is wrong, e.g.
//   "net.onnx: node 'Conv_3' (Conv): unsupported attribute auto_pad=SAME_LOWER"
//   "net.onnx: unsupported op 'LSTM' at node 'lstm_1'; supported: Conv, Gemm, ..."
class ImportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ImportOptions {
  // Activation bits of integer-valued float graphs whose input range the file does not state
  // (BARVINN SimpleConv: the MVU's aprec). Graph inputs are then u<bits>-ranged.
  int default_input_bits = 8;
  bool default_input_signed = false;
  // Graph inputs to treat as initializers with these values (name -> tensor). Used to load
  // ONNX backend node tests, whose scales, zero points and weights arrive as graph inputs.
  std::vector<std::pair<std::string, Tensor>> constant_inputs;
};

// Real graph inputs (graph.input minus initializers), in ONNX order. Throws ImportError.
std::vector<std::string> onnx_input_names(const std::string& path);

// Reads one serialized onnx.TensorProto file (.pb) into a typed Tensor (integer element types
// keep their type, FLOAT -> F32). Throws ImportError naming the file.
Tensor read_tensor_proto_file(const std::string& path);

Graph import_onnx(const std::string& path, const ImportOptions& opt = {});

// Call after graph-input dtypes changed (load_inputs re-typing an input whose dtype the
// importer only inferred, TensorDesc::dtype_inferred): re-derives the dtypes of the ops that
// pass values through unchanged (Pad, Concat, Reshape, Transpose, Clip, MaxPool without
// requant) from their inputs. Until then the importer types such tensors downstream of an
// inferred input as I32, which holds any value. Ops with a requant keep their dtype.
void retype_from_inputs(Graph& g);

}  // namespace edgesim
