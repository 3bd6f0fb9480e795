// A hand-built three-node graph used by the IR and interpreter tests: a causal 1-D conv on
// rank-3 tensors (presented to the kernels as H = 1), a 1-D max pool and a flattening reshape.
//   x u8[1,1,6] -> conv k=3 pad_l=2 (w: [1,1,1] and [0,0,-1]) -> i32[1,2,6]
//               -> max pool k=2 s=2 -> i32[1,2,3] -> reshape -> i32[1,6]
// With x = 1..6 the output is [3, 9, 15, -1, -3, -5].
#pragma once
#include "kernels/ir/graph.h"

namespace edgesim::test {

inline Graph tiny_graph() {
  Graph g;
  g.name = "tiny";
  g.dialect = "nemo";
  const int x = g.add_tensor({"x", DType::U8, {1, 1, 6}, std::nullopt, false});
  const int w = g.add_tensor({"w", DType::I8, {2, 1, 3},
                              Tensor::from_ints(DType::I8, {2, 1, 3}, {1, 1, 1, 0, 0, -1}), false});
  const int c = g.add_tensor({"conv_out", DType::I32, {1, 2, 6}, std::nullopt, false});
  const int p = g.add_tensor({"pool_out", DType::I32, {1, 2, 3}, std::nullopt, false});
  const int y = g.add_tensor({"y", DType::I32, {1, 6}, std::nullopt, false});
  g.inputs = {x};
  g.outputs = {y};

  ConvParams cp;
  cp.kh = 1;
  cp.kw = 3;
  cp.pad_l = 2;
  cp.is_1d = true;
  cp.rq.lo = INT32_MIN;
  cp.rq.hi = INT32_MAX;
  g.nodes.push_back(Node{"Conv_0", cp, {x, w}, {c}, {"Pad", "Conv"}});

  PoolParams pp;
  pp.kind = PoolParams::Kind::Max;
  pp.kh = 1;
  pp.kw = 2;
  pp.sw = 2;
  pp.is_1d = true;
  g.nodes.push_back(Node{"MaxPool_1", pp, {c}, {p}, {"MaxPool"}});
  g.nodes.push_back(Node{"Flatten_2", ReshapeParams{}, {p}, {y}, {"Flatten"}});
  return g;
}

}  // namespace edgesim::test
