// STUB
#include "compiler/frontend/import.h"
namespace edgesim {
Graph import_onnx(const std::string& path, const ImportOptions&) { throw ImportError(path + ": import not implemented"); }
}  // namespace edgesim
