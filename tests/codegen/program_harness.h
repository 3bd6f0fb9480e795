// Test support for generated programs: write a program of compiler/codegen below a directory,
// build it with the host compiler against kernel objects compiled once per harness (the
// kernels, runtime and HAL sources are the same in every program of a HAL), run it and read its
// verdict line. Builds use the flags of the generated Makefile (-O1 instead of -O2 to keep the
// suite fast) plus -Werror, so a warning in generated code fails the test too.
#pragma once
#include <array>
#include <cstdio>
#include <filesystem>
#include <string>
#include <sys/wait.h>

#include "compiler/codegen/codegen.h"

namespace edgesim::test {

struct ShellResult {
  int status = -1;
  std::string output;
};

inline ShellResult shell(const std::string& cmd) {
  ShellResult r;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf{};
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.output.append(buf.data(), n);
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  return r;
}

class ProgramHarness {
 public:
  static constexpr const char* kFlags = "-O1 -std=c99 -Wall -Werror -ffp-contract=off -I. -Ihal -Ikernels -Iruntime";

  // Compiles the shipped sources of the host HAL once into `root`/lib.
  explicit ProgramHarness(const std::filesystem::path& root) : root_(root) {
    codegen::ProgramRequest none;
    std::vector<codegen::ProgramFile> files;
    for (const auto& f : codegen::shipped_sources()) {
      std::string p = f.path;
      if (p.rfind("hal/host/", 0) == 0) p = "hal/" + p.substr(9);
      else if (p.rfind("hal/", 0) == 0 && std::count(p.begin(), p.end(), '/') > 1) continue;
      files.push_back({p, f.content});
    }
    lib_ = root / "lib";
    codegen::write_program(lib_.string(), files);
    const ShellResult r = shell("cd '" + lib_.string() + "' && for f in kernels/*.c runtime/es_run.c hal/hal.c; do cc " +
                                kFlags + " -c $f -o $(basename $f .c).o || exit 1; done");
    ok_ = r.status == 0;
    log_ = r.output;
  }
  bool ok() const { return ok_; }
  const std::string& log() const { return log_; }

  struct Outcome {
    bool built = false, exact = false;
    std::string output;   // compiler or program output
  };
  // Writes, builds and runs one program in root/<name>; the directory is removed afterwards
  // unless it failed.
  Outcome run(const std::string& name, const std::vector<codegen::ProgramFile>& files) const {
    const std::filesystem::path dir = root_ / name;
    codegen::write_program(dir.string(), files);
    Outcome o;
    const ShellResult b = shell("cd '" + dir.string() + "' && cc " + kFlags + " -o network network.c layer_*.c '" +
                                lib_.string() + "'/*.o -lm");
    o.built = b.status == 0;
    o.output = b.output;
    if (!o.built) return o;
    const ShellResult r = shell("cd '" + dir.string() + "' && ./network");
    o.output = r.output;
    o.exact = r.status == 0 && r.output.find("edgesim-verdict: bit-exact") != std::string::npos;
    if (o.exact) {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    }
    return o;
  }

 private:
  std::filesystem::path root_, lib_;
  bool ok_ = false;
  std::string log_;
};

}  // namespace edgesim::test
