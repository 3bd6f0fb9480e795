// edgesim_bench_speed: the speed and memory figures of issue 16 on MobileNetV1-128 (default gap8),
// one core (every process here is single-threaded):
//   - import: import_onnx in this process (best of --reps, wall and CPU time); peak RSS of the
//     `edgesim describe MODEL` process against `edgesim --version` (the binary and its libraries
//     alone), the difference as a multiple of the model file's size;
//   - `edgesim run --timing-only` and `edgesim run` (data moved, verified) as whole processes:
//     best wall time and the CPU time (user + sys, wait4) of that run, peak RSS;
//   - the interpreter alone (interpret() in this process on seeded random inputs, every tensor
//     kept) with the optimised kernels and with the reference kernels only.
// --edgesim PATH measures another binary's processes (e.g. an older build, for "before").
// Figures are printed, never asserted; wall times on a busy machine exceed the CPU times.
//
// Usage: edgesim_bench_speed [--reps N] [--platform FILE] [--edgesim PATH] [model.onnx]
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "compiler/frontend/import.h"
#include "compiler/golden/golden.h"
#include "kernels/interpreter/interpreter.h"

#include "bench_util.h"

using namespace edgesim;

namespace {

double cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

struct Timing {
  double wall = std::numeric_limits<double>::infinity(), cpu = std::numeric_limits<double>::infinity();
  long rss_kib = 0;
};

// Best of `reps` in this process (the CPU time of the fastest run by wall time... both minima).
template <class F>
Timing in_process(int reps, F&& f) {
  Timing t;
  for (int r = 0; r < reps; ++r) {
    const double c0 = cpu_ms();
    t.wall = std::min(t.wall, bench::best_ms(1, f));
    t.cpu = std::min(t.cpu, cpu_ms() - c0);
  }
  return t;
}

// Runs argv as a child process `reps` times (output discarded); minimum wall and CPU time, peak RSS.
Timing process(int reps, const std::vector<std::string>& args) {
  Timing t;
  for (int r = 0; r < reps; ++r) {
    std::vector<char*> argv;
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::cout << std::flush;
    std::fflush(nullptr);   // or the child would print this process's buffered output again
    const auto t0 = std::chrono::steady_clock::now();
    const pid_t pid = ::fork();
    if (pid == 0) {
      std::freopen("/dev/null", "w", stdout);
      std::freopen("/dev/null", "w", stderr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    int status = 0;
    rusage u{};
    ::wait4(pid, &status, 0, &u);
    const double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
      throw std::runtime_error(fmt::format("{} failed (status {})", args[0], status));
    const double cpu = (static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 +
                        static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3);
    t.wall = std::min(t.wall, wall);
    t.cpu = std::min(t.cpu, cpu);
    t.rss_kib = std::max(t.rss_kib, u.ru_maxrss);
  }
  return t;
}

std::string row(const std::string& what, const Timing& t) {
  std::string s = fmt::format("  {:<34} {:8.1f} ms wall  {:8.1f} ms CPU", what, t.wall, t.cpu);
  if (t.rss_kib > 0) s += fmt::format("  peak RSS {} KiB", t.rss_kib);
  return s + "\n";
}

}  // namespace

int main(int argc, char** argv) {
  std::string edgesim = EDGESIM_BUILD_DIR "/edgesim";
  std::vector<char*> rest = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--edgesim" && i + 1 < argc) edgesim = argv[++i];
    else rest.push_back(argv[i]);
  }
  const bench::Args a = bench::parse_args(static_cast<int>(rest.size()), rest.data(), 5);
  try {
    const auto file_bytes = static_cast<double>(std::filesystem::file_size(a.model));
    std::cout << fmt::format("speed benchmark: {} ({:.0f} bytes) on {}, best of {}; binary {}\n", a.model, file_bytes,
                             a.platform, a.reps, edgesim);
    Graph g;
    std::cout << row("import (in process)", in_process(a.reps, [&] { g = import_onnx(a.model); }));
    const Timing version = process(a.reps, {edgesim, "--version"});
    const Timing describe = process(a.reps, {edgesim, "describe", a.model});
    std::cout << row("edgesim --version (process)", version) << row("edgesim describe (process)", describe);
    std::cout << fmt::format("  import peak RSS growth (describe - --version): {} KiB = {:.2f}x the model file\n",
                             describe.rss_kib - version.rss_kib,
                             static_cast<double>(describe.rss_kib - version.rss_kib) * 1024.0 / file_bytes);
    std::cout << row("run --timing-only (process)", process(a.reps, {edgesim, "run", "-p", a.platform, "--timing-only", a.model}));
    std::cout << row("run, data verified (process)", process(a.reps, {edgesim, "run", "-p", a.platform, a.model}));
    const std::vector<Tensor> in = random_inputs(g, 1);
    for (const KernelSet k : {KernelSet::Optimized, KernelSet::Reference}) {
      InterpreterOptions o;
      o.keep_all = true;
      o.kernels = k;
      std::cout << row(k == KernelSet::Optimized ? "interpreter, optimised kernels" : "interpreter, reference kernels",
                       in_process(a.reps, [&] { (void)interpret(g, in, o); }));
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "edgesim_bench_speed: error: " << e.what() << "\n";
    return 1;
  }
}
