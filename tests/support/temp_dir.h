// Test support: a private temporary directory, removed when the object goes out of scope.
// Tests write generated inputs (bad YAML, truncated ONNX, synthetic archives) here, never into
// the repository.
#pragma once
#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace edgesim::test {

class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    path_ = std::filesystem::temp_directory_path() /
            ("edgesim-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // Full path of <dir>/<name> (the file need not exist).
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  // Writes `content` (binary) to <dir>/<name>, creating sub-directories; returns the path.
  std::string write(const std::string& name, const std::string& content) const {
    const auto p = path_ / name;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream f(p, std::ios::binary);
    f.write(content.data(), static_cast<std::streamsize>(content.size()));
    return p.string();
  }

 private:
  std::filesystem::path path_;
};

}  // namespace edgesim::test
