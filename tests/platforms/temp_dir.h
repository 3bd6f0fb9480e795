// Test helpers for the platform tests: shipped file paths, the PlatformError message of a
// failing load, and the smallest complete platform YAML.
#pragma once
#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "platforms/loader/loader.h"
#include "support/paths.h"
#include "support/temp_dir.h"

namespace edgesim::test {

// The shipped platform files and the PULP preset, by absolute path.
inline std::string platform_file(const std::string& name) {
  return source_dir() + "/platforms/" + name + ".yaml";
}
inline std::string pulp_preset() { return source_dir() + "/platforms/presets/pulp_cluster.yaml"; }

// Message of the PlatformError a load throws, or "" if it loads.
inline std::string load_error(const std::string& path, const std::vector<std::string>& set = {}) {
  try {
    load_platform(path, set);
  } catch (const PlatformError& e) {
    return e.what();
  }
  return "";
}

// The smallest complete platform: only the required keys.
inline const char* kMinimalPlatform =
    "name: tiny\n"                   // 1
    "l1:\n"                          // 2
    "  impl: tcdm\n"                 // 3
    "  size: 64KiB\n"                // 4
    "  banks: 16\n"                  // 5
    "  bank_width_bytes: 4\n"        // 6
    "  interleave_bytes: 4\n"        // 7
    "  latency: 1\n"                 // 8
    "  ports: 12\n"                  // 9
    "l2:\n"                          // 10
    "  impl: sram\n"                 // 11
    "  size: 512KiB\n"               // 12
    "  latency_from_cluster: 10\n"   // 13
    "  bw_bytes_per_cycle: 8B/cycle\n"  // 14
    "l3:\n"                          // 15
    "  impl: none\n"                 // 16
    "  size: 0\n";                   // 17

}  // namespace edgesim::test
