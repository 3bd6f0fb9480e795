// [verify] the wording of a run's verdict (sim/exec/verdict.h): which comparison failed —
// simulator vs golden model, or golden model vs golden files — and the layout hint.
#include <catch2/catch.hpp>

#include "sim/exec/verdict.h"

using namespace edgesim;

TEST_CASE("run verdict: says whether the simulator or the golden files disagree", "[verify]") {
  VerifyOutcome sim{true, 61, "bit-exact (61 tensors)"};
  RunVerdict v = run_verdict(sim, nullptr);
  CHECK(v.ok);
  CHECK(v.message == "bit-exact: simulator = golden model on 61 tensors");

  GoldenSummary g{"dory/net", 14, 14, "hwc", ""};
  v = run_verdict(sim, &g);
  CHECK(v.ok);
  CHECK(v.message == "bit-exact: simulator = golden model on 61 tensors; golden files dory/net: 14/14 bit-exact");

  g.bit_exact = 3;
  g.other_layout = "chw";
  v = run_verdict(sim, &g);
  CHECK_FALSE(v.ok);
  CHECK(v.message ==
        "the golden files differ from the golden model: 3/14 of dory/net bit-exact read as --layout hwc (the simulator = "
        "golden model on 61 tensors); the 11 others match with --layout chw: rerun with it");
  g.other_layout.clear();
  CHECK(run_verdict(sim, &g).message.find("rerun") == std::string::npos);

  const VerifyOutcome bad{false, 61, "layer 7 'L7_dw' (dwconv 3x3): element 3: 12 != 13"};
  v = run_verdict(bad, &g);
  CHECK_FALSE(v.ok);
  CHECK(v.message == "the simulator differs from the golden model: layer 7 'L7_dw' (dwconv 3x3): element 3: 12 != 13");
}
