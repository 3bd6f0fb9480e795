// The transformer kernels' cluster cost models against hand-computed loop counts (the loops are
// in each kernels/<family>/cost_cluster.h): the row / element splits Deeploy's kernels use, the
// GVSoC division stall clz(d) + 3 (+ issue), and the L2 latency charged per access.
#include <catch2/catch.hpp>

#include "kernels/cost/cluster_common.h"
#include "kernels/cost/cluster_cost.h"

#include "kernels/hand_spec.h"

using namespace edgesim;

namespace {

using test::hand_spec;

KernelCost cost(const OpParams& p, const std::vector<Shape>& in, const Shape& y, int64_t lat = 0, bool deeploy = false) {
  return cluster_kernel_cost(p, in, {y}, hand_spec(), {lat, deeploy});
}

}  // namespace

TEST_CASE("transformer cost: GVSoC's division stall and the core splits", "[cost][transformer]") {
  using namespace cluster_cost;
  CHECK(div_cycles(47) == 26 + 3 + 1);      // clz(47) = 26
  CHECK(div_cycles(24928) == 17 + 3 + 1);   // 2^14 <= 24928 < 2^15
  CHECK(div_cycles(-16) == 27 + 3 + 1);
  CHECK(share_last(17, 8, 0) == 2);
  CHECK(share_last(17, 8, 7) == 3);
  CHECK(share_last(5, 8, 3) == 0);
  CHECK(share_last(5, 8, 7) == 5);
  CHECK(share_spread(10, 8, 1) == 2);
  CHECK(share_spread(10, 8, 2) == 1);
}

TEST_CASE("transformer cost: iSoftmax rows, iRMSNorm redundant sums, activations", "[cost][transformer]") {
  SoftmaxParams sm;
  sm.coeff_b = 64, sm.coeff_c = 2136, sm.log2 = 47;
  // Row of 8: 8 + 3·8 + (13 + div 30)·8 + (4 + div(6232·4) 21)·8 = 576 cycles, 40 accesses.
  CHECK(cost(sm, {{16, 8}}, {16, 8}).cycles == 2 * 576 + 10);
  CHECK(cost(sm, {{17, 8}}, {17, 8}).cycles == 3 * 576 + 10);   // the last core takes the rest
  CHECK(cost(sm, {{5, 8}}, {5, 8}).cycles == 5 * 576 + 10);     // fewer rows than cores: all on one
  CHECK(cost(sm, {{16, 8}}, {16, 8}, 14).cycles == 2 * (576 + 40 * 14) + 10);
  CHECK(cost(sm, {{16, 8}}, {16, 8}).kernel == "isoftmax");

  NormParams rms;
  rms.weight.assign(16, 1);
  // Every core: per row 6 + 56 + div(16) 31 + 2 + 2·16 (Σx²) + 2 positions × (7 + div(32) 30).
  CHECK(cost(rms, {{4, 16}}, {4, 16}).cycles == 4 * 201 + 10);
  CHECK(cost(rms, {{4, 16}}, {4, 16}, 14).cycles == 4 * (201 + 22 * 14) + 10);

  ActParams hs;
  hs.one_over_six = 42, hs.six = 300, hs.three = 150;
  hs.rq.kind = Requant::Kind::Integer;
  CHECK(cost(hs, {{3, 7}}, {3, 7}).cycles == 8 + 3 * 10 + 10);   // 21 elements, chunk 3
  hs.rq = Requant{};
  CHECK(cost(hs, {{3, 7}}, {3, 7}).cycles == 8 + 21 * 6 + 10);   // one core (ClusterTransformer)
  CHECK(cost(hs, {{3, 7}}, {3, 7}, 14).cycles == 8 + 21 * (6 + 2 * 14) + 10);
}

TEST_CASE("transformer cost: Deeploy's RequantizedGemm variants and layout kernels", "[cost][transformer]") {
  GemmParams g;
  g.rq.kind = Requant::Kind::Integer;
  // MatrixVec (M = 1, batch 8): one gemv(8, 4) per core = 2 pairs × 28 + c_call 10 = 66.
  CHECK(cost(g, {{8, 1, 8}, {8, 8, 4}}, {8, 1, 4}, 0, true).cycles == 66 + 10);
  CHECK(cost(g, {{8, 1, 8}, {8, 8, 4}}, {8, 1, 4}, 0, true).kernel == "matrixvec");
  // GEMM rows (M 4, O 10): per row 2 neurons × 18 + c_call 10 on cores 0..4, then a barrier.
  CHECK(cost(g, {{1, 4, 8}, {8, 10}}, {1, 4, 10}, 0, true).cycles == 4 * (46 + 10));
  // TallGEMM (M 16, O 4: 16 mod 8 < 4 mod 8): 2 rows of gemv(8, 4) per core.
  CHECK(cost(g, {{1, 16, 8}, {8, 4}}, {1, 16, 4}, 0, true).cycles == 2 * 66 + 10);
  // Without the Deeploy library the PULP-NN model stays.
  CHECK(cost(g, {{1, 16, 8}, {8, 4}}, {1, 16, 4}).kernel == "matmul");

  // Transpose to [1, 7, 10, 1]: axis 2 (10 >= 8) split 2, 2, 1, ...; 14 elements × 3 + 8.
  CHECK(cost(TransposeParams{{0, 2, 1, 3}, ""}, {{1, 10, 7, 1}}, {1, 7, 10, 1}).cycles == 50 + 10);
  // Concat on one core: 2 outer rows × (memcpy of 3 words + memcpy of 1 word).
  CHECK(cost(ConcatParams{1}, {{2, 3, 4}, {2, 1, 4}}, {2, 4, 4}, 0, true).cycles == 2 * (18 + 14) + 10);
  MulParams m;
  CHECK(cost(m, {{2, 9}, {2, 9}}, {2, 9}).cycles == 8 + 3 * 4 + 10);   // 18 elements, chunk 3
  RequantParams q;
  q.rq.kind = Requant::Kind::Integer;
  CHECK(cost(q, {{2, 9}}, {2, 9}, 0, true).cycles == 10 + 3 * 9 + 10);   // UniformRequantShift
  q.rq.k.assign(9, 1);
  q.rq.axis = 1;
  CHECK(cost(q, {{2, 9}}, {2, 9}, 0, true).cycles == 10 + 18 * (11 + 28 + 3 + 1) + 10);   // every core, rem by 9
}
