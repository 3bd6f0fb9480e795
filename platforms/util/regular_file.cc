// Regular-file checks for the readers of user files (regular_file.h).
#include "platforms/util/regular_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace edgesim {
namespace {

std::string kind_problem(mode_t mode) {
  if (S_ISREG(mode)) return "";
  if (S_ISDIR(mode)) return "is a directory";
  const char* kind = S_ISFIFO(mode)  ? "a FIFO (named pipe)"
                     : S_ISCHR(mode) ? "a character device"
                     : S_ISBLK(mode) ? "a block device"
                     : S_ISSOCK(mode) ? "a socket"
                                      : "a special file";
  return std::string("is ") + kind + ", not a regular file";
}

}  // namespace

std::string not_regular_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "";   // missing or unreadable: the reader reports it
  return kind_problem(st.st_mode);
}

int open_regular_file(const std::string& path, std::string& why) {
  why = not_regular_file(path);   // before open(): opening a FIFO may wait for a writer
  if (!why.empty()) return -1;
  // O_NONBLOCK: should the path have become a FIFO since, open() still returns at once; it does
  // not change reads of a regular file.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    why = "cannot open";
    return -1;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    why = ::fstat(fd, &st) != 0 ? "cannot open" : kind_problem(st.st_mode);
    ::close(fd);
    return -1;
  }
  return fd;
}

}  // namespace edgesim
