// DORY text golden files (input.txt, out_layer<N>.txt, output.txt): the reader algorithm of
// docs/verify.md "Golden file formats", nothing more permissive. Line 1 is a header in one of
// several mislabelled variants, so it is skipped unread; each further line is one integer,
// optionally written with an all-zero fraction ("36.000"), followed by "," and optionally "\".
// Anything else is rejected with file:line so a corrupted or foreign file never passes silently.
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "compiler/golden/detail.h"
#include "compiler/golden/golden.h"

namespace edgesim {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Parses `-?[0-9]+(\.0+)?` into v; on failure returns a reason.
std::string parse_value(std::string_view s, int64_t& v) {
  size_t i = 0;
  const bool neg = !s.empty() && s[0] == '-';
  if (neg) ++i;
  const size_t digits_begin = i;
  uint64_t mag = 0;
  const uint64_t limit = neg ? uint64_t{1} << 63 : uint64_t{std::numeric_limits<int64_t>::max()};
  for (; i < s.size() && is_digit(s[i]); ++i) {
    const uint64_t d = static_cast<uint64_t>(s[i] - '0');
    if (mag > (limit - d) / 10) return "value out of the int64 range";
    mag = mag * 10 + d;
  }
  if (i == digits_begin) {
    if (i < s.size()) return fmt::format("unexpected character '{}'", s[i]);
    return "missing digits";
  }
  if (i < s.size() && s[i] == '.') {
    const size_t frac_begin = ++i;
    bool nonzero = false;
    for (; i < s.size() && is_digit(s[i]); ++i) nonzero |= s[i] != '0';
    if (i == frac_begin) return "missing digits after '.'";
    if (i == s.size() && nonzero) return "non-zero fractional part (golden values are integers)";
  }
  if (i < s.size()) return fmt::format("unexpected character '{}'", s[i]);
  v = neg ? static_cast<int64_t>(0 - mag) : static_cast<int64_t>(mag);
  return "";
}

}  // namespace

std::vector<int64_t> read_dory_txt(const std::string& path) {
  const std::string text = golden_detail::read_file(path);
  std::vector<int64_t> values;
  size_t pos = 0;
  int64_t line_no = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();   // last line may lack its newline
    std::string_view line(text.data() + pos, end - pos);
    pos = end + 1;
    if (++line_no == 1) continue;                       // header: never interpreted
    while (!line.empty() && is_space(line.back())) line.remove_suffix(1);
    if (!line.empty() && line.back() == '\\') line.remove_suffix(1);
    if (!line.empty() && line.back() == ',') line.remove_suffix(1);
    if (line.empty()) continue;
    int64_t v = 0;
    const std::string err = parse_value(line, v);
    if (!err.empty())
      throw GoldenError(fmt::format("{}:{}: {} in '{}'", path, line_no, err, std::string(line)));
    values.push_back(v);
  }
  return values;
}

}  // namespace edgesim
