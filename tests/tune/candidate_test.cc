// Candidates of the autotuner (compiler/tune/candidate.h): l1_footprint equals the L1 high water
// of the schedule the builder makes for the same tile (random single-layer graphs × random
// tiles × both bufferings), and enumerate_candidates is non-empty, fits the budget, is
// deterministic, ordered largest tile first, respects `max`, and every candidate builds.
#include <set>

#include <catch2/catch.hpp>

#include "compiler/schedule/build.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "compiler/tune/candidate.h"
#include "platforms/loader/loader.h"
#include "support/paths.h"
#include "tune/tune_graphs.h"

using namespace edgesim;

TEST_CASE("l1_footprint equals the schedule's L1 high water", "[tune]") {
  const PlatformSpec p = load_platform(test::source_dir() + "/platforms/siracusa.yaml");
  test::TuneRng r(11);
  int compared = 0, doubled = 0;
  for (int i = 0; i < 350; ++i) {
    const int kind = i % 7;
    const Graph g = test::tune_layer_graph(r, kind, 1 + i % 2);
    const LayerGeom geom = layer_geom(g, 0);
    const int db = 1 + (i / 7) % 2;
    LayerTiling t = test::random_tiling(r, geom, db);
    if (i % 23 == 0) t.l1.whole = true;
    ScheduleOptions o;
    o.buffering = "per-layer";
    Schedule s;
    try {
      s = build_schedule(g, p, {t}, o);
    } catch (const std::runtime_error&) {
      continue;   // does not fit this L1
    }
    INFO("layer " << i << " kind " << kind << " tile " << t.l1.n_out << "x" << t.l1.h_out << "x" << t.l1.w_out
                  << " db " << db << " whole " << t.l1.whole);
    CHECK(l1_footprint(geom, t.l1, db) == s.high_water[static_cast<size_t>(Level::L1)]);
    ++compared;
    doubled += s.steps[0].buffering == 2 ? 1 : 0;
  }
  CHECK(compared > 250);
  CHECK(doubled > 50);
}

TEST_CASE("enumerated candidates fit, are ordered and deterministic, and build", "[tune]") {
  for (const char* plat : {"gap8", "siracusa"}) {
    const PlatformSpec p = load_platform(test::source_dir() + "/platforms/" + plat + ".yaml");
    const int64_t budget = policy_budgets(p, "dory").l1;
    test::TuneRng r(5);
    for (int i = 0; i < 21; ++i) {
      const Graph g = test::tune_layer_graph(r, i % 7, 3);
      const LayerTiling base = tile_graph(g, p, "dory").at(0);
      const std::vector<Candidate> c = enumerate_candidates(g, 0, base, p, budget);
      INFO(plat << " layer " << i << " " << g.nodes[0].name);
      REQUIRE(!c.empty());
      const std::vector<Candidate> again = enumerate_candidates(g, 0, base, p, budget);
      REQUIRE(again.size() == c.size());
      std::set<std::tuple<int64_t, int64_t, int64_t, int>> seen;
      for (size_t k = 0; k < c.size(); ++k) {
        const L1Tiling& a = c[k].tiling.l1;
        CHECK(a.l1_bytes <= budget);
        CHECK(a.l1_bytes == l1_footprint(layer_geom(g, 0), a, a.db));
        CHECK(c[k].origin == "enum");
        CHECK(c[k].tiling.policy == "tuned");
        CHECK(a.n_in == (g.nodes[0].kind() == OpKind::Conv && layer_geom(g, 0).groups == 1 ? layer_geom(g, 0).cin : a.n_in));
        CHECK(seen.insert({a.n_out, a.h_out, a.w_out, a.db}).second);
        CHECK(again[k].tiling.l1.n_out == a.n_out);
        CHECK(again[k].tiling.l1.h_out == a.h_out);
        CHECK(again[k].tiling.l1.db == a.db);
        if (k > 0) {
          const L1Tiling& b = c[k - 1].tiling.l1;
          CHECK(b.n_out * b.h_out * b.w_out >= a.n_out * a.h_out * a.w_out);
        }
      }
      CHECK(enumerate_candidates(g, 0, base, p, budget, 3).size() == std::min<size_t>(3, c.size()));
      // Every candidate (a sample of up to 12, spread over the list) builds within the budget.
      const size_t step = std::max<size_t>(1, c.size() / 12);
      for (size_t k = 0; k < c.size(); k += step) {
        ScheduleOptions o;
        o.buffering = "per-layer";
        LayerTiling t = c[k].tiling;
        t.node = 0;
        Schedule s;
        CHECK_NOTHROW(s = build_schedule(g, p, {t}, o));
        CHECK(s.high_water[static_cast<size_t>(Level::L1)] == c[k].tiling.l1.l1_bytes);
      }
    }
  }
}
