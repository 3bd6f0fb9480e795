// libFuzzer target: the Deeploy .npz golden reader (read_npz: ZIP of .npy members).
// Accepted: the arrays, or one GoldenError.
#include "compiler/golden/golden.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = edgesim::fuzz::write_input(data, size, "outputs.npz");
  try {
    (void)edgesim::read_npz(path);
  } catch (const edgesim::GoldenError&) {
  }
  return 0;
}
