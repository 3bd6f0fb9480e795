// Validation cases (sim/validate): the strict case reader (every kind of mistake is one error with
// file, line and key), the error and tolerance arithmetic, and `edgesim validate` end to end on
// throwaway cases whose published figure is set relative to what run_flow predicts (one passes,
// one fails on the total, one on a layer, an unknown layer and a malformed file are errors).
#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "sim/flow/flow.h"
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
  CHECK_THAT(error_of("x.yaml", base + "policy: deeploy\n"), Catch::Contains("x.yaml:13: duplicate key 'policy'"));
  for (const char* key : {"name", "what", "network", "platform", "measured_on", "metric", "tolerance", "source"}) {
    std::string text = "\n" + base;
    const size_t at = text.find(std::string("\n") + key + ":");
    REQUIRE(at != std::string::npos);
    text.erase(at + 1, text.find('\n', at + 1) - at);
    CHECK_THAT(error_of("x.yaml", text), Catch::Contains(std::string("x.yaml: missing key '") + key + "'"));
  }
  std::string no_total = base;
  no_total.replace(no_total.find("  total: 10\n"), 12, "  layers: {L00_conv: 5}\n");
  CHECK_THAT(error_of("x.yaml", no_total), Catch::Contains("x.yaml: missing key 'published.total'"));
  CHECK_THAT(error_of("y.yaml", base), Catch::Contains("y.yaml:1: name: 'x' differs from the file name 'y.yaml'"));
  CHECK_THAT(error_of("x.yaml", good_case("x", "lots")), Catch::Contains("x.yaml:10: published.total: 'lots' is not a number"));
  std::string bad_metric = base;
  bad_metric.replace(bad_metric.find("metric: cycles"), 14, "metric: speed");
  CHECK_THAT(error_of("x.yaml", bad_metric), Catch::Contains("x.yaml:8: metric: 'speed' (known: accounted_cycles"));
  std::string bad_policy = base;
  bad_policy.replace(bad_policy.find("policy: dory"), 12, "policy: fastest");
  CHECK_THAT(error_of("x.yaml", bad_policy), Catch::Contains("x.yaml:6: policy: ") && Catch::Contains("fastest"));
  std::string two_lines = base;
  two_lines.replace(two_lines.find("what: \"ResNet-8 on GAP8\""), 24, "what: |\n  two\n  lines");
  CHECK_THAT(error_of("x.yaml", two_lines), Catch::Contains("x.yaml:2: what must be one line"));
  CHECK_THAT(error_of("x.yaml", base + "layer_tolerance: -1\n"), Catch::Contains("x.yaml:13: layer_tolerance:"));
  CHECK_THAT(error_of("x.yaml", base + "tolerance: 5\n"), Catch::Contains("duplicate key 'tolerance'"));
  std::string percent = base;
  percent.replace(percent.find("tolerance: 0.05"), 15, "tolerance: 5");
  CHECK_THAT(error_of("x.yaml", percent), Catch::Contains("tolerance: must be a fraction in (0, 1)"));
  std::string layers_list = base;
  layers_list.replace(layers_list.find("  total: 10\n"), 12, "  total: 10\n  layers: [1, 2]\n");
  CHECK_THAT(error_of("x.yaml", layers_list), Catch::Contains("x.yaml:11: published.layers must be a mapping"));

  // Per-layer figures in flow style, with their own tolerance.
  const Case l = read_case(d.write("l.yaml", good_case("l", "10\n  layers: {L00_conv: 1000, L01_s1a: 2e3}",
                                                      "layer_tolerance: 0.25\nnetwork_loop: dory-2020\n")));
  CHECK(l.published == 10);
  CHECK(l.published_layers == std::map<std::string, double>{{"L00_conv", 1000}, {"L01_s1a", 2000}});
  CHECK(l.layer_tolerance == 0.25);
  CHECK(l.network_loop == "dory-2020");
  CHECK_THAT(error_of("x.yaml", good_case("x", "10\n  layers: {L00_conv: 0}")),
             Catch::Contains("x.yaml:11: published.layers.L00_conv must be positive"));
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
  // What edgesim predicts for the cases (resnet8 on gap8, l1.size=64KiB, dory), through run_flow.
  FlowRequest req;
  req.model = test::source_dir() + "/models/resnet8/model.onnx";
  req.platform = test::source_dir() + "/platforms/gap8.yaml";
  req.overrides = {"l1.size=64KiB"};
  req.sim.data = false;
  const RunResult run = run_flow(req).sim.result;
  const int64_t wall = run.total_cycles, accounted = run.accounted_cycles;
  REQUIRE(wall > 0);
  REQUIRE(accounted > 0);
  REQUIRE(run.layers.size() > 1);
  auto figure = [](double v) { return std::to_string(static_cast<int64_t>(v)); };
  d.write("cases/near.yaml", good_case("near", figure(wall * 1.01)));
  d.write("cases/far.yaml", good_case("far", figure(wall * 2)));
  // Accounted total exact, but the first layer published at twice edgesim's figure: the layer
  // tolerance fails the case.
  std::string acc = good_case("acc", figure(accounted) + "\n  layers: {" + run.layers[0].name + ": " +
                                         figure(run.layers[0].accounted_cycles * 2) + "}", "layer_tolerance: 0.2\n");
  acc.replace(acc.find("metric: cycles"), 14, "metric: accounted_cycles");
  d.write("cases/acc.yaml", acc);

  const std::string cases = "--cases '" + d.file("cases") + "'";
  const auto ok = test::run_edgesim("validate " + cases + " --case near --json '" + d.file("near.json") + "'");
  INFO(ok.output);
  CHECK(ok.status == 0);
  CHECK_THAT(ok.output, Catch::Contains("[1/1] near ... ") && Catch::Contains("ResNet-8 on GAP8") &&
                            Catch::Contains("-1.0 %") && Catch::Contains("1/1 cases within tolerance"));

  const auto bad = test::run_edgesim("validate " + cases + " --json '" + d.file("all.json") + "' --report '" +
                                     d.file("all.html") + "'");
  INFO(bad.output);
  CHECK(bad.status == 1);
  CHECK_THAT(bad.output, Catch::Contains("acc per layer (accounted, tolerance 20%)") &&
                             Catch::Contains("1/3 cases within tolerance"));
  CHECK_THAT(bad.output, Catch::Contains("per layer: 0/1 within 10 %, median |error| 50.0 %, worst 50.0 %\n"
                                         "worst layer: " + run.layers[0].name + " (acc)"));
  const nlohmann::json j = nlohmann::json::parse(slurp(d.file("all.json")));
  REQUIRE(j["cases"].size() == 3);
  CHECK(j["layers"]["count"] == 1);
  CHECK(j["layers"]["within_10pct"] == 0);
  CHECK(j["layers"]["median_abs_error"].get<double>() == Approx(0.5).margin(0.001));
  CHECK(j["layers"]["worst"]["case"] == "acc");
  const nlohmann::json& a = j["cases"][0];
  CHECK(a["name"] == "acc");
  CHECK(a["pass"] == false);
  CHECK(a["error"].get<double>() == 0.0);
  CHECK(a["wall_cycles"].get<int64_t>() == wall);
  CHECK(a["accounted_cycles"].get<int64_t>() == accounted);
  CHECK(a["total_macs"].get<int64_t>() == run.total_macs);
  REQUIRE(a["layers"].size() == 1);
  CHECK(a["layers"][0]["name"] == run.layers[0].name);
  CHECK(a["layers"][0]["error"].get<double>() == Approx(-0.5).margin(0.001));
  CHECK(j["cases"][1]["name"] == "far");
  CHECK(j["cases"][1]["pass"] == false);
  CHECK(j["cases"][1]["error"].get<double>() == Approx(-0.5).margin(0.001));
  CHECK(j["cases"][2]["pass"] == true);
  CHECK(j["cases"][2]["predicted"].get<double>() == static_cast<double>(wall));
  for (const char* key : {"name", "what", "measured_on", "metric", "published", "predicted", "error", "tolerance", "pass",
                          "source", "network", "platform", "policy", "wall_cycles", "accounted_cycles", "total_macs",
                          "layers"})
    CHECK(j["cases"][2].contains(key));
  const std::string html = slurp(d.file("all.html"));
  CHECK_THAT(html, Catch::Contains("<svg") && Catch::Contains("far"));
  CHECK_THAT(html, !Catch::Contains("<script") && !Catch::Contains("https:"));

  const auto prefix = test::run_edgesim("validate " + cases + " --case ne");   // a prefix picks every case it starts
  CHECK(prefix.status == 0);
  CHECK_THAT(prefix.output, Catch::Contains("[1/1] near ... ") && Catch::Contains("1/1 cases within tolerance"));

  const auto unknown = test::run_edgesim("validate " + cases + " --case nope");
  CHECK(unknown.status == 2);
  CHECK_THAT(unknown.output, Catch::Contains("--case nope: no such case (known: acc, far, near)"));

  d.write("cases/nolayer.yaml", good_case("nolayer", "10\n  layers: {L99_nothing: 5}"));
  const auto nolayer = test::run_edgesim("validate " + cases + " --case nolayer");
  CHECK(nolayer.status == 2);
  CHECK_THAT(nolayer.output, Catch::Contains("nolayer.yaml: published.layers.L99_nothing: no layer of that name"));

  d.write("cases/broken.yaml", "name: broken\nwhat: x\n");
  const auto broken = test::run_edgesim("validate " + cases);
  CHECK(broken.status == 2);
  CHECK(broken.output.rfind("edgesim: error: ", 0) == 0);
  CHECK(std::count(broken.output.begin(), broken.output.end(), '\n') == 1);   // one line
  CHECK_THAT(broken.output, Catch::Contains("broken.yaml: missing key 'network'"));
}

