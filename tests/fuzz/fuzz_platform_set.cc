// libFuzzer target: `--set key=value` overrides. The input's first byte picks a bundled
// platform; the rest, split at newlines, are the overrides applied to it by load_platform,
// then describe_platform on what it accepts. Accepted: a PlatformSpec, or one PlatformError.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "fuzz_util.h"
#include "platforms/loader/loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<std::string> platforms = [] {
    std::vector<std::string> r;
    for (const auto& e : std::filesystem::directory_iterator(EDGESIM_SOURCE_DIR "/platforms"))
      if (e.path().extension() == ".yaml") r.push_back(e.path().string());
    std::sort(r.begin(), r.end());
    return r;
  }();
  if (size == 0 || platforms.empty()) return 0;
  const std::string& file = platforms[data[0] % platforms.size()];
  std::vector<std::string> overrides;
  std::string cur;
  for (size_t i = 1; i < size; ++i) {
    if (data[i] == '\n') {
      overrides.push_back(cur);
      cur.clear();
    } else {
      cur += static_cast<char>(data[i]);
    }
  }
  overrides.push_back(cur);
  try {
    const edgesim::PlatformSpec spec = edgesim::load_platform(file, overrides);
    (void)edgesim::describe_platform(spec);
  } catch (const edgesim::PlatformError&) {
  }
  return 0;
}
