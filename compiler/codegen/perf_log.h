// The profiling lines a generated program prints (docs/codegen.md "Profiling and verdict
// lines"), and their reader for `edgesim compare`:
//   [edgesim-perf] program hal=<hal> unit=<cycles|ns> platform=<p> policy=<flow> buffering=<b> schedule=<hash>
//   [edgesim-perf] step=<k> name=<step name> cycles=<n>
//   [edgesim-perf] total cycles=<n>
// Lines without the "[edgesim-perf]" marker are ignored (a board's log has others); a line
// with it must have exactly one of these forms (the program line may carry further key=value
// fields, which are ignored). Counts are unsigned 64-bit decimals. Programs generated before
// the program line existed counted in 32 bits and print no program line.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/schedule/schedule.h"

namespace edgesim::codegen {

struct PerfStep {
  int step = -1;
  std::string name;
  uint64_t cycles = 0;
  int line = 0;                  // 1-based line in the log
};

// What the program was generated for (its "[edgesim-perf] program" line).
struct PerfProgram {
  std::string hal, unit, platform, policy, buffering, schedule;
  int line = 0;
};

struct PerfLog {
  std::optional<PerfProgram> program;   // absent in logs of programs from before the line existed
  std::vector<PerfStep> steps;          // in log order
  std::optional<uint64_t> total;
  int total_line = 0;
};

// Throws std::runtime_error "<file>:<line>: <what>" for a malformed profiling line, a step
// listed twice, a second program line, or a log without profiling lines; "<file>: cannot read"
// when unreadable.
PerfLog read_perf_log(const std::string& path);
PerfLog parse_perf_log(const std::string& text, const std::string& file);

// A value as the program line spells it: characters other than letters, digits and ._+-/
// become '_' (so a platform name with spaces stays one field); "" becomes "-".
std::string perf_token(const std::string& value);

// 16 hex digits identifying the schedule (schedule_digest, compiler/schedule/json.h: the hex of
// `run --json`'s schedule_hash): codegen prints it, compare checks that the schedule it
// simulates is the one the program ran.
std::string schedule_fingerprint(const Schedule& s);

// The program line a program generated from `s` for `hal` and `platform` prints.
std::string perf_program_line(const Schedule& s, const std::string& hal, const std::string& platform);

}  // namespace edgesim::codegen
