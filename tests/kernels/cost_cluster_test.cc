// Cluster kernel cost models (docs/timing.md "Cluster kernel cost models"):
// exact cycles of small hand-computed cases for every model, the PULP-NN calibration point with
// the real gap8 constants, load imbalance, and the dispatcher's kernel choice.
//
// Hand-built constants (the pulp_cluster preset's before its instruction recount): c_il 16, c_t42 14, c_il12 5, c_il11 3,
// c_rq 4, c_kl 2, c_grp 10, c_call 10, c_cp 10, c_px 10, c_dwrow 2, c_dwpx 4, c_neu 6,
// c_pool 1, c_add 8, t_bar 10. Block formulas used below (matmul42.h):
//   g4(K)   = 16·⌊K/4⌋ + 14·(K mod 4) + 8·4 + 4·2 + 10 = 16·⌊K/4⌋ + 14·(K mod 4) + 50
//   g1(K)   = 5·(⌊K/4⌋ + K mod 4) + 2·4 + 2 + 10       = 5·(⌊K/4⌋ + K mod 4) + 20
//   MM42    = ⌊Cout/4⌋·g4 + (Cout mod 4)·g1 + 10
//   PX1     = Cout·(3·(⌊K/4⌋ + K mod 4) + 4 + 2 + c_px1)   (c_px1 = 0 here; the caller's inline
//             loop, no call)
#include <catch2/catch.hpp>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "kernels/conv/cost_cluster.h"
#include "kernels/cost/cluster_cost.h"
#include "kernels/eltwise/cost_cluster.h"
#include "kernels/gemm/cost_cluster.h"
#include "kernels/pool/cost_cluster.h"
#include "platforms/loader/loader.h"

#include "kernels/hand_spec.h"

using namespace edgesim;

namespace {

using test::hand_spec;

ConvParams conv(int64_t k, int64_t stride = 1, int64_t pad = 0, int64_t groups = 1) {
  ConvParams p;
  p.kh = p.kw = k;
  p.sh = p.sw = stride;
  p.pad_t = p.pad_l = p.pad_b = p.pad_r = pad;
  p.groups = groups;
  return p;
}

using Cores = std::vector<int64_t>;

// Dense conv MACs of a tile: Hout·Wout·Cout·K.
double conv_macs(const Shape& y, int64_t cin, int64_t k) {
  return static_cast<double>(y[0] * y[1] * y[2] * y[3] * k * k * cin);
}

}  // namespace

TEST_CASE("cost: conv_Ho_parallel, odd pixels per core and Cout not a multiple of 4", "[cost]") {
  // Cin 3, Cout 6, 3×3, x [1,3,10,5] -> y [1,6,8,3]: 8 rows over 8 cores, 3 pixels each.
  // K = 27 (⌊K/4⌋ = 6, K mod 4 = 3): g4 = 96 + 42 + 50 = 188, g1 = 5·9 + 20 = 65,
  // MM42 = 188 + 2·65 + 10 = 328, PX1 = 6·(27 + 6) = 198.
  // im2col per pixel: 3 interior rows of kw·Cin = 9 bytes: 3·(10 + 2·2 + 2·1) = 48, + c_px = 58.
  // T_c = 3·58 + 1·MM42 + 1·PX1 = 174 + 328 + 198 = 700; cycles = 700 + t_bar = 710.
  const KernelCost k = conv_Ho_parallel_cost(conv(3), {1, 3, 10, 5}, {1, 6, 8, 3}, hand_spec());
  CHECK(k.kernel == "conv_Ho_parallel");
  CHECK(k.cycles == 710);
  CHECK(k.overhead == 10);
  CHECK(k.core_cycles == Cores(8, 700));

  // Batch N = 2: one call per image, 2·(700 + 10) = 1420; each core worked 1400.
  const KernelCost b = conv_Ho_parallel_cost(conv(3), {2, 3, 10, 5}, {2, 6, 8, 3}, hand_spec());
  CHECK(b.cycles == 1420);
  CHECK(b.overhead == 20);
  CHECK(b.core_cycles == Cores(8, 1400));
}

