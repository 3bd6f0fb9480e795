// Frontend on the Deeploy / QuantLib tests (docs/dialects.md "Deeploy / QuantLib"): every
// CNN-class test imports with the MACs of docs/verify.md "Reference networks"; RequantShift folds
// to round-half-up with per-channel / per-row / per-column axes; inputs are dtype_inferred; the
// transformer and float tests import as fused transformer ops (docs/dialects.md
// "Deeploy transformer ops"). Outputs are checked bit-exactly in tests/e2e.
#include <catch2/catch.hpp>

#include "compiler/frontend/import.h"
#include "compiler/ir/printer.h"
#include "support/paths.h"

using namespace edgesim;

namespace {

std::string deeploy(const std::string& rel) { return test::shared_networks() + "/deeploy/" + rel + "/network.onnx"; }

int count(const Graph& g, OpKind k) {
  int n = 0;
  for (const Node& x : g.nodes) n += x.kind() == k;
  return n;
}

}  // namespace

TEST_CASE("frontend Deeploy: CNN-class tests import with the MACs of docs/verify.md (Reference networks)", "[frontend][deeploy]") {
  const std::pair<const char*, int64_t> table[] = {
      {"Kernels/Integer/Add/Regular", 0},
      {"Kernels/Integer/Add/Regular_RQ", 0},
      {"Kernels/Integer/Conv/Regular_2D_RQ", 815616},
      {"Kernels/Integer/Conv/DW_2D_RQ", 11520},
      {"Kernels/Integer/Conv/StriddedPadded_2D_RQ", 216},
      {"Kernels/Integer/Conv/PW_2D", 1048576},
      {"Kernels/Integer/Conv/PW_2D_RQ/Regular_RQ", 1179648},
      {"Kernels/Integer/Conv/Regular_3x3_RQ", 129600},
      {"Kernels/Integer/Conv/DW_3x3_RQ", 1800},
      {"Kernels/Integer/GEMM/Regular_RQPerColumn", 204800},
      {"Kernels/Integer/GEMM/Batch_RQ", 128},
      {"Kernels/Integer/GEMM/TransB_RQ", 15744},
      {"Kernels/Integer/MatMul/Regular_RQ", 196608},
      {"Kernels/Integer/Concat", 0},
      {"Kernels/Integer/MaxPool/Regular_2D", 0},
      {"Kernels/Integer/Pad/Regular_2D", 0},
      {"Models/miniMobileNet", 56064},
      {"Models/miniMobileNetv2", 128512},
      {"Models/CNN_Linear2", 3986432},
      {"Models/MLPerf/KeywordSpotting", 2125568},
      {"Models/MLPerf/ImageClassification", 12501632},
      {"Models/MLPerf/AnomalyDetection", 264192},
      {"Models/MLPerf/VisualWakeWords", 7489664},
  };
  for (const auto& [rel, macs] : table) {
    const std::string path = deeploy(rel);
    REQUIRE_DATA(path);
    INFO(rel);
    const Graph g = import_onnx(path);
    CHECK(g.total_macs() == macs);
    for (int id : g.inputs) CHECK(g.tensor(id).dtype_inferred);
    // No RequantShift is left behind as a separate node after a Conv or Gemm.
    for (const Node& n : g.nodes)
      if (n.kind() == OpKind::Requant) CHECK(n.fused == std::vector<std::string>{"RequantShift"});
  }
}

TEST_CASE("frontend Deeploy: model structure (layers, standalone requants)", "[frontend][deeploy]") {
  SECTION("miniMobileNetv2: 10 conv + add + FC; the unity RequantShifts on branching tensors pass through") {
    const std::string path = deeploy("Models/miniMobileNetv2");
    REQUIRE_DATA(path);
    const Graph g = import_onnx(path);
    CHECK(g.layer_nodes().size() == 12);
    CHECK(count(g, OpKind::Conv) == 10);
    // Its two standalone RequantShifts return every input value unchanged: the importer drops them
    // as Deeploy's SkipUnityRequantPass does (is_identity_requant).
    CHECK(count(g, OpKind::Requant) == 0);
    CHECK(count(g, OpKind::Add) == 1);
    for (const Node& n : g.nodes)
      if (n.kind() == OpKind::Add) CHECK(n.as<AddParams>().rq.kind == Requant::Kind::Integer);
  }
  SECTION("ImageClassification: 9 conv, 3 adds, 1 max pool, reshape, FC") {
    const std::string path = deeploy("Models/MLPerf/ImageClassification");
    REQUIRE_DATA(path);
    const Graph g = import_onnx(path);
    CHECK(count(g, OpKind::Conv) == 9);
    CHECK(count(g, OpKind::Add) == 3);
    CHECK(count(g, OpKind::Pool) == 1);
    CHECK(count(g, OpKind::Reshape) == 1);
    CHECK(count(g, OpKind::Gemm) == 1);
  }
  SECTION("Add/Regular: an unsaturated add is int32") {
    const std::string path = deeploy("Kernels/Integer/Add/Regular");
    REQUIRE_DATA(path);
    const Graph g = import_onnx(path);
    REQUIRE(g.nodes.size() == 1);
    CHECK(g.tensor(g.outputs[0]).dtype == DType::I32);
    CHECK(g.nodes[0].as<AddParams>().rq.kind == Requant::Kind::None);
  }
}

