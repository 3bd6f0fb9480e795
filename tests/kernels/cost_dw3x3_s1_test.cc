// The cost model of PULP-NN's pulp_nn_depthwise_3x3_s1 (kernels/conv/cost_dw3x3_s1.h): when the
// kernel computes a tile, exact cycles of small hand-counted tiles, and its gain over
// depthwise_generic on MobileNetV1-128's stride-1 depthwise shapes with the gap8 constants.
//
// The loop's counts (cost_dw3x3_s1.cc): pair 12, edge 9, row 6, channel 30; from hand_spec():
// c_rq 4, c_kl 2, t_bar 10. So an edge column costs 9 + 2 + 4 = 15, a column pair
// 12 + 2 + 2·4 = 22, a row of width W  6 + 2·15 + P·22 with P = (W − 2)/2 pairs.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <vector>

#include "kernels/conv/cost_cluster.h"
#include "kernels/conv/cost_dw3x3_s1.h"
#include "platforms/loader/loader.h"

#include "kernels/hand_spec.h"

using namespace edgesim;

namespace {

using Cores = std::vector<int64_t>;

// A depthwise 3×3 stride-1 tile's params: one column of padding each side, pad_t / pad_b rows.
ConvParams dw3(int64_t channels, int64_t pad_t = 0, int64_t pad_b = 0) {
  ConvParams p;
  p.kh = p.kw = 3;
  p.pad_l = p.pad_r = 1;
  p.pad_t = pad_t, p.pad_b = pad_b;
  p.groups = channels;
  return p;
}

}  // namespace

TEST_CASE("cost: depthwise_3x3_s1 applies to whole-width even tiles with their padded rows", "[cost]") {
  CHECK(depthwise_3x3_s1_applies(dw3(8), {1, 8, 10, 16}, {1, 8, 8, 16}));         // interior rows
  CHECK(depthwise_3x3_s1_applies(dw3(8, 1, 0), {1, 8, 9, 16}, {1, 8, 8, 16}));    // the top tile
  CHECK(depthwise_3x3_s1_applies(dw3(8, 1, 1), {1, 8, 8, 16}, {1, 8, 8, 16}));    // the whole layer
  CHECK_FALSE(depthwise_3x3_s1_applies(dw3(8), {1, 8, 10, 15}, {1, 8, 8, 15}));   // odd width
  CHECK_FALSE(depthwise_3x3_s1_applies(dw3(8), {1, 8, 10, 16}, {1, 8, 8, 8}));    // a column tile
  CHECK_FALSE(depthwise_3x3_s1_applies(dw3(8), {1, 8, 9, 16}, {1, 8, 8, 16}));    // a row missing
  ConvParams s2 = dw3(8);
  s2.sh = s2.sw = 2;
  CHECK_FALSE(depthwise_3x3_s1_applies(s2, {1, 8, 17, 16}, {1, 8, 8, 8}));        // stride 2
  ConvParams dense = dw3(8);
  dense.groups = 1;
  CHECK_FALSE(depthwise_3x3_s1_applies(dense, {1, 8, 10, 16}, {1, 8, 8, 16}));    // not depthwise
  ConvParams no_pad = dw3(8);
  no_pad.pad_l = no_pad.pad_r = 0;
  CHECK_FALSE(depthwise_3x3_s1_applies(no_pad, {1, 8, 10, 16}, {1, 8, 8, 14}));   // valid columns
  CHECK_THROWS_AS(depthwise_3x3_s1_cost(no_pad, {1, 8, 10, 16}, {1, 8, 8, 14}, test::hand_spec()),
                  std::invalid_argument);
}

