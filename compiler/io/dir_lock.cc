// DirLock (dir_lock.h).
#include "compiler/io/dir_lock.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace edgesim {

DirLock::DirLock(const std::string& path) {
  const std::filesystem::path p(path);
  const std::string dir = p.has_parent_path() ? p.parent_path().string() : std::string(".");
  fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  int rc = fd_ < 0 ? -1 : 0;
  if (rc == 0) {
    do rc = ::flock(fd_, LOCK_EX);
    while (rc != 0 && errno == EINTR);
  }
  if (rc != 0) {
    const std::string reason = std::strerror(errno);
    if (fd_ >= 0) ::close(fd_);
    throw std::runtime_error("cannot lock " + dir + " for " + path + ": " + reason);
  }
}

DirLock::~DirLock() {
  if (fd_ >= 0) ::close(fd_);   // closing the descriptor releases the flock
}

}  // namespace edgesim