TEST_CASE("cost: conv_Ho_parallel im2col of rows touching padding", "[cost]") {
  // 2 cores, Cin = Cout = 4, 3×3, pads 1: x [1,4,2,2] -> y [1,4,2,2]; one output row per core.
  // Tap inside: c_cp + 2·⌊4/4⌋ = 12; tap in padding (zero fill): c_cp + 1 = 11.
  // Output row 0 (core 0): kernel row 0 is vertical padding -> 3 zero taps = 33; kernel rows 1, 2
  // touch horizontal padding at both columns (ow 0: tap 0 out, ow 1: tap 2 out) -> 11+12+12 = 35.
  // Pixel = 33 + 35 + 35 = 103; row = 2·(103 + c_px) = 226. Row 1 (core 1) mirrors it: 226.
  // K = 36: g4 = 16·9 + 50 = 194, MM42 = 204; one pair per core: T_c = 226 + 204 = 430.
  // cycles = 430 + 10 = 440.
  const KernelCost k = conv_Ho_parallel_cost(conv(3, 1, 1), {1, 4, 2, 2}, {1, 4, 2, 2}, hand_spec(2));
  CHECK(k.cycles == 440);
  CHECK(k.core_cycles == Cores{430, 430});

  // The same outputs from an interior tile (x [1,4,4,4], no pads): every kernel row is one copy
  // of 12 bytes, 10 + 2·3 = 16; pixel = 3·16 + 10 = 58; T_c = 2·58 + 204 = 320; cycles 330.
  const KernelCost in = conv_Ho_parallel_cost(conv(3), {1, 4, 4, 4}, {1, 4, 2, 2}, hand_spec(2));
  CHECK(in.cycles == 330);
  CHECK(in.core_cycles == Cores{320, 320});
}

TEST_CASE("cost: pointwise_HoWo_parallel, rows mode and pair mode", "[cost]") {
  // K = Cin = 8, Cout = 4: g4 = 16·2 + 50 = 82, MM42 = 92, PX1 = 4·(3·2 + 6) = 48.
  // Rows mode (Hout = 8, a multiple of 8): one row of Wout = 3 per core:
  //   ⌊3/2⌋·92 + 1·48 + c_px = 150 per core; cycles = 160.
  const KernelCost rows = pointwise_HoWo_parallel_cost(conv(1), {1, 8, 8, 3}, {1, 4, 8, 3}, hand_spec());
  CHECK(rows.kernel == "pointwise_HoWo_parallel");
  CHECK(rows.cycles == 160);
  CHECK(rows.core_cycles == Cores(8, 150));

  // Pair mode (Hout = 3, Wout = 5): 4 pairs with ⌈3/4⌉ = 1 row each -> pairs 0..2 busy, pair 3
  // idle. Even core: ⌊5/2⌋ = 2 pixels = 1·MM42 = 92; odd core: 3 pixels = 92 + PX1 = 140.
  // cycles = 140 + 10 = 150.
  const KernelCost pairs = pointwise_HoWo_parallel_cost(conv(1), {1, 8, 3, 5}, {1, 4, 3, 5}, hand_spec());
  CHECK(pairs.cycles == 150);
  CHECK(pairs.core_cycles == Cores{92, 140, 92, 140, 92, 140, 0, 0});

  // κ/λ re-read for the second pixel (c_kl_px2 = 2): the 4×2 block reads its 4 pairs again,
  // MM42 = 92 + 4·2 = 100; PX1 (one pixel) unchanged: 100 + 48 + 10 = 158.
  ClusterSpec px2 = hand_spec();
  px2.cost.c_kl_px2 = 2;
  const KernelCost rows_px2 = pointwise_HoWo_parallel_cost(conv(1), {1, 8, 8, 3}, {1, 4, 8, 3}, px2);
  CHECK(rows_px2.core_cycles == Cores(8, 158));
  CHECK(rows_px2.cycles == 168);

  // The leftover pixel's channel loop (c_px1 = 5 per channel): PX1 = 4·(12 + 5) = 68,
  // 92 + 68 + 10 = 170 per core.
  ClusterSpec loop = hand_spec();
  loop.cost.c_px1 = 5;
  CHECK(pointwise_HoWo_parallel_cost(conv(1), {1, 8, 8, 3}, {1, 4, 8, 3}, loop).core_cycles == Cores(8, 170));
}

