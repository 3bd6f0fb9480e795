// [sweep] evaluation of single points (ok, infeasible with reasons) and the runner's resume:
// rows already in the CSV / JSON / journal are reused, never recomputed, and a resumed sweep
// writes the same bytes as an uninterrupted one.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "sim/sweep/evaluate.h"
#include "sim/sweep/runner.h"
#include "support/temp_dir.h"
#include "sweep/sweep_support.h"

using namespace edgesim::sweep;
using edgesim::test::TempDir;

namespace {

SweepSpec tiny_spec() {
  SweepSpec s;
  s.platform = edgesim::test::gap8();
  s.policies = {"dory"};
  s.axes = {parse_axis("l1.size=29500,64KiB,bogus"), parse_axis("l2.size=256KiB,512KiB")};
  s.networks = {edgesim::test::tiny_net()};
  return s;
}

// A dispatcher that evaluates in process and counts, optionally stopping after `limit` points
// (as an interrupted sweep would).
Dispatch counting(const SweepSpec& s, const std::vector<SweepNetwork>& nets, size_t& count, size_t limit = SIZE_MAX) {
  return [&s, &nets, &count, limit](const std::vector<size_t>& pending, const Sink& sink) {
    const Evaluate ev = make_evaluate(s, nets, {});
    for (size_t i : pending) {
      if (count >= limit) return;
      ++count;
      sink(i, ev(i));
    }
  };
}

}  // namespace

TEST_CASE("sweep points: ok, infeasible with a reason, invalid value", "[sweep]") {
  REQUIRE_DATA(edgesim::test::tiny_net());
  const SweepSpec s = tiny_spec();
  const std::vector<SweepNetwork> nets = import_networks(s);
  const PointRecord ok = evaluate_point(s, nets[0], PointRef{0, "dory", {}, {"64KiB", "512KiB"}});
  CHECK(ok.status == "ok");
  CHECK(ok.reason.empty());
  CHECK(ok.total_cycles > 0);
  CHECK(ok.macs > 0);
  REQUIRE(!ok.layers.empty());
  int64_t sum = 0;
  for (const LayerRecord& l : ok.layers) {
    sum += l.cycles;
    CHECK(l.compute + l.dma_wait + l.overhead == l.cycles);
  }
  CHECK(sum == ok.total_cycles);

  // 29,500 B leave DORY 664 B of L1 on GAP8: no tiling, the reason names the layer and the size.
  const PointRecord small = evaluate_point(s, nets[0], PointRef{0, "dory", {}, {"29500", "512KiB"}});
  CHECK(small.status == "infeasible");
  CHECK_THAT(small.reason, Catch::Contains("layer") && Catch::Contains("L1"));
  CHECK(small.reason.find('\n') == std::string::npos);

  const PointRecord bogus = evaluate_point(s, nets[0], PointRef{0, "dory", {}, {"bogus", "512KiB"}});
  CHECK(bogus.status == "infeasible");
  CHECK_THAT(bogus.reason, Catch::Contains("l1.size=bogus"));
}

TEST_CASE("sweep runner: resume reuses rows and ends with the same bytes", "[sweep]") {
  REQUIRE_DATA(edgesim::test::tiny_net());
  const SweepSpec s = tiny_spec();
  const std::vector<SweepNetwork> nets = import_networks(s);
  const size_t total = point_count(s);
  REQUIRE(total == 6);
  TempDir ref, dir;
  std::ostringstream quiet;

  size_t n_ref = 0;
  const SweepOutputs ro{ref.file("r.csv"), ref.file("r.json"), "", false, {}};
  REQUIRE(run_sweep(s, ro, counting(s, nets, n_ref), quiet, false) == 0);
  CHECK(n_ref == total);
  CHECK_FALSE(std::filesystem::exists(journal_path(ro)));   // removed once complete

  // Interrupted after 2 points: no result files yet, the journal holds 2 lines.
  const SweepOutputs o{dir.file("r.csv"), dir.file("r.json"), "", false, {}};
  size_t n1 = 0;
  CHECK(run_sweep(s, o, counting(s, nets, n1, 2), quiet, false) == 130);
  CHECK_FALSE(std::filesystem::exists(o.csv));
  CHECK(edgesim::test::count_lines(journal_path(o)) == 2);
  // A torn line at the end (killed while writing) is ignored.
  { std::ofstream(journal_path(o), std::ios::app) << "{\"network\":\"ti"; }
  size_t n2 = 0;
  REQUIRE(run_sweep(s, o, counting(s, nets, n2), quiet, false) == 0);
  CHECK(n2 == total - 2);
  CHECK(edgesim::test::slurp(o.csv) == edgesim::test::slurp(ro.csv));
  CHECK(edgesim::test::slurp(o.json) == edgesim::test::slurp(ro.json));

  // Complete results: nothing is evaluated again.
  size_t n3 = 0;
  SweepTotals t;
  REQUIRE(run_sweep(s, o, counting(s, nets, n3), quiet, false, &t) == 0);
  CHECK(n3 == 0);
  CHECK(t.reused == total);
  CHECK(edgesim::test::slurp(o.json) == edgesim::test::slurp(ro.json));

  // From the CSV alone (no JSON wanted): reused too; --fresh evaluates everything.
  const SweepOutputs csv_only{o.csv, "", "", false, {}};
  size_t n4 = 0;
  REQUIRE(run_sweep(s, csv_only, counting(s, nets, n4), quiet, false) == 0);
  CHECK(n4 == 0);
  CHECK(edgesim::test::slurp(o.csv) == edgesim::test::slurp(ro.csv));
  size_t n5 = 0;
  REQUIRE(run_sweep(s, SweepOutputs{o.csv, "", "", true, {}}, counting(s, nets, n5), quiet, false) == 0);
  CHECK(n5 == total);

  // Another policy is another sweep: the rows of this one are not reused.
  SweepSpec other = s;
  other.policies = {"deeploy"};
  size_t n6 = 0;
  REQUIRE(run_sweep(other, csv_only, counting(other, nets, n6), quiet, false) == 0);
  CHECK(n6 == total);
}
