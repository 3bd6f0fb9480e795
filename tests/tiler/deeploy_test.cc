// Policy `deeploy` (docs/tiling.md "Policy `deeploy`"): hand-worked cases. Greedy largest-first in
// declaration order (rows, columns, then channels) with look-ahead; memory Σ ceil4(bytes)·2 +
// im2col·1. 8-bit layers, κ and λ as two Cout vectors of int32, no bias, NC = 8; not the first
// layer of a network (no graph), so no max-bytes pass.
#include <catch2/catch.hpp>

#include "tiler/tiler_util.h"

using namespace edgesim;
using namespace edgesim::test;

// 3x3 conv 8 -> 16, 8x8, pad 1; L1 3000 B. Cout tiles ≥ 8 with remainder 0 or ≥ 8: {8, 16}.
// mem = 2·c4(8·h_in·w_in) + 2·c4(n·h·w) + 2·(2·4n + 72n) + c4(2·8·9·8 = 1152).
// rows (w 1 → w_in 3, n 8): h 8 (h_in 8): 384 + 128 + 1280 + 1152 = 2944 ≤ 3000 → h 8.
// columns: w 2 (w_in 4): 512 + 256 + 2432 = 3200 > 3000 → w 1.
// channels: n 16: 384 + 256 + 2560 + 1152 = 4352 > 3000 → n 8.
TEST_CASE("deeploy: standard 3x3 conv, hand-worked", "[tiler][deeploy]") {
  const LayerGeom g = conv_geom(8, 16, 8, 8, 3, 1, 1, false);
  const LayerTiling t = tile_one("deeploy", g, deeploy_spec(3000, 1000000));
  CHECK(t.l1.h_out == 8);
  CHECK(t.l1.h_in == 8);
  CHECK(t.l1.w_out == 1);
  CHECK(t.l1.w_in == 3);
  CHECK(t.l1.n_out == 8);
  CHECK(t.l1.n_in == 8);
  CHECK(t.l1.db == 2);
  CHECK(t.l1.l1_bytes == 2944);
}

// Depthwise 3x3, C 32, 16x16, pad 1; L1 12000 B. Output tiles ≥ 1 + max pad = 2 per dim.
// mem = 2·(c4(n·h_in·w_in) + c4(n·h·w) + 2·c4(4n) + c4(9n)) + c4(8·(3·(h_in + 2) + 3)).
// rows (w 2 → w_in 4, n 1): h 16: 2·(64 + 32 + 8 + 12) + 456 = 688 → h 16;
// columns (n 1): w 16: 2·(256 + 256 + 8 + 12) + 456 = 1520 → w 16;
// channels: n 11: 11264 + 176 + 200 + 456 = 12096 > 12000; n 10: 10240 + 160 + 184 + 456 = 11040.
TEST_CASE("deeploy: depthwise conv, hand-worked", "[tiler][deeploy]") {
  const LayerGeom g = conv_geom(32, 32, 16, 16, 3, 1, 1, true);
  const LayerTiling t = tile_one("deeploy", g, deeploy_spec(12000, 1000000));
  CHECK(t.l1.h_out == 16);
  CHECK(t.l1.w_out == 16);
  CHECK(t.l1.n_out == 10);
  CHECK(t.l1.n_in == 10);
  CHECK(t.l1.l1_bytes == 11040);
}

// The same layer with single buffering (Deeploy's SBTiler, [9] testUtils/tilingUtils.py: every
// buffer coefficient 1): mem = c4(n·h_in·w_in) + c4(n·h·w) + 2·c4(4n) + c4(9n) + 456.
// rows, columns as above (h 16, w 16 at n 1: 256 + 256 + 8 + 12 + 456 = 988);
// channels: n 21: 5376 + 5376 + 168 + 192 + 456 = 11568; n 22: 5632 + 5632 + 176 + 200 + 456 =
// 12096 > 12000 → n 21. Double buffering asked explicitly is
// the default's 10 channels; the other policies ignore the schedule's buffering.
TEST_CASE("deeploy: single buffering sizes every buffer once", "[tiler][deeploy]") {
  const LayerGeom g = conv_geom(32, 32, 16, 16, 3, 1, 1, true);
  const PlatformSpec spec = deeploy_spec(12000, 1000000);
  const LayerTiling t = tile_one("deeploy", g, spec, false, 1);
  CHECK(t.l1.h_out == 16);
  CHECK(t.l1.w_out == 16);
  CHECK(t.l1.n_out == 21);
  CHECK(t.l1.db == 1);
  CHECK(t.l1.l1_bytes == 11568);
  CHECK(tile_one("deeploy", g, spec, false, 2).l1.n_out == 10);
  CHECK(tiling_buffering("single") == 1);
  CHECK(tiling_buffering("double") == 2);
  CHECK(tiling_buffering("auto") == 0);
  const PlatformSpec d = dory_spec(12000, 1000000, 2);
  CHECK(tile_one("dory", g, d, false, 1).l1.n_out == tile_one("dory", g, d).l1.n_out);
}

