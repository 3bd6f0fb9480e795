// read_dory_txt: the reader algorithm of docs/verify.md "Golden file formats" on synthetic files
// covering every header and value variant found in the DORY examples, plus the rejections.
#include <catch2/catch.hpp>

#include "compiler/golden/golden.h"
#include "golden/test_util.h"

using edgesim::GoldenError;
using edgesim::read_dory_txt;
using Catch::Matchers::Contains;

TEST_CASE("DORY txt: header variants are skipped unread", "[golden][dory_txt]") {
  edgesim::test::TempDir d;
  // Usual form, trailing backslash, no '#', empty name, and a header that even looks numeric.
  for (const std::string header :
       {"# input (shape [96, 160, 1]),", "# input (shape [1, 140]),\\", "relu1 (shape [1, 25, 5, 64]),\\",
        "#  (shape [1, 40, 40]),", "17,"}) {
    const auto p = d.write("f.txt", header + "\n1,\n2,\n");
    CHECK(read_dory_txt(p) == std::vector<int64_t>{1, 2});
  }
}

TEST_CASE("DORY txt: value styles and line endings", "[golden][dory_txt]") {
  edgesim::test::TempDir d;
  SECTION("plain, .000 fractions, backslash continuation, negatives") {
    const auto p = d.write("a.txt", "# x (shape [5]),\\\n56,\n36.000,\n134.000000,\n-3415.000,\\\n-7,\\\n");
    CHECK(read_dory_txt(p) == std::vector<int64_t>{56, 36, 134, -3415, -7});
  }
  SECTION("last line without newline") {
    const auto p = d.write("b.txt", "# x\n1,\n2,\n3.000,");
    CHECK(read_dory_txt(p) == std::vector<int64_t>{1, 2, 3});
  }
  SECTION("trailing whitespace and empty lines are skipped") {
    const auto p = d.write("c.txt", "# x\n1,  \n\n,\n2,\\ \n\n");
    CHECK(read_dory_txt(p) == std::vector<int64_t>{1, 2});
  }
  SECTION("header only, and an empty file") {
    CHECK(read_dory_txt(d.write("d.txt", "# empty (shape [0]),\n")).empty());
    CHECK(read_dory_txt(d.write("e.txt", "")).empty());
  }
  SECTION("int64 extremes") {
    const auto p = d.write("f.txt", "#\n9223372036854775807,\n-9223372036854775808,\n");
    CHECK(read_dory_txt(p) == std::vector<int64_t>{INT64_MAX, INT64_MIN});
  }
}

TEST_CASE("DORY txt: bad values are rejected with file:line", "[golden][dory_txt]") {
  edgesim::test::TempDir d;
  struct Bad { std::string body, line, reason; };
  for (const Bad& b : std::vector<Bad>{
           {"1,\n2.500,\n", ":3:", "non-zero fractional part"},
           {"1,\n2,\n3.0001,\n", ":4:", "non-zero fractional part"},
           {"1,\nabc,\n", ":3:", "unexpected character 'a'"},
           {"1,\n 2,\n", ":3:", "unexpected character ' '"},
           {"1,\n2,3,\n", ":3:", "unexpected character ','"},
           {"1e3,\n", ":2:", "unexpected character 'e'"},
           {"-,\n", ":2:", "missing digits"},
           {"5.,\n", ":2:", "missing digits after '.'"},
           {"99999999999999999999,\n", ":2:", "out of the int64 range"},
       }) {
    const auto p = d.write("bad.txt", "# hdr (shape [2]),\n" + b.body);
    CAPTURE(b.body);
    CHECK_THROWS_WITH(read_dory_txt(p), Contains(p + b.line) && Contains(b.reason));
  }
}

TEST_CASE("DORY txt: missing file names the path", "[golden][dory_txt]") {
  CHECK_THROWS_AS(read_dory_txt("/nonexistent/out_layer0.txt"), GoldenError);
  CHECK_THROWS_WITH(read_dory_txt("/nonexistent/out_layer0.txt"), Contains("/nonexistent/out_layer0.txt"));
}

TEST_CASE("DORY bytes -> int32 words are little-endian two's complement", "[golden][dory_txt]") {
  CHECK(edgesim::dory_bytes_to_int32({0x78, 0x56, 0x34, 0x12, 0xff, 0xff, 0xff, 0xff}) ==
        std::vector<int64_t>{0x12345678, -1});
  CHECK_THROWS_AS(edgesim::dory_bytes_to_int32({1, 2, 3}), GoldenError);
  CHECK_THROWS_AS(edgesim::dory_bytes_to_int32({1, 2, 3, 256}), GoldenError);
}
