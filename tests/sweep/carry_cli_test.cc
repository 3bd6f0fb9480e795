// [sweep][carry] `edgesim sweep --policy tuned` carries a plan found with less memory to the points
// with more (sim/sweep/carry.h), on MobileNetV1-128 / gap8 at L1 80 KiB, L2 448 and 512 KiB: the
// pair the 64-point sweep of docs/tune.md found slower with more L2 (the network plan search
// starts from other per-layer options at 512 KiB and ends 0.1 % slower).
#include <iostream>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "support/run.h"
#include "support/temp_dir.h"
#include "sweep/sweep_support.h"

using namespace edgesim::test;

TEST_CASE("edgesim sweep: a tuned plan found with less L2 runs where the point's own plan is slower", "[sweep][carry][heavy]") {
  REQUIRE_DATA(mobilenet_net());
  TempDir d;
  const auto r = run_edgesim(fmt::format("sweep -p '{}' --set l1.size=80KiB --set l2.size=448KiB,512KiB --policy tuned '{}' "
                                         "-o '{}' --json '{}' -j 2",
                                         gap8(), mobilenet_net(), d.file("r.csv"), d.file("r.json")));
  INFO(r.output);
  REQUIRE(r.status == 0);
  const nlohmann::json j = nlohmann::json::parse(slurp(d.file("r.json")));
  const nlohmann::json& small = j.at("results").at(0);
  const nlohmann::json& large = j.at("results").at(1);
  REQUIRE(small.at("status") == "ok");
  REQUIRE(large.at("status") == "ok");
  const int64_t at448 = small.at("total_cycles").get<int64_t>(), at512 = large.at("total_cycles").get<int64_t>();
  CHECK(at512 <= at448);

  // The point's own plan, as `run --policy tuned` finds it at 512 KiB.
  const auto own = run_edgesim(fmt::format("run -p '{}' --set l1.size=80KiB --set l2.size=512KiB --policy tuned "
                                           "--timing-only '{}' --json '{}'",
                                           gap8(), mobilenet_net(), d.file("own.json")));
  INFO(own.output);
  REQUIRE(own.status == 0);
  const int64_t own512 = nlohmann::json::parse(slurp(d.file("own.json"))).at("total_cycles").get<int64_t>();
  std::cout << fmt::format("  carry: tuned at L2 448 KiB {}, at 512 KiB its own plan {}, in the sweep {}\n", at448, own512,
                           at512);
  // Today the tuner's own plan at 512 KiB is the slower one (20,647,994 against 20,626,813): the
  // sweep runs the 448 KiB plan there, with exactly its cycles (the timing does not depend on the
  // L2 it leaves unused), and says so in the CSV and the summary.
  CHECK(own512 > at448);
  CHECK(large.value("carried_from", "") == "l2.size=448KiB");   // the swept axes only
  CHECK(at512 == at448);
  CHECK(large.at("plan") == small.at("plan"));
  CHECK_THAT(slurp(d.file("r.csv")), Catch::Contains(",ok,") && Catch::EndsWith(",l2.size=448KiB\n"));
  CHECK_THAT(r.output, Catch::Contains("tuned plans carried to more memory: 1 of 1"));
}
