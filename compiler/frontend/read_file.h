// Whole-file reads of the front end (ONNX models, TensorProto files). A regular file is mapped
// read-only (mmap), so a model's bytes are parsed straight from the page cache: no copy, no
// zero-filled buffer, and the pages are dropped when the parse is done. A file that cannot be
// mapped (an empty one) is read into memory instead; anything but a regular file (a FIFO,
// /dev/zero) is refused. Internal to compiler/frontend.
#pragma once
#include <cstddef>
#include <string>

namespace edgesim::frontend {

class FileBytes {
 public:
  // Throws ImportError "<path>: no such file" / "is a directory, expected <what>" /
  // "is a FIFO (named pipe), not a regular file" (and other kinds) / "cannot open file" /
  // "read error".
  FileBytes(const std::string& path, const std::string& what);
  ~FileBytes();
  FileBytes(const FileBytes&) = delete;
  FileBytes& operator=(const FileBytes&) = delete;

  const char* data() const { return map_ ? static_cast<const char*>(map_) : copy_.data(); }
  size_t size() const { return map_ ? size_ : copy_.size(); }

 private:
  void* map_ = nullptr;
  size_t size_ = 0;
  std::string copy_;
};

}  // namespace edgesim::frontend
