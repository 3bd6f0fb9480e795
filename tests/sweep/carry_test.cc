// [sweep][carry] Tuned plans carried to points with more memory (sim/sweep/carry.h): which points
// are just below which, and the pass itself with a stand-in evaluation whose cycles depend on the
// plan only (as a plan's simulated cycles do not depend on memory it leaves unused).
#include <catch2/catch.hpp>

#include "compiler/passes/assign_engine.h"
#include "compiler/schedule/json.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "platforms/loader/loader.h"
#include "sim/sweep/carry.h"
#include "support/paths.h"
#include "sweep/sweep_support.h"

using namespace edgesim::sweep;

namespace {

SweepSpec grid(const std::vector<std::string>& policies, std::vector<Axis> axes) {
  SweepSpec s;
  s.platform = "gap8.yaml";
  s.policies = policies;
  s.axes = std::move(axes);
  s.networks = {"net.onnx"};
  return s;
}

size_t index_of(const SweepSpec& s, const std::string& policy, const std::vector<std::string>& values) {
  for (size_t i = 0; i < point_count(s); ++i) {
    const PointRef p = point_at(s, i);
    if (p.policy == policy && p.values == values) return i;
  }
  FAIL("no point " << policy);
  return 0;
}

}  // namespace

TEST_CASE("carry: the points just below a tuned point along each memory axis", "[sweep][carry]") {
  // l1.size given out of order; cluster.n_cores is no memory axis; dory points carry nothing.
  const SweepSpec s = grid({"dory", "tuned"}, {parse_axis("l1.size=64KiB,48KiB,128KiB"), parse_axis("l2.size=256KiB,512KiB"),
                                               parse_axis("cluster.n_cores=4,8")});
  const auto below = tuned_points_below(s);
  REQUIRE(below.size() == point_count(s));
  for (size_t i = 0; i < below.size(); ++i)
    if (point_at(s, i).policy == "dory") CHECK(below[i].empty());
  using V = std::vector<std::string>;
  const auto at = [&](const V& v) { return index_of(s, "tuned", v); };
  CHECK(below[at({"48KiB", "256KiB", "8"})].empty());
  CHECK(below[at({"64KiB", "256KiB", "8"})] == std::vector<size_t>{at({"48KiB", "256KiB", "8"})});
  CHECK(below[at({"128KiB", "512KiB", "4"})] ==
        std::vector<size_t>{at({"64KiB", "512KiB", "4"}), at({"128KiB", "256KiB", "4"})});

  // A linked axis, or one with a value that is no size, is not a memory axis.
  SweepSpec linked = grid({"tuned"}, parse_link("l1.size=48KiB,64KiB:budgets.dory.l1=30000,40000", 0));
  for (const auto& b : tuned_points_below(linked)) CHECK(b.empty());
  SweepSpec odd = grid({"tuned"}, {parse_axis("l2.size=256KiB,bogus")});
  for (const auto& b : tuned_points_below(odd)) CHECK(b.empty());
}

