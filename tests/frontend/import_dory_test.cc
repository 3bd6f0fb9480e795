// Frontend on the DORY networks (NEMO and QuantLab dialects): layer counts and MACs against
// docs/verify.md "Reference networks", dtypes, and the folded requant parameters of
// representative layers (docs/dialects.md "NEMO", "QuantLab"). Bit-exactness against the goldens is
// checked in tests/e2e.
#include <catch2/catch.hpp>

#include "compiler/frontend/import.h"
#include "support/paths.h"

using namespace edgesim;

namespace {

std::string dory(const std::string& rel) { return test::shared_networks() + "/dory/" + rel; }

const Node& layer(const Graph& g, int k) { return g.nodes.at(static_cast<size_t>(g.layer_nodes().at(static_cast<size_t>(k)))); }
DType out_dtype(const Graph& g, const Node& n) { return g.tensor(n.outputs[0]).dtype; }

struct Expect {
  const char* file;
  const char* dialect;
  int layers;
  int64_t macs;
};

}  // namespace

TEST_CASE("frontend DORY: layer counts and MACs match docs/verify.md (Reference networks)", "[frontend][dory]") {
  const Expect table[] = {
      {"PenguiNet_32/model_int.onnx", "nemo", 9, 14138880},
      {"NAS_Frontnet/Frontnet.onnx", "nemo", 9, 9769260},
      {"dronet_complete/model_int.onnx", "nemo", 15, 41103104},
      {"proxylessnas_pulp_dronet/proxyless_id.onnx", "nemo", 23, 51354760},
      {"dscnn_test/model_int.onnx", "nemo", 11, 2656640},
      {"SmartAgri-net/model_int.onnx", "nemo", 12, 19288596},
      {"eegnetDW_1d_8b_1xW/eegnet_id_8b.onnx", "nemo", 7, 232992},
      {"TCN_T/TCN.onnx", "nemo", 12, 979440},
      {"Quantlab_Dronet/DRONETV3_ql_integerized.onnx", "quantlab", 15, 41103104},
  };
  for (const Expect& e : table) {
    const std::string path = dory(e.file);
    REQUIRE_DATA(path);
    INFO(e.file);
    const Graph g = import_onnx(path);
    CHECK(g.dialect == e.dialect);
    CHECK(static_cast<int>(g.layer_nodes().size()) == e.layers);
    CHECK(g.total_macs() == e.macs);
    // u8 activations in, the last FC's raw int32 accumulators out (the tail is dropped).
    REQUIRE(g.inputs.size() == 1);
    CHECK(g.tensor(g.inputs[0]).dtype == DType::U8);
    CHECK_FALSE(g.tensor(g.inputs[0]).dtype_inferred);
    REQUIRE(g.outputs.size() == 1);
    const Node& last = layer(g, e.layers - 1);
    CHECK(last.kind() == OpKind::Gemm);
    CHECK(last.outputs[0] == g.outputs[0]);
    CHECK(out_dtype(g, last) == DType::I32);
    CHECK(last.as<GemmParams>().rq.kind == Requant::Kind::None);
    // Every conv is a fused P1 / QuantLab layer with a uint8 output and int8 weights.
    for (const Node& n : g.nodes) {
      if (n.kind() != OpKind::Conv) continue;
      const auto& p = n.as<ConvParams>();
      CHECK(p.rq.kind == Requant::Kind::Integer);
      CHECK(p.rq.lo == 0);
      CHECK(p.rq.hi == 255);
      CHECK(out_dtype(g, n) == DType::U8);
      const DType w = g.tensor(n.inputs[1]).dtype;
      CHECK((w == DType::I8 || w == DType::U8));
    }
  }
}

