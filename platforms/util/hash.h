// The one hash helper of edgesim: 64-bit FNV-1a (Fowler–Noll–Vo; offset basis 14695981039346656037,
// prime 1099511628211, the published parameters of the 64-bit variant). It identifies content —
// platform specs (platform_hash), tensors (`verify --checksum`), files in a run's provenance — and
// keys memo tables; it is not a cryptographic hash. It lives in platforms/, the bottom of the
// include graph, so every layer can use it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace edgesim {

class Fnv1a {
 public:
  static constexpr uint64_t kOffset = 14695981039346656037ull;
  static constexpr uint64_t kPrime = 1099511628211ull;

  Fnv1a& bytes(const void* p, size_t n) {
    const auto* c = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < n; ++i) h_ = (h_ ^ c[i]) * kPrime;
    return *this;
  }
  Fnv1a& text(std::string_view s) { return bytes(s.data(), s.size()); }
  // One step per 64-bit word instead of per byte: fast mixing for memo-table keys (not the
  // byte-wise FNV-1a value of the word's bytes).
  Fnv1a& word(uint64_t v) {
    h_ = (h_ ^ v) * kPrime;
    return *this;
  }
  uint64_t value() const { return h_; }

 private:
  uint64_t h_ = kOffset;
};

// FNV-1a of a file's bytes; throws std::runtime_error naming the path when it cannot be read.
uint64_t fnv1a_file(const std::string& path);
// "fnv1a:0123456789abcdef" — how provenance records print a hash.
std::string hash_label(uint64_t h);

}  // namespace edgesim
