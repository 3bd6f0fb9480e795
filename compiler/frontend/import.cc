// STUB
#include "compiler/frontend/import.h"
namespace edgesim {
Graph import_onnx(const std::string& path, const ImportOptions&) { throw ImportError(path + ": import not implemented"); }
std::vector<std::string> onnx_input_names(const std::string& path) { throw ImportError(path + ": not implemented"); }
Tensor read_tensor_proto_file(const std::string& path) { throw ImportError(path + ": not implemented"); }
}  // namespace edgesim
