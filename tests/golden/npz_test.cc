// read_npz / parse_npy on archives built at test time: stored and deflated members written with
// libzip, Deeploy-style ZIP64 local headers (including 0xFFFFFFFF local sizes) written by hand,
// Fortran-order arrays, zero-size shapes, every supported descr, and the rejections.
#include <catch2/catch.hpp>
#include <zip.h>

#include <fstream>
#include <iterator>

#include "compiler/golden/golden.h"
#include "golden/test_util.h"
#include "support/paths.h"

using namespace edgesim;
using edgesim::test::make_npy;
using edgesim::test::raw_bytes;
using Catch::Matchers::Contains;

namespace {

// Writes members with libzip; `deflate` selects the compression method of every member.
std::string write_zip(const edgesim::test::TempDir& d, const std::string& name,
                      const std::vector<std::pair<std::string, std::string>>& members, bool deflate) {
  const std::string path = (d.path() / name).string();
  int err = 0;
  zip_t* z = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
  REQUIRE(z != nullptr);
  for (const auto& [mname, data] : members) {
    zip_source_t* src = zip_source_buffer(z, data.data(), data.size(), 0);
    REQUIRE(src != nullptr);
    const zip_int64_t idx = zip_file_add(z, mname.c_str(), src, ZIP_FL_OVERWRITE);
    REQUIRE(idx >= 0);
    REQUIRE(zip_set_file_compression(z, static_cast<zip_uint64_t>(idx),
                                     deflate ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 9) == 0);
  }
  REQUIRE(zip_close(z) == 0);   // the buffers above are read here, while still alive
  return path;
}

std::vector<std::pair<std::string, std::string>> sample_members() {
  return {
      {"b.npy", make_npy("<i8", false, "(2, 3)", raw_bytes<int64_t>({1, -2, 3, -4, 5, 6}))},
      {"a.npy", make_npy("|i1", false, "(4,)", raw_bytes<int8_t>({-128, 0, 7, 127}))},
      {"c.npy", make_npy("<f4", false, "(1, 2)", raw_bytes<float>({0.5f, -3.0f}))},
  };
}

void check_sample(const std::vector<GoldenArray>& a) {
  REQUIRE(a.size() == 3);
  // Archive order is kept, never sorted by name: arrays match graph tensors by position.
  CHECK(a[0].name == "b");
  CHECK(a[0].shape == Shape{2, 3});
  CHECK(a[0].values == std::vector<double>{1, -2, 3, -4, 5, 6});
  CHECK_FALSE(a[0].is_float);
  CHECK(a[1].name == "a");
  CHECK(a[1].values == std::vector<double>{-128, 0, 7, 127});
  CHECK(a[2].is_float);
  CHECK(a[2].values == std::vector<double>{0.5, -3.0});
}

}  // namespace

TEST_CASE("npz: stored and deflated members (libzip-written)", "[golden][npz]") {
  edgesim::test::TempDir d;
  check_sample(read_npz(write_zip(d, "stored.npz", sample_members(), false)));
  check_sample(read_npz(write_zip(d, "deflate.npz", sample_members(), true)));
}

TEST_CASE("npz: ZIP64 local extra fields, 0xFFFFFFFF local sizes", "[golden][npz]") {
  edgesim::test::TempDir d;
  check_sample(read_npz(d.write("z64.npz", edgesim::test::make_zip64_style(sample_members(), false))));
  check_sample(read_npz(d.write("z64ff.npz", edgesim::test::make_zip64_style(sample_members(), true))));
}

TEST_CASE("npy: fortran_order arrays are reordered to C order", "[golden][npz]") {
  // C-order matrix [[1,2,3],[4,5,6]] stored column-major: 1,4,2,5,3,6.
  auto a = parse_npy(make_npy("<i4", true, "(2, 3)", raw_bytes<int32_t>({1, 4, 2, 5, 3, 6})), "m");
  CHECK(a.shape == Shape{2, 3});
  CHECK(a.values == std::vector<double>{1, 2, 3, 4, 5, 6});
  // Rank 3: element (i,j,k) of shape (2,2,2) at Fortran offset i + 2j + 4k holds 100i+10j+k.
  std::vector<int64_t> f(8);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 2; ++k) f[i + 2 * j + 4 * k] = 100 * i + 10 * j + k;
  auto b = parse_npy(make_npy("<i8", true, "(2, 2, 2)", raw_bytes(f)), "t");
  CHECK(b.values == std::vector<double>{0, 1, 10, 11, 100, 101, 110, 111});
  // Inside an archive, as in Deeploy's GEMM/TransB_RQ arr_1.
  edgesim::test::TempDir d;
  auto arrays = read_npz(write_zip(d, "f.npz", {{"arr_1.npy", make_npy("<i4", true, "(2, 3)",
                                                  raw_bytes<int32_t>({1, 4, 2, 5, 3, 6}))}}, false));
  REQUIRE(arrays.size() == 1);
  CHECK(arrays[0].values == std::vector<double>{1, 2, 3, 4, 5, 6});
}

