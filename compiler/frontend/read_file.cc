#include "compiler/frontend/read_file.h"

#include <filesystem>
#include <fstream>

#include "compiler/frontend/import.h"

namespace edgesim::frontend {

std::string read_file_bytes(const std::string& path, const std::string& what) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw ImportError(path + ": no such file");
  if (std::filesystem::is_directory(path, ec)) throw ImportError(path + ": is a directory, expected " + what);
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  if (!f) throw ImportError(path + ": cannot open file");
  const std::streamoff size = f.tellg();
  std::string bytes;
  if (size > 0) {
    bytes.resize(static_cast<size_t>(size));
    f.seekg(0);
    if (!f.read(bytes.data(), size)) throw ImportError(path + ": read error");
  } else {   // not seekable (a pipe, /proc): read to the end
    f.clear();
    f.seekg(0);
    bytes.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  }
  return bytes;
}

}  // namespace edgesim::frontend
