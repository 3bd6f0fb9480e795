// libFuzzer target: the platform loader (load_platform) on an arbitrary YAML file placed next
// to a copy of the bundled presets (so `preset: pulp_cluster` resolves), then describe_platform
// and platform_hash on what it accepts. Accepted: a PlatformSpec, or one PlatformError.
#include <filesystem>

#include "fuzz_util.h"
#include "platforms/loader/loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool presets = [] {
    const std::filesystem::path dir = edgesim::fuzz::scratch_dir() + "/presets";
    std::filesystem::create_directories(dir);
    for (const auto& e : std::filesystem::directory_iterator(EDGESIM_SOURCE_DIR "/platforms/presets"))
      std::filesystem::copy_file(e.path(), dir / e.path().filename(), std::filesystem::copy_options::overwrite_existing);
    return true;
  }();
  (void)presets;
  const std::string path = edgesim::fuzz::write_input(data, size, "platform.yaml");
  try {
    const edgesim::PlatformSpec spec = edgesim::load_platform(path);
    (void)edgesim::describe_platform(spec);
    (void)edgesim::platform_hash(spec);
  } catch (const edgesim::PlatformError&) {
  }
  return 0;
}
