// Graph utilities: MAC counts, the structural validator (one failing graph per rule) and the
// printer's golden text (docs/graph.md).
#include <catch2/catch.hpp>

#include "compiler/ir/printer.h"
#include "ir/tiny_graph.h"

using namespace edgesim;

TEST_CASE("graph: MACs of conv and gemm", "[ir]") {
  Graph g = test::tiny_graph();
  CHECK(g.macs(g.nodes[0]) == 1 * 2 * 6 * 1 * 3);   // N·Cout·L·(Cin/g)·k
  CHECK(g.macs(g.nodes[1]) == 0);
  CHECK(g.total_macs() == 36);

  const int a = g.add_tensor({"a", DType::U8, {4, 3, 5}, std::nullopt, false});
  const int b = g.add_tensor({"b", DType::I8, {7, 5}, Tensor(DType::I8, {7, 5}), false});
  const int y = g.add_tensor({"fc", DType::I32, {4, 3, 7}, std::nullopt, false});
  GemmParams gp;
  gp.trans_b = true;
  g.nodes.push_back(Node{"Gemm_3", gp, {a, b}, {y}, {}});
  CHECK(g.macs(g.nodes.back()) == 4 * 3 * 7 * 5);   // batch·M·N·K
  CHECK(g.total_macs() == 36 + 420);
}

TEST_CASE("graph: validate accepts a well-formed graph", "[ir]") {
  CHECK_NOTHROW(test::tiny_graph().validate());
}

TEST_CASE("graph: validate rejects each structural error with a named message", "[ir]") {
  SECTION("nodes out of topological order") {
    Graph g = test::tiny_graph();
    std::swap(g.nodes[1], g.nodes[2]);
    CHECK_THROWS_WITH(g.validate(), Catch::Contains("node 'Flatten_2' (reshape): input 'pool_out'") &&
                                        Catch::Contains("topological order"));
  }
  SECTION("tensor id out of range") {
    Graph g = test::tiny_graph();
    g.nodes[1].inputs = {42};
    CHECK_THROWS_WITH(g.validate(), Catch::Contains("node 'MaxPool_1' (pool): input tensor id 42 out of range"));
  }
  SECTION("a tensor produced twice") {
    Graph g = test::tiny_graph();
    g.nodes[2].outputs = {2};
    CHECK_THROWS_WITH(g.validate(), Catch::Contains("already produced by node 'Conv_0'"));
  }
  SECTION("a tensor never produced") {
    Graph g = test::tiny_graph();
    g.add_tensor({"orphan", DType::U8, {1}, std::nullopt, false});
    CHECK_THROWS_WITH(g.validate(), Catch::Contains("tensor 'orphan' (%5) is never produced"));
  }
  SECTION("writing a graph input") {
    Graph g = test::tiny_graph();
    g.nodes[2].outputs = {0};
    CHECK_THROWS_WITH(g.validate(), Catch::Contains("is already a graph input"));
  }
  SECTION("conv output shape inconsistent with ConvParams::out_size") {
    Graph g = test::tiny_graph();
    g.nodes[0].as<ConvParams>().pad_l = 0;   // 6 − 3 + 1 = 4, declared 6
    CHECK_THROWS_WITH(g.validate(), Catch::Contains("node 'Conv_0' (conv): output shape [1, 2, 1, 6] but conv gives [1, 2, 1, 4]"));
  }
  SECTION("conv weight does not match the kernel size") {
    Graph g = test::tiny_graph();
    g.nodes[0].as<ConvParams>().kw = 5;
    CHECK_THROWS_WITH(g.validate(), Catch::Contains("does not match kernel size 1x5"));
  }
  SECTION("requant vectors do not match the channels") {
    Graph g = test::tiny_graph();
    auto& rq = g.nodes[0].as<ConvParams>().rq;
    rq.kind = Requant::Kind::Integer;
    rq.k = {1, 2, 3};
    CHECK_THROWS_WITH(g.validate(), Catch::Contains("Conv_0") && Catch::Contains("do not match 2 channels"));
  }
  SECTION("pool output shape") {
    Graph g = test::tiny_graph();
    g.nodes[1].as<PoolParams>().ceil_mode = true;   // still 3 for 6/2, so change the stride
    g.nodes[1].as<PoolParams>().sw = 1;
    CHECK_THROWS_WITH(g.validate(), Catch::Contains("node 'MaxPool_1' (pool): output shape"));
  }
  SECTION("reshape changing the element count") {
    Graph g = test::tiny_graph();
    g.tensors[4].shape = {1, 5};
    CHECK_THROWS_WITH(g.validate(), Catch::Contains("changes the element count"));
  }
}

TEST_CASE("graph: print_graph golden text", "[ir]") {
  Graph g = test::tiny_graph();
  auto& rq = g.nodes[1].as<PoolParams>().rq;
  rq.kind = Requant::Kind::Integer;
  rq.mul = 3;
  rq.shift = 2;
  rq.lo = -128;
  rq.hi = 127;
  const std::string expect =
      "graph tiny dialect=nemo macs=36\n"
      "input %0 \"x\" u8[1,1,6]\n"
      "L0 conv \"Conv_0\" %0 -> %2 i32[1,2,6] w=i8[2,1,3] k=3 s=1 p=2,0 g=1 raw[-2147483648,2147483647] <- Pad+Conv\n"
      "L1 pool \"MaxPool_1\" %2 -> %3 i32[1,2,3] max k=2 s=2 p=0,0 rq(k=1 l=0 mul=3 >>2 [-128,127]) <- MaxPool\n"
      "   reshape \"Flatten_2\" %3 -> %4 i32[1,6] <- Flatten\n"
      "output %4 \"y\" i32[1,6]\n";
  CHECK(print_graph(g) == expect);
  CHECK(print_graph(g) == print_graph(Graph(g)));   // deterministic
}
