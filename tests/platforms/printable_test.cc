// printable (platforms/util/printable.h): names from files made safe for one-line messages.
#include <catch2/catch.hpp>

#include "platforms/util/printable.h"

using edgesim::printable;

TEST_CASE("printable: bytes outside printable ASCII become hex escapes, the rest passes", "[platforms]") {
  CHECK(printable("net.onnx: node 'conv_1' (Conv) ~{}") == "net.onnx: node 'conv_1' (Conv) ~{}");
  CHECK(printable(std::string("a\xff\x1b[1m\n\x7f\0b", 10)) == "a\\xff\\x1b[1m\\x0a\\x7f\\x00b");
  CHECK(printable("H\xc2\xb7W") == "H\\xc2\\xb7W");   // valid UTF-8 too: the result is ASCII
  CHECK(printable("").empty());
}
