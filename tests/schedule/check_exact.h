// Test-only: a schedule run by the test-local executor (sched_util.h) equals the untiled
// interpreter bit-exactly, in list order and in latest-ready-first order, after the allocation
// check.
#pragma once
#include <catch2/catch.hpp>

#include "schedule/sched_util.h"

namespace edgesim::test {

inline void check_exact(const Graph& g, const Schedule& s, uint32_t seed = 1) {
  INFO(allocation_problem(s));
  REQUIRE(allocation_problem(s).empty());
  const auto in = random_inputs(g, seed);
  const auto want = interpret(g, in).outputs;
  for (bool latest : {false, true}) {
    INFO("latest-ready-first order: " << latest);
    MiniExec ex(g, s);
    const auto got = ex.run(in, latest);
    REQUIRE(got.size() == want.size());
    for (size_t i = 0; i < got.size(); ++i) CHECK(got[i].same_values(want[i]));
  }
}

}  // namespace edgesim::test
