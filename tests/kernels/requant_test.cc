#include <catch2/catch.hpp>
#include "kernels/core/requant.h"
TEST_CASE("requant integer form rounds half up with r = 2^(shift-1)", "[kernels][requant]") {
  edgesim::Requant rq;
  rq.kind = edgesim::Requant::Kind::Integer;
  rq.shift = 2; rq.round = 2; rq.lo = -128; rq.hi = 127;
  CHECK(rq.apply(6, 0) == 2);    // 1.5 -> 2
  CHECK(rq.apply(-6, 0) == -1);  // -1.5 -> -1 (half up)
  CHECK(rq.apply(1000, 0) == 127);
}
