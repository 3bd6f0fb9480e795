// The calibration status (sim/validate/calibration.h, sim/report/calibration_text.h): the file
// validate writes reads back per platform, a missing or malformed file is "unknown" (never an
// exception), and `run` states the status in its header and JSON: "uncalibrated" on a platform no
// case runs on, the cases and the worst error on one they cover (issue 39 #6). The ctest
// calibration_current checks that the shipped configs/calibration.yaml is current.
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "sim/report/calibration_text.h"
#include "sim/validate/calibration.h"
#include "support/paths.h"
#include "support/run.h"
#include "support/temp_dir.h"

using namespace edgesim;
using namespace edgesim::validate;

namespace {

Case make_case(const std::string& name, const std::string& platform, const std::string& metric) {
  Case c;
  c.name = name;
  c.platform = platform;
  c.metric = metric;
  return c;
}

}  // namespace

TEST_CASE("calibration: the file validate writes reads back per platform, a bad file is unknown", "[validate]") {
  const std::vector<Case> cases = {make_case("a-gap9", "gap9", "cycles"), make_case("b-gap8", "gap8", "accounted_cycles"),
                                   make_case("c-gap9", "gap9", "pj_per_mac"), make_case("d-gap9", "gap9", "cycles")};
  std::vector<Outcome> out(4);
  const double errors[] = {-0.05, 0.02, -0.383, 0.121};
  for (size_t i = 0; i < 4; ++i) {
    out[i].c = &cases[i];
    out[i].error = errors[i];
    out[i].pass = i != 3;
  }
  const test::TempDir d;
  const std::string file = d.write("calibration.yaml", calibration_yaml(out));
  const Calibration g9 = read_calibration(file, "gap9");
  REQUIRE(g9.unknown.empty());
  REQUIRE(g9.cases.size() == 3);
  CHECK(g9.cases[0].name == "a-gap9");
  CHECK(g9.cases[2].error == Approx(0.121));
  CHECK_FALSE(g9.cases[2].pass);
  CHECK(g9.cases[1].energy);            // pj_per_mac
  CHECK_FALSE(g9.cases[0].energy);
  const std::string text = report::calibration_text(g9);
  CHECK(text.find("3 validation cases, 2 within tolerance") != std::string::npos);
  CHECK(text.find("worst timing error +12.1 % (d-gap9)") != std::string::npos);
  CHECK(text.find("worst energy error -38.3 % (c-gap9)") != std::string::npos);
  CHECK(text.find("Cases: a-gap9, c-gap9, d-gap9") != std::string::npos);

  const Calibration diana = read_calibration(file, "diana");
  CHECK(diana.unknown.empty());
  CHECK(diana.cases.empty());
  CHECK(report::calibration_text(diana).rfind("uncalibrated: no validation case runs on diana", 0) == 0);

  const Calibration missing = read_calibration(d.file("none.yaml"), "gap9");
  CHECK(missing.cases.empty());
  CHECK(missing.unknown.find("none.yaml") != std::string::npos);
  for (const char* text : {"gap9:\n  x: [cycles, oops, pass]\n", "gap9:\n  x: [cycles, 0.1]\n", "gap9:\n  x: [cycles, 0.1, maybe]\n",
                           "gap9: 3\n", "gap9:\n  - {case: x, error: 0.1}\n"}) {
    INFO(text);
    const Calibration bad = read_calibration(d.write("bad.yaml", text), "gap9");
    CHECK(bad.cases.empty());
    CHECK(bad.unknown.find("bad.yaml") != std::string::npos);   // the file (and line) named
    CHECK(report::calibration_text(bad).rfind("unknown (", 0) == 0);
  }
  CHECK(read_calibration("", "gap9").unknown == "configs/calibration.yaml not found");
  CHECK(report::calibration_text(Calibration{}).empty());   // not looked up: nothing printed
}

TEST_CASE("run states the platform's calibration: uncalibrated on diana, the cases and worst error on gap9", "[validate][cli]") {
  const test::TempDir d;
  const test::RunResult diana = test::run_edgesim("run -p diana " + test::source_dir() +
                                                  "/models/diana_resnet8/model.onnx --timing-only --json " + d.file("d.json"));
  REQUIRE(diana.status == 0);
  CHECK(test::unwrapped(diana.output).find("calibration:  uncalibrated: no validation case runs on diana") != std::string::npos);
  std::ifstream f(d.file("d.json"));
  const nlohmann::json j = nlohmann::json::parse(f);
  CHECK(j.at("calibration").at("status") == "uncalibrated");

  const test::RunResult g9 =
      test::run_edgesim("run -p gap9 " + test::source_dir() + "/models/resnet8/model.onnx --timing-only --json " + d.file("g.json"));
  REQUIRE(g9.status == 0);
  const std::string out = test::unwrapped(g9.output);
  CHECK(out.find("calibration:  gap9: ") != std::string::npos);
  CHECK(out.find("worst timing error") != std::string::npos);
  CHECK(out.find("vww-gap9_ne16-8cores") != std::string::npos);   // a case on gap9, named
  std::ifstream g(d.file("g.json"));
  const nlohmann::json k = nlohmann::json::parse(g);
  CHECK(k.at("calibration").at("status") == "calibrated");
  CHECK(k.at("calibration").at("cases").size() > 5);
  CHECK_FALSE(k.at("calibration").at("overridden").get<bool>());
}
