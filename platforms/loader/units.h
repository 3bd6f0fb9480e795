// Units of platform YAML values: parsing the spellings the platform files use and formatting
// values back for `edgesim describe`.
//
// Accepted spellings (docs/platforms.md):
//   size       `262144`, `0x40000`, `64B`, `64KiB`, `2MiB`, `1GiB` (binary, 1024-based),
//              `64kB`, `512KB`, `8MB`, `1GB` (decimal, 1000-based, as DORY/Deeploy write budgets);
//              a fractional mantissa is allowed when the result is a whole byte count (`1.5MiB`).
//   frequency  `360MHz`, `50 MHz`, `1GHz`, `32kHz`, `100000000` or `100000000Hz` (whole Hz).
//   bandwidth  `8B/cycle`, `32 B/cycle`, `0.5 B/cycle`, or a plain number (bytes per cycle).
//   cycles     `14`, `14 cycles`.
//   integers   decimal; addresses also `0x...`.
//   booleans   `true` / `false` only.
//   energy     `0.5 pJ`, `120 fJ`, `1.2 nJ`, `3 uJ` (stored in pJ); power `1.5 mW`, `300 uW`, `0 W`
//              (stored in W). Energy keys name what the energy is per (`read_per_byte`, `per_mac`).
// Unit words are matched case-insensitively; whitespace between number and unit is allowed.
// Every parse function throws UnitError whose message is the whole diagnosis, e.g.
// "'64KB/s' is not a size (expected e.g. 64KiB, 2MiB, 512kB or a byte count)"; the loader adds
// file:line and key.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

namespace edgesim {

class UnitError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

int64_t parse_size(const std::string& text);
int64_t parse_frequency(const std::string& text);
double parse_bandwidth(const std::string& text);
int64_t parse_cycles(const std::string& text);
int64_t parse_int(const std::string& text);        // non-negative decimal
int64_t parse_address(const std::string& text);    // non-negative decimal or 0x hex
bool parse_bool(const std::string& text);
double parse_energy_pj(const std::string& text);   // picojoules
double parse_power_w(const std::string& text);     // watts

// "262144 B (256 KiB)", "64000 B (64 kB)", "360 MHz", "8 B/cycle", "0x1c000000".
std::string format_size(int64_t bytes);
std::string format_frequency(int64_t hz);
std::string format_bandwidth(double bytes_per_cycle);
std::string format_address(int64_t addr);
std::string format_energy_pj(double pj);   // "0.5 pJ"
std::string format_power_w(double w);      // "1.5 mW", "300 uW", "0 W"
// Shortest exact decimal spelling of a double ("8", "0.5"), used for bandwidths and hashing.
std::string format_number(double v);

}  // namespace edgesim
