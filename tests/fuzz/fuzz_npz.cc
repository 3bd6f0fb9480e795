// libFuzzer target: the Deeploy .npz golden readers (ZIP of .npy members), two ways, told apart
// by the first byte of the input:
//  - 'P' (every archive starts "PK"): the whole input is the .npz, and read_npz reads every
//    member, each bounded by its own header and declared size.
//  - any other byte: a spec of graph inputs, then the archive, which load_inputs reads for a
//    Graph with those inputs (NpzArchive: each member bounded by the input's element count, then
//    checked against its shape, dtype and value range). Spec: byte 0 gives 1 + byte % 3 inputs;
//    per input a dtype byte t (U8 I8 I16 I32 I64 F32 by (t & 127) % 6; bit 7 marks an integer dtype as
//    inferred, which load_inputs re-types from the data), a rank byte r (r % 5 dims), then one
//    byte b per dim (1 + b: 1 to 256). Spec bytes past the end of the input read as 0.
// Accepted: the arrays or input tensors, or one GoldenError.
#include <cstdint>
#include <string>

#include "compiler/golden/golden.h"
#include "fuzz_util.h"

namespace {

// Reads the spec at the front of `data`, advancing it; returns a Graph with those inputs.
edgesim::Graph graph_from_spec(const uint8_t*& data, size_t& size) {
  auto next = [&]() -> uint8_t {
    if (size == 0) return 0;
    --size;
    return *data++;
  };
  using edgesim::DType;
  static const DType kTypes[] = {DType::U8, DType::I8, DType::I16, DType::I32, DType::I64, DType::F32};
  edgesim::Graph g;
  g.name = "fuzz";
  const int n = 1 + next() % 3;
  for (int i = 0; i < n; ++i) {
    const uint8_t t = next();
    edgesim::TensorDesc d;
    d.name = "in" + std::to_string(i);
    d.dtype = kTypes[(t & 0x7f) % 6];
    d.dtype_inferred = (t & 0x80) && d.dtype != DType::F32;
    const int rank = next() % 5;
    for (int k = 0; k < rank; ++k) d.shape.push_back(1 + int64_t{next()});
    g.inputs.push_back(g.add_tensor(std::move(d)));
  }
  return g;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 0 && data[0] == 'P') {
    const std::string path = edgesim::fuzz::write_input(data, size, "outputs.npz");
    try {
      (void)edgesim::read_npz(path);
    } catch (const edgesim::GoldenError&) {
    }
    return 0;
  }
  edgesim::Graph g = graph_from_spec(data, size);
  const std::string path = edgesim::fuzz::write_input(data, size, "inputs.npz");
  try {
    (void)edgesim::load_inputs(g, path);
  } catch (const edgesim::GoldenError&) {
  }
  return 0;
}