TEST_CASE("cost: depthwise_generic with fewer channels than cores", "[cost]") {
  // C = 3, 3×3, pads 1, x [1,3,4,4] -> y [1,3,4,4]; chunk(3) = 1 channel on cores 0..2.
  // fill = (Hin + pt + pb)·(2·⌈3/4⌉ + c_dwrow) = 6·4 = 24;
  // out  = 3·⌊9/4⌋ + 3·(9 mod 4) + c_rq + c_kl + c_dwpx = 6 + 3 + 4 + 2 + 4 = 19;
  // T_c = 1 channel · Wout 4 · (24 + Hout 4 · 19) = 400; cycles = 410.
  const ConvParams p = conv(3, 1, 1, 3);
  const KernelCost k = depthwise_generic_cost(p, {1, 3, 4, 4}, {1, 3, 4, 4}, hand_spec());
  CHECK(k.kernel == "depthwise_generic");
  CHECK(k.cycles == 410);
  CHECK(k.core_cycles == Cores{400, 400, 400, 0, 0, 0, 0, 0});
}

TEST_CASE("cost: depthwise_generic with a kernel library's tap, column and requant costs", "[cost]") {
  // The GAP9 pulp-nn-mixed counts (docs/timing.md "Kernel libraries"): c_dwtap4 5, c_dwtap1 6,
  // c_dwcol 58, c_dwrow 13, c_dwpx 23, c_rq 13, c_kl 8. Same layer as above (C = 3, 3×3, pads 1,
  // 4×4): fill = 6·(2 + 13) = 90; out = 5·2 + 6·1 + 13 + 8 + 23 = 60;
  // T_c = 1 · 4 · (58 + 90 + 4·60) = 1552; cycles = 1562.
  ClusterSpec cl = hand_spec();
  ClusterCostSpec& c = cl.cost;
  c.c_dwtap4 = 5; c.c_dwtap1 = 6; c.c_dwcol = 58; c.c_dwrow = 13; c.c_dwpx = 23; c.c_rq = 13; c.c_kl = 8;
  const KernelCost k = depthwise_generic_cost(conv(3, 1, 1, 3), {1, 3, 4, 4}, {1, 3, 4, 4}, cl);
  CHECK(k.core_cycles == Cores{1552, 1552, 1552, 0, 0, 0, 0, 0});
  CHECK(k.cycles == 1562);
}

TEST_CASE("cost: depthwise_generic charges misaligned word accesses", "[cost]") {
  // C = 2, 3×3, no pad, x [1,2,3,3] -> y [1,2,1,1]; chunk(2) = 1 channel on cores 0 and 1.
  // Without the term: fill = 3·(2·1 + 2) = 12, out = 19, T_c = 1·(12 + 19) = 31.
  // Channel 0 (core 0, column buffer at 0): input loads at 0, 3, 6 -> 2 misaligned; buffer stores
  // at 0, 3, 6 -> 2; dot (1 leftover byte, then words): weights at 1, 5 -> 2; buffer at 1, 5 -> 2.
  // Channel 1 (core 1, buffer at 1·(3·3 + 3) = 12): loads at 9, 12, 15 -> 2; stores at 12, 15, 18
  // -> 2; weights at 10, 14 -> 2; buffer at 13, 17 -> 2. 8 each: T_c = 31 + 8·c_misalign.
  ClusterSpec cl = hand_spec();
  cl.cost.c_misalign = 1;
  const KernelCost k = depthwise_generic_cost(conv(3, 1, 0, 2), {1, 2, 3, 3}, {1, 2, 1, 1}, cl);
  CHECK(k.core_cycles == Cores{39, 39, 0, 0, 0, 0, 0, 0});
  CHECK(k.cycles == 49);
  cl.cost.c_misalign = 3;
  CHECK(depthwise_generic_cost(conv(3, 1, 0, 2), {1, 2, 3, 3}, {1, 2, 1, 1}, cl).cycles == 31 + 24 + 10);
}

