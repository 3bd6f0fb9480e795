// [sweep] `edgesim sweep` as a program: CSV / JSON content on small networks, -j 2 equal to -j 1
// byte for byte, the HTML page, MPI (mpirun -n 2) equal to the local run, and Ctrl-C + restart
// ending with the bytes of an uninterrupted sweep.
#include <filesystem>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "support/run.h"
#include "support/temp_dir.h"
#include "sweep/sweep_support.h"

using namespace edgesim::test;

namespace {

// 2 networks x 3 x 2 points on GAP8; l1.size=29500 is infeasible for both networks.
std::string grid_args() {
  return fmt::format("sweep -p '{}' --set l1.size=29500,64KiB,128KiB --set l2.size=384KiB,512KiB '{}' '{}'", gap8(),
                     tiny_net(), resnet8_net());
}

}  // namespace

TEST_CASE("edgesim sweep: CSV and JSON content", "[sweep][cli]") {
  REQUIRE_DATA(tiny_net());
  REQUIRE_DATA(resnet8_net());
  TempDir d;
  const auto r = run_edgesim(grid_args() + fmt::format(" -o '{}' --json '{}'", d.file("r.csv"), d.file("r.json")));
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("sweep: 12 points, 8 ok, 4 infeasible"));
  // Reasons are whole below the table, numbered; the table names them by number (a long reason
  // was cut in the middle to fit 100 columns).
  CHECK_THAT(r.output, Catch::Contains("  [1]\n") && Catch::Contains("\n[1] layer ") && Catch::Contains("\n[2] layer "));
  const std::string reasons = unwrapped(r.output);   // each reason wrapped within 100 columns
  for (size_t a = 0, b; (b = reasons.find('\n', a)) != std::string::npos; a = b + 1)
    if (reasons.compare(a, 1, "[") == 0) CHECK_THAT(reasons.substr(a, b - a), Catch::Contains("l1.size >= ") && !Catch::Contains("..."));
  const std::string csv = slurp(d.file("r.csv"));
  std::vector<std::string> lines, comments;
  for (size_t a = 0, b; (b = csv.find('\n', a)) != std::string::npos; a = b + 1)
    (csv[a] == '#' ? comments : lines).push_back(csv.substr(a, b - a));
  REQUIRE(lines.size() == 13);
  // The provenance heads the file as comment lines: the command (without where results go), the
  // version and commit, the platform file and every network with content hashes.
  REQUIRE(comments.size() >= 5);
  CHECK_THAT(comments[0], Catch::StartsWith("# command: edgesim sweep -p"));
  CHECK(comments[0].find("r.csv") == std::string::npos);
  CHECK_THAT(comments[1], Catch::StartsWith("# edgesim: "));
  CHECK_THAT(csv, Catch::Contains("# platform: ") && Catch::Contains("fnv1a:"));
  CHECK(lines[0] ==
        "network,platform,policy,engines,l1.size,l2.size,status,total_cycles,time_ms,macs,mac_per_cycle,energy_uj,reason,carried_from");
  // Networks outer, then l1.size, then l2.size.
  CHECK_THAT(lines[1], Catch::StartsWith("tiny," + gap8() + ",dory,,29500,384KiB,infeasible,,,,,,"));
  CHECK_THAT(lines[3], Catch::StartsWith("tiny," + gap8() + ",dory,,64KiB,384KiB,ok,"));
  CHECK_THAT(lines[7], Catch::StartsWith("resnet8," + gap8() + ",dory,,29500,384KiB,infeasible"));
  CHECK_THAT(lines[12], Catch::StartsWith("resnet8," + gap8() + ",dory,,128KiB,512KiB,ok,"));
  CHECK_THAT(lines[1], Catch::Contains("l1.size >= "));   // the reason says which size would work

  const auto j = nlohmann::json::parse(slurp(d.file("r.json")));
  REQUIRE(j["results"].size() == 12);
  CHECK(j["axes"][0]["key"] == "l1.size");
  CHECK(j["provenance"]["command_line"] == comments[0].substr(std::string("# command: ").size()));
  const auto& ok = j["results"][3];
  CHECK(ok["status"] == "ok");
  CHECK(ok["point"]["l1.size"] == "64KiB");
  int64_t sum = 0;
  for (const auto& l : ok["layers"]) {
    sum += l["cycles"].get<int64_t>();
    CHECK(l["compute"].get<int64_t>() + l["dma_wait"].get<int64_t>() + l["overhead"].get<int64_t>() == l["cycles"]);
    CHECK(!l["name"].get<std::string>().empty());
  }
  CHECK(sum == ok["total_cycles"].get<int64_t>());
  CHECK(j["results"][0]["total_cycles"].is_null());
  CHECK(!j["results"][0]["reason"].get<std::string>().empty());
}

