// Unit spellings of platform values: sizes (binary and decimal), frequencies, bandwidths,
// cycles, addresses and booleans, including the rejected spellings and their messages.
#include <catch2/catch.hpp>

#include <string>

#include "platforms/loader/units.h"

using namespace edgesim;

TEST_CASE("sizes parse binary and decimal units exactly", "[platforms][units]") {
  struct Case { const char* text; int64_t bytes; };
  const Case cases[] = {
      {"262144", 262144},     {"0x40000", 262144},   {"64B", 64},
      {"64KiB", 65536},       {"64 KiB", 65536},     {"2MiB", 2097152},
      {"1GiB", 1073741824},   {"64kB", 64000},       {"512KB", 512000},
      {"8MB", 8000000},       {"1GB", 1000000000},   {"1.5MiB", 1572864},
      {"0", 0},               {"64kib", 65536},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    CHECK(parse_size(c.text) == c.bytes);
  }
}

TEST_CASE("bad sizes are rejected with the offending text", "[platforms][units]") {
  for (const char* bad : {"64KB/s", "64 MHz", "-1", "KiB", "", "1.3B", "64,000", "0x", "6.KiB"}) {
    INFO(bad);
    CHECK_THROWS_AS(parse_size(bad), UnitError);
  }
  CHECK_THROWS_WITH(parse_size("64KB/s"), Catch::StartsWith("'64KB/s' is not a size"));
}

TEST_CASE("frequencies", "[platforms][units]") {
  CHECK(parse_frequency("360MHz") == 360'000'000);
  CHECK(parse_frequency("50 MHz") == 50'000'000);
  CHECK(parse_frequency("1GHz") == 1'000'000'000);
  CHECK(parse_frequency("1.5GHz") == 1'500'000'000);
  CHECK(parse_frequency("32kHz") == 32'000);
  CHECK(parse_frequency("100000000") == 100'000'000);
  CHECK(parse_frequency("100000000Hz") == 100'000'000);
  CHECK_THROWS_WITH(parse_frequency("360 MB"), Catch::StartsWith("'360 MB' is not a frequency"));
  CHECK_THROWS_AS(parse_frequency("0MHz"), UnitError);
  CHECK_THROWS_AS(parse_frequency("fast"), UnitError);
}

TEST_CASE("bandwidths, cycles, integers, addresses, booleans", "[platforms][units]") {
  CHECK(parse_bandwidth("8B/cycle") == 8.0);
  CHECK(parse_bandwidth("32 B/cycle") == 32.0);
  CHECK(parse_bandwidth("0.5 B/cycle") == 0.5);
  CHECK(parse_bandwidth("8") == 8.0);
  CHECK_THROWS_WITH(parse_bandwidth("8 B/s"), Catch::StartsWith("'8 B/s' is not a bandwidth"));

  CHECK(parse_cycles("14") == 14);
  CHECK(parse_cycles("14 cycles") == 14);
  CHECK_THROWS_AS(parse_cycles("1.5"), UnitError);
  CHECK_THROWS_AS(parse_cycles("14 ns"), UnitError);

  CHECK(parse_int("8") == 8);
  CHECK_THROWS_WITH(parse_int("8.0"), Catch::StartsWith("'8.0' is not an integer"));
  CHECK_THROWS_AS(parse_int("eight"), UnitError);

  CHECK(parse_address("0x1C000000") == 0x1C000000);
  CHECK(parse_address("4096") == 4096);
  CHECK_THROWS_AS(parse_address("0xZZ"), UnitError);

  CHECK(parse_bool("true"));
  CHECK_FALSE(parse_bool("false"));
  CHECK_THROWS_WITH(parse_bool("yes"), Catch::StartsWith("'yes' is not a boolean"));
}

TEST_CASE("formatting round-trips through parsing", "[platforms][units]") {
  CHECK(format_size(262144) == "262144 B (256 KiB)");
  CHECK(format_size(64000) == "64000 B (64 kB)");
  CHECK(format_size(38836) == "38836 B");
  CHECK(format_frequency(360'000'000) == "360 MHz");
  CHECK(format_bandwidth(8) == "8 B/cycle");
  CHECK(format_bandwidth(0.5) == "0.5 B/cycle");
  CHECK(format_address(0x1C000000) == "0x1c000000");
  for (int64_t v : {int64_t{1}, int64_t{65536}, int64_t{64000}, int64_t{1572864}})
    CHECK(parse_size(format_size(v).substr(0, format_size(v).find(' '))) == v);
}
