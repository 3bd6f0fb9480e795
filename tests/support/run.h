// Test support: run the edgesim executable and capture exit status and combined output.
#pragma once
#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

#include "support/paths.h"

namespace edgesim::test {

struct RunResult {
  int status = -1;        // exit code (128+signal if killed)
  std::string output;     // stdout + stderr
};

// A shell command line, run as given (add 2>&1 to capture stderr too).
inline RunResult run_shell(const std::string& cmd) {
  RunResult r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf{};
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.output.append(buf.data(), n);
  int st = pclose(p);
  if (WIFEXITED(st)) r.status = WEXITSTATUS(st);
  else if (WIFSIGNALED(st)) r.status = 128 + WTERMSIG(st);
  return r;
}

// args is appended to the edgesim binary path verbatim (quote paths with spaces yourself).
inline RunResult run_edgesim(const std::string& args) {
  std::string cmd = "'";   // appended piecewise: GCC 12 warns -Wrestrict on "literal" + std::string
  cmd.append(edgesim_bin()).append("' ").append(args).append(" 2>&1");
  return run_shell(cmd);
}

// Output with its wrapped lines joined: a line break followed by the blanks of a continuation
// indent becomes one blank (text the reports wrap within 100 columns, checked as one line).
inline std::string unwrapped(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\n' && i + 1 < s.size() && s[i + 1] == ' ') {
      while (i + 1 < s.size() && s[i + 1] == ' ') ++i;
      out += ' ';
      continue;
    }
    out += s[i];
  }
  return out;
}

}  // namespace edgesim::test
