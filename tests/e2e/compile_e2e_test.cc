// End to end through the back end: for every network that imports (shared/networks: the DORY
// networks with ONNX, the Deeploy CNN tests, BARVINN's SimpleConv; models/: tiny, resnet8 and
// the generated MobileNetV1-128), on every platform YAML, under every tiling policy:
// tile_graph -> build_schedule -> check_allocation -> execute_functional, and every graph output
// and every placed tensor equals the untiled interpreter bit-exactly on seeded random inputs,
// also when the commands run in another order their deps allow (schedule/dep_order.h).
// A combination may be infeasible only with a TilingError; the matrix is printed (bit-exact /
// infeasible counts) and the DORY networks must be feasible on gap8, gap9 and siracusa under
// dory and deeploy. Each network is imported and interpreted once and reused.
// The CLI cases run `edgesim compile` on MobileNetV1-128 on GAP8: infeasible with a usable L1
// of 10,000 B (one error line naming the layer and the smallest L1), feasible and bit-exact
// with 38,000 B, -o writes a schedule JSON that reads back, a bad policy name is an error.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "compiler/frontend/import.h"
#include "compiler/golden/golden.h"
#include "compiler/schedule/build.h"
#include "compiler/schedule/functional.h"
#include "compiler/schedule/json.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "kernels/interpreter/interpreter.h"
#include "platforms/loader/loader.h"
#include "e2e/e2e_nets.h"
#include "schedule/dep_order.h"
#include "support/tiling.h"
#include "support/paths.h"
#include "support/run.h"
#include "support/temp_dir.h"

using namespace edgesim;
using Catch::Matchers::Contains;
using test::Net;
using test::Platform;
using test::load_nets;
using test::onnx_below;
using test::platforms;
namespace fs = std::filesystem;

namespace {

struct Matrix {
  int exact = 0, infeasible = 0, failed = 0;
  std::vector<std::string> infeasible_list;
  std::map<std::string, bool> feasible;   // "net|platform|policy"
};

// Runs one (network, platform, policy) combination; returns "" or a failure description.
std::string run_one(const Net& n, const Platform& p, const std::string& policy, Matrix& m,
                    const ScheduleOptions& opt = {}) {
  const std::string key = n.name + "|" + p.name + "|" + policy;
  std::vector<LayerTiling> tilings;
  try {
    tilings = test::tile_for(n.graph, p.spec, policy);
  } catch (const TilingError& e) {
    ++m.infeasible;
    m.feasible[key] = false;
    m.infeasible_list.push_back(fmt::format("{} on {} under {}: {}", n.name, p.name, policy, e.what()));
    return "";
  } catch (const std::exception& e) {
    return std::string("tile_graph threw a non-TilingError: ") + e.what();
  }
  Schedule s;
  try {
    s = build_schedule(n.graph, p.spec, tilings, opt);
  } catch (const TilingError& e) {   // the whole network does not fit a level (e.g. no L3)
    ++m.infeasible;
    m.feasible[key] = false;
    m.infeasible_list.push_back(fmt::format("{} on {} under {}: {}", n.name, p.name, policy, e.what()));
    return "";
  } catch (const std::exception& e) {
    return std::string("error: ") + e.what();
  }
  m.feasible[key] = true;
  try {
    if (opt.buffering != "auto" && s.buffering != opt.buffering)
      return "buffering " + s.buffering + " instead of the requested " + opt.buffering;
    check_allocation(s);
    const FunctionalResult got = execute_functional(n.graph, s, n.inputs);
    if (got.outputs.size() != n.want.outputs.size()) return "output count differs";
    for (size_t j = 0; j < got.outputs.size(); ++j)
      if (!got.outputs[j].same_values(n.want.outputs[j])) return fmt::format("graph output {} differs", j);
    for (size_t t = 0; t < got.values.size() && t < n.want.values.size(); ++t)
      if (got.values[t] && n.want.values[t] && !got.values[t]->same_values(*n.want.values[t]))
        return fmt::format("tensor %{} '{}' differs", t, n.graph.tensors[t].name);
    // The deps alone must order the commands: the furthest-from-list order gives the same outputs.
    const FunctionalResult reordered = execute_functional(n.graph, test::reorder_by_deps(s), n.inputs);
    for (size_t j = 0; j < reordered.outputs.size(); ++j)
      if (!reordered.outputs[j].same_values(n.want.outputs[j]))
        return fmt::format("graph output {} differs when the commands run in another order their deps allow", j);
  } catch (const std::exception& e) {
    return std::string("error: ") + e.what();
  }
  ++m.exact;
  return "";
}

Matrix run_matrix(const std::vector<Net>& nets, const std::string& what) {
  Matrix m;
  for (const Net& n : nets)
    for (const Platform& p : platforms())
      for (const std::string& policy : policy_names()) {
        const std::string err = run_one(n, p, policy, m);
        if (!err.empty()) ++m.failed;
        INFO(n.name << " on " << p.name << " under " << policy);
        CHECK(err == "");
      }
  std::cout << fmt::format("compile e2e {}: {} networks x {} platforms x {} policies: {} bit-exact, "
                           "{} infeasible (TilingError), {} failed\n",
                           what, nets.size(), platforms().size(), policy_names().size(), m.exact, m.infeasible,
                           m.failed);
  for (const auto& s : m.infeasible_list) std::cout << "  infeasible: " << s << "\n";
  return m;
}

}  // namespace