TEST_CASE("edgesim sweep: -j 2 writes the bytes of -j 1, errors", "[sweep][cli]") {
  REQUIRE_DATA(tiny_net());
  REQUIRE_DATA(resnet8_net());
  TempDir a, b;
  const auto r1 = run_edgesim(grid_args() + fmt::format(" -o '{}' --json '{}'", a.file("r.csv"), a.file("r.json")));
  const auto r2 = run_edgesim(grid_args() + fmt::format(" -j 2 -o '{}' --json '{}'", b.file("r.csv"), b.file("r.json")));
  REQUIRE(r1.status == 0);
  REQUIRE(r2.status == 0);
  CHECK(slurp(a.file("r.csv")) == slurp(b.file("r.csv")));
  CHECK(slurp(a.file("r.json")) == slurp(b.file("r.json")));
  // Redirected output is deterministic too (only the file names differ).
  CHECK(r1.output.substr(0, r1.output.find("csv written")) == r2.output.substr(0, r2.output.find("csv written")));

  const auto bad_key = run_edgesim(fmt::format("sweep -p '{}' --set l1.sise=1,2 '{}'", gap8(), tiny_net()));
  CHECK(bad_key.status == 2);
  CHECK_THAT(bad_key.output, Catch::Contains("edgesim: error: --set l1.sise: unknown platform key"));
  const auto bad_policy = run_edgesim(fmt::format("sweep -p '{}' --policy nope '{}'", gap8(), tiny_net()));
  CHECK(bad_policy.status == 2);
  const auto no_net = run_edgesim(fmt::format("sweep -p '{}' --set l1.size=1,2", gap8()));
  CHECK(no_net.status == 2);
  CHECK_THAT(no_net.output, Catch::Contains("no network"));
}

TEST_CASE("edgesim sweep --report: a chart per network, infeasible cells marked", "[sweep][cli]") {
  REQUIRE_DATA(tiny_net());
  REQUIRE_DATA(resnet8_net());
  TempDir d;
  const auto r = run_edgesim(grid_args() + fmt::format(" --report '{}'", d.file("s.html")));
  REQUIRE(r.status == 0);
  const std::string html = slurp(d.file("s.html"));
  size_t svgs = 0;
  for (size_t p = 0; (p = html.find("<svg", p)) != std::string::npos; ++p) ++svgs;
  CHECK(svgs == 4);   // one heatmap and (gap8 has an energy model) one Pareto front per network
  CHECK_THAT(html, Catch::Contains("aria-label=\"cycles and energy of the points\""));
  CHECK_THAT(html, Catch::Contains("aria-label=\"total cycles over l1.size and l2.size\""));
  CHECK_THAT(html, Catch::Contains("class=\"pt infeasible\""));
  CHECK_THAT(html, Catch::Contains("infeasible: layer"));   // the reason in the tooltip
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("http://") == html.find("http://www.w3.org/2000/svg"));   // no external resource

  // One varied key: a line plot.
  const auto r1 = run_edgesim(fmt::format("sweep -p '{}' --set l1.size=29500,64KiB,128KiB '{}' --report '{}'", gap8(),
                                          tiny_net(), d.file("l.html")));
  REQUIRE(r1.status == 0);
  const std::string line = slurp(d.file("l.html"));
  CHECK_THAT(line, Catch::Contains("aria-label=\"total cycles over l1.size\""));
  CHECK_THAT(line, Catch::Contains("class=\"line\""));
  CHECK_THAT(line, Catch::Contains("class=\"pt infeasible\""));
}

