// edgesim_bench_run: how long `edgesim run` takes on MobileNetV1-128 (default platform gap8,
// policy dory), split into its stages: import, compile (tile + schedule + allocate), the timed
// SystemC simulation without data (timing only), the simulation with data (bytes moved through
// TLM, kernels computed on the simulated memories) and the interpreter + bit-exact check.
// Each figure is the best of --reps runs (default 3, std::chrono::steady_clock); peak RSS of the
// process (getrusage ru_maxrss) is printed after the timing-only runs and at the end. Not a
// test: no thresholds, exit 1 only on errors.
//
// Usage: edgesim_bench_run [--reps N] [--platform FILE] [--policy P] [model.onnx]
extern "C" int sc_main(int, char**) { return 0; }   // libsystemc.so defines main()

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "compiler/frontend/import.h"
#include "compiler/golden/golden.h"
#include "compiler/schedule/build.h"
#include "compiler/schedule/functional.h"
#include "compiler/tiler/policy.h"
#include "kernels/interpreter/interpreter.h"
#include "platforms/loader/loader.h"
#include "sim/exec/executor.h"
#include "sim/exec/verify.h"

#include "bench_util.h"
#include "support/tiling.h"

using namespace edgesim;
using bench::best_ms;
using bench::peak_rss_kib;

int main(int argc, char** argv) {
  const bench::Args args = bench::parse_args(argc, argv, 3);
  const int reps = args.reps;
  const std::string& platform = args.platform;
  const std::string& model = args.model;
  const std::string& policy = args.policy;
  try {
    const PlatformSpec spec = load_platform(platform);
    Graph g;
    const double import_ms = best_ms(1, [&] { g = import_onnx(model); });
    const std::vector<Tensor> in = random_inputs(g, 1);
    Schedule s;
    const double compile_ms = best_ms(reps, [&] {
      ScheduleOptions o;
      s = build_schedule(g, spec, test::tile_for(g, spec, policy), o);
    });
    size_t commands = 0;
    for (const Step& st : s.steps) commands += st.commands.size();
    int64_t cycles = 0;
    SimOptions timing;
    timing.data = false;
    const double timed_ms = best_ms(reps, [&] { cycles = simulate(g, s, spec, in, timing).result.total_cycles; });
    const long rss_timed = peak_rss_kib();
    SimOutcome out;
    const double data_ms = best_ms(reps, [&] { out = simulate(g, s, spec, in); });
    VerifyOutcome v;
    const double check_ms = best_ms(reps, [&] {
      InterpreterOptions io;
      io.keep_all = true;
      v = verify_against_interpreter(g, *out.values, interpret(g, in, io));
    });
    std::cout << fmt::format("run benchmark: {} on {}, policy {}, best of {}\n", model, spec.name, policy, reps);
    std::cout << fmt::format("  schedule:            {} steps, {} commands, {} simulated cycles ({})\n", s.steps.size(),
                             commands, cycles, out.result.total_cycles == cycles ? "same with data" : "DIFFERS with data");
    std::cout << fmt::format("  import:              {:8.1f} ms\n", import_ms);
    std::cout << fmt::format("  compile:             {:8.1f} ms\n", compile_ms);
    std::cout << fmt::format("  simulate, timing:    {:8.1f} ms   peak RSS {} KiB\n", timed_ms, rss_timed);
    std::cout << fmt::format("  simulate, data:      {:8.1f} ms\n", data_ms);
    std::cout << fmt::format("  interpret + check:   {:8.1f} ms   ({})\n", check_ms, v.message);
    std::cout << fmt::format("  peak RSS at the end: {} KiB\n", peak_rss_kib());
    std::cout << fmt::format("  simulated cycles per wall second (timing only): {:.1f} M\n",
                             static_cast<double>(cycles) / timed_ms / 1e3);
    return v.ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "edgesim_bench_run: error: " << e.what() << "\n";
    return 1;
  }
}
