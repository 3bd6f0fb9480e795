// Helpers for the golden-data and e2e tests: a self-deleting temporary directory, .npy image
// construction, and a minimal hand-written ZIP writer. The writer exists because libzip will not
// emit what Deeploy's numpy writer does (a ZIP64 extra field in every local header, and local
// sizes of 0xFFFFFFFF with the real sizes only in that field and the central directory), which
// is exactly the case the npz reader must survive.
#pragma once
#include <atomic>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

#include "support/temp_dir.h"

namespace edgesim::test {


// A format-1.0 .npy image with the given header fields and raw little-endian data.
inline std::string make_npy(const std::string& descr, bool fortran, const std::string& shape_tuple,
                            const std::string& raw) {
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': " +
                     (fortran ? "True" : "False") + ", 'shape': " + shape_tuple + ", }";
  const size_t unpadded = 10 + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict += '\n';
  std::string s = "\x93NUMPY";
  s += '\x01';
  s += '\x00';
  s += static_cast<char>(dict.size() & 0xff);
  s += static_cast<char>(dict.size() >> 8);
  return s + dict + raw;
}

template <class T>
std::string raw_bytes(const std::vector<T>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

inline uint32_t crc32_of(const std::string& s) {
  uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : s) {
    c ^= b;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return ~c;
}

// Stored-only ZIP in the style of Deeploy's archives: every local header carries a ZIP64 extra
// field (id 1, 16 bytes: uncompressed and compressed size); with `ff_sizes` the local header's
// own size fields are 0xFFFFFFFF. The central directory holds the plain values, no extras.
inline std::string make_zip64_style(const std::vector<std::pair<std::string, std::string>>& members,
                                    bool ff_sizes) {
  std::string out, central;
  auto u16 = [](std::string& s, uint32_t v) { s += char(v & 0xff); s += char((v >> 8) & 0xff); };
  auto u32 = [&](std::string& s, uint32_t v) { u16(s, v & 0xffff); u16(s, v >> 16); };
  auto u64 = [&](std::string& s, uint64_t v) { u32(s, uint32_t(v)); u32(s, uint32_t(v >> 32)); };
  for (const auto& [name, data] : members) {
    const uint32_t offset = static_cast<uint32_t>(out.size());
    const uint32_t crc = crc32_of(data), size = static_cast<uint32_t>(data.size());
    u32(out, 0x04034b50); u16(out, 45); u16(out, 0); u16(out, 0); u16(out, 0); u16(out, 0x21);
    u32(out, crc); u32(out, ff_sizes ? 0xFFFFFFFFu : size); u32(out, ff_sizes ? 0xFFFFFFFFu : size);
    u16(out, static_cast<uint32_t>(name.size())); u16(out, 20);
    out += name;
    u16(out, 1); u16(out, 16); u64(out, size); u64(out, size);
    out += data;
    u32(central, 0x02014b50); u16(central, 45); u16(central, 45); u16(central, 0); u16(central, 0);
    u16(central, 0); u16(central, 0x21); u32(central, crc); u32(central, size); u32(central, size);
    u16(central, static_cast<uint32_t>(name.size())); u16(central, 0); u16(central, 0);
    u16(central, 0); u16(central, 0); u32(central, 0); u32(central, offset);
    central += name;
  }
  const uint32_t cd_offset = static_cast<uint32_t>(out.size());
  out += central;
  u32(out, 0x06054b50); u16(out, 0); u16(out, 0);
  u16(out, static_cast<uint32_t>(members.size())); u16(out, static_cast<uint32_t>(members.size()));
  u32(out, static_cast<uint32_t>(central.size())); u32(out, cd_offset); u16(out, 0);
  return out;
}

}  // namespace edgesim::test