TEST_CASE("edgesim sweep: Ctrl-C and restart end with the bytes of an uninterrupted sweep", "[sweep][cli]") {
  // MobileNetV1-128: ~50 ms per point, so the interrupt lands while the sweep runs.
  REQUIRE_DATA(mobilenet_net());
  TempDir ref, d;
  const std::string base = fmt::format("sweep -p '{}' --set l1.size=64KiB,96KiB,128KiB --set l2.size=384KiB,448KiB,512KiB '{}'",
                                       gap8(), mobilenet_net());
  const auto full = run_edgesim(base + fmt::format(" -o '{}' --json '{}'", ref.file("r.csv"), ref.file("r.json")));
  REQUIRE(full.status == 0);

  const std::string csv = d.file("r.csv"), json = d.file("r.json");
  const int code = run_and_interrupt({"sweep", "-p", gap8(), "--set", "l1.size=64KiB,96KiB,128KiB", "--set",
                                      "l2.size=384KiB,448KiB,512KiB", mobilenet_net(), "-o", csv, "--json", json},
                                     csv + ".journal", 1);
  CHECK(code == 130);   // interrupted, not finished
  CHECK_FALSE(std::filesystem::exists(csv));
  const size_t kept = count_lines(csv + ".journal");
  CHECK(kept >= 1);
  CHECK(kept < 9);
  const auto again = run_edgesim(base + fmt::format(" -o '{}' --json '{}'", csv, json));
  REQUIRE(again.status == 0);
  CHECK(slurp(csv) == slurp(ref.file("r.csv")));
  CHECK(slurp(json) == slurp(ref.file("r.json")));
  CHECK_FALSE(std::filesystem::exists(csv + ".journal"));

  // The same with worker processes (-j 2): the parent stops its workers and keeps what it has.
  TempDir e;
  const int code2 = run_and_interrupt({"sweep", "-j", "2", "-p", gap8(), "--set", "l1.size=64KiB,96KiB,128KiB", "--set",
                                       "l2.size=384KiB,448KiB,512KiB", mobilenet_net(), "-o", e.file("r.csv")},
                                      e.file("r.csv") + ".journal", 1);
  CHECK(code2 == 130);
  REQUIRE(run_edgesim(base + fmt::format(" -j 2 -o '{}'", e.file("r.csv"))).status == 0);
  CHECK(slurp(e.file("r.csv")) == slurp(ref.file("r.csv")));
}

TEST_CASE("edgesim sweep --mpi without the MPI plugin is one error naming where it looked", "[sweep][cli]") {
  REQUIRE_DATA(tiny_net());
  // A copy of the executable in a folder without libedgesim_mpi.so (a symlink would resolve to
  // the build tree, where the plugin is).
  TempDir d;
  const std::string exe = d.file("edgesim");
  std::filesystem::copy_file(edgesim_bin(), exe);
  std::filesystem::permissions(exe, std::filesystem::perms::owner_all);
  const auto r = run_shell(fmt::format("'{}' sweep -p '{}' --set l1.size=64KiB '{}' --mpi -o '{}' 2>&1",
                                                      exe, gap8(), tiny_net(), d.file("r.csv")));
  INFO(r.output);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::StartsWith("edgesim: error: ") && Catch::Contains("MPI support not found") &&
                           Catch::Contains(d.file("libedgesim_mpi.so")));
  CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
  CHECK_FALSE(std::filesystem::exists(d.file("r.csv")));
}

TEST_CASE("edgesim sweep under mpirun -n 2 writes the bytes of the local run", "[sweep][cli][mpi]") {
  REQUIRE_DATA(tiny_net());
  if (std::system("command -v mpirun >/dev/null 2>&1") != 0) {
    if (in_ci()) FAIL("mpirun missing under CI=true (scripts/bootstrap installs openmpi-bin)");
    WARN("SKIPPED: mpirun not found");
    return;
  }
  TempDir a, b;
  const std::string args = fmt::format("-p '{}' --set l1.size=29500,64KiB --set l2.size=384KiB,512KiB '{}'", gap8(), tiny_net());
  const auto local = run_edgesim("sweep " + args + fmt::format(" -o '{}' --json '{}'", a.file("r.csv"), a.file("r.json")));
  REQUIRE(local.status == 0);
  // In a sanitized build the ranks unwind malloc stacks fully, so that LeakSanitizer's
  // suppression of Open MPI's progress thread can name it (tests/sanitize/defaults.cc);
  // other builds ignore the variable.
  const std::string cmd = fmt::format("mpirun -n 2 --oversubscribe {} -x ASAN_OPTIONS=fast_unwind_on_malloc=0 '{}' sweep {} -o '{}' --json '{}' 2>&1",
                                      ::geteuid() == 0 ? "--allow-run-as-root" : "", edgesim_bin(), args, b.file("r.csv"),
                                      b.file("r.json"));
  const auto r = run_shell(cmd);
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(slurp(b.file("r.csv")) == slurp(a.file("r.csv")));
  CHECK(slurp(b.file("r.json")) == slurp(a.file("r.json")));
}
