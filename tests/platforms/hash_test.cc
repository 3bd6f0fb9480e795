// [hash] the one hash helper (platforms/util/hash.h): the published 64-bit FNV-1a test vectors,
// file hashing equal to hashing the bytes, and a clear error for a file that cannot be read.
#include <cstdio>
#include <fstream>

#include <catch2/catch.hpp>

#include "platforms/util/hash.h"

using namespace edgesim;

TEST_CASE("fnv1a: the 64-bit FNV-1a reference values", "[hash]") {
  CHECK(Fnv1a().value() == 0xcbf29ce484222325ull);
  CHECK(Fnv1a().text("a").value() == 0xaf63dc4c8601ec8cull);
  CHECK(Fnv1a().text("foobar").value() == 0x85944171f73967e8ull);
  CHECK(Fnv1a().text("foo").text("bar").value() == Fnv1a().text("foobar").value());   // incremental
  CHECK(Fnv1a().word(1).value() != Fnv1a().word(2).value());
  CHECK(hash_label(0xabcull) == "fnv1a:0000000000000abc");
}

TEST_CASE("fnv1a: a file hashes like its bytes, an unreadable file is an error naming it", "[hash]") {
  const std::string path = "hash_test_file.bin";
  const std::string bytes("edge\0sim\n", 9);
  std::ofstream(path, std::ios::binary) << bytes;
  CHECK(fnv1a_file(path) == Fnv1a().bytes(bytes.data(), bytes.size()).value());
  std::remove(path.c_str());
  CHECK_THROWS_WITH(fnv1a_file("no/such/file.yaml"), "no/such/file.yaml: cannot be read");
}