TEST_CASE("e2e compile: DORY networks on every platform and policy equal the interpreter", "[e2e][compile][heavy]") {
  const std::string root = test::shared_networks() + "/dory";
  REQUIRE_DATA(root);
  size_t rejected = 0;
  const auto nets = load_nets(onnx_below(root), "", rejected);
  CHECK(nets.size() == 9);
  const Matrix m = run_matrix(nets, "DORY");
  CHECK(m.exact > 0);
  for (const Net& n : nets)
    for (const char* plat : {"gap8", "gap9", "siracusa"})
      for (const char* policy : {"dory", "deeploy"}) {
        INFO(n.name << " on " << plat << " under " << policy << " must be feasible");
        CHECK(m.feasible.at(n.name + "|" + plat + "|" + policy));
      }
}

TEST_CASE("e2e compile: forced single and double buffering equal the interpreter", "[e2e][compile]") {
  const std::string root = test::shared_networks() + "/dory";
  REQUIRE_DATA(root);
  size_t rejected = 0;
  auto files = onnx_below(root);
  files.push_back(test::source_dir() + "/models/resnet8/model.onnx");
  const auto nets = load_nets(files, "", rejected);
  Matrix m;
  int too_big = 0;
  for (const Net& n : nets)
    for (const Platform& p : platforms())
      for (const char* buffering : {"single", "double"}) {
        if (p.name != "gap8" && p.name != "gap9") continue;
        ScheduleOptions opt;
        opt.buffering = buffering;
        INFO(n.name << " on " << p.name << " under dory with " << buffering << " buffering");
        const std::string err = run_one(n, p, "dory", m, opt);
        // gap8's dory tiles are sized for single buffering; doubling them may not fit L1, which
        // the builder must say in so many words.
        if (err.find("sized for single buffering") != std::string::npos) {
          ++too_big;
          continue;
        }
        CHECK(err == "");
      }
  std::cout << fmt::format("compile e2e forced buffering: {} bit-exact, {} infeasible, {} L1 overflows of "
                           "double-buffered single-buffer tiles\n", m.exact, m.infeasible, too_big);
  CHECK(m.exact > 0);
}

TEST_CASE("e2e compile: Deeploy CNN tests and BARVINN SimpleConv equal the interpreter", "[e2e][compile]") {
  const std::string root = test::shared_networks();
  REQUIRE_DATA(root + "/deeploy");
  size_t rejected = 0;
  auto files = onnx_below(root + "/deeploy");
  files.push_back(root + "/barvinn/SimpleConv.onnx");
  const auto nets = load_nets(files, root, rejected);
  std::cout << fmt::format("compile e2e: {} Deeploy files are transformer tests (transformer_e2e_test), {} CNNs\n", rejected,
                           nets.size());
  CHECK(nets.size() == 24);   // 23 Deeploy CNN tests + SimpleConv
  const Matrix m = run_matrix(nets, "Deeploy+BARVINN");
  CHECK(m.exact > 0);
}

TEST_CASE("e2e compile: models/ networks equal the interpreter", "[e2e][compile][models][heavy]") {
  const std::vector<std::string> files = test::model_files();
  REQUIRE_DATA(files.back());
  size_t rejected = 0;
  const auto nets = load_nets(files, "", rejected);
  CHECK(rejected == 0);
  const Matrix m = run_matrix(nets, "models");
  CHECK(m.exact > 0);
}

