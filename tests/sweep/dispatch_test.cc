// [sweep] the forked-worker dispatcher on its own: every point comes back exactly once whatever
// the number of workers, and a worker that dies yields an error message for its point (from
// on_crash, after one retry on a fresh worker) instead of stopping the sweep or losing other points.
#include <csignal>
#include <cstdlib>
#include <map>

#include <catch2/catch.hpp>
#include <unistd.h>

#include "sim/sweep/dispatch.h"

using namespace edgesim::sweep;

TEST_CASE("sweep workers: dynamic assignment returns every point once", "[sweep]") {
  for (int jobs : {1, 2, 5}) {
    std::vector<size_t> pending = {0, 2, 3, 7};
    std::map<size_t, std::string> got;
    const Evaluate ev = [](size_t i) { return "p" + std::to_string(i) + "@" + std::to_string(::getpid()); };
    dispatch_workers(jobs, pending, ev, [&](size_t i, const std::string& m) { CHECK(got.emplace(i, m).second); },
                     [](size_t, const std::string& why) { return "crash: " + why; });
    REQUIRE(got.size() == pending.size());
    for (size_t i : pending) {
      CHECK_THAT(got[i], Catch::StartsWith("p" + std::to_string(i) + "@"));
      CHECK(got[i] != "p" + std::to_string(i) + "@" + std::to_string(::getpid()));   // evaluated in a worker
    }
  }
}

TEST_CASE("sweep workers: a crashing worker gives an error record for its point only", "[sweep]") {
  std::map<size_t, std::string> got;
  const Evaluate ev = [](size_t i) -> std::string {
    if (i == 2) ::raise(SIGKILL);   // a worker dying on this point (SIGKILL: Catch cannot intercept it)
    if (i == 4) throw std::runtime_error("boom");
    return "ok" + std::to_string(i);
  };
  dispatch_workers(2, {0, 1, 2, 3, 4, 5}, ev, [&](size_t i, const std::string& m) { got[i] = m; },
                   [](size_t i, const std::string& why) { return "crash " + std::to_string(i) + ": " + why; });
  REQUIRE(got.size() == 6);
  CHECK(got[0] == "ok0");
  CHECK(got[5] == "ok5");
  CHECK_THAT(got[2], Catch::StartsWith("crash 2: worker process killed by signal"));
  CHECK(got[4] == "crash 4: boom");   // the handler's message, not retried
  CHECK(got[2] == "crash 2: worker process killed by signal 9 (tried 2 times)");   // retried once on a new worker
}
