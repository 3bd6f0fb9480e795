// Test support: where the shared reference networks and ONNX node tests live, and how a test
// that needs them behaves when they are absent (skip with a visible WARN; fail under CI=true).
#pragma once
#include <cstdlib>
#include <filesystem>
#include <string>

#include <catch2/catch.hpp>

namespace edgesim::test {

inline std::string shared_networks() {
  if (const char* e = std::getenv("EDGESIM_SHARED_NETWORKS")) return e;
  return EDGESIM_SHARED_NETWORKS;
}
inline std::string onnx_testdata() { return EDGESIM_ONNX_TESTDATA; }
inline std::string source_dir() { return EDGESIM_SOURCE_DIR; }
inline std::string edgesim_bin() { return EDGESIM_BIN; }
inline bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci && std::string(ci) == "true";
}

// True if `path` exists. Otherwise: under CI=true the test fails; elsewhere it WARNs that it
// is skipped, and the caller returns.
inline bool have_data(const std::string& path) {
  if (std::filesystem::exists(path)) return true;
  if (in_ci()) FAIL("required test data missing under CI=true: " << path);
  WARN("SKIPPED: test data not found: " << path);
  return false;
}

}  // namespace edgesim::test

// Usage: REQUIRE_DATA(path);  at the top of a test that reads shared data.
#define REQUIRE_DATA(path) \
  do { if (!::edgesim::test::have_data(path)) return; } while (0)
