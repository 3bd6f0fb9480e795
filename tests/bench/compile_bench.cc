// edgesim_bench_compile: how long `edgesim compile` takes (tile + build schedule + allocate +
// check_allocation, import excluded) on MobileNetV1-128 for each tiling policy on a platform
// (default gap8). Each figure is the best of --reps runs (default 3) with
// std::chrono::steady_clock; the peak resident set size of the process (getrusage ru_maxrss)
// is printed after each policy. Not a test: no thresholds, exit 1 only on errors.
//
// Usage: edgesim_bench_compile [--reps N] [--platform FILE] [model.onnx]
//   model defaults to <build>/models/mobilenetv1_128/model.onnx, platform to platforms/gap8.yaml.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "compiler/frontend/import.h"
#include "compiler/schedule/build.h"
#include "compiler/schedule/functional.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "platforms/loader/loader.h"

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
  try {
    const PlatformSpec spec = load_platform(platform);
    const auto t0 = std::chrono::steady_clock::now();
    const Graph g = import_onnx(model);
    const double import_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::cout << fmt::format("compile benchmark: {} ({} layers) on {}, best of {}; import {:.1f} ms, RSS {} KiB\n",
                             model, g.layer_nodes().size(), spec.name, reps, import_ms, peak_rss_kib());
    std::cout << fmt::format("{:<10} {:>10} {:>12} {:>10} {:>10} {:>9} {:>14}\n", "policy", "tile ms", "schedule ms",
                             "total ms", "commands", "buffers", "peak RSS KiB");
    for (const std::string& policy : policy_names()) {
      double best_tile = std::numeric_limits<double>::infinity(), best_sched = best_tile, best_total = best_tile;
      size_t commands = 0, buffers = 0;
      std::string error;
      for (int r = 0; r < reps; ++r) {
        try {
          const auto a = std::chrono::steady_clock::now();
          const auto tilings = test::tile_for(g, spec, policy);
          const auto b = std::chrono::steady_clock::now();
          const Schedule s = build_schedule(g, spec, tilings);
          check_allocation(s);
          const auto c = std::chrono::steady_clock::now();
          best_tile = std::min(best_tile, std::chrono::duration<double, std::milli>(b - a).count());
          best_sched = std::min(best_sched, std::chrono::duration<double, std::milli>(c - b).count());
          best_total = std::min(best_total, std::chrono::duration<double, std::milli>(c - a).count());
          commands = 0;
          for (const Step& st : s.steps) commands += st.commands.size();
          buffers = s.buffers.size();
        } catch (const std::exception& e) {
          error = e.what();
          break;
        }
      }
      if (!error.empty())
        std::cout << fmt::format("{:<10} error: {}\n", policy, error);
      else
        std::cout << fmt::format("{:<10} {:>10.1f} {:>12.1f} {:>10.1f} {:>10} {:>9} {:>14}\n", policy, best_tile,
                                 best_sched, best_total, commands, buffers, peak_rss_kib());
    }
  } catch (const std::exception& e) {
    std::cerr << "edgesim_bench_compile: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
