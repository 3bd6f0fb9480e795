// Shared by the benchmark programs: command-line defaults (MobileNetV1-128 on GAP8), peak RSS
// and best-of-N wall time. Benchmarks print figures; they never assert on time.
#pragma once
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <limits>
#include <string>

namespace edgesim::bench {

struct Args {
  int reps = 3;
  size_t per = 200;                // tune bench: candidates per layer
  std::string platform = EDGESIM_SOURCE_DIR "/platforms/gap8.yaml";
  std::string policy = "dory";
  std::string model = EDGESIM_BUILD_DIR "/models/mobilenetv1_128/model.onnx";
};

// [--reps N] [--per N] [--platform FILE] [--policy P] [model.onnx]
inline Args parse_args(int argc, char** argv, int default_reps = 3) {
  Args a;
  a.reps = default_reps;
  for (int i = 1; i < argc; ++i) {
    const std::string s = argv[i];
    if (s == "--reps" && i + 1 < argc) a.reps = std::max(1, std::atoi(argv[++i]));
    else if (s == "--per" && i + 1 < argc) a.per = static_cast<size_t>(std::max(1, std::atoi(argv[++i])));
    else if (s == "--platform" && i + 1 < argc) a.platform = argv[++i];
    else if (s == "--policy" && i + 1 < argc) a.policy = argv[++i];
    else a.model = s;
  }
  return a;
}

inline long peak_rss_kib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;   // KiB on Linux
}

// Best wall time of `reps` runs of f, in milliseconds (std::chrono::steady_clock).
inline double best_ms(int reps, const std::function<void()>& f) {
  double best = std::numeric_limits<double>::infinity();
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

}  // namespace edgesim::bench
