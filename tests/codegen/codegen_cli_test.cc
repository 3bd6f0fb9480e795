// edgesim codegen and compare through the CLI and the library: the output is byte-identical
// across runs; an op without a C kernel is one error naming the node; -o refuses to replace a
// directory that is not an edgesim program and leaves nothing behind on an error; the pulp
// HAL's MobileNetV1-128 (gap8, dory) compiles with -Wall -Werror against the declared PMSIS API;
// compare reads a host build's log and prints every step, and names the line of a malformed log.
#include <filesystem>
#include <fstream>
#include <regex>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "codegen/program_harness.h"
#include "compiler/codegen/kernel_emit.h"
#include "compiler/codegen/perf_log.h"
#include "compiler/frontend/import.h"
#include "compiler/golden/golden.h"
#include "compiler/schedule/build.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "kernels/interpreter/interpreter.h"
#include "platforms/loader/loader.h"
#include "support/paths.h"
#include "support/run.h"
#include "support/temp_dir.h"

using namespace edgesim;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

std::string resnet8() { return test::source_dir() + "/models/resnet8/model.onnx"; }
std::string mnv1() { return std::string(EDGESIM_BUILD_DIR) + "/models/mobilenetv1_128/model.onnx"; }

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

}  // namespace

TEST_CASE("codegen: the same request gives byte-identical files and the program reports a mismatch",
          "[codegen][cli]") {
  test::TempDir tmp;
  const std::string a = tmp.file("a"), b = tmp.file("b");
  for (const std::string& out : {a, b}) {
    const auto r = test::run_edgesim(fmt::format("codegen -p gap9 '{}' -o '{}'", resnet8(), out));
    INFO(r.output);
    REQUIRE(r.status == 0);
  }
  size_t files = 0;
  for (const auto& e : fs::recursive_directory_iterator(a)) {
    if (!e.is_regular_file()) continue;
    ++files;
    const fs::path rel = fs::relative(e.path(), a);
    INFO(rel);
    CHECK(slurp(e.path()) == slurp(fs::path(b) / rel));
  }
  CHECK(files > 10);
  // The program checks itself: one flipped byte of golden.bin is a mismatch, exit status 1.
  std::string golden = slurp(fs::path(a) / "golden.bin");
  REQUIRE(!golden.empty());
  golden[golden.size() / 2] = static_cast<char>(golden[golden.size() / 2] ^ 1);
  std::ofstream(fs::path(a) / "golden.bin", std::ios::binary) << golden;
  const auto run = test::shell(fmt::format("cd '{}' && make -s >/dev/null && ./network", a));
  INFO(run.output);
  CHECK(run.status == 1);
  CHECK_THAT(run.output, Contains("edgesim-verdict: MISMATCH output 0"));
  CHECK(run.output.find("[edgesim-perf] total cycles=") != std::string::npos);
}

TEST_CASE("codegen: an op without a C kernel is one error naming the node", "[codegen]") {
  const Graph g = import_onnx(resnet8());
  const PlatformSpec spec = load_platform(test::source_dir() + "/platforms/gap9.yaml");
  const Schedule s = build_schedule(g, spec, tile_graph(g, spec, "dory"), {});
  const Command* conv = nullptr;
  for (const Step& st : s.steps)
    for (const Command& c : st.commands)
      if (!conv && c.kind == Command::Kind::Compute && c.params.index() == static_cast<size_t>(OpKind::Conv)) conv = &c;
  REQUIRE(conv);
  codegen::LayerData data("t");
  codegen::StmtBuilder b;
  int64_t scratch = 0;
  codegen::ComputeEmit e{g, s, *conv, data, b, scratch};
  std::vector<codegen::KernelEntry> without_conv;
  for (const auto& k : codegen::kernel_emitters())
    if (k.kind != OpKind::Conv) without_conv.push_back(k);
  CHECK_THROWS_WITH(codegen::emit_compute(e, without_conv),
                    Contains("node '" + g.nodes.at(static_cast<size_t>(conv->node)).name + "'") &&
                        Contains("op conv has no C kernel") && Contains("supported: gemm"));
}

TEST_CASE("codegen: -o never replaces a foreign directory and leaves nothing half-written", "[codegen][cli]") {
  test::TempDir tmp;
  const fs::path foreign = tmp.path() / "mine";
  fs::create_directories(foreign);
  std::ofstream(foreign / "notes.txt") << "keep me";
  auto r = test::run_edgesim(fmt::format("codegen -p gap9 '{}' -o '{}'", resnet8(), foreign.string()));
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Contains("edgesim: error:") && Contains("does not hold an edgesim program"));
  CHECK(slurp(foreign / "notes.txt") == "keep me");
  r = test::run_edgesim(fmt::format("codegen -p gap9 '{}' --hal vhdl -o '{}'", resnet8(), tmp.file("x")));
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Contains("vhdl"));
  CHECK(!fs::exists(tmp.file("x")));
  size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(tmp.path())) ++entries;
  CHECK(entries == 1);   // only "mine": no temporary directory left
}

