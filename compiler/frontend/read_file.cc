#include "compiler/frontend/read_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sanitizer/asan_interface.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "compiler/frontend/import.h"
#include "platforms/util/regular_file.h"

namespace edgesim::frontend {

FileBytes::FileBytes(const std::string& path, const std::string& what) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw ImportError(path + ": no such file");
  if (std::filesystem::is_directory(path, ec)) throw ImportError(path + ": is a directory, expected " + what);
  std::string why;   // a FIFO or device is refused before it can block or never end
  const int fd = open_regular_file(path, why);
  if (fd < 0) throw ImportError(path + ": " + (why == "cannot open" ? "cannot open file" : why));
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    void* m = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (m != MAP_FAILED) {
      // Under ASan only (a no-op otherwise): the kernel may hand out pages SystemC used as a
      // coroutine stack and unmapped, whose shadow still holds that stack's frame poison (LLVM
      // 14's ASan leaves the shadow of memory it did not map as it was); a fresh mapping is
      // addressable. docs/hardening.md, "Sanitizers".
      ASAN_UNPOISON_MEMORY_REGION(m, static_cast<size_t>(st.st_size));
      map_ = m;
      size_ = static_cast<size_t>(st.st_size);
    }
  }
  ::close(fd);
  if (map_) return;
  std::ifstream f(path, std::ios::binary);   // not mappable: read to the end
  if (!f) throw ImportError(path + ": cannot open file");
  copy_.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  if (f.bad()) throw ImportError(path + ": read error");
}

FileBytes::~FileBytes() {
  if (map_) ::munmap(map_, size_);
}

}  // namespace edgesim::frontend
