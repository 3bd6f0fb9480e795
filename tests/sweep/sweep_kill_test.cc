// [sweep] sweeps that survive their workers: the worker evaluating one point is SIGKILLed (each
// time it takes that point, so the retry on a fresh worker dies too), or runs past the point
// timeout and is killed by the parent. The sweep completes, records that point as an error with
// the reason, and its CSV and JSON hold, for every other point, exactly the bytes of a clean run.
// The same isolation per point is what each MPI rank uses (IsolatedEvaluate).
#include <chrono>
#include <csignal>
#include <sstream>
#include <thread>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "sim/sweep/dispatch.h"
#include "sim/sweep/evaluate.h"
#include "sim/sweep/runner.h"
#include "support/temp_dir.h"
#include "sweep/sweep_support.h"

using namespace edgesim::sweep;
using edgesim::test::TempDir;
using nlohmann::json;

namespace {

SweepSpec spec() {
  SweepSpec s;
  s.platform = edgesim::test::gap8();
  s.policies = {"dory"};
  s.axes = {parse_axis("l1.size=64KiB,128KiB"), parse_axis("l2.size=256KiB,512KiB")};
  s.networks = {edgesim::test::tiny_net(), edgesim::test::resnet8_net()};
  return s;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> r;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) r.push_back(l);
  return r;
}

// Runs the sweep on two worker processes with `evaluate`, into dir/r.csv and dir/r.json.
int sweep_with(const SweepSpec& s, const Evaluate& evaluate, const TempDir& dir, double timeout_s = 0) {
  const OnCrash on_crash = [&s](size_t index, const std::string& why) { return error_message(s, index, why); };
  const SweepOutputs o{dir.file("r.csv"), dir.file("r.json"), "", true, {}};
  std::ostringstream quiet;
  return run_sweep(s, o, [&](const std::vector<size_t>& pending, const Sink& sink) {
    dispatch_workers(2, pending, evaluate, sink, on_crash, timeout_s);
  }, quiet, false);
}

// The failed point's CSV line and JSON record hold `why`; every other line and record of `got`
// is byte-identical to `clean`.
void same_but_point(const TempDir& clean, const TempDir& got, size_t k, const std::string& why) {
  const std::vector<std::string> a = lines(edgesim::test::slurp(clean.file("r.csv")));
  const std::vector<std::string> b = lines(edgesim::test::slurp(got.file("r.csv")));
  REQUIRE(a.size() == b.size());
  size_t header = 0;
  while (header < a.size() && a[header].rfind("#", 0) == 0) ++header;   // provenance lines, then the column names
  size_t differ = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    if (i == header + 1 + k) {
      CHECK(a[i] != b[i]);
      CHECK_THAT(b[i], Catch::Contains(",error,") && Catch::Contains(why));
      ++differ;
    } else {
      CHECK(a[i] == b[i]);
    }
  }
  CHECK(differ == 1);
  const json ja = json::parse(edgesim::test::slurp(clean.file("r.json")));
  const json jb = json::parse(edgesim::test::slurp(got.file("r.json")));
  REQUIRE(ja["results"].size() == jb["results"].size());
  for (size_t i = 0; i < ja["results"].size(); ++i) {
    if (i == k) {
      CHECK(jb["results"][i]["status"] == "error");
      CHECK_THAT(jb["results"][i]["reason"].get<std::string>(), Catch::Contains(why));
    } else {
      CHECK(ja["results"][i].dump() == jb["results"][i].dump());
    }
  }
  json ra = ja, rb = jb;   // everything outside the results too (provenance, point count)
  ra.erase("results"), rb.erase("results");
  CHECK(ra.dump() == rb.dump());
}

}  // namespace

TEST_CASE("sweep survives: a point whose worker is SIGKILLed is recorded failed, the rest as in a clean run", "[sweep][workers]") {
  REQUIRE_DATA(edgesim::test::tiny_net());
  const SweepSpec s = spec();
  const std::vector<SweepNetwork> nets = import_networks(s);
  const Evaluate evaluate = make_evaluate(s, nets, {});
  REQUIRE(point_count(s) == 8);
  TempDir clean, killed;
  REQUIRE(sweep_with(s, evaluate, clean) == 0);
  const size_t k = 5;   // resnet8 at l1.size=64KiB, l2.size=512KiB
  const Evaluate dies = [&](size_t i) {
    if (i == k) ::raise(SIGKILL);   // the worker dies mid-point, every time it takes it
    return evaluate(i);
  };
  CHECK(sweep_with(s, dies, killed) == 0);
  same_but_point(clean, killed, k, "worker process killed by signal 9 (tried 2 times)");
}

TEST_CASE("sweep survives: a point past --point-timeout has its worker killed and is recorded failed", "[sweep][workers]") {
  REQUIRE_DATA(edgesim::test::tiny_net());
  const SweepSpec s = spec();
  const std::vector<SweepNetwork> nets = import_networks(s);
  const Evaluate evaluate = make_evaluate(s, nets, {});
  TempDir clean, slow;
  REQUIRE(sweep_with(s, evaluate, clean, 60) == 0);
  const size_t k = 2;
  const Evaluate hangs = [&](size_t i) {
    if (i == k) std::this_thread::sleep_for(std::chrono::seconds(600));
    return evaluate(i);
  };
  CHECK(sweep_with(s, hangs, slow, 1) == 0);
  same_but_point(clean, slow, k, "timed out after 1 s (worker process killed)");
}

TEST_CASE("sweep survives: an MPI rank's isolated evaluation outlives a killed point process", "[sweep][workers]") {
  REQUIRE_DATA(edgesim::test::tiny_net());
  const SweepSpec s = spec();
  const std::vector<SweepNetwork> nets = import_networks(s);
  const Evaluate evaluate = make_evaluate(s, nets, {});
  const OnCrash on_crash = [&s](size_t index, const std::string& why) { return error_message(s, index, why); };
  IsolatedEvaluate isolated([&](size_t i) {
    if (i == 1) ::raise(SIGKILL);
    return evaluate(i);
  }, on_crash, 0);
  CHECK(isolated(0) == evaluate(0));
  CHECK(isolated(1) == error_message(s, 1, "worker process killed by signal 9 (tried 2 times)"));
  CHECK(isolated(3) == evaluate(3));   // a fresh child took over
}