TEST_CASE("npy: zero-size shapes and scalars", "[golden][npz]") {
  auto e = parse_npy(make_npy("<i8", false, "(1, 16, 0, 4)", ""), "kv");
  CHECK(e.shape == Shape{1, 16, 0, 4});
  CHECK(e.values.empty());
  auto s = parse_npy(make_npy("<i8", false, "()", raw_bytes<int64_t>({42})), "s");
  CHECK(s.shape.empty());
  CHECK(s.values == std::vector<double>{42});
  edgesim::test::TempDir d;
  auto arrays = read_npz(write_zip(d, "e.npz", {{"x.npy", make_npy("|u1", false, "(0,)", "")},
                                                {"y.npy", make_npy("|u1", false, "(1,)", "\xff")}},
                                   true));
  REQUIRE(arrays.size() == 2);   // the empty array keeps its position
  CHECK(arrays[0].values.empty());
  CHECK(arrays[1].values == std::vector<double>{255});
}

TEST_CASE("npy: every supported descr", "[golden][npz]") {
  CHECK(parse_npy(make_npy("|u1", false, "(2,)", raw_bytes<uint8_t>({0, 255})), "x").values ==
        std::vector<double>{0, 255});
  CHECK(parse_npy(make_npy("<i2", false, "(2,)", raw_bytes<int16_t>({-32768, 32767})), "x").values ==
        std::vector<double>{-32768, 32767});
  CHECK(parse_npy(make_npy("<u2", false, "(1,)", raw_bytes<uint16_t>({65535})), "x").values ==
        std::vector<double>{65535});
  CHECK(parse_npy(make_npy("<i4", false, "(1,)", raw_bytes<int32_t>({-2147483647 - 1})), "x").values ==
        std::vector<double>{-2147483648.0});
  CHECK(parse_npy(make_npy("<u4", false, "(1,)", raw_bytes<uint32_t>({4000000000u})), "x").values ==
        std::vector<double>{4e9});
  CHECK(parse_npy(make_npy("<u8", false, "(1,)", raw_bytes<uint64_t>({1ull << 40})), "x").values ==
        std::vector<double>{1099511627776.0});
  CHECK(parse_npy(make_npy("<f8", false, "(1,)", raw_bytes<double>({-0.25})), "x").values ==
        std::vector<double>{-0.25});
  CHECK(parse_npy(make_npy("|b1", false, "(2,)", std::string("\x00\x01", 2)), "x").values ==
        std::vector<double>{0, 1});
  // Big-endian int16 0x0102 = 258, and '=' (native) byte order.
  CHECK(parse_npy(make_npy(">i2", false, "(1,)", std::string("\x01\x02", 2)), "x").values ==
        std::vector<double>{258});
  CHECK(parse_npy(make_npy("=i2", false, "(1,)", std::string("\x02\x01", 2)), "x").values ==
        std::vector<double>{258});
}

TEST_CASE("npy: malformed arrays are rejected naming the member", "[golden][npz]") {
  CHECK_THROWS_WITH(parse_npy("garbage", "m1"), Contains("m1") && Contains("bad magic"));
  CHECK_THROWS_WITH(parse_npy(make_npy("<U8", false, "(1,)", std::string(32, 'a')), "m2"),
                    Contains("m2") && Contains("unsupported .npy dtype '<U8'"));
  CHECK_THROWS_WITH(parse_npy(make_npy("<i4", false, "(3,)", raw_bytes<int32_t>({1, 2})), "m3"),
                    Contains("m3") && Contains("needs 12"));
  CHECK_THROWS_WITH(parse_npy(make_npy("<i4", false, "(1,)", raw_bytes<int32_t>({1, 2})), "m4"),
                    Contains("m4"));
  std::string no_shape = make_npy("<i4", false, "(1,)", raw_bytes<int32_t>({1}));
  no_shape.replace(no_shape.find("'shape'"), 7, "'shapf'");
  CHECK_THROWS_WITH(parse_npy(no_shape, "m5"), Contains("lacks 'shape'"));
  CHECK_THROWS_WITH(parse_npy(make_npy("<i4", false, "(4000000000, 4000000000)", ""), "m6"),
                    Contains("larger than the file"));
  CHECK_THROWS_WITH(parse_npy(make_npy("<i4", false, "(2, -1)", ""), "m7"), Contains("m7") && Contains("expected a dimension"));
  // Found by fuzzing: a Fortran-order array with a 0 dimension and others whose product overflows
  // int64 (the C-order strides were formed from them: signed overflow). It is empty.
  const auto empty = parse_npy(make_npy("<i8", true, "(0, 1, 4, 2, 2, 1, 4, 2, 4757, 774355555554, 70, 3, 2)", ""), "m8");
  CHECK(empty.values.empty());
  CHECK(empty.shape.size() == 13);
}

