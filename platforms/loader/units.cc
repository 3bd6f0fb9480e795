// Unit parsing and formatting for platform values (see units.h for the accepted spellings).
// Numbers with a unit are scaled exactly in integer arithmetic, so `1.5MiB` is 1572864 and
// `1.3B` is rejected instead of being rounded.
#include "platforms/loader/units.h"

#include <cctype>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

namespace edgesim {
namespace {

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// "<digits>[.<digits>] [unit]" split into an exact mantissa, its decimal places and the unit.
struct Number {
  __int128 mantissa = 0;
  int decimals = 0;
  std::string unit;   // trimmed, original case
};

bool split_number(const std::string& text, Number& out) {
  std::string t = trim(text);
  size_t i = 0;
  bool any = false, dot = false;
  for (; i < t.size(); ++i) {
    char c = t[i];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      if (out.mantissa > (__int128)1'000'000'000'000'000'000) return false;   // absurdly long
      out.mantissa = out.mantissa * 10 + (c - '0');
      if (dot) ++out.decimals;
      any = true;
    } else if (c == '.' && !dot) {
      dot = true;
    } else {
      break;
    }
  }
  if (!any || (dot && out.decimals == 0)) return false;
  out.unit = trim(t.substr(i));
  return true;
}

// mantissa·mult / 10^decimals if that is a whole number fitting int64; otherwise false.
bool scale_exact(const Number& n, int64_t mult, int64_t& out) {
  __int128 v = n.mantissa * mult, div = 1;
  for (int k = 0; k < n.decimals; ++k) div *= 10;
  if (v % div != 0) return false;
  v /= div;
  if (v > (__int128)INT64_MAX) return false;
  out = static_cast<int64_t>(v);
  return true;
}

bool parse_hex(const std::string& t, int64_t& out) {
  if (t.size() < 3 || t[0] != '0' || (t[1] != 'x' && t[1] != 'X')) return false;
  uint64_t v = 0;
  auto r = std::from_chars(t.data() + 2, t.data() + t.size(), v, 16);
  if (r.ec != std::errc() || r.ptr != t.data() + t.size() || v > (uint64_t)INT64_MAX) return false;
  out = static_cast<int64_t>(v);
  return true;
}

[[noreturn]] void fail(const std::string& text, const char* what, const char* expected) {
  throw UnitError(fmt::format("'{}' is not {} (expected {})", text, what, expected));
}

}  // namespace

int64_t parse_size(const std::string& text) {
  static const char* kExpect = "e.g. 64KiB, 2MiB, 512kB or a byte count";
  int64_t v = 0;
  if (parse_hex(trim(text), v)) return v;
  Number n;
  if (!split_number(text, n)) fail(text, "a size", kExpect);
  const std::string u = lower(n.unit);
  int64_t mult = 0;
  if (u.empty() || u == "b") mult = 1;
  else if (u == "kib") mult = int64_t{1} << 10;
  else if (u == "mib") mult = int64_t{1} << 20;
  else if (u == "gib") mult = int64_t{1} << 30;
  else if (u == "kb") mult = 1000;
  else if (u == "mb") mult = 1000 * 1000;
  else if (u == "gb") mult = 1000 * 1000 * 1000;
  else fail(text, "a size", kExpect);
  if (!scale_exact(n, mult, v)) fail(text, "a whole number of bytes", kExpect);
  return v;
}

int64_t parse_frequency(const std::string& text) {
  static const char* kExpect = "e.g. 360MHz, 50 MHz, 1GHz or a number of Hz";
  Number n;
  if (!split_number(text, n)) fail(text, "a frequency", kExpect);
  const std::string u = lower(n.unit);
  int64_t mult = 0;
  if (u.empty() || u == "hz") mult = 1;
  else if (u == "khz") mult = 1000;
  else if (u == "mhz") mult = 1000 * 1000;
  else if (u == "ghz") mult = 1000 * 1000 * 1000;
  else fail(text, "a frequency", kExpect);
  int64_t v = 0;
  if (!scale_exact(n, mult, v)) fail(text, "a whole number of Hz", kExpect);
  if (v <= 0) fail(text, "a positive frequency", kExpect);
  return v;
}

double parse_bandwidth(const std::string& text) {
  static const char* kExpect = "e.g. 8B/cycle, 32 B/cycle or a number of bytes per cycle";
  Number n;
  if (!split_number(text, n)) fail(text, "a bandwidth", kExpect);
  std::string u;
  for (char c : lower(n.unit))
    if (!std::isspace(static_cast<unsigned char>(c))) u += c;
  if (!(u.empty() || u == "b/cycle" || u == "b/cyc")) fail(text, "a bandwidth", kExpect);
  double v = static_cast<double>(n.mantissa);
  return v / std::pow(10.0, n.decimals);
}

