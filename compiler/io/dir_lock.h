// DirLock: an exclusive advisory lock (flock(2)) on the directory that holds a file, for the
// read-merge-write of a file that several edgesim processes update (the tune cache: two `tune`
// runs, or the workers of a tuned sweep, sharing one --cache). Locking the directory rather than
// the file itself survives write_file_atomically's rename, and leaves no lock file behind.
// Blocks until the lock is free; released when the object is destroyed (or the process ends).
#pragma once
#include <string>

namespace edgesim {

class DirLock {
 public:
  // Throws std::runtime_error("cannot lock <dir> for <path>: <reason>") when the directory cannot
  // be opened or locked.
  explicit DirLock(const std::string& path);
  ~DirLock();
  DirLock(const DirLock&) = delete;
  DirLock& operator=(const DirLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace edgesim
