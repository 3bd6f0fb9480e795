// [report] provenance in every output (sim/report/provenance.h): the run JSON, the trace's
// otherData and the HTML footer carry the same facts; the CSV comment lines; escaping.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "sim/report/provenance.h"
#include "sim/report/report.h"

using namespace edgesim;

namespace {

Provenance sample() {
  Provenance p;
  p.command_line = "edgesim run -p gap8 'a b.onnx' --set l1.size=128KiB";
  p.version = "0.1.0";
  p.commit = "0123456789ab";
  p.platform = "gap8";
  p.platform_spec_hash = "fnv1a:00000000000000ff";
  p.overrides = {"l1.size=128KiB"};
  p.options = {{"policy", "dory"}, {"seed", "1"}};
  p.files = {{"platform", "platforms/gap8.yaml", "fnv1a:0000000000000001"}, {"network", "a<b>.onnx", "fnv1a:2"}};
  return p;
}

}  // namespace

TEST_CASE("provenance: the same facts in JSON, trace, HTML and CSV comment lines", "[report]") {
  RunResult r;
  r.network = "n";
  r.provenance = sample();
  const auto j = nlohmann::json::parse(run_to_json(r))["provenance"];
  CHECK(j["command_line"] == sample().command_line);
  CHECK(j["commit"] == "0123456789ab");
  CHECK(j["overrides"] == nlohmann::json::array({"l1.size=128KiB"}));
  CHECK(j["options"]["policy"] == "dory");
  CHECK(j["files"][1]["hash"] == "fnv1a:2");
  CHECK(nlohmann::json::parse(run_to_trace(r))["otherData"]["provenance"] == j);

  const std::string html = run_to_html(r);
  CHECK(html.find("How this report was made") != std::string::npos);
  CHECK(html.find("a&lt;b&gt;.onnx") != std::string::npos);
  CHECK(html.find("l1.size=128KiB") != std::string::npos);
  CHECK(html.find("0123456789ab") != std::string::npos);

  const std::string csv = report::provenance_comment_lines(sample());
  CHECK(csv.rfind("# command: edgesim run -p gap8 'a b.onnx' --set l1.size=128KiB\n", 0) == 0);
  CHECK(csv.find("# options: policy=dory seed=1\n") != std::string::npos);
  CHECK(csv.find("# network file: a<b>.onnx fnv1a:2\n") != std::string::npos);
  CHECK(report::provenance_comment_lines(Provenance{}).empty());
  CHECK(report::provenance_html(Provenance{}).empty());
}
