// [platforms] platforms/util/regular_file.h: only a regular file is read as a user file; a FIFO,
// a character device, a directory are named for what they are, without blocking on the FIFO.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include "platforms/loader/loader.h"
#include "platforms/temp_dir.h"
#include "platforms/util/regular_file.h"

using namespace edgesim;
using edgesim::test::kMinimalPlatform;
using edgesim::test::load_error;
using edgesim::test::TempDir;

TEST_CASE("regular files: FIFOs, devices and directories are named, nothing blocks", "[platforms]") {
  TempDir dir;
  const std::string fifo = dir.file("fifo.yaml");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const std::string file = dir.write("ok.yaml", kMinimalPlatform);
  CHECK(not_regular_file(file).empty());
  CHECK(not_regular_file(dir.file("missing.yaml")).empty());   // the reader says "no such file"
  CHECK(not_regular_file(fifo) == "is a FIFO (named pipe), not a regular file");
  CHECK(not_regular_file("/dev/zero") == "is a character device, not a regular file");
  CHECK(not_regular_file(dir.path().string()) == "is a directory");
  std::string why;
  CHECK(open_regular_file(fifo, why) == -1);   // returns at once: no writer is waited for
  CHECK(why == "is a FIFO (named pipe), not a regular file");
  const int fd = open_regular_file(file, why);
  CHECK(fd >= 0);
  if (fd >= 0) ::close(fd);

  // Regression (issue 36): a platform file that is a FIFO blocked the loader for a writer, and
  // /dev/zero was read until memory ran out.
  CHECK(load_error(fifo) == fifo + ": is a FIFO (named pipe), not a regular file, expected a platform file");
  CHECK(load_error("/dev/zero") == "/dev/zero: is a character device, not a regular file, expected a platform file");
}