// Pointwise 32 -> 64, 16x16; L1 20000 B.
// mem = 2·(c4(32·h·w) + c4(n·h·w) + 2·c4(4n) + c4(32n)) + 512.
// rows (w 1, n 8): h 16: 2·(512 + 128 + 64 + 256) + 512 = 2432 → h 16.
// columns (n 8): 1280·w + 1152 ≤ 20000 → w 14 (19072); w 15 → 20352.
// channels (h 16, w 14): 14336 + 528·n + 512 ≤ 20000 → n ≤ 9; legal {8, 11, 13, 14, 16, ...} → 8.
TEST_CASE("deeploy: pointwise conv, hand-worked", "[tiler][deeploy]") {
  const LayerGeom g = conv_geom(32, 64, 16, 16, 1, 1, 0, false);
  const LayerTiling t = tile_one("deeploy", g, deeploy_spec(20000, 1000000));
  CHECK(t.l1.h_out == 16);
  CHECK(t.l1.w_out == 14);
  CHECK(t.l1.n_out == 8);
  CHECK(t.l1.l1_bytes == 19072);
}

// L3: 1x1 conv 64 -> 64, 4x4; L2 5000 B, L1 4000 B.
// Whole in L2: 1024 + 1024 + 4096 + 2·256 = 6656 > 5000.
// L2 tile (coefficient 2): 2·(c4(64·h·4) + c4(n·h·4) + c4(64n) + 2·c4(4n)).
//   rows (n 8): h 4: 2·(1024 + 128 + 512 + 64) = 3456 → h 4;
//   channels: 2048 + 176·n ≤ 5000 → n ≤ 16 → 16 (64 mod 16 = 0).
// L1 of the 16-channel slab (legal n {8, 16}):
//   rows (w 1, n 8): h 4: 2·(256 + 32 + 64 + 512) + 1024 = 2752 → h 4;
//   columns (n 8): 576·w + 2176 ≤ 4000 → w 3 (3904);
//   channels: n 16: 2·(768 + 192 + 128 + 1024) + 1024 = 5248 > 4000 → n 8.
TEST_CASE("deeploy: L3 tiling, hand-worked", "[tiler][deeploy]") {
  const LayerGeom g = conv_geom(64, 64, 4, 4, 1, 1, 0, false);
  const LayerTiling t = tile_one("deeploy", g, deeploy_spec(4000, 5000));
  CHECK(t.l3.weights_in_l3);
  CHECK(t.l3.n_out == 16);
  CHECK(t.l3.h_out == 4);
  CHECK(t.l1.h_out == 4);
  CHECK(t.l1.w_out == 3);
  CHECK(t.l1.n_out == 8);
  CHECK(t.l1.l1_bytes == 3904);
  CHECK(tile_count(g, t) == 4 * 2 * 2);   // 4 slabs × ⌈16/8⌉ × ⌈4/3⌉
}

// Infeasible: minimal memory = the smallest legal tile (h 1, w 1, n 8) of the pointwise layer:
// 2·(32 + 8 + 64 + 256) + 512 = 1232 B.
TEST_CASE("deeploy: infeasible layer reports the minimal memory requirement", "[tiler][deeploy]") {
  const LayerGeom g = conv_geom(32, 64, 16, 16, 1, 1, 0, false);
  try {
    tile_one("deeploy", g, deeploy_spec(1000, 1000000));
    FAIL("expected a TilingError");
  } catch (const TilingError& e) {
    CHECK(std::string(e.what()).find("please increase L1 to at least 1232 B") != std::string::npos);
    CHECK(e.min_budget() == 1232);
    CHECK(e.level() == "L1");
  }
  CHECK_NOTHROW(tile_one("deeploy", g, deeploy_spec(1232, 1000000)));
}

// GEMM [20 x 1024] x [1024 x 10] (Deeploy's GEMM test shape): N < 16, so any N tile; K whole.
// mem = 2·(c4(1024·h) + c4(1024·n) + c4(4·h·n)) with int32 output; L1 64000:
// rows (n 1): h 20: 2·(20480 + 1024 + 80) = 43168 → h 20; channels: n 10:
// 2·(20480 + 10240 + 800) = 63040 ≤ 64000 → the whole GEMM in one tile.
TEST_CASE("deeploy: GEMM with M > 1 rows", "[tiler][deeploy]") {
  LayerGeom g;
  g.node = 0;
  g.kind = OpKind::Gemm;
  g.fc = true;
  g.cin = 1024; g.cout = 10; g.h_in = g.h_out = 20;
  g.by = 32;
  const LayerTiling t = tile_one("deeploy", g, deeploy_spec(64000, 1000000));
  CHECK(t.l1.h_out == 20);
  CHECK(t.l1.n_out == 10);
  CHECK(t.l1.n_in == 1024);
  CHECK(t.l1.whole);
  CHECK(t.l1.l1_bytes == 63040);
  // dory treats it as an FC layer: rows are its "h", K is never split.
  const LayerTiling d = tile_one("dory", g, dory_spec(36700, 380000, 1));
  CHECK(d.l1.n_in == 1024);
  CHECK(d.l1.h_in == d.l1.h_out);
}
