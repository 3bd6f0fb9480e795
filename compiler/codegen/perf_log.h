// The profiling lines a generated program prints (docs/codegen.md "Profiling and verdict
// lines"), and their reader for `edgesim compare`:
//   [edgesim-perf] step=<k> name=<step name> cycles=<n>
//   [edgesim-perf] total cycles=<n>
// Lines without the "[edgesim-perf]" marker are ignored (a board's log has others); a line
// with it must have exactly this form.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace edgesim::codegen {

struct PerfStep {
  int step = -1;
  std::string name;
  int64_t cycles = 0;
  int line = 0;                  // 1-based line in the log
};

struct PerfLog {
  std::vector<PerfStep> steps;   // in log order
  std::optional<int64_t> total;
};

// Throws std::runtime_error "<file>:<line>: <what>" for a malformed profiling line, a step
// listed twice, or a log without profiling lines; "<file>: cannot read" when unreadable.
PerfLog read_perf_log(const std::string& path);
PerfLog parse_perf_log(const std::string& text, const std::string& file);

}  // namespace edgesim::codegen
