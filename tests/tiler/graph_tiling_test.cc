// Whole-graph tiling: policy registry, MobileNetV1-128 on GAP8 under `dory` (every tile within
// the L1 budget, its footprint equal to rule (d) of docs/tiling.md "DORY's rules in formulas"
// recomputed here, geometry consistent), the budget at which it stops being deployable, and
// layer_geom of the generated model.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "compiler/flows/flow.h"
#include "compiler/frontend/import.h"
#include "platforms/loader/budgets.h"
#include "platforms/loader/loader.h"
#include "support/tiling.h"
#include "support/paths.h"
#include "tiler/tiler_util.h"

using namespace edgesim;
using namespace edgesim::test;

namespace {

std::string mnv1() { return std::string(EDGESIM_BUILD_DIR) + "/models/mobilenetv1_128/model.onnx"; }
std::string gap8() { return source_dir() + "/platforms/gap8.yaml"; }

}  // namespace

TEST_CASE("tiler: policy names and unknown policy", "[tiler]") {
  const auto names = policy_names();
  REQUIRE(names.size() == 5);
  CHECK(names[0] == "dory");
  CHECK(names[1] == "dory-2021");
  CHECK(names[2] == "deeploy");
  CHECK(names[3] == "tuned");
  CHECK(names[4] == "untiled");
  for (const auto& n : names)
    if (n != "tuned") CHECK(make_policy(n)->name() == n);
  // `tuned` has no tiler: its tilings are the autotuner's plan (compiler/tune/tuned_plan.h).
  CHECK_THROWS_WITH(make_policy("tuned"), Catch::Matchers::Contains("policy 'tuned' has no tiler of its own"));
  try {
    make_policy("tetris");
    FAIL("expected std::invalid_argument");
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    CHECK(m.find("'tetris'") != std::string::npos);
    CHECK(m.find("dory, dory-2021, deeploy, tuned, untiled") != std::string::npos);
  }
}

TEST_CASE("tiler: MobileNetV1-128 on gap8 under dory", "[tiler][dory][mobilenet]") {
  REQUIRE_DATA(mnv1());
  const Graph g = import_onnx(mnv1());
  const PlatformSpec spec = load_platform(gap8());
  const int64_t l1 = dory_budgets(spec).l1;
  REQUIRE(l1 == 36700);
  const auto tiles = tile_graph(g, spec, "dory");
  REQUIRE(tiles.size() == 29);
  for (size_t i = 0; i < tiles.size(); ++i) {
    const LayerTiling& t = tiles[i];
    const LayerGeom geo = layer_geom(g, t.node);
    INFO("layer " << i << " " << g.nodes[static_cast<size_t>(t.node)].name);
    CHECK(t.policy == "dory");
    CHECK(t.l1.l1_bytes <= l1);
    CHECK(t.l1.db == 1);   // GAP8: blocking DMA, db = 1 (and 1 for whole tiles)
    CHECK(tile_count(geo, t) >= 1);
    if (t.l1.whole || geo.kind != OpKind::Conv) continue;
    // rule (d) recomputed (8-bit, n_c = 2, no bias, db = 1, NC = 8).
    const int64_t n = t.l1.n_out, k = geo.kh * geo.kw;
    const int64_t im2col = geo.depthwise ? 8 * (geo.kh * (t.l1.n_in + geo.pt + geo.pb) + geo.kh)
                                         : 2 * 8 * k * t.l1.n_in;
    const int64_t wt = geo.depthwise ? n * k : t.l1.n_in * n * k;
    const int64_t m = t.l1.n_in * t.l1.h_in * t.l1.w_in + n * t.l1.h_out * t.l1.w_out + wt + n * 8 + im2col + 40;
    CHECK(m == t.l1.l1_bytes);
    // Interior-tile geometry: input rows/cols = (out − 1)·s + k, or the whole (slab) extent.
    const int64_t slab_h_in = t.l3.h_out < geo.h_out ? (t.l3.h_out - 1) * geo.sh + geo.kh : geo.h_in;
    CHECK((t.l1.h_in == (t.l1.h_out - 1) * geo.sh + geo.kh || t.l1.h_in == slab_h_in));
    CHECK((t.l1.w_in == (t.l1.w_out - 1) * geo.sw + geo.kw || t.l1.w_in == geo.w_in));
  }
  // Spot checks (docs/tiling.md table): first conv and the last pointwise layer.
  CHECK(tiles[0].l1.n_out == 32);
  CHECK(tiles[0].l1.h_out == 56);
  CHECK(tiles[0].l1.w_out == 14);
  CHECK(tiles[26].l3.weights_in_l3);
  CHECK(tiles[26].l3.n_out == 2);
  CHECK(tiles[27].l3.input_in_l3);   // previous layer's output was L3-tiled
}