TEST_CASE("cost: linear with Cout not a multiple of 8, and matmul rows", "[cost]") {
  // a [1,22], b [22,10]: K = 22 (⌊K/4⌋ = 5, K mod 4 = 2), N = 10, chunk(10) = 2 on cores 0..4:
  // one neuron pair = 5·(5 + 2) + 2·(c_rq 4 + c_kl 2 + c_neu 6) = 59; cycles = 69.
  GemmParams g;
  g.rq.kind = Requant::Kind::Integer;
  const KernelCost k = gemm_cluster_cost(g, {1, 22}, {22, 10}, {1, 10}, hand_spec());
  CHECK(k.kernel == "linear");
  CHECK(k.cycles == 69);
  CHECK(k.core_cycles == Cores{59, 59, 59, 59, 59, 0, 0, 0});
  // N = 9: chunk(9) = 2 on cores 0..3, core 4 one odd neuron = 3·(5 + 2) + 12 = 33.
  CHECK(gemm_cluster_cost(g, {1, 22}, {22, 9}, {1, 9}, hand_spec()).core_cycles ==
        Cores{59, 59, 59, 59, 33, 0, 0, 0});

  // trans_b: b [10,22] is the same product.
  GemmParams gt = g;
  gt.trans_b = true;
  CHECK(gemm_cluster_cost(gt, {1, 22}, {10, 22}, {1, 10}, hand_spec()).cycles == 69);
  // Disagreeing reduction lengths are an error, not a guess.
  CHECK_THROWS_AS(gemm_cluster_cost(g, {1, 22}, {10, 22}, {1, 10}, hand_spec()), std::invalid_argument);

  // int32 output (no requant): a 1-cycle word store replaces c_rq: pair 35 + 2·9 = 53, cycles 63.
  CHECK(gemm_cluster_cost(GemmParams{}, {1, 22}, {22, 10}, {1, 10}, hand_spec()).cycles == 63);

  // MatMul, M = 20 rows as pixels: K = 8, N = 4 (MM42 = 92, PX1 = 48); chunk(20) = 3 rows:
  // cores 0..5 -> 3 rows = 92 + 48 = 140, core 6 -> 2 rows = 92, core 7 idle. Batch 2 (y
  // [2,20,4]) is two calls: cycles = 2·(140 + 10) = 300.
  const KernelCost mm = gemm_cluster_cost(g, {2, 20, 8}, {8, 4}, {2, 20, 4}, hand_spec());
  CHECK(mm.kernel == "matmul");
  CHECK(mm.cycles == 300);
  CHECK(mm.core_cycles == Cores{280, 280, 280, 280, 280, 280, 184, 0});
}

