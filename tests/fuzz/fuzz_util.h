// Shared by the libFuzzer targets (tests/fuzz/*.cc): the readers under test take file paths,
// so each input is written to one scratch file per process (in $TMPDIR, else /tmp) and read
// back through the same entry point the CLI uses. A target returns normally for every input
// the reader accepts or rejects with its documented exception; anything else (another
// exception escaping, a sanitizer report, a crash, a hang, a leak) is a finding.
#pragma once
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace edgesim::fuzz {

inline std::string scratch_dir() {
  static const std::string dir = [] {
    const char* t = std::getenv("TMPDIR");
    std::string d = std::string(t && *t ? t : "/tmp") + "/edgesim-fuzz-" + std::to_string(::getpid());
    std::string cmd = "mkdir -p '" + d + "'";
    if (std::system(cmd.c_str()) != 0) std::abort();
    return d;
  }();
  return dir;
}

// Writes the input to <scratch>/<name> and returns that path.
inline std::string write_input(const uint8_t* data, size_t size, const std::string& name) {
  const std::string path = scratch_dir() + "/" + name;
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!f) std::abort();
  return path;
}

}  // namespace edgesim::fuzz