TEST_CASE("codegen pulp: MobileNetV1-128 on gap8 compiles with -Wall -Werror against the declared PMSIS API",
          "[codegen][pulp]") {
  REQUIRE_DATA(mnv1());
  test::TempDir tmp;
  const std::string out = tmp.file("mv1-pulp");
  const auto r = test::run_edgesim(fmt::format("codegen -p gap8 --policy dory --hal pulp '{}' -o '{}'", mnv1(), out));
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(fs::exists(fs::path(out) / "hal/pmsis_api/pmsis.h"));
  CHECK(!fs::exists(fs::path(out) / "hal/sw_hal.h"));
  const auto c = test::shell(fmt::format("make -C '{}' -f Makefile.check -j2", out));
  INFO(c.output);
  CHECK(c.status == 0);
  CHECK_THAT(c.output, Contains("-Wall -Werror") && Contains("compile with -Wall -Werror against hal/pmsis_api/pmsis.h"));
}

TEST_CASE("compare: a host build log gives a row per step and a malformed log names its line", "[codegen][compare]") {
  REQUIRE_DATA(mnv1());
  test::TempDir tmp;
  const std::string out = tmp.file("mv1");
  auto r = test::run_edgesim(fmt::format("codegen -p gap8 '{}' -o '{}'", mnv1(), out));
  REQUIRE(r.status == 0);
  const auto run = test::shell(fmt::format("make -C '{}' run", out));
  INFO(run.output);
  REQUIRE(run.status == 0);
  REQUIRE_THAT(run.output, Contains("edgesim-verdict: bit-exact"));
  const std::string log = tmp.file("measured.log");
  std::ofstream(log) << run.output;
  r = test::run_edgesim(fmt::format("compare -p gap8 '{}' '{}'", mnv1(), log));
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK_THAT(r.output, Contains("30 of 30 steps measured") && Contains("total (measured steps)"));
  for (int k = 0; k < 30; ++k) CHECK(std::regex_search(r.output, std::regex(fmt::format("\\n +{}  L", k))));
  // A damaged line: the error names the file and line.
  std::string text = run.output;
  const size_t at = text.find("[edgesim-perf] step=4 ");
  REQUIRE(at != std::string::npos);
  text.replace(text.find("cycles=", at), 7, "cycles:");
  const int line = static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n')) + 1;
  std::ofstream(log) << text;
  r = test::run_edgesim(fmt::format("compare -p gap8 '{}' '{}'", mnv1(), log));
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Contains(fmt::format("edgesim: error: {}:{}: malformed profiling line", log, line)));
  CHECK(r.output.find("edgesim: error:") == r.output.rfind("edgesim: error:"));
  // Logs of other programs, or without profiling lines, are refused.
  CHECK_THROWS_WITH(codegen::parse_perf_log("hello\n", "x.log"), Contains("x.log: no profiling lines"));
  CHECK_THROWS_WITH(codegen::parse_perf_log("[edgesim-perf] step=1 name=a cycles=5\n[edgesim-perf] step=1 name=a cycles=6\n", "y.log"),
                    Contains("y.log:2: step 1 appears twice"));
}

TEST_CASE("codegen: -o onto an earlier program keeps the files the user added, and says which (issue 36 #9)",
          "[codegen][cli]") {
  test::TempDir tmp;
  const fs::path out = tmp.path() / "prog";
  const auto codegen = [&](const std::string& hal) {
    return test::run_edgesim(fmt::format("codegen -p gap9 '{}' --hal {} -o '{}'", resnet8(), hal, out.string()));
  };
  REQUIRE(codegen("host").status == 0);
  std::ofstream(out / "notes.txt") << "keep me";
  fs::create_directories(out / "mine");
  std::ofstream(out / "mine" / "extra.c") << "int x;";
  auto r = codegen("pulp");   // another HAL: host's own HAL files go, the user's stay
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Contains("kept 2 files in") && Contains("that edgesim did not write: mine/extra.c, notes.txt"));
  CHECK(slurp(out / "notes.txt") == "keep me");
  CHECK(slurp(out / "mine" / "extra.c") == "int x;");
  CHECK(!fs::exists(out / "hal" / "sw_hal.h"));
  CHECK(fs::exists(out / "Makefile.check"));
  // A user's file where the new program writes one of its own: refused before anything changes.
  REQUIRE(codegen("host").status == 0);
  std::ofstream(out / "Makefile.check") << "user's";
  r = codegen("pulp");
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Contains("Makefile.check there was not written by edgesim"));
  CHECK(slurp(out / "Makefile.check") == "user's");
  CHECK(slurp(out / "notes.txt") == "keep me");
  CHECK(fs::exists(out / "hal" / "sw_hal.h"));
}
