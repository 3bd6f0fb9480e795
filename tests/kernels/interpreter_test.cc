// Interpreter: runs a hand-built graph (1-D conv and pool on rank-3 tensors), converts and
// checks graph inputs, keeps or drops intermediates, and names the failing node in errors.
#include <catch2/catch.hpp>

#include "ir/tiny_graph.h"
#include "kernels/interpreter/interpreter.h"

using namespace edgesim;

TEST_CASE("interpreter: 1-D conv, pool and reshape on rank-3 tensors", "[kernels][interpreter]") {
  const Graph g = test::tiny_graph();
  // Given as i32: converted to the declared u8.
  const Tensor x = Tensor::from_ints(DType::I32, {1, 1, 6}, {1, 2, 3, 4, 5, 6});
  const InterpreterResult r = interpret(g, {x});
  REQUIRE(r.outputs.size() == 1);
  CHECK(r.outputs[0].dtype() == DType::I32);
  CHECK(r.outputs[0].shape() == Shape{1, 6});
  CHECK(r.outputs[0].to_ints() == std::vector<int64_t>{3, 9, 15, -1, -3, -5});
  REQUIRE(r.values.size() == g.tensors.size());
  REQUIRE(r.values[2].has_value());   // conv_out kept (keep_all)
  CHECK(r.values[2]->to_ints() == std::vector<int64_t>{1, 3, 6, 9, 12, 15, -1, -2, -3, -4, -5, -6});
  CHECK(r.values[0]->dtype() == DType::U8);
  CHECK(r.values[1].has_value());     // constants are reported too

  InterpreterOptions opt;
  opt.keep_all = false;
  const InterpreterResult r2 = interpret(g, {x}, opt);
  CHECK_FALSE(r2.values[2].has_value());
  CHECK_FALSE(r2.values[3].has_value());
  CHECK(r2.outputs[0].to_ints() == r.outputs[0].to_ints());
}

TEST_CASE("interpreter: graph inputs are checked against the declaration", "[kernels][interpreter]") {
  const Graph g = test::tiny_graph();
  CHECK_THROWS_WITH(interpret(g, {}), Catch::Contains("has 1 inputs, 0 given"));
  const Tensor wrong_shape(DType::U8, {1, 6});
  CHECK_THROWS_WITH(interpret(g, {wrong_shape}), Catch::Contains("graph input 0 'x': shape [1, 6]"));
  const Tensor out_of_range = Tensor::from_ints(DType::I32, {1, 1, 6}, {1, 2, 3, 256, 5, 6});
  CHECK_THROWS_WITH(interpret(g, {out_of_range}), Catch::Contains("'x': value 256") && Catch::Contains("u8"));
  const Tensor fractional = Tensor::from_f32({1, 1, 6}, {1, 2, 3, 4.5f, 5, 6});
  CHECK_THROWS_WITH(interpret(g, {fractional}), Catch::Contains("not a u8 integer"));
  const Tensor float_ints = Tensor::from_f32({1, 1, 6}, {1, 2, 3, 4, 5, 6});
  CHECK(interpret(g, {float_ints}).outputs[0].to_ints() == std::vector<int64_t>{3, 9, 15, -1, -3, -5});
}

TEST_CASE("interpreter: kernel errors name the node", "[kernels][interpreter]") {
  Graph g = test::tiny_graph();
  g.tensors[2].dtype = DType::I8;   // conv output too narrow for 15
  const Tensor x = Tensor::from_ints(DType::U8, {1, 1, 6}, {1, 2, 3, 4, 5, 6});
  CHECK_NOTHROW(interpret(g, {x}));   // all values fit i8 here
  const Tensor big = Tensor::from_ints(DType::U8, {1, 1, 6}, {100, 100, 100, 4, 5, 6});
  CHECK_THROWS_WITH(interpret(g, {big}), Catch::StartsWith("node 'Conv_0' (conv): ") && Catch::Contains("does not fit i8"));

  Graph h = test::tiny_graph();
  h.tensors[3].shape = {1, 2, 4};   // pool output size wrong
  CHECK_THROWS_WITH(interpret(h, {x}), Catch::StartsWith("node 'MaxPool_1' (pool): "));
}

TEST_CASE("interpreter: ArithMode reaches the kernels", "[kernels][interpreter]") {
  Graph g;
  g.name = "rq";
  const int x = g.add_tensor({"x", DType::I32, {2}, std::nullopt, false});
  const int y = g.add_tensor({"y", DType::U8, {2}, std::nullopt, false});
  g.inputs = {x};
  g.outputs = {y};
  RequantParams p;
  p.rq.kind = Requant::Kind::Integer;
  p.rq.shift = 2;
  p.rq.div = 3;
  p.rq.lo = 0;
  p.rq.hi = 255;
  g.nodes.push_back(Node{"rq", p, {x}, {y}, {}});
  const Tensor in = Tensor::from_ints(DType::I32, {2}, {7, 9});
  CHECK(interpret(g, {in}).outputs[0].to_ints() == std::vector<int64_t>{2, 3});
  InterpreterOptions opt;
  opt.mode = ArithMode::DoryShift;
  CHECK(interpret(g, {in}, opt).outputs[0].to_ints() == std::vector<int64_t>{1, 2});
}
