#include "platforms/util/printable.h"

namespace edgesim {

std::string printable(std::string_view s) {
  static const char hex[] = "0123456789abcdef";
  std::string r;
  r.reserve(s.size());
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c <= 0x7e) {
      r += ch;
    } else {
      r += "\\x";
      r += hex[c >> 4];
      r += hex[c & 15];
    }
  }
  return r;
}

}  // namespace edgesim
