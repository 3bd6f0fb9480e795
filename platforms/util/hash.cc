// File hashing and the printed form of a hash (hash.h).
#include "platforms/util/hash.h"

#include <cstdio>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

namespace edgesim {

uint64_t fnv1a_file(const std::string& path) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), std::fclose);
  if (!f) throw std::runtime_error(path + ": cannot be read");
  Fnv1a h;
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f.get())) > 0) h.bytes(buf, n);
  if (std::ferror(f.get())) throw std::runtime_error(path + ": read error");
  return h.value();
}

std::string hash_label(uint64_t h) { return fmt::format("fnv1a:{:016x}", h); }

}  // namespace edgesim
