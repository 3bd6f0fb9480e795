// Test support for generated programs: write a program of compiler/codegen below a directory,
// build it for its HAL (host: cc; rv32: riscv64-unknown-elf-gcc with picolibc) against kernel
// objects compiled once per harness (the kernels, runtime and HAL sources are the same in every
// program of a HAL), run it (rv32: on qemu-system-riscv32) and read its verdict line. Builds use
// the flags of the generated Makefile (-O1 instead of -O2 to keep the suite fast) plus -Werror,
// so a warning in generated code fails the test too.
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

// How a HAL's programs are built and run (the commands of its generated Makefile).
struct Target {
  std::string hal, cc, flags, ldflags, run;
  static Target host() { return {"host", "cc", "", "-lm", "./network"}; }
  static Target rv32() {
    return {"rv32", "riscv64-unknown-elf-gcc", "-march=rv32imc -mabi=ilp32 -mcmodel=medany --specs=picolibc.specs",
            "--oslib=semihost --crt0=semihost -Wl,--defsym=__flash=0x80000000 "
            "-Wl,--defsym=__flash_size=0x1000000 -Wl,--defsym=__ram=0x81000000 -Wl,--defsym=__ram_size=0x7000000 "
            "-Wl,--defsym=__stack_size=0x10000 -lm",
            "timeout 300 qemu-system-riscv32 -M virt -m 256M -nographic -bios none -icount shift=0,sleep=off -kernel network "
            "-semihosting-config enable=on,target=native"};
  }
  // True when the target's compiler (and emulator) are installed.
  bool available() const {
    if (hal == "host") return true;
    return shell("command -v riscv64-unknown-elf-gcc && command -v qemu-system-riscv32").status == 0;
  }
};

class ProgramHarness {
 public:
  static constexpr const char* kFlags = "-O1 -std=c99 -Wall -Werror -ffp-contract=off -I. -Ihal -Ikernels -Iruntime";

  // Compiles the shipped sources of the target's HAL once into `root`/lib.
  explicit ProgramHarness(const std::filesystem::path& root, Target t = Target::host()) : root_(root), t_(std::move(t)) {
    const std::vector<codegen::ProgramFile> files = codegen::shipped_for_hal(t_.hal);
    lib_ = root / "lib";
    codegen::write_program(lib_.string(), files);
    const ShellResult r = shell("cd '" + lib_.string() + "' && for f in kernels/*.c runtime/es_run.c hal/hal.c; do " +
                                cc() + " -c $f -o $(basename $f .c).o || exit 1; done");
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
    const ShellResult b = shell("cd '" + dir.string() + "' && " + cc() + " -o network network.c layer_*.c '" +
                                lib_.string() + "'/*.o " + t_.ldflags);
    o.built = b.status == 0;
    o.output = b.output;
    if (!o.built) return o;
    const ShellResult r = shell("cd '" + dir.string() + "' && " + t_.run);
    o.output = r.output;
    o.exact = r.status == 0 && r.output.find("edgesim-verdict: bit-exact") != std::string::npos;
    if (o.exact) {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    }
    return o;
  }

 private:
  std::string cc() const { return t_.cc + " " + t_.flags + " " + kFlags; }
  std::filesystem::path root_, lib_;
  Target t_;
  bool ok_ = false;
  std::string log_;
};

}  // namespace edgesim::test
