// Validation cases (sim/validate): the strict case reader, the error and tolerance arithmetic, and
// `edgesim validate` end to end on throwaway cases whose published figure is known relative to
// what edgesim predicts (so one passes, one fails, one is malformed).
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "sim/validate/validate.h"
#include "support/paths.h"
#include "support/run.h"
#include "support/temp_dir.h"

using namespace edgesim;
using namespace edgesim::validate;

namespace {

std::string good_case(const std::string& name, const std::string& total, const std::string& extra = "") {
  return "name: " + name +
         "\nwhat: \"ResNet-8 on GAP8\"\nnetwork: model:resnet8\nplatform: gap8\nset: [l1.size=64KiB]\n"
         "policy: dory\nmeasured_on: gvsoc\nmetric: cycles\npublished:\n  total: " +
         total + "\ntolerance: 0.05\nsource: \"a test\"\n" + extra;
}

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

Paths test_paths() { return {EDGESIM_BUILD_DIR, test::source_dir(), EDGESIM_SHARED_NETWORKS}; }

}  // namespace

TEST_CASE("validation case: a good file and every kind of mistake", "[validate]") {
  test::TempDir d;
  const Case c = read_case(d.write("resnet8-gap8.yaml", good_case("resnet8-gap8", "1000000")));
  CHECK(c.name == "resnet8-gap8");
  CHECK(c.overrides == std::vector<std::string>{"l1.size=64KiB"});
  CHECK(c.published == 1000000);
  CHECK(c.tolerance == 0.05);
  CHECK(c.network_loop == "auto");

  auto error_of = [&](const std::string& file, const std::string& text) {
    try {
      read_case(d.write(file, text));
    } catch (const ValidationError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string base = good_case("x", "10");
  CHECK_THAT(error_of("x.yaml", base + "colour: red\n"), Catch::Contains("x.yaml:13: unknown key 'colour'"));
  CHECK_THAT(error_of("x.yaml", base + "policy: deeploy\n"), Catch::Contains("duplicate key 'policy'"));
  for (const char* key : {"what", "network", "platform", "measured_on", "metric", "tolerance", "source"}) {
    std::string text = base;
    const size_t at = text.find(std::string("\n") + key + ":");
    REQUIRE(at != std::string::npos);
    text.erase(at + 1, text.find('\n', at + 1) - at);
    CHECK_THAT(error_of("x.yaml", text), Catch::Contains(std::string("missing key '") + key + "'"));
  }
  CHECK_THAT(error_of("y.yaml", base), Catch::Contains("name 'x' differs from the file name 'y.yaml'"));
  CHECK_THAT(error_of("x.yaml", good_case("x", "lots")), Catch::Contains("published.total: 'lots' is not a number"));
  std::string bad_metric = base;
  bad_metric.replace(bad_metric.find("metric: cycles"), 14, "metric: speed");
  CHECK_THAT(error_of("x.yaml", bad_metric), Catch::Contains("metric 'speed'"));
  std::string bad_net = base;
  bad_net.replace(bad_net.find("model:resnet8"), 13, "resnet8.onnx");
  CHECK_THAT(error_of("x.yaml", bad_net), Catch::Contains("must be model:<name> or shared:<path>"));
  CHECK_THAT(error_of("x.yaml", "name: [x\n"), Catch::Contains("x.yaml"));
}

TEST_CASE("validation: signed error and tolerance boundary", "[validate]") {
  CHECK(signed_error(105, 100) == Approx(0.05));
  CHECK(signed_error(90, 100) == Approx(-0.10));
  CHECK(within(signed_error(105, 100), 0.05));     // exactly at the tolerance passes
  CHECK(within(signed_error(95, 100), 0.05));
  CHECK_FALSE(within(signed_error(105.01, 100), 0.05));
  CHECK_FALSE(within(-0.0501, 0.05));
}

TEST_CASE("edgesim validate: pass, fail and a malformed case", "[validate][cli]") {
  test::TempDir d;
  // What edgesim predicts for the case, through the same code path.
  const Case probe = read_case(d.write("probe/resnet8-gap8.yaml", good_case("resnet8-gap8", "1")));
  const double predicted = run_case(probe, test_paths()).predicted;
  REQUIRE(predicted > 0);
  d.write("cases/near.yaml", good_case("near", std::to_string(static_cast<int64_t>(predicted * 1.01))));
  d.write("cases/far.yaml", good_case("far", std::to_string(static_cast<int64_t>(predicted * 2))));

  const std::string cases = "--cases '" + d.file("cases") + "'";
  const auto ok = test::run_edgesim("validate " + cases + " --case near --json '" + d.file("near.json") + "'");
  INFO(ok.output);
  CHECK(ok.status == 0);
  CHECK_THAT(ok.output, Catch::Contains("1/1 cases within tolerance"));

  const auto bad = test::run_edgesim("validate " + cases + " --json '" + d.file("all.json") + "' --report '" +
                                     d.file("all.html") + "'");
  INFO(bad.output);
  CHECK(bad.status == 1);
  const nlohmann::json j = nlohmann::json::parse(slurp(d.file("all.json")));
  REQUIRE(j["cases"].size() == 2);
  CHECK(j["cases"][0]["name"] == "far");
  CHECK(j["cases"][0]["pass"] == false);
  CHECK(j["cases"][0]["error"].get<double>() == Approx(-0.5).margin(0.001));
  CHECK(j["cases"][1]["pass"] == true);
  CHECK(j["cases"][1]["predicted"].get<double>() == predicted);
  CHECK_THAT(slurp(d.file("all.html")), Catch::Contains("<svg") && Catch::Contains("far"));

  const auto unknown = test::run_edgesim("validate " + cases + " --case nope");
  CHECK(unknown.status == 2);
  CHECK_THAT(unknown.output, Catch::Contains("--case nope: no such case (known: far, near)"));

  d.write("cases/broken.yaml", "name: broken\nwhat: x\n");
  const auto broken = test::run_edgesim("validate " + cases);
  CHECK(broken.status == 2);
  CHECK_THAT(broken.output, Catch::Contains("edgesim: error:") && Catch::Contains("broken.yaml: missing key"));
}