TEST_CASE("frontend Deeploy: RequantShift folding and channel axes", "[frontend][deeploy]") {
  SECTION("per output channel after a Conv (ai.onnx.contrib domain, div as tensor attribute)") {
    const std::string path = deeploy("Kernels/Integer/Conv/StriddedPadded_2D_RQ");
    REQUIRE_DATA(path);
    const Graph g = import_onnx(path);
    REQUIRE(g.nodes.size() == 1);
    const auto& rq = g.nodes[0].as<ConvParams>().rq;
    CHECK(rq.kind == Requant::Kind::Integer);
    CHECK(rq.k == std::vector<int64_t>{901, 636});
    CHECK(rq.lambda == std::vector<int64_t>{315, 1715});
    CHECK(rq.shift == 10);
    CHECK(rq.round == 512);
    CHECK(rq.lo == -128);
    CHECK(rq.hi == 127);
    CHECK(g.tensor(g.outputs[0]).dtype == DType::I8);
  }
  SECTION("per output row of a Gemm with a full [M, N] C") {
    const std::string path = deeploy("Kernels/Integer/GEMM/TransB_RQ");
    REQUIRE_DATA(path);
    const Graph g = import_onnx(path);
    const auto& p = g.nodes.at(0).as<GemmParams>();
    CHECK(p.trans_b);
    CHECK(p.bias_shape == Shape{32, 4});
    CHECK(p.rq.axis == 0);
    CHECK(p.rq.k.size() == 32);
    CHECK(g.inputs.size() == 1);   // RQS1.mul / RQS1.add are listed as inputs but are initializers
  }
  SECTION("per output column, unsigned") {
    const std::string path = deeploy("Kernels/Integer/GEMM/Regular_RQPerColumn");
    REQUIRE_DATA(path);
    const Graph g = import_onnx(path);
    const auto& p = g.nodes.at(0).as<GemmParams>();
    CHECK(p.rq.axis == 1);
    CHECK(p.rq.k.size() == 10);
    CHECK(p.rq.lo == 0);
    CHECK(p.rq.hi == 255);
    CHECK(g.tensor(g.outputs[0]).dtype == DType::U8);
  }
  SECTION("MatMul -> Add(bias) -> RequantShift: the Add becomes the Gemm bias") {
    const std::string path = deeploy("Kernels/Integer/GEMM/Batch_RQ");
    REQUIRE_DATA(path);
    const Graph g = import_onnx(path);
    REQUIRE(g.nodes.size() == 1);
    const auto& p = g.nodes[0].as<GemmParams>();
    CHECK(p.bias_shape == Shape{4});
    CHECK(p.rq.k == std::vector<int64_t>{709});
    CHECK(p.rq.lambda == std::vector<int64_t>{3681});
    CHECK(g.nodes[0].fused == std::vector<std::string>{"MatMul", "Add", "RequantShift"});
  }
  SECTION("MatMul of two runtime inputs, per batch-axis requant") {
    const std::string path = deeploy("Kernels/Integer/MatMul/Regular_RQ");
    REQUIRE_DATA(path);
    const Graph g = import_onnx(path);
    REQUIRE(g.inputs.size() == 2);
    const auto& p = g.nodes.at(0).as<GemmParams>();
    CHECK(p.rq.axis == 1);
    CHECK(p.rq.k == std::vector<int64_t>{20, 58});
    CHECK_FALSE(g.tensor(g.nodes[0].inputs[1]).is_const());
  }
}

TEST_CASE("frontend Deeploy: print_graph snapshot of Conv/StriddedPadded_2D_RQ", "[frontend][deeploy]") {
  const std::string path = deeploy("Kernels/Integer/Conv/StriddedPadded_2D_RQ");
  REQUIRE_DATA(path);
  const std::string expected =
      "graph network dialect=deeploy macs=216\n"
      "input %0 \"x\" u8[1,3,5,5] inferred\n"
      "L0 conv \"node_Conv_0\" %0 -> %2 i8[1,2,2,2] w=i8[2,3,3,3] k=3x3 s=2x2 p=0,0,0,0 g=1 "
      "rq(k[2] l[2] +512 >>10 axis=1 [-128,127]) <- Conv+RequantShift\n"
      "output %2 \"conv2d\" i8[1,2,2,2]\n";
  CHECK(print_graph(import_onnx(path)) == expected);
}