TEST_CASE("cost: depthwise_3x3_s1, one channel counted by hand", "[cost]") {
  // C = 2 on 2 cores (one channel each), W = 4 (1 pair), one output row from 3 input rows:
  // row 6 + 2·15 + 22 = 58, channel 30 + 58 = 88, plus the barrier: 98.
  ClusterSpec cl = test::hand_spec(2);
  const KernelCost k = depthwise_3x3_s1_cost(dw3(2), {1, 2, 3, 4}, {1, 2, 1, 4}, cl);
  CHECK(k.kernel == "depthwise_3x3_s1");
  CHECK(k.core_cycles == Cores{88, 88});
  CHECK(k.cycles == 98);
  // Misaligned words. Channel 0: the filter rows at bytes 0, 3, 6 (2); its input rows at
  // s = 0, 4, 8: the left column and the pair at s are aligned, the right column at s + 2 is not
  // (3). Channel 1: filter at 9, 12, 15 (2); rows at 12, 16, 20 (3). 5 each.
  cl.cost.c_misalign = 1;
  CHECK(depthwise_3x3_s1_cost(dw3(2), {1, 2, 3, 4}, {1, 2, 1, 4}, cl).core_cycles == Cores{93, 93});
  // W = 6 (2 pairs), 2 output rows (R = 4): rows 2·(6 + 30 + 2·22) = 160, channel 190.
  // Misaligned: filter 2 each; an input row starting at s ≡ 0 (mod 4) has the pair at s + 2
  // misaligned (1), one at s ≡ 2 the left column, the pair at s and the right column at s + 4
  // (3). Channel 0 reads rows at 6·(r + j): r = 0 at 0, 6, 12 (5), r = 1 at 6, 12, 18 (7);
  // channel 1 at 6·(4 + r + j): 24, 30, 36 (5) and 30, 36, 42 (7). 14 each.
  CHECK(depthwise_3x3_s1_cost(dw3(2), {1, 2, 4, 6}, {1, 2, 2, 6}, cl).core_cycles == Cores{204, 204});
  cl.cost.c_misalign = 0;
  CHECK(depthwise_3x3_s1_cost(dw3(2), {1, 2, 4, 6}, {1, 2, 2, 6}, cl).core_cycles == Cores{190, 190});
}

TEST_CASE("cost: depthwise_3x3_s1 splits channels over cores and repeats per batch image", "[cost]") {
  // C = 3 on 8 cores: one channel each on cores 0..2 (W = 4, 1 output row: 88 each, no
  // misalignment term); 2 images: two calls, each with its barrier.
  const KernelCost k = depthwise_3x3_s1_cost(dw3(3), {2, 3, 3, 4}, {2, 3, 1, 4}, test::hand_spec());
  CHECK(k.core_cycles == Cores{176, 176, 176, 0, 0, 0, 0, 0});
  CHECK(k.cycles == 2 * 88 + 2 * 10);
}

TEST_CASE("cost: depthwise_3x3_s1 against depthwise_generic on MobileNetV1-128's stride-1 shapes (gap8)",
          "[cost]") {
  // Whole-width interior tiles of the stride-1 depthwise layers (64x64x32, 32x32x128, 16x16x256,
  // 8x8x512, 4x4x1024), 8 rows or the whole height: the specialised kernel has no column buffer
  // to fill and reads each filter row with one sdotusp, so it takes well under half the
  // generic kernel's cycles on every one of them.
  const PlatformSpec spec = load_platform(EDGESIM_SOURCE_DIR "/platforms/gap8.yaml", {});
  struct Tile { int64_t c, h, w; };
  for (const Tile& t : {Tile{32, 8, 64}, Tile{32, 8, 32}, Tile{32, 8, 16}, Tile{32, 8, 8}, Tile{64, 4, 4}}) {
    INFO("tile " << t.c << "x" << t.h << "x" << t.w);
    const Shape x{1, t.c, t.h + 2, t.w}, y{1, t.c, t.h, t.w};
    const int64_t s1 = depthwise_3x3_s1_cost(dw3(t.c), x, y, spec.cluster).cycles;
    const int64_t generic = depthwise_generic_cost(dw3(t.c), x, y, spec.cluster).cycles;
    CHECK(2 * s1 < generic);
  }
}
