// Policy `dory-2021` (docs/tiling.md): hand-worked cases. db = 2 always; L1 budget
// min(38000, l1.size); the memory term of J in 1/256 B: U = 256·M + 20 for 8-bit layers
// (32 units per element bit, im2col 256 per byte). 8-bit, n_c = 2, cb = 32, no bias, NC = 8.
#include <catch2/catch.hpp>

#include "compiler/flows/flow.h"
#include "compiler/frontend/import.h"
#include "platforms/loader/loader.h"
#include "support/paths.h"
#include "tiler/tiler_util.h"

using namespace edgesim;
using namespace edgesim::test;

// 3x3 conv 8 -> 16, 8x8, pad 1, stride 1; L1 3000 B.
// Early exit: W 1152 + κλ 128 + in 512 + out 1024 + im2col 1152 = 3968 > 3000.
// M = 16·h_in·w_in + 2·n·h_out·w_out + 144·n + 16·n + 1152 (no +40).
// Geometry without padding term: (3,1) (4,2) (5,3) (6,4) (7,5) (8,6); border rule (d = t − 2,
// H = 8, pads 1/1) removes t = 4 (A = B = 3 mod 2 = 1 < 3) and t = 5 (A = B = 1 < 3):
// candidates (3,1) (6,4) (7,5) (8,6), columns alike.
// J terms (×64 scale): h_out 6 → 128e6·5 = 640e6 (best); even w; n mod 4; h·w ≥ 16.
// With h_in 8, h_out 6: 128·w_in + 12·n·w_out + 160·n ≤ 1848:
//   w_out 4 (w_in 6): n ≤ 5 → n 4, M = 2752;  w_out 6 (w_in 8): n ≤ 3 (loses 64e6).
// J(4, 8/6, 6/4) = 256·2752 + 20 + 640e6 + 192e6 + 192e6 + 64e6 + 64e4·4
//   + 64e4·(16 mod 5 = 1) + 64e4·1 + 128e4·(8 mod 7 = 1) + 192e4·(8 mod 5 = 3 → odd) = 1,095,744,532.
// Runner-up: n 3, w_out 6 (w_in 8): M 2872, J = 1,029,855,252.
// Reported occupation: x 384·2 + y 96·2 + 16·4 + W 288·2 + im2col 16·8·9 = 1152 → 2752.
TEST_CASE("dory-2021: standard 3x3 conv, hand-worked", "[tiler][dory2021]") {
  const LayerGeom g = conv_geom(8, 16, 8, 8, 3, 1, 1, false);
  const LayerTiling t = tile_one("dory-2021", g, dory_spec(3000, 1000000, 1));
  CHECK(t.policy == "dory-2021");
  CHECK(t.l1.n_out == 4);
  CHECK(t.l1.h_in == 8);
  CHECK(t.l1.h_out == 6);
  CHECK(t.l1.w_in == 6);
  CHECK(t.l1.w_out == 4);
  CHECK(t.l1.db == 2);
  CHECK(t.l1.l1_bytes == 2752);
  CHECK(t.reported_l1 == 2752);
}

// Depthwise 3x3, C 32, 16x16, pad 1; L1 12000 B. No spatial tiling (≤ 32).
// M = 512·n + 512·n + 18·n + 16·n + im2col (8·3·16 + 3) = 1058·n + 387 ≤ 12000 → n ≤ 10.
// n terms: 256·1058·n + 32e4·[n > 7] + 64e4·((n − 1) mod 8) + 3200·[32 mod (n+1) > 7]:
//   n 8: 2,166,784 + 320,000 + 4,480,000 = 6,966,784;  n 10: 3,671,680;  n 7: 5,735,936.
// J(8) = 256·8851 + 20 + 32000·32 + 32e4 + 448e4 + 32e4 + 3200·(16 + 0 + 16) = 8,512,276;
// runner-up n 7: 7,281,428. Reported: x 2048·2 + y 2048·2 + 128 + W 72·2 + 387 = 8851.
TEST_CASE("dory-2021: depthwise conv, hand-worked", "[tiler][dory2021]") {
  const LayerGeom g = conv_geom(32, 32, 16, 16, 3, 1, 1, true);
  const LayerTiling t = tile_one("dory-2021", g, dory_spec(12000, 1000000, 1));
  CHECK(t.l1.n_out == 8);
  CHECK(t.l1.h_out == 16);
  CHECK(t.l1.w_out == 16);
  CHECK(t.l1.l1_bytes == 8851);
  CHECK(t.reported_l1 == 8851);
}

// Pointwise 32 -> 64, 16x16; L1 20000 B. Early exit 27648 > 20000.
// M = 64·h·w + 2·n·h·w + 64·n + 16·n + 512 (im2col 2·8·32). Border rule passes every 1x1 tile.
// n = 64 is worth 64e4·64 + 64e4·(64 mod 65 = 64) = 81.92e6; it fits with
//   192·h·w + 5120 ≤ 19488 → h·w ≤ 74: (h 8, w 8) or (h 16, w 4), M = 17920 both.
// Border rows: h 8 → 128e4·(16 mod 9 = 7) = 8.96e6; h 16 → 16 mod 17 = 16 → 0. So h 8 wins:
// J = 256·17920 + 20 + 896e6 + 192e6 + 192e6 + 64e6 + 81.92e6 + 8.96e6 + 1.92e6 = 1,441,387,540;
// runner-up (h 16, w 4): 1,432,427,540.
// Reported: x 2048·2 + y 4096·2 + 16·64 + W 2048 + im2col 16·32 = 15872.
TEST_CASE("dory-2021: pointwise conv, hand-worked", "[tiler][dory2021]") {
  const LayerGeom g = conv_geom(32, 64, 16, 16, 1, 1, 0, false);
  const LayerTiling t = tile_one("dory-2021", g, dory_spec(20000, 1000000, 1));
  CHECK(t.l1.n_out == 64);
  CHECK(t.l1.h_out == 8);
  CHECK(t.l1.w_out == 8);
  CHECK(t.l1.l1_bytes == 17920);
  CHECK(t.reported_l1 == 15872);
}

