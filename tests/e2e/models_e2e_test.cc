// End-to-end: the networks edgesim ships (models/) verify bit-exactly against the goldens their
// generator computed with its own numpy reference (an implementation independent of the C++
// kernels). tiny and resnet8 are committed; mobilenetv1_128 is generated into the build tree.
#include <catch2/catch.hpp>

#include "e2e/e2e_util.h"
#include "support/paths.h"

using namespace edgesim;

namespace {

void verify_model(const std::string& dir, const std::string& dialect, size_t layers,
                  int64_t macs) {
  const std::string onnx = dir + "/model.onnx", data = dir + "/test_data_set_0";
  REQUIRE_DATA(onnx);
  Graph g = import_onnx(onnx);
  CHECK(g.dialect == dialect);
  CHECK(g.layer_nodes().size() == layers);
  CHECK(g.total_macs() == macs);
  const auto run = test::verify_network(g, data, data);
  INFO(run.report);
  REQUIRE(run.results.size() == 1);
  CHECK(run.failed == 0);
}

}  // namespace

TEST_CASE("e2e models: tiny (QDQ) is bit-exact", "[e2e][models]") {
  verify_model(test::source_dir() + "/models/tiny", "qdq", 6, 68256);
}

TEST_CASE("e2e models: resnet8 (Deeploy) is bit-exact", "[e2e][models]") {
  verify_model(test::source_dir() + "/models/resnet8", "deeploy", 14, 12501632);
}

TEST_CASE("e2e models: MobileNetV1-128 has DORY's 29 layers and is bit-exact", "[e2e][models]") {
  // docs/verify.md "Reference networks" (MV1-128): 29 layers, 186,400,768 MACs.
  verify_model(std::string(EDGESIM_BUILD_DIR) + "/models/mobilenetv1_128", "deeploy", 29,
               186400768);
}
