// Generated programs on the rv32 HAL: bare-metal RV32IMC (riscv64-unknown-elf-gcc -march=rv32imc
// -mabi=ilp32, picolibc with semihosting) run on qemu-system-riscv32 -M virt, for every models/
// network and the DORY networks and Deeploy models (16 shared networks) on gap8 under dory: each
// must print "edgesim-verdict: bit-exact", a program line naming rv32, gap8, dory and the
// schedule, and a total equal to the sum of its steps; QEMU runs with -icount
// shift=0,sleep=off, so a second run of tiny prints the same log. The packages come from scripts/bootstrap; without
// them the test is skipped with a message (and fails under CI=true). The sweep over every
// Deeploy CNN test and the three cluster platforms is the opt-in [rv32-full] case (hidden: run it
// with `build/tests/edgesim_tests "[rv32-full]"`).
#include <cstdlib>
#include <iostream>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "codegen/program_harness.h"
#include "compiler/codegen/perf_log.h"
#include "compiler/schedule/build.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "e2e/e2e_nets.h"
#include "support/temp_dir.h"

using namespace edgesim;

namespace {

bool toolchain_or_skip() {
  if (test::Target::rv32().available()) return true;
  const char* ci = std::getenv("CI");
  if (ci && std::string(ci) == "true") FAIL("rv32 toolchain or QEMU missing under CI=true (scripts/bootstrap installs them)");
  WARN("riscv64-unknown-elf-gcc / qemu-system-riscv32 not installed: rv32 codegen test skipped");
  return false;
}

// The profiling lines of a bit-exact run: the program line names rv32, the platform and the
// schedule's policy (dory; none when no layer is tiled, e.g. a lone Concat);
// one line per step; the total is the sum of the steps, in 64 bits (MobileNetV1-128 runs about
// 4.1e9 instructions here, one cycle each under -icount shift=0,sleep=off: close to 2^32).
void check_profile(const std::string& output, const Schedule& s, const std::string& platform) {
  const codegen::PerfLog log = codegen::parse_perf_log(output, "qemu.log");
  REQUIRE(log.program);
  CHECK(log.program->hal == "rv32");
  CHECK(log.program->unit == "cycles");
  CHECK(log.program->platform == platform);
  CHECK(log.program->policy == codegen::perf_token(s.policy));   // "dory"; "-" when no layer is tiled
  CHECK(log.program->schedule == codegen::schedule_fingerprint(s));
  CHECK(log.steps.size() == s.steps.size());
  uint64_t sum = 0;
  for (const codegen::PerfStep& st : log.steps) sum += st.cycles;
  CHECK(log.total == sum);
}

void run_rv32(const std::vector<test::Net>& nets, const std::vector<std::string>& plats, const std::string& what) {
  test::TempDir tmp;
  const test::ProgramHarness h(tmp.path(), test::Target::rv32());
  INFO(h.log());
  REQUIRE(h.ok());
  int exact = 0, infeasible = 0, index = 0;
  for (const test::Net& n : nets)
    for (const test::Platform& p : test::platforms()) {
      if (std::find(plats.begin(), plats.end(), p.name) == plats.end()) continue;
      Schedule s;
      try {
        s = build_schedule(n.graph, p.spec, tile_graph(n.graph, p.spec, "dory"), {});
      } catch (const TilingError&) {
        ++infeasible;
        continue;
      }
      s.network = n.name;
      codegen::ProgramRequest req;
      req.graph = &n.graph;
      req.schedule = &s;
      req.platform = p.name;
      req.n_cores = static_cast<int>(std::max<int64_t>(1, p.spec.cluster.n_cores));
      req.hal = "rv32";
      req.inputs = n.inputs;
      req.golden = n.want.outputs;
      const std::vector<codegen::ProgramFile> files = codegen::generate_program(req);
      const auto out = h.run(fmt::format("p{}", index++), files);
      INFO(n.name << " on " << p.name << " under dory, rv32 on QEMU");
      INFO(out.output);
      CHECK(out.built);
      CHECK(out.exact);
      exact += out.exact;
      if (!out.exact) continue;
      check_profile(out.output, s, p.name);
      if (n.path.ends_with("/models/tiny/model.onnx"))   // -icount: a second run prints the same log
        CHECK(h.run(fmt::format("p{}", index++), files).output == out.output);
    }
  std::cout << fmt::format("codegen rv32 {}: {} programs bit-exact on qemu-system-riscv32, {} infeasible\n", what, exact,
                           infeasible);
}

}  // namespace

TEST_CASE("codegen rv32: models/ networks and 16 shared networks on gap8 are bit-exact under QEMU",
          "[codegen][rv32]") {
  if (!toolchain_or_skip()) return;
  REQUIRE_DATA(test::shared_networks() + "/dory");
  std::vector<std::string> files = test::model_files();
  for (const auto& f : test::onnx_below(test::shared_networks() + "/dory")) files.push_back(f);
  for (const auto& f : test::onnx_below(test::shared_networks() + "/deeploy/Models")) files.push_back(f);
  size_t rejected = 0;
  const auto nets = test::load_nets(files, test::shared_networks(), rejected);
  REQUIRE(nets.size() == 3 + 9 + 7);
  run_rv32(nets, {"gap8"}, "models + DORY + Deeploy models");
}

TEST_CASE("codegen rv32 (opt-in sweep): every network on gap8 gap9 siracusa under QEMU", "[.][rv32-full]") {
  if (!toolchain_or_skip()) return;
  std::vector<std::string> files = test::model_files();
  for (const auto& f : test::onnx_below(test::shared_networks() + "/dory")) files.push_back(f);
  for (const auto& f : test::onnx_below(test::shared_networks() + "/deeploy")) files.push_back(f);
  size_t rejected = 0;
  run_rv32(test::load_nets(files, test::shared_networks(), rejected), {"gap8", "gap9", "siracusa"}, "sweep");
}