TEST_CASE("tiler: MobileNetV1-128 on gap8/dory is not deployable at 10000 B of L1", "[tiler][dory][mobilenet]") {
  REQUIRE_DATA(mnv1());
  const Graph g = import_onnx(mnv1());
  const PlatformSpec small = load_platform(gap8(), {"l1.size=38836"});
  REQUIRE(dory_budgets(small).l1 == 10000);
  try {
    tile_graph(g, small, "dory");
    FAIL("expected a TilingError");
  } catch (const TilingError& e) {
    const std::string m = e.what();
    // 1x1, Cin 1024: im2col 2·8·1024 = 16384 B alone exceeds 10000 B; the smallest tile adds
    // x 1024 + y 1 + W 1024 + κλ 8 + 40 → 18481 B.
    CHECK(m.find("layer 26 'L26_pw'") != std::string::npos);
    CHECK(m.find("conv 1x1, 1024->1024, 4x4") != std::string::npos);
    CHECK(m.find("needs at least 18481 B") != std::string::npos);
    CHECK(e.level() == "L1");
    CHECK(e.min_budget() == 18481);
  }
  const PlatformSpec big = load_platform(gap8(), {"l1.size=66836"});
  REQUIRE(dory_budgets(big).l1 == 38000);
  CHECK(tile_graph(g, big, "dory").size() == 29);
  // The same budgets given directly, as DORY's --l1_buffer_size: the same tiler error, the same tiles.
  CHECK_THROWS_WITH(tile_graph(g, load_platform(gap8(), {"budgets.dory.l1=10000"}), "dory"),
                    Catch::Contains("layer 26 'L26_pw'") && Catch::Contains("needs at least 18481 B"));
  const std::vector<LayerTiling> given = tile_graph(g, load_platform(gap8(), {"budgets.dory.l1=38000"}), "dory");
  const std::vector<LayerTiling> derived = tile_graph(g, big, "dory");
  REQUIRE(given.size() == derived.size());
  for (size_t i = 0; i < given.size(); ++i) CHECK(given[i].l1.l1_bytes == derived[i].l1.l1_bytes);
}

TEST_CASE("tiler: every policy tiles MobileNetV1-128 on gap9 and siracusa", "[tiler][mobilenet][heavy]") {
  REQUIRE_DATA(mnv1());
  const Graph g = import_onnx(mnv1());
  for (const char* plat : {"gap9.yaml", "siracusa.yaml", "barvinn.yaml"}) {
    const PlatformSpec spec = load_platform(source_dir() + "/platforms/" + plat);
    for (const auto& p : policy_names()) {
      INFO(plat << " " << p);
      const auto tiles = test::tile_for(g, spec, p);
      CHECK(tiles.size() == 29);
      for (const auto& t : tiles) CHECK(t.l1.n_out >= 1);
    }
  }
}

TEST_CASE("tiler: layer_geom of MobileNetV1-128 layers", "[tiler]") {
  REQUIRE_DATA(mnv1());
  const Graph g = import_onnx(mnv1());
  const auto layers = g.layer_nodes();
  const LayerGeom c0 = layer_geom(g, layers[0]);
  CHECK(c0.cin == 3);
  CHECK(c0.cout == 32);
  CHECK(c0.h_in == 128);
  CHECK(c0.h_out == 64);
  CHECK(c0.sh == 2);
  CHECK(c0.n_c == 2);
  CHECK_FALSE(c0.depthwise);
  const LayerGeom dw = layer_geom(g, layers[1]);
  CHECK(dw.depthwise);
  CHECK(dw.weight_bytes() == 32 * 9);
  const LayerGeom pool = layer_geom(g, layers[27]);
  CHECK(pool.kind == OpKind::Pool);
  CHECK(pool.n_c == 0);
  const LayerGeom fc = layer_geom(g, layers[28]);
  CHECK(fc.kind == OpKind::Gemm);
  CHECK(fc.fc);
  CHECK(fc.cin == 1024);
  CHECK(fc.cout == 1000);
  CHECK(fc.by == 32);
  CHECK(fc.weight_bytes() == 1024000);
  CHECK_THROWS_AS(layer_geom(g, layers[28] - 1), TilingError);   // the Flatten node
}

// Every shared reference network, every policy, three platforms: tiles stay within L1 and the
// slab, and each tile's input extent covers its output extent (interior rule or whole extent).
TEST_CASE("tiler: shared networks tile consistently under every policy", "[tiler][networks][heavy]") {
  const std::string root = shared_networks();
  REQUIRE_DATA(root + "/dory");
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root))
    if (e.path().extension() == ".onnx") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  int tiled = 0;
  for (const char* plat : {"gap8.yaml", "gap9.yaml", "siracusa.yaml"}) {
    const PlatformSpec spec = load_platform(source_dir() + "/platforms/" + plat);
    for (const auto& f : files) {
      Graph g;
      try { g = import_onnx(f); } catch (const ImportError&) { continue; }   // ops outside this issue
      for (const auto& p : policy_names()) {
        INFO(plat << " " << p << " " << f);
        std::vector<LayerTiling> tiles;
        REQUIRE_NOTHROW(tiles = test::tile_for(g, spec, p));
        for (const auto& t : tiles) {
          const LayerGeom geo = layer_geom(g, t.node);
          INFO("node " << g.nodes[static_cast<size_t>(t.node)].name);
          CHECK(t.l1.l1_bytes <= spec.l1.size);
          if (p == "dory") CHECK(t.l1.l1_bytes <= dory_budgets(spec).l1);
          const int64_t keh = (geo.kh - 1) * geo.dh + 1, kew = (geo.kw - 1) * geo.dw + 1;
          const int64_t slab_h = t.l3.h_out > 0 ? t.l3.h_out : geo.h_out;
          const int64_t slab_hin = slab_h < geo.h_out ? (slab_h - 1) * geo.sh + keh : geo.h_in;
          CHECK(t.l1.h_out >= 1);
          CHECK(t.l1.h_out <= slab_h);
          CHECK(t.l1.w_out <= geo.w_out);
          CHECK(t.l1.n_out <= geo.cout);
          CHECK(t.l1.h_in <= slab_hin);
          CHECK(t.l1.w_in <= geo.w_in);
          if (geo.kind == OpKind::Gemm || geo.kind == OpKind::Add) {
            CHECK(t.l1.h_in == t.l1.h_out);
          } else {
            CHECK(t.l1.h_in >= std::min(slab_hin, (t.l1.h_out - 1) * geo.sh + keh));
            CHECK(t.l1.w_in >= std::min(geo.w_in, (t.l1.w_out - 1) * geo.sw + kew));
          }
        }
        ++tiled;
      }
    }
  }
  CHECK(tiled > 30);
}
