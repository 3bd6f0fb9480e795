// Atomic file write: create "<dir>/.<name>.tmp-<pid>-<n>" exclusively (mode 0666 minus the
// umask, like an ordinary file), write everything, fsync, close, rename over the destination.
// rename(2) within one directory is atomic on POSIX file systems.
#include "compiler/io/write_file.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include <fcntl.h>
#include <unistd.h>

namespace edgesim {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& reason) {
  throw std::runtime_error("cannot write " + path + ": " + reason);
}

std::string errno_text() { return std::strerror(errno); }

// Opens a fresh temporary file next to `path`; returns its descriptor and sets `tmp`.
int open_temp(const std::string& path, std::string& tmp) {
  static std::atomic<unsigned> counter{0};
  const std::filesystem::path p(path);
  const std::filesystem::path dir = p.has_parent_path() ? p.parent_path() : std::filesystem::path(".");
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string name = ".";
    name.append(p.filename().string()).append(".tmp-").append(std::to_string(::getpid()));
    name.append("-").append(std::to_string(counter++));
    tmp = (dir / name).string();
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) return fd;
    if (errno != EEXIST) fail(path, errno_text());
  }
  fail(path, "no free temporary file name in " + dir.string());
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& text) {
  if (path.empty()) fail(path, "empty path");
  if (std::filesystem::path(path).filename().empty()) fail(path, "path names a directory");
  std::string tmp;
  const int fd = open_temp(path, tmp);
  auto abandon = [&](const std::string& reason) {
    ::close(fd);
    ::unlink(tmp.c_str());
    fail(path, reason);
  };
  const char* p = text.data();
  size_t left = text.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      abandon(errno_text());
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) abandon(errno_text());
  if (::close(fd) != 0) {
    const std::string reason = errno_text();
    ::unlink(tmp.c_str());
    fail(path, reason);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string reason = errno_text();
    ::unlink(tmp.c_str());
    fail(path, reason);
  }
}

}  // namespace edgesim
