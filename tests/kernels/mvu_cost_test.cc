// The MVU countdown model (kernels/mvu/cost.h) against the published figures in docs/timing.md
// "MVU (BARVINN) countdown model" (MVU_Code_Gen's verification table, the distilled ResNet-18 and
// BARVINN's SimpleConv): every countdown and layer total exactly; the exact geometry; GEMV; the
// quantizer constraint.
#include <catch2/catch.hpp>

#include "kernels/mvu/cost.h"
#include "platforms/loader/loader.h"
#include "support/paths.h"

using namespace edgesim;

namespace {

const PlatformSpec& barvinn() {
  static const PlatformSpec p = load_platform(test::source_dir() + "/platforms/barvinn.yaml");
  return p;
}

// [channel blocks, H, W] input, [filter blocks, 3, 3] filters, pad 1, a = w = 2 bits.
MvuConv table_row(int64_t in_blocks, int64_t hw, int64_t out_blocks, int64_t stride, int64_t bits = 2) {
  MvuConv c;
  c.cin = 64 * in_blocks;
  c.cout = 64 * out_blocks;
  c.h = c.w = hw;
  c.fh = c.fw = 3;
  c.sh = c.sw = stride;
  c.pt = c.pb = c.pl = c.pr = 1;
  c.a_bits = c.w_bits = bits;
  c.out_bits = bits;
  return c;
}

}  // namespace

TEST_CASE("MVU: MVU_Code_Gen's countdowns and layer totals, 2/2 bit", "[mvu]") {
  struct Row { int64_t ib, hw, ob, s, countdown, total; };
  // MVU_Code_Gen's verification table (docs/timing.md "MVU (BARVINN) countdown model"). Row 1 by
  // hand: 1·3·3·2·2·1·(32−3+1)/1 = 1080 per job, ⌈(32+1+1)/1⌉ = 34 jobs -> 36720.
  const Row rows[] = {{1, 32, 1, 1, 1080, 36720}, {1, 32, 2, 2, 1080, 18360}, {2, 16, 2, 1, 2016, 36288},
                      {2, 16, 4, 2, 2016, 18144}, {4, 8, 4, 1, 3456, 34560},  {4, 8, 8, 2, 3456, 17280},
                      {8, 4, 8, 1, 4608, 27648}};
  for (const Row& r : rows) {
    INFO("input blocks " << r.ib << " " << r.hw << "x" << r.hw << ", filter blocks " << r.ob << ", stride " << r.s);
    const MvuConvCost c = mvu_conv_cost(table_row(r.ib, r.hw, r.ob, r.s), barvinn().mvu, barvinn().ctrl);
    CHECK(c.countdown == r.countdown);
    CHECK(c.layer == r.total);
  }
}

TEST_CASE("MVU: distilled ResNet-18 at 2/2 bit totals 532,872 (generator) and 571,392 (exact)", "[mvu]") {
  // 17 3x3 convs, shortcuts removed: 5 x [1,32,32]->1, [1,32,32]->2 /2, 3 x [2,16,16]->2,
  // [2,16,16]->4 /2, 3 x [4,8,8]->4, [4,8,8]->8 /2, 3 x [8,4,4]->8.
  struct L { int64_t ib, hw, ob, s, times; };
  const L layers[] = {{1, 32, 1, 1, 5}, {1, 32, 2, 2, 1}, {2, 16, 2, 1, 3}, {2, 16, 4, 2, 1},
                      {4, 8, 4, 1, 3},  {4, 8, 8, 2, 1},  {8, 4, 8, 1, 3}};
  int64_t gen = 0, exact = 0;
  for (const L& l : layers) {
    gen += l.times * mvu_conv_cost(table_row(l.ib, l.hw, l.ob, l.s), barvinn().mvu, barvinn().ctrl).layer;
    exact += l.times * mvu_conv_cost(table_row(l.ib, l.hw, l.ob, l.s), barvinn().mvu, barvinn().ctrl, "exact").layer;
  }
  CHECK(gen == 532872);
  CHECK(exact == 571392);
}

TEST_CASE("MVU: SimpleConv at 8/8 bit, countdown 17,280 and layer 587,520", "[mvu]") {
  // Input 64x32x32, 64 3x3 filters, pad 1: 1·3·3·8·8·1·30 = 17280 per row, 34 rows.
  MvuConv c = table_row(1, 32, 1, 1, 8);
  const MvuConvCost r = mvu_conv_cost(c, barvinn().mvu, barvinn().ctrl);
  CHECK(r.countdown == 17280);
  CHECK(r.jobs == 34);
  CHECK(r.layer == 587520);
  // Per job: start 1 + done 1 + CPI 8 · 8 instructions = 66; drain 10 + oprec 8.
  CHECK(r.job_overhead == 1 + 1 + 8 * 8);
  CHECK(r.total == 587520 + 34 * 66 + 10 + 8);
  // Cycles scale exactly with a·w.
  c.a_bits = 4;
  c.w_bits = 2;
  CHECK(mvu_conv_cost(c, barvinn().mvu, barvinn().ctrl).countdown == 17280 / 64 * 8);
}

TEST_CASE("MVU: GEMV, quantizer constraint and bad input", "[mvu]") {
  // 100 x 200 at 8/8: ⌈100/64⌉·⌈200/64⌉·64 = 2·4·64 = 512.
  CHECK(mvu_gemv_cycles(100, 200, 8, 8, barvinn().mvu) == 512);
  MvuConv c = table_row(1, 8, 1, 1, 1);
  c.fh = c.fw = 1;
  c.pt = c.pb = c.pl = c.pr = 0;
  c.out_bits = 8;   // 1·1·1·1·1 = 1 cycle of MVP per position < 8 cycles to serialise an output
  CHECK_FALSE(mvu_quantizer_ok(c, barvinn().mvu));
  c.a_bits = c.w_bits = 4;   // 16 >= 8
  CHECK(mvu_quantizer_ok(c, barvinn().mvu));
  c.w_bits = 17;
  CHECK_THROWS_WITH(mvu_conv_cost(c, barvinn().mvu, barvinn().ctrl), Catch::Matchers::Contains("weight precision 17"));
  c.w_bits = 2;
  CHECK_THROWS_WITH(mvu_conv_cost(c, barvinn().mvu, barvinn().ctrl, "nope"), Catch::Matchers::Contains("geometry"));
}
