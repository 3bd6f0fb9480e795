// libFuzzer target: one .npy image (parse_npy), the member format inside Deeploy archives,
// reached directly so that the fuzzer need not build a valid ZIP around it.
// Accepted: the array, or one GoldenError.
#include <string>

#include "compiler/golden/golden.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    (void)edgesim::parse_npy(std::string(reinterpret_cast<const char*>(data), size), "fuzz.npy");
  } catch (const edgesim::GoldenError&) {
  }
  return 0;
}
