// libFuzzer target: the ONNX TensorProto golden reader (read_tensor_pb, which decodes through
// the importer's read_tensor_proto_file). Accepted: the array, or one GoldenError.
#include "compiler/golden/golden.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = edgesim::fuzz::write_input(data, size, "output_0.pb");
  try {
    (void)edgesim::read_tensor_pb(path);
  } catch (const edgesim::GoldenError&) {
  }
  return 0;
}
