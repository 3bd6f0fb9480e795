// Reader of the generated programs' profiling lines (perf_log.h).
#include "compiler/codegen/perf_log.h"

#include <cctype>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "compiler/schedule/json.h"
#include "platforms/util/regular_file.h"

namespace edgesim::codegen {

namespace {

const char* kMarker = "[edgesim-perf]";

uint64_t number(const std::string& s, const std::string& where) {
  if (!s.empty() && s.size() <= 20 && s.find_first_not_of("0123456789") == std::string::npos) {
    try {
      size_t used = 0;
      const unsigned long long v = std::stoull(s, &used);
      if (used == s.size()) return v;
    } catch (const std::exception&) {
    }
  }
  throw std::runtime_error(where + ": '" + s + "' is not a cycle count (an unsigned 64-bit decimal)");
}

// "key=value key=value ..." of a program line; every field named in `need` must be there.
PerfProgram program_fields(const std::string& fields, const std::string& where, int line) {
  std::map<std::string, std::string> kv;
  std::istringstream in(fields);
  for (std::string f; in >> f;) {
    const size_t eq = f.find('=');
    if (eq == std::string::npos || eq == 0) throw std::runtime_error(where + ": program line field '" + f + "' is not key=value");
    kv[f.substr(0, eq)] = f.substr(eq + 1);
  }
  for (const char* need : {"hal", "unit", "platform", "policy", "buffering", "schedule"})
    if (!kv.count(need)) throw std::runtime_error(fmt::format("{}: program line without '{}='", where, need));
  return {kv["hal"], kv["unit"], kv["platform"], kv["policy"], kv["buffering"], kv["schedule"], line};
}

}  // namespace

PerfLog parse_perf_log(const std::string& text, const std::string& file) {
  static const std::regex step_re(R"(\[edgesim-perf\] step=([0-9]+) name=(\S+) cycles=(\S+)\s*)");
  static const std::regex total_re(R"(\[edgesim-perf\] total cycles=(\S+)\s*)");
  static const std::regex program_re(R"(\[edgesim-perf\] program (.*))");
  PerfLog log;
  std::set<int> seen;
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    const size_t at = line.find(kMarker);
    if (at == std::string::npos) continue;
    const std::string body = line.substr(at);
    const std::string where = fmt::format("{}:{}", file, n);
    std::smatch m;
    if (std::regex_match(body, m, step_re)) {
      if (m[1].length() > 9) throw std::runtime_error(fmt::format("{}: step index {} is out of range", where, m[1].str()));
      PerfStep s{std::stoi(m[1].str()), m[2].str(), number(m[3].str(), where), n};
      if (!seen.insert(s.step).second) throw std::runtime_error(fmt::format("{}: step {} appears twice", where, s.step));
      log.steps.push_back(std::move(s));
    } else if (std::regex_match(body, m, total_re)) {
      log.total = number(m[1].str(), where);
      log.total_line = n;
    } else if (std::regex_match(body, m, program_re)) {
      if (log.program)
        throw std::runtime_error(fmt::format("{}: a second program line (the first is line {}): two programs' output in one log?",
                                             where, log.program->line));
      log.program = program_fields(m[1].str(), where, n);
    } else {
      throw std::runtime_error(fmt::format(
          "{}: malformed profiling line '{}' (expected '[edgesim-perf] step=<k> name=<name> cycles=<n>', "
          "'[edgesim-perf] total cycles=<n>' or '[edgesim-perf] program hal=...')",
          where, body.size() > 80 ? body.substr(0, 77) + "..." : body));
    }
  }
  if (log.steps.empty())
    throw std::runtime_error(file + ": no profiling lines ('[edgesim-perf] step=...'): is this the output of a program "
                                    "edgesim codegen generated?");
  return log;
}

PerfLog read_perf_log(const std::string& path) {
  if (const std::string why = not_regular_file(path); !why.empty()) throw std::runtime_error(path + ": " + why);
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error(path + ": cannot read");
  std::ostringstream s;
  s << f.rdbuf();
  return parse_perf_log(s.str(), path);
}

std::string perf_token(const std::string& value) {
  if (value.empty()) return "-";
  std::string r = value;
  for (char& c : r)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '+' && c != '-' && c != '/') c = '_';
  return r;
}

std::string schedule_fingerprint(const Schedule& s) { return fmt::format("{:016x}", schedule_digest(s)); }

std::string perf_program_line(const Schedule& s, const std::string& hal, const std::string& platform) {
  return fmt::format("[edgesim-perf] program hal={} unit={} platform={} policy={} buffering={} schedule={}", perf_token(hal),
                     hal == "host" ? "ns" : "cycles", perf_token(platform), perf_token(s.policy), perf_token(s.buffering),
                     schedule_fingerprint(s));
}

}  // namespace edgesim::codegen
