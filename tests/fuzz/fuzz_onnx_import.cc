// libFuzzer target: the ONNX importer (import_onnx) on arbitrary bytes, then the imported
// graph's text form (edgesim describe). Accepted: a Graph, or one ImportError.
#include "compiler/frontend/import.h"
#include "compiler/ir/printer.h"
#include "kernels/ir/graph.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = edgesim::fuzz::write_input(data, size, "model.onnx");
  try {
    const edgesim::Graph g = edgesim::import_onnx(path);
    (void)edgesim::print_graph(g);
  } catch (const edgesim::ImportError&) {
  }
  return 0;
}