// L3: the dory case (1x1, 64 -> 64, 4x4, L2 3000, L1 2500) gives the same L3 decision (the
// L3→L2 rules are shared): n_out 4 with 1e8·[L1-fit]. The 4-channel slab: 2021 early exit W 256 +
// κλ 4·2·4 = 32 + in 1024 + out 64 + im2col 1024 = 2400 ≤ 2500 → whole; reported in 1024 + out 64 +
// 16·4 + W 256 + im2col 16·64 = 2432.
TEST_CASE("dory-2021: L3 tiling, hand-worked", "[tiler][dory2021]") {
  const LayerGeom g = conv_geom(64, 64, 4, 4, 1, 1, 0, false);
  const LayerTiling t = tile_one("dory-2021", g, dory_spec(2500, 3000, 1));
  CHECK(t.l3.weights_in_l3);
  CHECK(t.l3.n_out == 4);
  CHECK(t.l1.whole);
  CHECK(t.l1.l1_bytes == 2400);
  CHECK(t.reported_l1 == 2432);
}

TEST_CASE("dory-2021: the L1 budget is budgets.dory.l1 as given (DORY's --l1_buffer_size), stacks not subtracted",
          "[tiler][dory2021]") {
  // Pointwise 32 -> 64 at 16x16 needs 27648 B untiled: whole with a given 38,000 B buffer on a
  // 64 kB L1, tiled when the budget is derived from a smaller L1 less the stacks.
  const LayerGeom g = conv_geom(32, 64, 16, 16, 1, 1, 0, false);
  PlatformSpec s = dory_spec(64000, 1000000, 1);
  s.budgets.dory.l1_stack_core0 = 3500;
  s.budgets.dory.l1_stack_other = 3400;
  s.budgets.dory.l1 = 38000;
  CHECK(tile_one("dory-2021", g, s).l1.whole);
  CHECK(tile_one("dory", g, s).l1.whole);   // the same key is DORY's budget under `dory` too
  s.budgets.dory.l1 = kAutoBudget;
  s.l1.size = 40000;   // dory budget 40000 − 27300 = 12700 B
  CHECK_FALSE(tile_one("dory", g, s).l1.whole);
  CHECK_FALSE(tile_one("dory-2021", g, s).l1.whole);
}

// DORY's generated MobileNetV1-128 for PULP-open (docs/sources.md [26], network.c): L2 380,000 B,
// L1 38,000 B. Its L3_layers table L3-tiles layers 2, 3, 14, 16, 18, 20, 22, 24, 26 and 28, and the
// double-buffered weight slabs of the weight-tiled ones are 133,120 B (layers 14-22: 128 of 512
// channels), 33,280 B (24: 32 channels), 8,256 B (26: 4) and 40,960 B (28: 20 of 1000 outputs);
// layer 14's L1 loop runs 11 x 1 x 1 x 4 tiles per slab (12 channels, 8 rows, 2 columns).
// Layer 3's L3 slabs follow DORY's input-from-L3 constraints (checked below).
TEST_CASE("dory-2021: MobileNetV1-128 on pulp_open L3-tiles the layers DORY's generated code does",
          "[tiler][dory2021]") {
  const Graph g = import_onnx(std::string(EDGESIM_BUILD_DIR) + "/models/mobilenetv1_128/model.onnx");
  const PlatformSpec spec = load_platform(source_dir() + "/platforms/pulp_open.yaml", {"budgets.dory.l1=38000"});
  const std::vector<LayerTiling> t = tile_graph(g, spec, "dory-2021");
  REQUIRE(t.size() == 29);
  std::vector<int> l3;
  for (size_t i = 0; i < t.size(); ++i)
    if (t[i].l3.tiled()) l3.push_back(static_cast<int>(i));
  CHECK(l3 == std::vector<int>{2, 3, 14, 16, 18, 20, 22, 24, 26, 28});
  const std::vector<std::pair<int, int64_t>> slabs{{14, 128}, {16, 128}, {22, 128}, {24, 32}, {26, 4}, {28, 20}};
  for (const auto& [layer, n_out] : slabs) {
    INFO("layer " << layer);
    CHECK(t[static_cast<size_t>(layer)].l3.weights_in_l3);
    CHECK_FALSE(t[static_cast<size_t>(layer)].l3.output_in_l3);
    CHECK(t[static_cast<size_t>(layer)].l3.n_out == n_out);
  }
  CHECK(t[2].l3.output_in_l3);
  CHECK(t[2].l3.h_out == 16);   // four 65,536 B output slabs (layerConvBNRelu2L3.c)
  // Layer 3 reads its input from L3 within what layer 2 left of L2 (245,280 B, the value the
  // generated network.c carries for layer 2's output): four slabs of 17 input rows (69,632 B,
  // layerConvDWBNRelu3L3.c), each cut into 2 x 3 L1 tiles of 32 channels x 3 (last 2) rows.
  CHECK(t[3].l3.input_in_l3);
  CHECK(t[3].l3.h_in == 17);
  CHECK(t[3].l3.h_out == 8);
  CHECK(t[3].l1.n_out == 32);
  CHECK(t[3].l1.h_out == 3);
  CHECK(t[14].l1.n_out == 12);
  CHECK(t[14].l1.h_out == 8);
  CHECK(t[14].l1.w_out == 2);
}
