// libFuzzer target: the DORY text golden reader (read_dory_txt) and the int32 logits decoding
// of MobileNetV1's last golden (dory_bytes_to_int32). Accepted: values, or one GoldenError.
#include "compiler/golden/golden.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = edgesim::fuzz::write_input(data, size, "out_layer0.txt");
  try {
    const std::vector<int64_t> v = edgesim::read_dory_txt(path);
    (void)edgesim::dory_bytes_to_int32(v);
  } catch (const edgesim::GoldenError&) {
  }
  return 0;
}