TEST_CASE("carry: each tuned point takes the fastest plan from below, ties keep its own", "[sweep][carry]") {
  // A 3 x 2 grid; plan "p<k>" takes 100 * k cycles wherever it runs, and plan p9 does not fit the
  // 48 KiB row (infeasible there).
  const SweepSpec s = grid({"tuned"}, {parse_axis("l1.size=48KiB,64KiB,96KiB"), parse_axis("l2.size=256KiB,512KiB")});
  std::vector<PointRecord> rs(point_count(s));
  auto own = [&](const std::vector<std::string>& v, const std::string& status, int k) {
    PointRecord& r = rs[index_of(s, "tuned", v)];
    r.policy = "tuned";
    r.values = v;
    r.status = status;
    if (status == "ok") r.total_cycles = 100 * k, r.plan = {{"id", k}};
  };
  own({"48KiB", "256KiB"}, "ok", 5);
  own({"48KiB", "512KiB"}, "ok", 6);    // slower with more L2: takes p5
  own({"64KiB", "256KiB"}, "ok", 3);
  own({"64KiB", "512KiB"}, "ok", 4);    // takes p3 (from 64/256), not p5
  own({"96KiB", "256KiB"}, "infeasible", 0);   // the tuner failed: takes p3
  own({"96KiB", "512KiB"}, "ok", 3);    // p3 too, its own: a tie, nothing simulated for the same plan
  size_t calls = 0;
  const EvaluatePlan evaluate = [&](size_t index, const nlohmann::json& plan) {
    ++calls;
    PointRecord r = rs.at(index);
    r.carried_from.clear();
    const int k = plan.at("id").get<int>();
    r.status = "ok";
    r.total_cycles = 100 * k;
    r.plan = plan;
    return r;
  };
  const CarryTotals t = carry_tuned_plans(s, rs, evaluate);
  auto at = [&](const std::vector<std::string>& v) -> const PointRecord& { return rs[index_of(s, "tuned", v)]; };
  CHECK(at({"48KiB", "512KiB"}).total_cycles == 500);
  CHECK(at({"48KiB", "512KiB"}).carried_from == "l1.size=48KiB l2.size=256KiB");
  CHECK(at({"64KiB", "512KiB"}).total_cycles == 300);
  CHECK(at({"64KiB", "512KiB"}).carried_from == "l1.size=64KiB l2.size=256KiB");
  CHECK(at({"64KiB", "256KiB"}).carried_from.empty());   // p5 from 48 KiB is slower
  CHECK(at({"96KiB", "256KiB"}).status == "ok");
  CHECK(at({"96KiB", "256KiB"}).total_cycles == 300);
  CHECK(at({"96KiB", "256KiB"}).carried_from == "l1.size=64KiB l2.size=256KiB");
  CHECK(at({"96KiB", "512KiB"}).carried_from.empty());
  // Monotone along both axes.
  for (const char* l2 : {"256KiB", "512KiB"}) {
    CHECK(at({"64KiB", l2}).total_cycles <= at({"48KiB", l2}).total_cycles);
    CHECK(at({"96KiB", l2}).total_cycles <= at({"64KiB", l2}).total_cycles);
  }
  for (const char* l1 : {"48KiB", "64KiB", "96KiB"}) CHECK(at({l1, "512KiB"}).total_cycles <= at({l1, "256KiB"}).total_cycles);
  CHECK(t.carried == 3);
  CHECK(t.simulated == calls);
  // Simulated: at 48/512 p5 (faster); at 64/256 p5 (slower); at 64/512 p5 from 48/512 (slower)
  // and p3 from 64/256 (faster); at 96/256 p3; at 96/512 nothing (both points below run its p3).
  CHECK(calls == 5);

  // The pass again changes nothing (what a resumed sweep does with the records it wrote).
  const std::vector<PointRecord> before = rs;
  carry_tuned_plans(s, rs, evaluate);
  for (size_t i = 0; i < rs.size(); ++i) {
    CHECK(rs[i].total_cycles == before[i].total_cycles);
    CHECK(rs[i].carried_from == before[i].carried_from);
  }

  // A chain: a plan carried twice names the point whose tuning found it.
  const SweepSpec line = grid({"tuned"}, {parse_axis("l2.size=256KiB,384KiB,512KiB")});
  std::vector<PointRecord> chain(3);
  for (int k = 0; k < 3; ++k) {
    chain[k].policy = "tuned", chain[k].status = "ok", chain[k].values = {line.axes[0].values[k]};
    chain[k].total_cycles = 100 * (k + 1), chain[k].plan = {{"id", k + 1}};
  }
  chain[2].plan = nlohmann::json();   // read back from a CSV: carries nothing, is carried to
  const EvaluatePlan same = [&](size_t index, const nlohmann::json& plan) {
    PointRecord r = chain.at(index);
    r.total_cycles = 100 * plan.at("id").get<int>();
    r.plan = plan;
    r.carried_from.clear();
    return r;
  };
  carry_tuned_plans(line, chain, same);
  CHECK(chain[1].total_cycles == 100);
  CHECK(chain[2].total_cycles == 100);
  CHECK(chain[2].carried_from == "l2.size=256KiB");
}

TEST_CASE("carry: a point evaluated with a given plan, and a plan of another network is an error, not a crash",
          "[sweep][carry]") {
  REQUIRE_DATA(edgesim::test::tiny_net());
  SweepSpec s;
  s.platform = edgesim::test::gap8();
  s.policies = {"dory"};
  s.axes = {parse_axis("l2.size=512KiB")};
  s.networks = {edgesim::test::tiny_net()};
  const std::vector<SweepNetwork> nets = import_networks(s);
  const PointRef p = point_at(s, 0);
  const PointRecord own = evaluate_point(s, nets[0], p);
  REQUIRE(own.status == "ok");
  // DORY's tilings as a plan (identity order, the graph's engines): the same cycles.
  edgesim::Graph g = nets[0].graph;
  const edgesim::PlatformSpec spec = edgesim::load_platform(s.platform, {"l2.size=512KiB"});
  edgesim::assign_engines(g, spec);
  nlohmann::json plan = {{"order", nlohmann::json::array()}, {"engines", nlohmann::json::array()}, {"library", ""},
                         {"tilings", nlohmann::json::array()}};
  for (size_t k = 0; k < g.nodes.size(); ++k) {
    plan["order"].push_back(k);
    plan["engines"].push_back({g.nodes[k].engine, g.nodes[k].wmem_weights});
  }
  for (const edgesim::LayerTiling& t : edgesim::tile_graph(g, spec, "dory")) plan["tilings"].push_back(edgesim::tiling_to_json(t));
  const PointRecord with = evaluate_plan(s, nets[0], p, plan);
  REQUIRE(with.status == "ok");
  CHECK(with.total_cycles == own.total_cycles);
  CHECK(with.plan == plan);

  nlohmann::json twice = plan;
  twice["order"][0] = 1;   // not a permutation
  CHECK(evaluate_plan(s, nets[0], p, twice).status == "error");
  CHECK_THAT(evaluate_plan(s, nets[0], p, twice).reason, Catch::Contains("not one of this network's"));
  nlohmann::json far = plan;
  far["tilings"][0]["node"] = 999;
  CHECK_THAT(evaluate_plan(s, nets[0], p, far).reason, Catch::Contains("node 999"));
  nlohmann::json broken = plan;
  broken.erase("tilings");
  CHECK(evaluate_plan(s, nets[0], p, broken).status == "error");
  CHECK(evaluate_plan(s, nets[0], p, nlohmann::json::array()).status == "error");
}