TEST_CASE("cost: max and sum pooling, add", "[cost]") {
  // Max 2×2/2 over x [1,9,4,4] -> y [1,9,2,2]: 36 outputs, c_op = c_pool·4 taps = 4;
  // chunk(36) = 5: cores 0..6 -> 20, core 7 -> 1 output = 4; cycles = 20 + 10 = 30.
  PoolParams mp;
  mp.kh = mp.kw = mp.sh = mp.sw = 2;
  const KernelCost m = pool_cluster_cost(mp, {1, 9, 4, 4}, {1, 9, 2, 2}, hand_spec());
  CHECK(m.kernel == "maxpool");
  CHECK(m.cycles == 30);
  CHECK(m.core_cycles == Cores{20, 20, 20, 20, 20, 20, 20, 4});

  // Sum pool: c_op = 2·c_pool·4 + c_rq = 12: cores 0..6 -> 60, core 7 -> 12; cycles = 70.
  PoolParams ap = mp;
  ap.kind = PoolParams::Kind::Sum;
  const KernelCost a = pool_cluster_cost(ap, {1, 9, 4, 4}, {1, 9, 2, 2}, hand_spec());
  CHECK(a.kernel == "avgpool");
  CHECK(a.cycles == 70);

  // Add of y [1,7,10,1] = 70 elements at c_add = 8: chunk 9 -> cores 0..6: 72, core 7: 7·8 = 56;
  // cycles = 72 + 10 = 82.
  const KernelCost add = add_cluster_cost(AddParams{}, {1, 7, 10, 1}, hand_spec());
  CHECK(add.kernel == "add");
  CHECK(add.cycles == 82);
  CHECK(add.core_cycles == Cores{72, 72, 72, 72, 72, 72, 72, 56});
}

TEST_CASE("cost: calibration point with the gap8 constants (PULP-NN 15.5 MAC/cycle)", "[cost]") {
  const PlatformSpec spec = load_platform(EDGESIM_SOURCE_DIR "/platforms/gap8.yaml", {});
  const ClusterSpec& cl = spec.cluster;
  REQUIRE(cl.cost.present);
  REQUIRE(cl.n_cores == 8);
  // The preset's instruction count (docs/timing.md): c_il 14, c_rq 6, c_kl 2, c_kl_px2 2,
  // c_grp 24, c_call 59, c_cp 10, c_px 10, t_bar 10.
  REQUIRE(cl.cost.c_il == 14);
  REQUIRE(cl.cost.c_kl_px2 == 2);

  // 8-bit 3×3, Cin = Cout = 64, interior tile x [1,64,18,18] -> y [1,64,16,16]: 2 rows = 16
  // pixel pairs per core. K = 576: g4 = 14·144 + 8·6 + 4·(2 + 2) + 24 = 2104,
  // MM42 = 16·2104 + 59 = 33,723; im2col per pixel 3·(10 + 2·48) + 10 = 328.
  // T_c = 16·(33,723 + 2·328) = 550,064; cycles 550,074 for 9,437,184 MACs = 17.16 MAC/cycle,
  // above PULP-NN's measured 15.5: GVSoC's core rules, no TCDM bank conflicts.
  const KernelCost k64 = conv_cluster_cost(conv(3), {1, 64, 18, 18}, {1, 64, 16, 16}, cl);
  CHECK(k64.cycles == 550074);
  const double mpc64 = conv_macs({1, 64, 16, 16}, 64, 3) / static_cast<double>(k64.cycles);
  CHECK(mpc64 == Approx(17.16).margin(0.01));
  CHECK(mpc64 > 15.5);

  // Larger well-shaped layers approach, but never pass, the 8·32/14 = 18.29 MAC/cycle asymptote.
  // 128/64: K = 1152, g4 = 14·288 + 88 = 4120, MM42 = 16·4120 + 59 = 65,979, im2col
  //   3·(10 + 2·96) + 10 = 616 per pixel -> 16·(65,979 + 1,232) + 10 = 1,075,386 cycles for
  //   18,874,368 MACs = 17.55.
  // 256/256, 32×32 (4 rows = 64 pairs per core): K = 2304, g4 = 14·576 + 88 = 8152, MM42 =
  //   64·8152 + 59 = 521,787, im2col 3·(10 + 2·192) + 10 = 1,192 -> 64·(521,787 + 2,384) + 10 =
  //   33,546,954 cycles for 603,979,776 MACs = 18.00.
  const KernelCost k128 = conv_cluster_cost(conv(3), {1, 128, 18, 18}, {1, 64, 16, 16}, cl);
  const double mpc128 = conv_macs({1, 64, 16, 16}, 128, 3) / static_cast<double>(k128.cycles);
  CHECK(k128.cycles == 1075386);
  CHECK(mpc128 == Approx(17.55).margin(0.01));
  const KernelCost k256 = conv_cluster_cost(conv(3), {1, 256, 34, 34}, {1, 256, 32, 32}, cl);
  const double mpc256 = conv_macs({1, 256, 32, 32}, 256, 3) / static_cast<double>(k256.cycles);
  CHECK(k256.cycles == 33546954);
  CHECK(mpc256 == Approx(18.00).margin(0.01));

  // A border tile with padding is a little slower than the interior one.
  const KernelCost pad = conv_cluster_cost(conv(3, 1, 1), {1, 64, 16, 16}, {1, 64, 16, 16}, cl);
  CHECK(pad.cycles > k64.cycles);

  // No shape exceeds the asymptote (pointwise, 5×5, large linear, large matmul).
  const double pw = 32.0 * 32 * 512 * 512 /
      static_cast<double>(conv_cluster_cost(conv(1), {1, 512, 32, 32}, {1, 512, 32, 32}, cl).cycles);
  const double c5 = conv_macs({1, 512, 16, 16}, 512, 5) /
      static_cast<double>(conv_cluster_cost(conv(5), {1, 512, 20, 20}, {1, 512, 16, 16}, cl).cycles);
  const double fc = 4096.0 * 1000 /
      static_cast<double>(gemm_cluster_cost(GemmParams{}, {1, 4096}, {4096, 1000}, {1, 1000}, cl).cycles);
  const double mm = 256.0 * 1024 * 1024 /
      static_cast<double>(gemm_cluster_cost(GemmParams{}, {256, 1024}, {1024, 1024}, {256, 1024}, cl).cycles);
  INFO("calibration MAC/cycle: 64/64 " << mpc64 << ", 128/64 " << mpc128 << ", 256/256 " << mpc256
       << ", pointwise 512 " << pw << ", 5x5 512 " << c5 << ", linear 4096x1000 " << fc
       << ", matmul 256x1024x1024 " << mm);
  for (double v : {mpc64, mpc128, mpc256, pw, c5, fc, mm}) CHECK(v < 8.0 * 32 / 14);
  CHECK(fc < 8.0 * 8 / 5);   // the linear loop: 8 MACs per c_il12 = 5 cycles per core
}