TEST_CASE("npz: non-archives and missing files are GoldenErrors naming the path", "[golden][npz]") {
  edgesim::test::TempDir d;
  const auto txt = d.write("not.npz", "hello, I am not a zip archive\n");
  CHECK_THROWS_WITH(read_npz(txt), Contains(txt) && Contains("not a readable .npz"));
  CHECK_THROWS_WITH(read_npz("/nonexistent/x.npz"), Contains("/nonexistent/x.npz"));
  const auto bad_member = write_zip(d, "bad.npz", {{"x.npy", "not npy"}}, false);
  CHECK_THROWS_WITH(read_npz(bad_member), Contains("member 'x.npy'") && Contains("bad magic"));
}

TEST_CASE("npz: a member declaring more bytes than it holds is one error, nothing reserved", "[golden][npz]") {
  // fuzz_npz: a stored member of 160 bytes whose central directory declared 4 GiB; the reader
  // reserved the declared size before reading. Declared here: 4 GiB (the finding) and 2^62 bytes
  // (ZIP64; reserving it threw std::bad_alloc, not a GoldenError). Before the fix this test
  // failed so, after growing to 4.2 GB for the first archive.
  edgesim::test::TempDir d;
  const std::string data = make_npy("<f4", false, "(1, 2)", raw_bytes<float>({0.5f, -3.0f}));
  for (const uint64_t declared : {uint64_t{0xFFFD00A0}, uint64_t{1} << 62}) {
    const bool zip64 = declared >= 0xFFFFFFFFu;
    std::string z = edgesim::test::make_zip64_style({{"x.npy", data}}, false);
    // The central directory entry (the sizes libzip trusts): its uncompressed size field, or
    // for ZIP64 0xFFFFFFFF there and the size in an extra field appended after the name.
    const size_t cd = z.find("PK\x01\x02");
    REQUIRE(cd != std::string::npos);
    const auto put = [&](size_t at, uint64_t v, int n) {
      for (int i = 0; i < n; ++i) z[at + static_cast<size_t>(i)] = static_cast<char>((v >> (8 * i)) & 0xff);
    };
    if (!zip64) {
      put(cd + 24, declared, 4);
    } else {
      put(cd + 24, 0xFFFFFFFFu, 4);
      put(cd + 30, 12, 2);   // extra field length: id, size, one u64
      std::string extra(12, '\0');
      extra[0] = 1, extra[2] = 8;
      for (int i = 0; i < 8; ++i) extra[4 + static_cast<size_t>(i)] = static_cast<char>((declared >> (8 * i)) & 0xff);
      const size_t name_end = cd + 46 + 5;   // "x.npy"
      z.insert(name_end, extra);
      const size_t eocd = z.rfind("PK\x05\x06");
      REQUIRE(eocd != std::string::npos);
      put(eocd + 12, static_cast<uint64_t>(eocd - cd), 4);   // central directory size
    }
    const std::string path = d.write("liar.npz", z);
    CHECK_THROWS_AS(read_npz(path), GoldenError);
    CHECK_THROWS_WITH(read_npz(path), Contains(path) && Contains("member 'x.npy'"));
  }
}

TEST_CASE("npz: real Deeploy archives (ZIP64 local headers, Fortran order)", "[golden][npz]") {
  const std::string root = edgesim::test::shared_networks() + "/deeploy/Kernels/Integer/";
  REQUIRE_DATA(root + "Conv/DW_3x3_RQ/inputs.npz");
  // Local header sizes are 0xFFFFFFFF here.
  auto in = read_npz(root + "Conv/DW_3x3_RQ/inputs.npz");
  REQUIRE(in.size() == 1);
  CHECK(in[0].shape == Shape{1, 2, 10, 10});
  CHECK(in[0].values.size() == 200);
  // arr_1 is the [4, 123] weight stored in Fortran order. The position-weighted sum
  // Σ k·v[k] over its C-order reading is -81345 (numpy; -100993 if the flag were ignored).
  auto tb = read_npz(root + "GEMM/TransB_RQ/inputs.npz");
  REQUIRE(tb.size() == 2);
  CHECK(tb[0].shape == Shape{32, 123});
  CHECK(tb[1].shape == Shape{4, 123});
  double weighted = 0;
  for (size_t k = 0; k < tb[1].values.size(); ++k) weighted += static_cast<double>(k) * tb[1].values[k];
  CHECK(weighted == -81345);
  CHECK(tb[1].values[0] == 39);
  CHECK(tb[1].values[123] == 108);
}