TEST_CASE("frontend DORY: dronet_complete P1 folding and the residual adds", "[frontend][dory]") {
  const std::string path = dory("dronet_complete/model_int.onnx");
  REQUIRE_DATA(path);
  const Graph g = import_onnx(path);
  const Node& c0 = layer(g, 0);
  REQUIRE(c0.kind() == OpKind::Conv);
  const auto& p = c0.as<ConvParams>();
  CHECK(p.kh == 5);
  CHECK(p.sh == 2);
  CHECK(p.pad_t == 2);
  CHECK(p.rq.k.size() == 32);
  CHECK(p.rq.axis == 1);
  CHECK(p.rq.mul == 5);
  CHECK(p.rq.shift == 24);
  CHECK(p.rq.div == 0);   // 2^24: the shift is exact
  CHECK(c0.fused == std::vector<std::string>{"Conv", "Mul", "Add", "Cast", "Mul", "Div", "Cast", "Cast", "Cast", "Clip"});
  CHECK(layer(g, 1).kind() == OpKind::Pool);
  // P3 adds: ⌊(32·x1 + 32·x2) / 32⌋, unsaturated (int32) at layers 5 and 9, P2-clamped at 13.
  for (int k : {5, 9, 13}) {
    const Node& a = layer(g, k);
    REQUIRE(a.kind() == OpKind::Add);
    const auto& ap = a.as<AddParams>();
    CHECK(ap.mul1 == 32);
    CHECK(ap.mul2 == 32);
    CHECK(ap.shift_sum == 5);
  }
  CHECK(layer(g, 5).as<AddParams>().rq.kind == Requant::Kind::None);
  CHECK(out_dtype(g, layer(g, 5)) == DType::I32);
  const Requant& rq13 = layer(g, 13).as<AddParams>().rq;
  CHECK(rq13.kind == Requant::Kind::Integer);
  CHECK(rq13.mul == 32);
  CHECK(rq13.shift == 5);
  CHECK(out_dtype(g, layer(g, 13)) == DType::U8);
  // Layer numbering follows ONNX order: the bypass conv (Conv_37) is layer 4.
  CHECK(layer(g, 4).name == "Conv_37");
}

TEST_CASE("frontend DORY: proxylessnas keeps d = 2^n - 1, pools a 7x7 window, leaves add 12 unsaturated",
          "[frontend][dory]") {
  const std::string path = dory("proxylessnas_pulp_dronet/proxyless_id.onnx");
  REQUIRE_DATA(path);
  const Graph g = import_onnx(path);
  const auto& c1 = layer(g, 1).as<ConvParams>();
  CHECK(c1.groups == 32);
  CHECK(c1.rq.div == 262143);
  CHECK(c1.rq.shift == 18);
  CHECK(c1.rq.mul == 54);
  const Node& add = layer(g, 12);
  REQUIRE(add.kind() == OpKind::Add);
  CHECK(add.as<AddParams>().rq.hi == 2147483647);   // reaches 358 in the goldens
  const Node& pool = layer(g, 21);
  REQUIRE(pool.kind() == OpKind::Pool);
  const auto& pp = pool.as<PoolParams>();
  CHECK(pp.kind == PoolParams::Kind::Sum);
  CHECK(pp.kh == 7);
  CHECK(pp.sh == 7);
  CHECK(pp.rq.mul == 42);
  CHECK(pp.rq.shift == 11);
  CHECK(pool.fused.front() == "Pad");   // the zero Pad before it merged
}

TEST_CASE("frontend DORY: dscnn_test merges Pads into asymmetric conv padding", "[frontend][dory]") {
  const std::string path = dory("dscnn_test/model_int.onnx");
  REQUIRE_DATA(path);
  const Graph g = import_onnx(path);
  CHECK(g.nodes.size() == 12);   // 11 layers + the Flatten
  const auto& c0 = layer(g, 0).as<ConvParams>();
  CHECK(c0.kh == 10);
  CHECK(c0.kw == 4);
  CHECK(c0.pad_t == 5);
  CHECK(c0.pad_b == 5);
  CHECK(c0.pad_l == 1);
  CHECK(c0.pad_r == 1);
  REQUIRE(c0.bias.size() == 64);
  CHECK(layer(g, 1).as<ConvParams>().groups == 64);
  const auto& pool = layer(g, 9).as<PoolParams>();
  CHECK(pool.kind == PoolParams::Kind::Sum);
  CHECK(pool.kh == 25);
  CHECK(pool.kw == 5);
  CHECK(pool.rq.mul == 33);
  CHECK(pool.rq.shift == 12);
  CHECK(layer(g, 10).as<GemmParams>().bias.size() == 10);
}

