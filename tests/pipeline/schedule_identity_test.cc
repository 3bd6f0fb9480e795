// One compile pipeline, seen from outside: for the same options, `edgesim compile -o`, `edgesim
// run --json` and a point of `edgesim sweep --json` compile the same schedule, byte for byte
// (compile's file parsed and dumped compactly without its network label, hashed as
// schedule_hash() hashes; run and sweep record that hash). Python's compile() is held to compile -o's file in tests/python/test_api.py.
#include <fstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "platforms/util/hash.h"
#include "support/paths.h"
#include "support/run.h"
#include "support/temp_dir.h"

using namespace edgesim;

namespace {

nlohmann::json read_json(const std::string& path) {
  std::ifstream f(path);
  REQUIRE(f.good());
  return nlohmann::json::parse(f);
}

}  // namespace

TEST_CASE("pipeline: compile -o, run --json and a sweep point give byte-identical schedules", "[pipeline][cli]") {
  const test::TempDir d;
  const std::string net = test::source_dir() + "/models/resnet8/model.onnx";
  // NE16 and the cluster under DORY on gap9; N-EUREKA and Deeploy's loop on siracusa. (The
  // options all three commands take: sweep has no --io-layout, --buffering or --network-loop.)
  for (const char* options : {"-p gap9 --policy dory --set cluster.freq_hz=370MHz",
                              "-p siracusa --policy deeploy --set l1.size=256KiB"}) {
    INFO(options);
    const std::string opt = options;
    const auto c = test::run_edgesim("compile " + net + " " + opt + " -o " + d.file("s.json"));
    REQUIRE(c.status == 0);
    nlohmann::json file = read_json(d.file("s.json"));
    file.erase("network");   // the label follows the model's file name; the identity leaves it out
    const std::string compiled = hash_label(Fnv1a().text(file.dump()).value());

    const auto r = test::run_edgesim("run " + net + " " + opt + " --timing-only --json " + d.file("r.json"));
    REQUIRE(r.status == 0);
    CHECK(read_json(d.file("r.json")).at("schedule_hash") == compiled);

    // The sweep's axis is the run's --set: one point with the same options.
    const auto s = test::run_edgesim("sweep " + net + " " + opt + " --fresh --json " + d.file("w.json"));
    REQUIRE(s.status == 0);
    const nlohmann::json w = read_json(d.file("w.json"));
    REQUIRE(w.at("results").size() == 1);
    CHECK(w.at("results")[0].at("schedule_hash") == compiled);
  }
}
