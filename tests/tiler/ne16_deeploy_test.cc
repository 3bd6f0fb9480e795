// Deeploy's NE16 tile rules (compiler/tiler/ne16_deeploy.cc) under policy deeploy on gap9, single
// buffering, against tiles worked out by hand from Deeploy's constraint model
// (NE16DenseConstraint.py at cdb39fc9): hints tried in priority order (output channels a multiple
// of 32, then input rows whole, then input columns whole), then each variable at its largest
// feasible value in declaration order (rows, columns, output channels). The layers of the test
// have per-channel k and λ and no bias: constants c8(2·4·C) B; weights ⌈Cin/16⌉·8·9·2 B per
// output channel.
#include <catch2/catch.hpp>

#include "compiler/passes/assign_engine.h"
#include "compiler/passes/ne16_pw_reshape.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "compiler/tiler/tiling.h"
#include "passes/npu_graphs.h"

using namespace edgesim;
using test::ConvShape;

namespace {

L1Tiling deeploy_ne16_tile(int64_t cin, int64_t cout, int64_t hw, const std::string& l1, bool dw = false) {
  ConvShape s;
  s.cin = cin, s.cout = cout, s.h = s.w = hw, s.dw = dw;
  test::NpuRng r(3);
  Graph g = test::npu_conv_graph(r, s);
  const PlatformSpec spec = test::npu_platform("gap9", {"budgets.deeploy.l1=" + l1});
  assign_engines(g, spec);
  REQUIRE(g.nodes[0].engine == "npu");
  const auto ts = tile_graph(g, spec, "deeploy", 1);
  REQUIRE(ts.size() == 1);
  return ts[0].l1;
}

// The tile's output extents (channels, rows, columns) and, when given, its L1 bytes.
void check_tile(const L1Tiling& t, int64_t c, int64_t h, int64_t w, int64_t bytes = -1) {
  CHECK(t.n_out == c);
  CHECK(t.h_out == h);
  CHECK(t.w_out == w);
  if (bytes >= 0) CHECK(t.l1_bytes == bytes);
}

}  // namespace

TEST_CASE("deeploy ne16 tiles: hint order and declaration-order maxima, worked by hand", "[npu][tiler]") {
  SECTION("64 -> 64 at 32x32, L1 115,000: Cout 32 kept, rows whole, columns not: 29 of 32") {
    // Cout % 32 kept; rows whole with 1 column: 6,144 + 1,024 + 18,432 + 256 fits; columns whole:
    // 65,536 + 32,768 + 18,432 + 256 = 116,992 > 115,000, dropped. Largest non-whole input
    // columns 31 -> 29 output columns: 64·32·31 + 32·32·29 + 32·576 + 256 = 111,872 B. Then
    // Cout 64 does not fit (63,488 + 59,392 + 36,864 + 512): 32.
    const L1Tiling t = deeploy_ne16_tile(64, 64, 32, "115000");
    check_tile(t, 32, 32, 29, 111872);
    CHECK(t.w_in == 31);
    CHECK_FALSE(t.whole);
  }
  SECTION("4 -> 4 at 128x128: rows and columns whole, 2 output channels per tile") {
    // Cout < 32: that hint cannot hold. Whole input 65,536 B; per output channel 16,384 B of
    // output + 144 B of weights + 8 B of k, λ: 3 channels 115,144 B > 115,000, 2 channels
    // 65,536 + 32,768 + 288 + 16 = 98,608 B.
    check_tile(deeploy_ne16_tile(4, 4, 128, "115000"), 2, 128, 128, 98608);
  }
  SECTION("16 -> 16 at 64x64: 11 output channels per tile") {
    // 65,536 + 11·(4,096 + 144) + c8(88) = 112,264 B; 12 channels 116,512 B.
    check_tile(deeploy_ne16_tile(16, 16, 64, "115000"), 11, 64, 64, 112264);
  }
  SECTION("a layer that fits is one whole tile") {
    const L1Tiling t = deeploy_ne16_tile(32, 32, 32, "115000");
    CHECK(t.whole);
    CHECK(t.n_out == 32);
  }
  SECTION("depthwise 24 channels: channel tiles stay whole 16-channel weight groups") {
    // Whole: 24·16·16 in + out = 12,288 + weights c8(3·144) = 432 + k, λ 192 = 12,912 > 10,000.
    // Cout < 32. Rows and columns whole with 16 channels: 4,096 + 4,096 + 144 + 128 = 8,464 B;
    // 24 does not fit, the next multiple of the 16-channel group below it is 16 (not 24 − 16).
    check_tile(deeploy_ne16_tile(24, 24, 16, "10000", true), 16, 16, 16, 8464);
  }
  SECTION("48 output channels: the multiple-of-32 hint splits a layer that would fit whole") {
    // 8 -> 48 at 8x8 fits whole in 20,000 B, but Cout % 32 is kept first: tiles of 32 (+ 16).
    const L1Tiling t = deeploy_ne16_tile(8, 48, 8, "20000");
    check_tile(t, 32, 8, 8);
    CHECK_FALSE(t.whole);
  }
}