TEST_CASE("frontend DORY: TCN_T 1-D convs with causal padding and dilation", "[frontend][dory]") {
  const std::string path = dory("TCN_T/TCN.onnx");
  REQUIRE_DATA(path);
  const Graph g = import_onnx(path);
  CHECK(g.tensor(g.inputs[0]).shape == Shape{1, 1, 140});
  const auto& c0 = layer(g, 0).as<ConvParams>();
  CHECK(c0.is_1d);
  CHECK(c0.kh == 1);
  CHECK(c0.kw == 11);
  CHECK(c0.pad_l == 10);
  CHECK(c0.pad_r == 0);
  CHECK(g.tensor(layer(g, 0).outputs[0]).shape == Shape{1, 2, 140});
  CHECK(layer(g, 5).as<ConvParams>().dw == 2);
  CHECK(layer(g, 5).as<ConvParams>().pad_l == 20);
  CHECK(layer(g, 8).as<ConvParams>().dw == 4);
  CHECK(layer(g, 8).as<ConvParams>().pad_l == 40);
  // (a, b, 2^c) = (40, 64, 64) then P2 with m/d = 32/32; (53, 128, 128) then 54/64.
  const auto& a4 = layer(g, 4).as<AddParams>();
  CHECK(a4.mul1 == 40);
  CHECK(a4.mul2 == 64);
  CHECK(a4.shift_sum == 6);
  CHECK(a4.rq.mul == 32);
  CHECK(a4.rq.shift == 5);
  const auto& a7 = layer(g, 7).as<AddParams>();
  CHECK(a7.mul1 == 53);
  CHECK(a7.mul2 == 128);
  CHECK(a7.rq.mul == 54);
  CHECK(a7.rq.shift == 6);
}

TEST_CASE("frontend DORY: SmartAgri-net takes kappa and lambda from Constant nodes", "[frontend][dory]") {
  const std::string path = dory("SmartAgri-net/model_int.onnx");
  REQUIRE_DATA(path);
  const Graph g = import_onnx(path);
  const auto& c0 = layer(g, 0).as<ConvParams>();
  CHECK(c0.rq.k.size() == 32);
  CHECK(c0.rq.lambda.size() == 32);
  CHECK(c0.rq.mul == 27);
  CHECK(c0.rq.shift == 22);
  // Hidden FCs (MatMul + κ/λ requant) are layers 8..10; layer 11 is the raw output.
  for (int k : {8, 9, 10}) {
    const Node& fc = layer(g, k);
    REQUIRE(fc.kind() == OpKind::Gemm);
    CHECK(fc.as<GemmParams>().rq.kind == Requant::Kind::Integer);
    CHECK(out_dtype(g, fc) == DType::U8);
  }
}

TEST_CASE("frontend QuantLab: conv requant and attribute Adds bind in1 to the first ONNX input",
          "[frontend][quantlab]") {
  const std::string path = dory("Quantlab_Dronet/DRONETV3_ql_integerized.onnx");
  REQUIRE_DATA(path);
  const Graph g = import_onnx(path);
  const auto& c0 = layer(g, 0).as<ConvParams>();
  CHECK(c0.rq.shift == 19);
  CHECK(c0.rq.mul == 1);
  CHECK(c0.rq.round == 0);
  CHECK(c0.rq.k.size() == 32);
  const Node& add = layer(g, 5);
  REQUIRE(add.kind() == OpKind::Add);
  CHECK(add.name == "Add_29");
  const auto& ap = add.as<AddParams>();
  CHECK(ap.mul1 == 245015);   // in1 = '72', the first ONNX input
  CHECK(ap.mul2 == 265342);
  CHECK(ap.add1 == 262144);
  CHECK(ap.shift1 == 19);
  CHECK(ap.shift2 == 19);
  CHECK(ap.rq.kind == Requant::Kind::None);   // out_rq = 0
  CHECK(ap.rq.lo == 0);
  CHECK(ap.rq.hi == 255);
  CHECK(out_dtype(g, add) == DType::U8);
  // The first input of Add_29 is the conv2 branch (layer 4), the second the bypass (layer 2).
  CHECK(add.inputs[0] == layer(g, 4).outputs[0]);
  CHECK(add.inputs[1] == layer(g, 2).outputs[0]);
}
