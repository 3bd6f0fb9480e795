// Test support for [sweep]: the networks and platform the sweep tests use, reading a file, and
// starting `edgesim sweep` as a child process that can be interrupted like Ctrl-C does.
#pragma once
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "support/paths.h"

namespace edgesim::test {

inline std::string tiny_net() { return source_dir() + "/models/tiny/model.onnx"; }
inline std::string resnet8_net() { return source_dir() + "/models/resnet8/model.onnx"; }
// Generated into the build tree by the `models` target (a copy may sit in the source tree).
inline std::string mobilenet_net() {
  const std::string built = std::string(EDGESIM_BUILD_DIR) + "/models/mobilenetv1_128/model.onnx";
  return std::filesystem::exists(built) ? built : source_dir() + "/models/mobilenetv1_128/model.onnx";
}
inline std::string gap8() { return source_dir() + "/platforms/gap8.yaml"; }

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline size_t count_lines(const std::string& path) {
  const std::string t = slurp(path);
  size_t n = 0;
  for (char c : t) n += c == '\n';
  return n;
}

// Runs `edgesim <args>` (no shell; output discarded) and sends it SIGINT as soon as `watch`
// holds at least `lines` complete lines. Returns the exit code (128 + signal when killed), or
// -1 when the file never reached that size within `timeout_s` (the child is then killed).
inline int run_and_interrupt(const std::vector<std::string>& args, const std::string& watch, size_t lines,
                             double timeout_s = 60) {
  std::vector<std::string> argv_s = {edgesim_bin()};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(nullptr);   // or the child's freopen would flush the test's buffered output again
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::freopen("/dev/null", "w", stdout);
    std::freopen("/dev/null", "w", stderr);
    ::execv(argv[0], argv.data());
    _exit(127);
  }
  bool sent = false;
  for (int waited_ms = 0; waited_ms < timeout_s * 1000; waited_ms += 2) {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (!sent && count_lines(watch) >= lines) {
      ::kill(pid, SIGINT);
      sent = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  return -1;
}

}  // namespace edgesim::test