TEST_CASE("cost: Hout = 10 leaves 3 of 8 cores idle", "[cost]") {
  // chunk(10) = 2 rows: cores 0..4 busy with equal work, cores 5..7 idle.
  const KernelCost k = conv_Ho_parallel_cost(conv(3), {1, 16, 12, 8}, {1, 16, 10, 6}, hand_spec());
  REQUIRE(k.core_cycles.size() == 8);
  for (int c = 0; c < 5; ++c) CHECK(k.core_cycles[static_cast<size_t>(c)] == k.core_cycles[0]);
  CHECK(k.core_cycles[0] > 0);
  CHECK(k.core_cycles[5] == 0);
  CHECK(k.core_cycles[6] == 0);
  CHECK(k.core_cycles[7] == 0);
  CHECK(k.cycles == k.core_cycles[0] + 10);
}

TEST_CASE("cost: dispatch picks the kernel and guards bad input", "[cost]") {
  const ClusterSpec cl = hand_spec();
  const auto name = [&](const OpParams& p, const Shape& x, const Shape& y) {
    return cluster_kernel_cost(p, {x, {}}, {y}, cl).kernel;
  };
  CHECK(name(conv(3), {1, 8, 10, 10}, {1, 8, 8, 8}) == "conv_Ho_parallel");
  CHECK(name(conv(1), {1, 8, 8, 8}, {1, 16, 8, 8}) == "pointwise_HoWo_parallel");
  CHECK(name(conv(1, 2), {1, 8, 8, 8}, {1, 16, 4, 4}) == "conv_Ho_parallel");   // strided 1×1
  CHECK(name(conv(3, 1, 1, 8), {1, 8, 8, 8}, {1, 8, 8, 8}) == "depthwise_generic");
  CHECK(name(conv(3, 1, 0, 2), {1, 8, 10, 10}, {1, 8, 8, 8}) == "conv_Ho_parallel");   // grouped
  PoolParams mp;
  mp.kh = mp.kw = mp.sh = mp.sw = 2;
  CHECK(name(mp, {1, 8, 4, 4}, {1, 8, 2, 2}) == "maxpool");

  // The dispatcher returns exactly the family model's cost.
  CHECK(cluster_kernel_cost(conv(3), {{1, 3, 10, 5}, {6, 3, 3, 3}}, {{1, 6, 8, 3}}, cl).cycles == 710);
  CHECK(cluster_kernel_cost(GemmParams{}, {{1, 22}, {22, 10}}, {{1, 10}}, cl).cycles == 63);
  CHECK(cluster_kernel_cost(AddParams{}, {{1, 7, 10, 1}, {1, 7, 10, 1}}, {{1, 7, 10, 1}}, cl).cycles == 82);
  // Deeploy's transpose loop (kernels/layout/cost_cluster.h): axis 2 of the output (10 >= 8) split
  // 2, 2, 1, ..., 14 elements at c_transpose = 3 + 8 set-up + 10 = 60. Generic element-wise:
  // a reshape at 2 cycles/byte: 18 + 10 = 28; a requant at c_add: 72 + 10 = 82; a clip at c_rq:
  // 36 + 10 = 46.
  CHECK(cluster_kernel_cost(TransposeParams{{0, 2, 1, 3}, ""}, {{1, 10, 7, 1}}, {{1, 7, 10, 1}}, cl).cycles == 60);
  CHECK(cluster_kernel_cost(ReshapeParams{}, {{1, 10, 7, 1}}, {{1, 7, 10, 1}}, cl).cycles == 28);
  CHECK(cluster_kernel_cost(RequantParams{}, {{1, 7, 10, 1}}, {{1, 7, 10, 1}}, cl).cycles == 82);
  CHECK(cluster_kernel_cost(ClipParams{}, {{1, 7, 10, 1}}, {{1, 7, 10, 1}}, cl).cycles == 46);

  // Zero-size tiles cost the barrier only; missing shapes and rank errors throw.
  const KernelCost z = cluster_kernel_cost(conv(3), {{1, 8, 10, 10}}, {{1, 0, 8, 8}}, cl);
  CHECK(z.cycles == 10);
  CHECK(z.core_cycles == Cores(8, 0));
  CHECK(cluster_kernel_cost(AddParams{}, {}, {{0}}, cl).cycles == 10);
  CHECK_THROWS_AS(cluster_kernel_cost(conv(3), {}, {{1, 8, 8, 8}}, cl), std::invalid_argument);
  CHECK_THROWS_AS(cluster_kernel_cost(conv(3), {{8, 10, 10}}, {{8, 8, 8}}, cl), std::invalid_argument);

  // A cluster without a cost section (or without cores) cannot be timed.
  ClusterSpec none = cl;
  none.cost.present = false;
  CHECK_THROWS_WITH(cluster_kernel_cost(conv(3), {{1, 8, 10, 10}}, {{1, 8, 8, 8}}, none),
                    "cluster cost model: platform has no cluster.cost section");
  ClusterSpec zero = cl;
  zero.n_cores = 0;
  CHECK_THROWS_AS(cluster_kernel_cost(AddParams{}, {}, {{4}}, zero), std::invalid_argument);
}
