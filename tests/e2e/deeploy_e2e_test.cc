// End to end on the Deeploy tests (docs/verify.md "Reference networks"): all 35 tests, CNNs and
// transformers alike, reproduce outputs.npz bit-exactly from inputs.npz (arrays matched by
// position), and every activations.npz array equals a tensor of the golden model (or a fused node's
// value before its requant) or has no tensor in the fused graph — none differs.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <set>

#include <catch2/catch.hpp>

#include "e2e/e2e_util.h"
#include "compiler/golden/activations.h"
#include "support/paths.h"

using namespace edgesim;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kAll = {
    "Kernels/Integer/Add/Regular",
    "Kernels/Integer/Add/Regular_RQ",
    "Kernels/Integer/Concat",
    "Kernels/Integer/Conv/DW_2D_RQ",
    "Kernels/Integer/Conv/DW_3x3_RQ",
    "Kernels/Integer/Conv/PW_2D",
    "Kernels/Integer/Conv/PW_2D_RQ/Regular_RQ",
    "Kernels/Integer/Conv/Regular_2D_RQ",
    "Kernels/Integer/Conv/Regular_3x3_RQ",
    "Kernels/Integer/Conv/StriddedPadded_2D_RQ",
    "Kernels/Integer/GEMM/Batch_RQ",
    "Kernels/Integer/GEMM/Regular_RQPerColumn",
    "Kernels/Integer/GEMM/TransB_RQ",
    "Kernels/Integer/MatMul/Regular_RQ",
    "Kernels/Integer/MaxPool/Regular_2D",
    "Kernels/Integer/Pad/Regular_2D",
    "Models/CNN_Linear2",
    "Models/MLPerf/AnomalyDetection",
    "Models/MLPerf/ImageClassification",
    "Models/MLPerf/KeywordSpotting",
    "Models/MLPerf/VisualWakeWords",
    "Models/miniMobileNet",
    "Models/miniMobileNetv2",
    "Kernels/Integer/Attention",
    "Kernels/Integer/Hardswish/Regular_RQ",
    "Kernels/Integer/RMSNorm",
    "Kernels/Integer/Softmax/Regular",
    "Models/CCT/Int/ICCT",
    "Models/Transformer_DeepQuant",
    "Models/microLlama/INT8/microLlama1",
    "Models/microLlama/INT8/microLlama128",
    "Models/microLlama/INT8/microLlama64",
    "Models/microLlama/INT8/microLlama64_parallel",
    "Models/microLlama/INT8/microLlama8",
    "Models/microLlama/INT8/microLlama8_parallel",
};

std::string deeploy_root() { return edgesim::test::shared_networks() + "/deeploy"; }

}  // namespace

TEST_CASE("e2e Deeploy: the list covers every test exactly once", "[e2e][deeploy]") {
  REQUIRE_DATA(deeploy_root());
  std::set<std::string> on_disk, listed;
  for (const auto& e : fs::recursive_directory_iterator(deeploy_root()))
    if (e.path().filename() == "network.onnx")
      on_disk.insert(fs::relative(e.path().parent_path(), deeploy_root()).string());
  for (const auto& p : kAll) CHECK(listed.insert(p).second);
  CHECK(listed == on_disk);
  CHECK(on_disk.size() == 35);
}

TEST_CASE("e2e Deeploy: all 35 tests reproduce outputs.npz bit-exactly", "[e2e][deeploy]") {
  REQUIRE_DATA(deeploy_root());
  const auto test = GENERATE(from_range(kAll));
  const std::string dir = deeploy_root() + "/" + test;
  INFO("Deeploy test " << test);
  Graph g = import_onnx(dir + "/network.onnx");
  const auto run = edgesim::test::verify_network(g, dir + "/inputs.npz", dir + "/outputs.npz");
  INFO(run.report);
  CHECK(run.failed == 0);
  CHECK(run.results.size() == g.outputs.size());
}

// activations.npz (docs/verify.md "Deeploy tests"), through the checker `edgesim verify` uses
// (compiler/golden/activations.h). The only arrays without a tensor are microLlama's 8
// TrueIntegerDiv products, merged into their RequantShift as Deeploy does.
TEST_CASE("e2e Deeploy: activations.npz arrays match graph tensors by shape and value",
          "[e2e][deeploy][activations]") {
  REQUIRE_DATA(deeploy_root());
  int64_t arrays = 0, matched = 0, fused = 0;
  for (const std::string& test : kAll) {
    const std::string dir = deeploy_root() + "/" + test;
    if (!fs::exists(dir + "/activations.npz")) continue;
    INFO("Deeploy test " << test);
    Graph g = import_onnx(dir + "/network.onnx");
    const auto in = load_inputs(g, dir + "/inputs.npz");
    const auto r = interpret(g, in);
    const ActivationCheck c = check_activations(g, r, dir + "/activations.npz");
    for (const auto& d : c.differ) INFO(d);
    CHECK(c.differ.empty());
    const bool llama = test.find("microLlama") != std::string::npos;
    CHECK(c.fused_away == (llama ? 8 : 0));
    arrays += c.arrays, matched += c.tensors + c.accumulators, fused += c.fused_away;
  }
  std::cout << "  activations.npz: " << arrays << " arrays, " << matched << " bit-exact, " << fused
            << " without a tensor\n";
  CHECK(matched == arrays - fused);
}
