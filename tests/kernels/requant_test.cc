#include <catch2/catch.hpp>
#include <cmath>

#include "kernels/core/requant.h"
TEST_CASE("requant integer form rounds half up with r = 2^(shift-1)", "[kernels][requant]") {
  edgesim::Requant rq;
  rq.kind = edgesim::Requant::Kind::Integer;
  rq.shift = 2; rq.round = 2; rq.lo = -128; rq.hi = 127;
  CHECK(rq.apply(6, 0) == 2);    // 1.5 -> 2
  CHECK(rq.apply(-6, 0) == -1);  // -1.5 -> -1 (half up)
  CHECK(rq.apply(1000, 0) == 127);
}

TEST_CASE("requant float form saturates a product beyond int64 to the output range", "[kernels][requant]") {
  // Regression (fuzz_kernel_diff): a float requant whose scale is 2^60 times an accumulator took
  // acc·scale = 1.86e19 to int64, which is undefined (UBSan: float-cast-overflow in
  // round_half_even). The importer accepts any positive finite QLinearConv scales, so a ratio
  // x_s·w_s/y_s of 1e13 over accumulators of 1e6 would do the same.
  edgesim::Requant rq;
  rq.kind = edgesim::Requant::Kind::Float;
  rq.scale = {std::ldexp(1000.0, 60)};
  rq.zp = 3;
  rq.lo = -128, rq.hi = 127;
  CHECK(rq.apply(16, 0) == 127);
  CHECK(rq.apply(-16, 0) == -128);
  CHECK(rq.apply(0, 0) == 3);
  rq.scale = {1e10};
  rq.lo = INT32_MIN, rq.hi = INT32_MAX;
  CHECK(rq.apply(1000000000, 0) == INT32_MAX);
  CHECK(edgesim::round_half_even(1e300) == int64_t{1} << 62);
  CHECK(edgesim::round_half_even(-1e300) == -(int64_t{1} << 62));
  CHECK(edgesim::round_half_even(2.5) == 2);
  CHECK(edgesim::round_half_even(-3.5) == -4);
}
