// Reader of the generated programs' profiling lines (perf_log.h).
#include "compiler/codegen/perf_log.h"

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "platforms/util/regular_file.h"

namespace edgesim::codegen {

namespace {

const char* kMarker = "[edgesim-perf]";

int64_t number(const std::string& s, const std::string& where) {
  try {
    size_t used = 0;
    const long long v = std::stoll(s, &used);
    if (used == s.size() && v >= 0) return v;
  } catch (const std::exception&) {
  }
  throw std::runtime_error(where + ": '" + s + "' is not a cycle count");
}

}  // namespace

PerfLog parse_perf_log(const std::string& text, const std::string& file) {
  static const std::regex step_re(R"(\[edgesim-perf\] step=([0-9]+) name=(\S+) cycles=(\S+)\s*)");
  static const std::regex total_re(R"(\[edgesim-perf\] total cycles=(\S+)\s*)");
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
      PerfStep s{std::stoi(m[1].str()), m[2].str(), number(m[3].str(), where), n};
      if (!seen.insert(s.step).second) throw std::runtime_error(fmt::format("{}: step {} appears twice", where, s.step));
      log.steps.push_back(std::move(s));
    } else if (std::regex_match(body, m, total_re)) {
      log.total = number(m[1].str(), where);
    } else {
      throw std::runtime_error(fmt::format(
          "{}: malformed profiling line '{}' (expected '[edgesim-perf] step=<k> name=<name> cycles=<n>' or "
          "'[edgesim-perf] total cycles=<n>')",
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

}  // namespace edgesim::codegen