int64_t parse_cycles(const std::string& text) {
  static const char* kExpect = "a whole number of cycles, e.g. 14 or 14 cycles";
  Number n;
  if (!split_number(text, n) || n.decimals != 0) fail(text, "a cycle count", kExpect);
  const std::string u = lower(n.unit);
  if (!(u.empty() || u == "cycles" || u == "cycle")) fail(text, "a cycle count", kExpect);
  int64_t v = 0;
  if (!scale_exact(n, 1, v)) fail(text, "a cycle count", kExpect);
  return v;
}

int64_t parse_int(const std::string& text) {
  Number n;
  int64_t v = 0;
  if (!split_number(text, n) || n.decimals != 0 || !n.unit.empty() || !scale_exact(n, 1, v))
    fail(text, "an integer", "a whole non-negative number");
  return v;
}

int64_t parse_address(const std::string& text) {
  int64_t v = 0;
  if (parse_hex(trim(text), v)) return v;
  Number n;
  if (!split_number(text, n) || n.decimals != 0 || !n.unit.empty() || !scale_exact(n, 1, v))
    fail(text, "an address", "e.g. 0x1c000000");
  return v;
}

bool parse_bool(const std::string& text) {
  const std::string t = trim(text);
  if (t == "true") return true;
  if (t == "false") return false;
  fail(text, "a boolean", "true or false");
}

namespace {

// "<number> <unit>" with a unit of the table: the value in the table's base unit.
double scaled(const std::string& text, const char* what, const char* expect,
              std::initializer_list<std::pair<const char*, double>> units) {
  Number n;
  if (!split_number(text, n)) fail(text, what, expect);
  std::string u;
  for (char c : n.unit)
    if (!std::isspace(static_cast<unsigned char>(c))) u += c;
  if (u.rfind("\xc2\xb5", 0) == 0) u.replace(0, 2, "u");   // µ (UTF-8) as u
  for (const auto& [name, mult] : units)
    if (u == name) return static_cast<double>(n.mantissa) / std::pow(10.0, n.decimals) * mult;
  fail(text, what, expect);
}

}  // namespace

double parse_energy_pj(const std::string& text) {
  return scaled(text, "an energy", "e.g. 0.5 pJ, 120 fJ or 1.2 nJ",
                {{"fJ", 1e-3}, {"pJ", 1.0}, {"nJ", 1e3}, {"uJ", 1e6}});
}

double parse_power_w(const std::string& text) {
  return scaled(text, "a power", "e.g. 1.5 mW, 300 uW or 0 W",
                {{"W", 1.0}, {"mW", 1e-3}, {"uW", 1e-6}, {"nW", 1e-9}});
}

std::string format_size(int64_t bytes) {
  struct U { int64_t mult; const char* name; };
  // Decimal first: a count divisible by 1000 was almost always written that way (64000, 1024000).
  static const U units[] = {{1000 * 1000 * 1000, "GB"},  {1000 * 1000, "MB"},
                            {1000, "kB"},                {int64_t{1} << 30, "GiB"},
                            {int64_t{1} << 20, "MiB"},   {int64_t{1} << 10, "KiB"}};
  for (const auto& u : units)
    if (bytes > 0 && bytes % u.mult == 0)
      return fmt::format("{} B ({} {})", bytes, bytes / u.mult, u.name);
  return fmt::format("{} B", bytes);
}

std::string format_frequency(int64_t hz) {
  if (hz > 0 && hz % 1'000'000'000 == 0) return fmt::format("{} GHz", hz / 1'000'000'000);
  if (hz > 0 && hz % 1'000'000 == 0) return fmt::format("{} MHz", hz / 1'000'000);
  if (hz > 0 && hz % 1'000 == 0) return fmt::format("{} kHz", hz / 1'000);
  return fmt::format("{} Hz", hz);
}

std::string format_number(double v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string format_bandwidth(double bytes_per_cycle) {
  return format_number(bytes_per_cycle) + " B/cycle";
}

std::string format_address(int64_t addr) { return fmt::format("{:#x}", addr); }

std::string format_energy_pj(double pj) { return format_number(pj) + " pJ"; }

std::string format_power_w(double w) {
  if (w != 0 && std::fabs(w) < 1e-3) return format_number(w * 1e6) + " uW";
  if (w != 0 && std::fabs(w) < 1) return format_number(w * 1e3) + " mW";
  return format_number(w) + " W";
}

}  // namespace edgesim