TEST_CASE("frontend Deeploy: pass-through dtypes of inferred inputs are re-derived after re-typing",
          "[frontend][deeploy]") {
  const std::string path = deeploy("Kernels/Integer/Concat");
  REQUIRE_DATA(path);
  Graph g = import_onnx(path);
  REQUIRE(g.nodes.size() == 1);
  CHECK(g.tensor(g.outputs[0]).dtype == DType::I32);   // holds any re-typed input
  for (int id : g.inputs) g.tensors[static_cast<size_t>(id)].dtype = DType::I16;
  retype_from_inputs(g);
  CHECK(g.tensor(g.outputs[0]).dtype == DType::I16);
  for (int id : g.inputs) g.tensors[static_cast<size_t>(id)].dtype = DType::I8;
  retype_from_inputs(g);
  CHECK(g.tensor(g.outputs[0]).dtype == DType::I8);
}

TEST_CASE("frontend Deeploy: transformer tests import as fused transformer ops", "[frontend][deeploy]") {
  struct Row {
    const char* rel;
    int64_t macs;
    int softmax, norm, act, mul, mean, gather, fquant;
  };
  // MACs and custom-op counts from docs/verify.md "Reference networks" (iHardswish and
  // iGELU each absorb their RequantShift; Mul is the gated MLP's product of two activations).
  const Row table[] = {
      {"Kernels/Integer/Attention", 557056, 1, 0, 0, 0, 0, 0, 0},
      {"Kernels/Integer/Softmax/Regular", 0, 1, 0, 0, 0, 0, 0, 0},
      {"Kernels/Integer/Hardswish/Regular_RQ", 0, 0, 0, 1, 0, 0, 0, 0},
      {"Kernels/Integer/RMSNorm", 0, 0, 1, 0, 0, 0, 0, 0},
      {"Models/CCT/Int/ICCT", 17373952, 1, 3, 1, 0, 1, 1, 0},
      {"Models/microLlama/INT8/microLlama1", 530432, 8, 17, 8, 8, 0, 0, 0},
      {"Models/microLlama/INT8/microLlama8", 537600, 8, 17, 8, 8, 0, 0, 0},
      {"Models/microLlama/INT8/microLlama8_parallel", 4292608, 8, 17, 8, 8, 0, 0, 0},
      {"Models/microLlama/INT8/microLlama64", 594944, 8, 17, 8, 8, 0, 0, 0},
      {"Models/microLlama/INT8/microLlama64_parallel", 38010880, 8, 17, 8, 8, 0, 0, 0},
      {"Models/microLlama/INT8/microLlama128", 660480, 8, 17, 8, 8, 0, 0, 0},
      {"Models/Transformer_DeepQuant", 2048, 0, 0, 0, 0, 0, 0, 2},
  };
  for (const Row& r : table) {
    const std::string path = deeploy(r.rel);
    REQUIRE_DATA(path);
    INFO(r.rel);
    const Graph g = import_onnx(path);
    CHECK(g.total_macs() == r.macs);
    CHECK(count(g, OpKind::Softmax) == r.softmax);
    CHECK(count(g, OpKind::Norm) == r.norm);
    CHECK(count(g, OpKind::Act) == r.act);
    CHECK(count(g, OpKind::Mul) == r.mul);
    CHECK(count(g, OpKind::Mean) == r.mean);
    CHECK(count(g, OpKind::Gather) == r.gather);
    CHECK(count(g, OpKind::FloatChain) == r.fquant);
  }
  // The *_parallel graphs' empty KV caches: every Concat with an empty operand disappears.
  const std::string par = deeploy("Models/microLlama/INT8/microLlama64_parallel");
  REQUIRE_DATA(par);
  CHECK(count(import_onnx(par), OpKind::Concat) == 0);
  CHECK(count(import_onnx(deeploy("Models/microLlama/INT8/microLlama64")), OpKind::Concat) == 16);
  // Transformer_DeepQuant: float32 input and output, integer Gemm in between.
  const Graph dq = import_onnx(deeploy("Models/Transformer_DeepQuant"));
  CHECK(dq.dialect == "fakequant");
  CHECK(dq.tensor(dq.inputs[0]).dtype == DType::F32);
  CHECK(dq.tensor(dq.outputs[0]).dtype == DType::F32);
  CHECK(count(dq, OpKind::Gemm) == 1);
}
