// End to end on the DORY networks (docs/verify.md "Reference networks"): every network directory
// under shared/networks/dory that has an ONNX file is imported, fed its input.txt, interpreted with
// the exact-divisor arithmetic, and every out_layer<N>.txt must match bit-exactly. The golden count
// must equal the graph's layer count, which pins the frontend's layer numbering.
#include <filesystem>
#include <map>

#include <catch2/catch.hpp>

#include "e2e/e2e_util.h"
#include "support/paths.h"

using namespace edgesim;
namespace fs = std::filesystem;

namespace {

// Networks whose per-layer goldens are CHW (docs/verify.md "Reference networks"); all others are
// HWC/[L, C].
bool chw_goldens(const std::string& net) { return net == "SmartAgri-net" || net == "dscnn_test"; }

struct DoryNet {
  std::string name, onnx, dir;
};

std::vector<DoryNet> dory_networks() {
  std::vector<DoryNet> nets;
  const fs::path root = edgesim::test::shared_networks() + "/dory";
  if (!fs::is_directory(root)) return nets;
  for (const auto& d : fs::directory_iterator(root)) {
    if (!d.is_directory()) continue;
    for (const auto& f : fs::directory_iterator(d.path()))
      if (f.path().extension() == ".onnx")
        nets.push_back({d.path().filename().string(), f.path().string(), d.path().string()});
  }
  std::sort(nets.begin(), nets.end(), [](const DoryNet& a, const DoryNet& b) { return a.name < b.name; });
  return nets;
}

int count_layer_files(const std::string& dir) {
  int n = 0;
  for (const auto& f : fs::directory_iterator(dir)) {
    const std::string s = f.path().filename().string();
    n += s.rfind("out_layer", 0) == 0 && f.path().extension() == ".txt";
  }
  return n;
}

}  // namespace

TEST_CASE("e2e DORY: the nine networks with ONNX are found", "[e2e][dory]") {
  REQUIRE_DATA(edgesim::test::shared_networks() + "/dory");
  std::vector<std::string> names;
  for (const auto& n : dory_networks()) names.push_back(n.name);
  CHECK(names == std::vector<std::string>{"NAS_Frontnet", "PenguiNet_32", "Quantlab_Dronet",
                                          "SmartAgri-net", "TCN_T", "dronet_complete", "dscnn_test",
                                          "eegnetDW_1d_8b_1xW", "proxylessnas_pulp_dronet"});
}

TEST_CASE("e2e DORY: every out_layer file is bit-exact", "[e2e][dory]") {
  REQUIRE_DATA(edgesim::test::shared_networks() + "/dory");
  const auto nets = dory_networks();
  REQUIRE(!nets.empty());
  const auto net = GENERATE_COPY(from_range(nets));
  INFO("network " << net.name << " (" << net.onnx << ")");
  Graph g = import_onnx(net.onnx);
  VerifyOptions vopt;
  vopt.layout = chw_goldens(net.name) ? GoldenLayout::CHW : GoldenLayout::HWC;
  const auto run = edgesim::test::verify_network(g, net.dir + "/input.txt", net.dir, vopt);
  INFO(run.report);
  CHECK(run.failed == 0);
  CHECK(static_cast<int>(run.results.size()) == count_layer_files(net.dir));
  CHECK(run.results.size() == g.layer_nodes().size());
}

TEST_CASE("e2e DORY: proxylessnas with DORY's shift arithmetic differs, final logits do not",
          "[e2e][dory][arith]") {
  const std::string dir = edgesim::test::shared_networks() + "/dory/proxylessnas_pulp_dronet";
  REQUIRE_DATA(dir + "/proxyless_id.onnx");
  Graph g = import_onnx(dir + "/proxyless_id.onnx");
  InterpreterOptions shift;
  shift.mode = ArithMode::DoryShift;
  const auto run = edgesim::test::verify_network(g, dir + "/input.txt", dir, {}, shift);
  INFO(run.report);
  // docs/dialects.md "Exact divisor or shift": end to end, errors propagate (up to 7 LSB) but the
  // two logits are unchanged.
  CHECK(run.failed > 0);
  REQUIRE(run.results.size() == 23);
  CHECK(run.results[0].ok());         // layer 0 has no 2^n - 1 divisor effect
  CHECK_FALSE(run.results[1].ok());   // layer 1 is the first one off (11 elements layer-wise)
  CHECK(run.results.back().ok());
  int64_t worst = 0;
  for (const auto& c : run.results) worst = std::max<int64_t>(worst, static_cast<int64_t>(c.max_abs_diff));
  CHECK(worst <= 7);
}
