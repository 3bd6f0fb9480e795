// End to end on the Deeploy tests (networks/README.md §3): every test of the CNN class must
// reproduce outputs.npz bit-exactly from inputs.npz (arrays matched by position). The tests
// that need transformer or integer non-linear ops (TF class) or float fake-quant are listed
// below with the reason; the test asserts that each of them fails import with "unsupported op",
// so the list stays honest: once the importer learns an op, the entry must move to kCnn.
// Together the two lists must cover every network.onnx under shared/networks/deeploy.
#include <algorithm>
#include <filesystem>
#include <set>

#include <catch2/catch.hpp>

#include "e2e/e2e_util.h"
#include "support/paths.h"

using namespace edgesim;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kCnn = {
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
};

struct Skipped {
  std::string path, reason;
};

// Kept in sync with the table in docs/verify.md.
const std::vector<Skipped> kSkipped = {
    {"Kernels/Integer/Attention", "TF: iSoftmax"},
    {"Kernels/Integer/Softmax/Regular", "TF: iSoftmax"},
    {"Kernels/Integer/Hardswish/Regular_RQ", "TF: iHardswish"},
    {"Kernels/Integer/RMSNorm", "TF: iRMSNorm"},
    {"Models/CCT/Int/ICCT", "TF: ITAMax, iLayerNorm, iGELU, IntegerMean"},
    {"Models/microLlama/INT8/microLlama1", "TF: iRMSNorm, iSoftmax, iHardswish, TrueIntegerDiv"},
    {"Models/microLlama/INT8/microLlama8", "TF: iRMSNorm, iSoftmax, iHardswish, TrueIntegerDiv"},
    {"Models/microLlama/INT8/microLlama64", "TF: iRMSNorm, iSoftmax, iHardswish, TrueIntegerDiv"},
    {"Models/microLlama/INT8/microLlama128", "TF: iRMSNorm, iSoftmax, iHardswish, TrueIntegerDiv"},
    {"Models/microLlama/INT8/microLlama8_parallel", "TF: iRMSNorm, iSoftmax, iHardswish, TrueIntegerDiv"},
    {"Models/microLlama/INT8/microLlama64_parallel", "TF: iRMSNorm, iSoftmax, iHardswish, TrueIntegerDiv"},
    {"Models/Transformer_DeepQuant", "float fake-quant: Round, Div, Sub on float tensors"},
};

std::string deeploy_root() { return edgesim::test::shared_networks() + "/deeploy"; }

}  // namespace

TEST_CASE("e2e Deeploy: the CNN and skip lists cover every test exactly once", "[e2e][deeploy]") {
  REQUIRE_DATA(deeploy_root());
  std::set<std::string> on_disk, listed;
  for (const auto& e : fs::recursive_directory_iterator(deeploy_root()))
    if (e.path().filename() == "network.onnx")
      on_disk.insert(fs::relative(e.path().parent_path(), deeploy_root()).string());
  for (const auto& p : kCnn) CHECK(listed.insert(p).second);
  for (const auto& s : kSkipped) CHECK(listed.insert(s.path).second);
  CHECK(listed == on_disk);
  CHECK(on_disk.size() == 35);
}

TEST_CASE("e2e Deeploy: CNN-class tests reproduce outputs.npz bit-exactly", "[e2e][deeploy]") {
  REQUIRE_DATA(deeploy_root());
  const auto test = GENERATE(from_range(kCnn));
  const std::string dir = deeploy_root() + "/" + test;
  INFO("Deeploy test " << test);
  Graph g = import_onnx(dir + "/network.onnx");
  const auto run = edgesim::test::verify_network(g, dir + "/inputs.npz", dir + "/outputs.npz");
  INFO(run.report);
  CHECK(run.failed == 0);
  CHECK(run.results.size() == g.outputs.size());
}

TEST_CASE("e2e Deeploy: TF and float tests are rejected as unsupported ops", "[e2e][deeploy]") {
  REQUIRE_DATA(deeploy_root());
  const auto skipped = GENERATE(from_range(kSkipped));
  const std::string onnx = deeploy_root() + "/" + skipped.path + "/network.onnx";
  INFO("Deeploy test " << skipped.path << " (" << skipped.reason << ")");
  CHECK_THROWS_WITH(import_onnx(onnx), Contains("unsupported op"));
}

namespace {

Shape squeezed(const Shape& s) {
  Shape r;
  for (int64_t d : s)
    if (d != 1) r.push_back(d);
  return r;
}

bool fits(const Tensor& t, const std::vector<double>& v) {
  if (!dtype_is_int(t.dtype())) return true;
  return std::all_of(v.begin(), v.end(), [&](double x) {
    return x >= static_cast<double>(dtype_min(t.dtype())) && x <= static_cast<double>(dtype_max(t.dtype()));
  });
}

}  // namespace

// activations.npz holds intermediate tensors under QuantLib module names (DIALECTS.md §3.1),
// matched by shape and value. The fused graph has no tensor for some of them (a Conv's int32
// accumulator before its RequantShift), so the rule is: an array that some same-shaped graph
// tensor could hold (values within its dtype) must equal one of those tensors; other arrays
// are counted as fused away. At least one array per archive must be matched.
TEST_CASE("e2e Deeploy: activations.npz arrays match graph tensors by shape and value",
          "[e2e][deeploy][activations]") {
  REQUIRE_DATA(deeploy_root());
  const auto test = GENERATE(from_range(kCnn));
  const std::string dir = deeploy_root() + "/" + test;
  if (!fs::exists(dir + "/activations.npz")) return;
  const auto acts = read_npz(dir + "/activations.npz");
  if (acts.empty()) return;   // Kernels/Integer/Concat ships an empty archive
  INFO("Deeploy test " << test);
  Graph g = import_onnx(dir + "/network.onnx");
  const auto in = load_inputs(g, dir + "/inputs.npz");
  const auto r = interpret(g, in);
  int matched = 0, fused_away = 0;
  for (const auto& a : acts) {
    bool candidate = false, equal = false;
    for (const auto& v : r.values) {
      if (!v || squeezed(v->shape()) != squeezed(a.shape) || !fits(*v, a.values)) continue;
      candidate = true;
      const auto got = v->to_f64();
      equal = equal || got == a.values;
    }
    INFO("array " << a.name << " " << shape_str(a.shape));
    if (!candidate) { ++fused_away; continue; }
    CHECK(equal);
    matched += equal;
  }
  INFO(matched << " matched, " << fused_away << " without a graph tensor");
  CHECK(matched > 0);
}
