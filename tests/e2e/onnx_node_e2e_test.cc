// End to end on the ONNX backend node tests of the int8 ops (docs/dialects.md "Standard ONNX int8",
// Debian libonnx-testdata 1.12). Every graph input except input 0 (scales, zero points, weights) is
// bound as a constant, as a deployment flow would see them; input 0 comes from input_0.pb and every
// output_<j>.pb must match exactly (float outputs compared as float32).
#include <filesystem>

#include <catch2/catch.hpp>

#include "e2e/e2e_util.h"
#include "support/paths.h"

using namespace edgesim;
namespace fs = std::filesystem;

TEST_CASE("e2e ONNX node tests: QDQ, QLinear and Integer ops", "[e2e][onnx_node]") {
  const std::string root = edgesim::test::onnx_testdata();
  REQUIRE_DATA(root);
  const auto name = GENERATE(as<std::string>{}, "test_quantizelinear", "test_quantizelinear_axis",
                             "test_dequantizelinear", "test_dequantizelinear_axis",
                             "test_qlinearconv", "test_qlinearmatmul_2D", "test_qlinearmatmul_3D",
                             "test_convinteger_with_padding", "test_convinteger_without_padding",
                             "test_basic_convinteger", "test_matmulinteger");
  const fs::path dir = fs::path(root) / name;
  const fs::path set = dir / "test_data_set_0";
  INFO("node test " << name);
  REQUIRE_DATA(set.string());

  ImportOptions opt;
  const auto names = onnx_input_names((dir / "model.onnx").string());
  for (size_t i = 1; i < names.size(); ++i)
    opt.constant_inputs.emplace_back(
        names[i], read_tensor_proto_file((set / ("input_" + std::to_string(i) + ".pb")).string()));
  Graph g = import_onnx((dir / "model.onnx").string(), opt);
  REQUIRE(g.inputs.size() == 1);

  const auto run = edgesim::test::verify_network(g, set.string(), set.string());
  INFO(run.report);
  CHECK(run.failed == 0);
  size_t outputs = 0;
  while (fs::exists(set / ("output_" + std::to_string(outputs) + ".pb"))) ++outputs;
  CHECK(run.results.size() == outputs);
}