namespace {

// A 1×1 conv as Deeploy's flow tiles it: re-shaped first (ne16_pw_reshape.h), then tiled.
L1Tiling deeploy_ne16_pw_tile(const ConvShape& shape, const std::string& l1, int align) {
  ConvShape s = shape;
  s.k = 1, s.pad = 0;
  test::NpuRng r(5);
  Graph g = test::npu_conv_graph(r, s);
  const PlatformSpec spec = test::npu_platform(
      "gap9", {"budgets.deeploy.l1=" + l1, "budgets.deeploy.ne16_pw_align=" + std::to_string(align)});
  assign_engines(g, spec);
  apply_ne16_pw_reshape(g);
  const auto ts = tile_graph(g, spec, "deeploy", 1);
  for (const LayerTiling& t : ts)
    if (g.nodes.at(static_cast<size_t>(t.node)).kind() == OpKind::Conv) {
      REQUIRE(g.nodes[static_cast<size_t>(t.node)].engine == "npu");
      return t.l1;
    }
  FAIL("no conv tiling");
  return {};
}

}  // namespace

TEST_CASE("deeploy ne16 pointwise tiles: NE16PWConv2DTileConstraint's hints, worked by hand", "[npu][tiler]") {
  SECTION("Deeploy's PW_2D (128 -> 128 at 8x8, int32 out), L1 32,000: 16 x 4 after the reshape") {
    // Rows 16 > a and columns 4 > a = 3: both tiles multiples of 3; Cout 128 > 32: multiples of 32.
    // Rows: 15 (15·3·128 + 32·45·4 + 32·128 = 15,616 fits); columns 3; Cout: 128 and 96 do not fit
    // (45,184, 35,328), 64 does: 5,760 + 11,520 + 8,192 = 25,472 B (no constants: raw outputs).
    ConvShape s;
    s.cin = s.cout = 128, s.h = s.w = 8, s.out = DType::I32;
    const L1Tiling t = deeploy_ne16_pw_tile(s, "32000", 3);
    check_tile(t, 64, 15, 3, 25472);
    CHECK_FALSE(t.whole);
    // Before Deeploy 9d78b4d8 (a = 6): rows a multiple of 6 (12), columns 4 <= 6 whole; 64 channels.
    check_tile(deeploy_ne16_pw_tile(s, "32000", 6), 64, 12, 4, 6144 + 12288 + 8192);
  }
  SECTION("3x3 -> 9 x 1: whole under a = 3, split 6 + 3 under a = 6 (Deeploy 9d78b4d8's S75 / S81)") {
    ConvShape s;
    s.cin = s.cout = 256, s.h = s.w = 3;
    const L1Tiling t3 = deeploy_ne16_pw_tile(s, "128000", 3);
    check_tile(t3, 256, 9, 1);
    CHECK(t3.whole);
    // 9 rows > 6: a multiple of 6, i.e. 6 (the last tile 3); Cout 256 fits: 1,536 + 256·(6 + 256 + 8).
    const L1Tiling t6 = deeploy_ne16_pw_tile(s, "128000", 6);
    check_tile(t6, 256, 6, 1, 1536 + 1536 + 65536 + 2048);
    CHECK_FALSE(t6.whole);
  }
  SECTION("40 -> 40 at 7 x 7 (49 x 1 after the reshape): every hint kept, then dropped in a small L1") {
    // Weights 3 · 16 B per output channel, k and λ 8 B. Rows 49 > 3: multiples of 3 (3 rows,
    // 1 channel: 184 B); columns 1: whole; Cout 40 > 32: 32 with 3 rows needs 120 + 96 + 1,536 +
    // 256 = 2,008 B: kept in 4,000 B. Rows are then sized with 32 channels: 72·x + 1,792 <= 4,000
    // gives 30; Cout 32 (3,952 B).
    ConvShape s;
    s.cin = 40, s.cout = 40, s.h = s.w = 7;
    check_tile(deeploy_ne16_pw_tile(s, "4000", 3), 32, 30, 1, 3952);
    // In 1,500 B the Cout hint cannot hold (2,008 B) and is dropped: rows sized with one channel,
    // 33 (1,320 + 40 + 48 + 8 = 1,416 B; 36 rows need 1,536), then one channel (two need 1,504).
    check_tile(deeploy_ne16_pw_tile(s, "1500", 3), 1, 33, 1, 1416);
  }
}

TEST_CASE("budgets.deeploy.ne16_pw_align: at least 1, and only on an NE16", "[npu][tiler][platforms]") {
  CHECK_THROWS_WITH(test::npu_platform("gap9", {"budgets.deeploy.ne16_pw_align=0"}),
                    Catch::Contains("budgets.deeploy.ne16_pw_align must be at least 1 (got 0)"));
  CHECK_THROWS_WITH(test::npu_platform("siracusa", {"budgets.deeploy.ne16_pw_align=6"}),
                    Catch::Contains("does not apply to npu.impl 'neureka' (only to ne16)"));
  CHECK(test::npu_platform("gap9").budgets.deeploy.ne16_pw_align == 3);
}