namespace {

std::string mnv1() { return std::string(EDGESIM_BUILD_DIR) + "/models/mobilenetv1_128/model.onnx"; }
std::string gap8() { return fmt::format("'{}/platforms/gap8.yaml'", test::source_dir()); }

}  // namespace

TEST_CASE("CLI compile: MobileNetV1-128 on GAP8 with a 10000 B L1 names the layer and the smallest L1",
          "[e2e][compile][cli]") {
  REQUIRE_DATA(mnv1());
  const auto r = test::run_edgesim("compile -p " + gap8() + " --policy dory --set l1.size=38836 '" + mnv1() + "'");
  INFO(r.output);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Contains("edgesim: error: layer ") && Contains("L1 budget of 10000 B"));
  // The smallest L1 that would make the layer feasible is named, and it exceeds 10,000 B.
  const std::smatch m = [&] {
    std::smatch sm;
    std::regex_search(r.output, sm, std::regex("needs at least ([0-9]+) B"));
    return sm;
  }();
  REQUIRE(m.size() == 2);
  CHECK(std::stoll(m[1].str()) > 10000);
  // One error line, nothing else on stderr-like output after it.
  CHECK(r.output.find("edgesim: error:") == r.output.rfind("edgesim: error:"));
  // It also names the l1.size giving that budget, and that size is exactly the threshold.
  std::smatch size;
  REQUIRE(std::regex_search(r.output, size, std::regex("l1.size >= ([0-9]+) B on gap8")));
  const long long l1 = std::stoll(size[1].str());
  CHECK(l1 == std::stoll(m[1].str()) + (38836 - 10000));
  CHECK(test::run_edgesim("compile -p " + gap8() + " --set l1.size=" + std::to_string(l1) + " '" + mnv1() + "'")
            .status == 0);
  CHECK(test::run_edgesim("compile -p " + gap8() + " --set l1.size=" + std::to_string(l1 - 1) + " '" + mnv1() +
                          "'").status == 2);
}

TEST_CASE("CLI compile: MobileNetV1-128 on GAP8 with a 38000 B L1 compiles and checks and writes JSON",
          "[e2e][compile][cli]") {
  REQUIRE_DATA(mnv1());
  test::TempDir tmp;
  const std::string out = tmp.file("mnv1.json");
  const auto r = test::run_edgesim("compile -p " + gap8() + " --policy dory --set l1.size=66836 --check -o '" + out +
                                   "' '" + mnv1() + "'");
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Contains("check: tiled execution bit-exact") && Contains("high water:") &&
                           Contains("share of the policy's L1 budget, 38000 B"));
  // 29 layer rows: indices 0..28.
  CHECK_THAT(r.output, Contains("\n28  "));
  std::ifstream f(out);
  REQUIRE(f.good());
  const nlohmann::json j = nlohmann::json::parse(f);
  const Schedule s = schedule_from_json(j);
  CHECK(s.steps.size() >= 29);
  CHECK_NOTHROW(check_allocation(s));
  // The schedule read back from JSON still computes the network bit-exactly.
  const Graph g = import_onnx(mnv1());
  const auto in = random_inputs(g, 3);
  CHECK(execute_functional(g, s, in).outputs.at(0).same_values(interpret(g, in).outputs.at(0)));
  // No temporary file is left next to the output.
  int files = 0;
  for (const auto& e : fs::directory_iterator(tmp.path())) files += e.is_regular_file();
  CHECK(files == 1);
}

TEST_CASE("CLI compile: a bad policy name and an infeasible -o leave no file", "[e2e][compile][cli]") {
  REQUIRE_DATA(mnv1());
  test::TempDir tmp;
  auto r = test::run_edgesim("compile -p " + gap8() + " --policy dori '" + mnv1() + "'");
  INFO(r.output);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Contains("edgesim: error:") && Contains("dori") && Contains("deeploy"));
  const std::string out = tmp.file("never.json");
  r = test::run_edgesim("compile -p " + gap8() + " --set l1.size=38836 -o '" + out + "' '" + mnv1() + "'");
  CHECK(r.status == 2);
  CHECK(!fs::exists(out));
  r = test::run_edgesim("compile -p " + gap8() + " --buffering triple '" + mnv1() + "'");
  CHECK(r.status != 0);
}