namespace {

Outcome fake_outcome(const Case& c, std::vector<double> layer_errors) {
  Outcome o;
  o.c = &c;
  o.error = 0.01;
  o.pass = true;
  for (size_t i = 0; i < layer_errors.size(); ++i)
    o.layers.push_back({"layer_" + std::to_string(i), 1000, 1000 * (1 + layer_errors[i]), layer_errors[i]});
  return o;
}

}  // namespace

TEST_CASE("validation: the per-layer summary (count, within 10 %, median and worst |error|)", "[validate]") {
  Case a, b;
  a.name = "a";
  b.name = "b";
  a.metric = b.metric = "cycles";
  a.tolerance = b.tolerance = 0.1;
  CHECK(layer_summary({}).count == 0);
  // |errors| 0.02, 0.04, 0.12 (a) and 0.10, 0.30 (b): median 0.10, worst 0.30 (b layer_1), 3 within 10 %.
  const std::vector<Outcome> r = {fake_outcome(a, {0.02, -0.04, 0.12}), fake_outcome(b, {-0.10, 0.30})};
  const LayerSummary s = layer_summary(r);
  CHECK(s.count == 5);
  CHECK(s.within_10pct == 3);
  CHECK(s.median_abs_error == Approx(0.10));
  CHECK(s.worst_abs_error == Approx(0.30));
  CHECK(s.worst_case == "b");
  CHECK(s.worst_layer == "layer_1");
  // An even count: the mean of the two middle values.
  const LayerSummary e = layer_summary({fake_outcome(a, {0.02, -0.04, 0.12, 0.2})});
  CHECK(e.median_abs_error == Approx(0.08));
}

TEST_CASE("validation table: case and layer names are never cut, every line fits 100 columns", "[validate]") {
  Case c;
  c.name = "mobilenetv1_128-siracusa-atmram-energy-with-a-long-suffix";   // 56 characters
  c.what = "a long description of what the published figure measured, on which platform and how";
  c.measured_on = "silicon";
  c.metric = "accounted_cycles";
  c.published = 125672299;
  c.tolerance = 0.15;
  Outcome o = fake_outcome(c, {0.05});
  o.layers[0].name = "__QL_REPLACED__a_rather_long_node_name_of_a_transformer_MatMul";
  o.predicted = 126203843;
  const std::string t = outcomes_table({o}, 100);
  INFO(t);
  CHECK_THAT(t, Catch::Contains(c.name) && Catch::Contains(o.layers[0].name));
  CHECK_THAT(t, !Catch::Contains("..."));
  // Every line fits but the summary's worst-layer line, which names its layer and case whole.
  std::istringstream in(t);
  for (std::string line; std::getline(in, line);)
    if (line.find("worst") == std::string::npos) CHECK(line.size() <= 100);
  CHECK_THAT(outcomes_table({o}, 0), Catch::Contains(c.what));   // --wide: every column
}