// Regression (issue 36): libzip verifies a member's CRC-32 only when it is read to its end, and
// the reader stopped at the declared size, so a corrupt member was used silently (and blamed on
// the simulator as a data mismatch). The CRC in the central directory is changed here, for a
// stored (Deeploy-style) and a deflated member; and a data byte of a stored one.
TEST_CASE("npz: a corrupt member is one error naming the file and the member", "[golden][npz]") {
  edgesim::test::TempDir d;
  const std::string data = make_npy("<i8", false, "(2, 3)", raw_bytes<int64_t>({1, -2, 3, -4, 5, 6}));
  auto corrupt_cd_crc = [](std::string z) {
    const size_t cd = z.find("PK\x01\x02");
    REQUIRE(cd != std::string::npos);
    z[cd + 16] = static_cast<char>(z[cd + 16] ^ 0x5a);   // CRC-32 field of the central directory entry
    return z;
  };
  std::string stored = edgesim::test::make_zip64_style({{"x.npy", data}}, false);
  std::string flipped = stored;
  flipped[flipped.find(data) + data.size() - 1] ^= 1;   // the last data byte: 6 -> 7
  std::ifstream f(write_zip(d, "ok.npz", {{"x.npy", data}}, true), std::ios::binary);
  const std::string deflated((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  for (const auto& [name, bytes] : std::vector<std::pair<std::string, std::string>>{
           {"stored_crc.npz", corrupt_cd_crc(stored)}, {"stored_data.npz", flipped},
           {"deflated_crc.npz", corrupt_cd_crc(deflated)}}) {
    const std::string path = d.write(name, bytes);
    INFO(name);
    CHECK_THROWS_WITH(read_npz(path), Contains(path + ": member 'x.npy': corrupt archive") && Contains("CRC"));
  }
  CHECK(read_npz(d.write("fine.npz", stored))[0].values.back() == 6);
}

// Regression (issue 36): a ZIP bomb was inflated whole before its .npy header was looked at.
// Now inflating stops at the header and the data it declares (more is refused), and when the
// caller knows the tensor (load_inputs, check_expected), a header of another size is refused
// before any data is inflated.
TEST_CASE("npz: a ZIP bomb is refused by its .npy header, not inflated", "[golden][npz]") {
  edgesim::test::TempDir d;
  const std::string zeros(size_t{16} << 20, '\0');
  // A header declaring 4 bytes followed by 16 MiB: more than it declares.
  const std::string liar = write_zip(d, "liar.npz", {{"x.npy", make_npy("|i1", false, "(4,)", zeros)}}, true);
  const size_t declared = make_npy("|i1", false, "(4,)", "").size() + 4;
  CHECK_THROWS_WITH(read_npz(liar), Contains("member 'x.npy': holds more than the " + std::to_string(declared) +
                                             " bytes its .npy header declares"));
  // A header declaring 16 MiB where the caller expects 3 elements: refused from the header.
  const std::string bomb = write_zip(d, "bomb.npz", {{"x.npy", make_npy("|i1", false, "(4096, 4096)", zeros)}}, true);
  const NpzArchive npz(bomb);
  REQUIRE(npz.size() == 1);
  const NpzExpect e{3, "input 0 'x' of shape [1, 3]"};
  CHECK_THROWS_WITH(npz.read(0, &e), Contains(bomb + ": member 'x.npy': .npy shape [4096, 4096]") &&
                                         Contains("larger than the input 0 'x' of shape [1, 3]"));
  const NpzExpect big{4096 * 4096, "input 0 'x' of shape [4096, 4096]"};
  CHECK(npz.read(0, &big).values.size() == size_t{16} << 20);   // as expected: read
  const NpzExpect other{4096 * 4095, "input 0 'x' of shape [4095, 4096]"};
  CHECK_THROWS_WITH(npz.read(0, &other), Contains("(16777216 elements), but it is for input 0 'x' of shape [4095, 4096] (16773120 elements)"));
}
