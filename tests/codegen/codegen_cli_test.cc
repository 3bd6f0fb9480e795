// edgesim codegen and compare through the CLI and the library: the output is byte-identical
// across runs; an op without a C kernel is one error naming the node; -o refuses to replace a
// directory that is not an edgesim program and leaves nothing behind on an error; the pulp
// HAL's MobileNetV1-128 (gap8, dory) compiles with -Wall -Werror against the declared PMSIS API;
// compare refuses a host program's log (nanoseconds) and logs of another platform, policy or
// schedule, prints every step of an rv32 log with 64-bit counts (table total == summary total),
// names the line of a malformed log, and says when an older program's 32-bit figures wrapped.
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <utility>

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

TEST_CASE("compare: a host program's log is refused, as an rv32 log it gives a row per step, a malformed line names its line",
          "[codegen][compare]") {
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
  // The host HAL's counter is the host's clock in nanoseconds: refused, in one error line.
  r = test::run_edgesim(fmt::format("compare -p gap8 '{}' '{}'", mnv1(), log));
  INFO(r.output);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Contains("edgesim: error: " + log + ":") && Contains("host HAL") && Contains("nanoseconds"));
  CHECK(r.output.find("edgesim: error:") == r.output.rfind("edgesim: error:"));
  CHECK(r.output.find("total (measured steps)") == std::string::npos);
  // The same log as an rv32 program's (same schedule, same program line but for the HAL).
  std::string text = run.output;
  const size_t hal = text.find("hal=host unit=ns");
  REQUIRE(hal != std::string::npos);
  text.replace(hal, 16, "hal=rv32 unit=cycles");
  std::ofstream(log) << text;
  r = test::run_edgesim(fmt::format("compare -p gap8 '{}' '{}'", mnv1(), log));
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK_THAT(r.output, Contains("30 of 30 steps measured") && Contains("total (measured steps)") && Contains("(HAL rv32)"));
  CHECK(r.output.find("warning") == std::string::npos);
  for (int k = 0; k < 30; ++k) CHECK(std::regex_search(r.output, std::regex(fmt::format("\\n +{}  L", k))));
  // A damaged line: the error names the file and line.
  const size_t at = text.find("[edgesim-perf] step=4 ");
  REQUIRE(at != std::string::npos);
  text.replace(text.find("cycles=", at), 7, "cycles:");
  const int line = static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n')) + 1;
  std::ofstream(log) << text;
  r = test::run_edgesim(fmt::format("compare -p gap8 '{}' '{}'", mnv1(), log));
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Contains(fmt::format("edgesim: error: {}:{}: malformed profiling line", log, line)));
  CHECK(r.output.find("edgesim: error:") == r.output.rfind("edgesim: error:"));
}

TEST_CASE("compare: the perf log reader takes 64-bit counts and refuses logs of no or two programs", "[codegen][compare]") {
  const codegen::PerfLog log = codegen::parse_perf_log(
      "boot\n[edgesim-perf] program hal=rv32 unit=cycles platform=gap8 policy=dory buffering=single schedule=0123 x=y\n"
      "[edgesim-perf] step=0 name=a cycles=18446744073709551615\n[edgesim-perf] total cycles=7155186045\n",
      "z.log");
  REQUIRE(log.program);
  CHECK(log.program->line == 2);
  CHECK(log.program->hal == "rv32");
  CHECK(log.program->platform == "gap8");
  CHECK(log.program->policy == "dory");
  CHECK(log.program->schedule == "0123");
  REQUIRE(log.steps.size() == 1);
  CHECK(log.steps[0].cycles == 18446744073709551615ull);
  CHECK(log.total == 7155186045ull);
  CHECK(log.total_line == 4);
  CHECK_THROWS_WITH(codegen::parse_perf_log("[edgesim-perf] step=0 name=a cycles=18446744073709551616\n", "w.log"),
                    Contains("w.log:1: '18446744073709551616' is not a cycle count"));
  CHECK_THROWS_WITH(codegen::parse_perf_log("[edgesim-perf] step=0 name=a cycles=-5\n", "w.log"),
                    Contains("w.log:1: '-5' is not a cycle count"));
  CHECK_THROWS_WITH(codegen::parse_perf_log("[edgesim-perf] program hal=rv32 unit=cycles\n", "v.log"),
                    Contains("v.log:1: program line without 'platform='"));
  const std::string program = "[edgesim-perf] program hal=rv32 unit=cycles platform=a policy=b buffering=c schedule=d\n";
  CHECK_THROWS_WITH(codegen::parse_perf_log(program + program + "[edgesim-perf] step=0 name=a cycles=1\n", "u.log"),
                    Contains("u.log:2: a second program line (the first is line 1)"));
  // Logs of other programs, or without profiling lines, are refused.
  CHECK_THROWS_WITH(codegen::parse_perf_log("hello\n", "x.log"), Contains("x.log: no profiling lines"));
  CHECK_THROWS_WITH(codegen::parse_perf_log("[edgesim-perf] step=1 name=a cycles=5\n[edgesim-perf] step=1 name=a cycles=6\n", "y.log"),
                    Contains("y.log:2: step 1 appears twice"));
}

namespace {

// A log as the rv32 program codegen wrote to `dir` would print it, with the given step counts:
// its program line and step names are read from network.c.
std::string synthetic_log(const fs::path& dir, const std::vector<uint64_t>& cycles, bool program_line,
                          std::optional<uint64_t> total) {
  const std::string c = slurp(dir / "network.c");
  std::smatch m;
  REQUIRE(std::regex_search(c, m, std::regex(R"re(printf\("%s\\n", "(\[edgesim-perf\] program [^"]*)"\);)re")));
  std::string log = "QEMU boot noise\n" + (program_line ? m[1].str() + "\n" : std::string());
  std::vector<std::string> names;
  static const std::regex step_re(R"re(\{es_step_\w+, "([^"]+)"\},)re");
  for (auto it = std::sregex_iterator(c.begin(), c.end(), step_re); it != std::sregex_iterator(); ++it)
    names.push_back((*it)[1].str());
  REQUIRE(names.size() == cycles.size());
  for (size_t k = 0; k < names.size(); ++k)
    log += fmt::format("[edgesim-perf] step={} name={} cycles={}\n", k, names[k], cycles[k]);
  if (total) log += fmt::format("[edgesim-perf] total cycles={}\n", *total);
  return log + "edgesim-verdict: bit-exact (1 outputs, 10 bytes)\n";
}

// The measured figure of compare's "total (measured steps)" row and of its summary line.
std::pair<std::string, std::string> measured_totals(const std::string& out) {
  std::smatch row, summary;
  std::regex_search(out, row, std::regex(R"(total \(measured steps\) +-?[0-9]+ +([0-9]+) )"));
  std::regex_search(out, summary, std::regex(R"(measured total ([0-9]+) )"));
  return {row.size() > 1 ? row[1].str() : "no row", summary.size() > 1 ? summary[1].str() : "no summary"};
}

}  // namespace

TEST_CASE("compare: refuses a log of another platform, policy or schedule, 64-bit totals add up, a wrapped older log is named",
          "[codegen][compare]") {
  REQUIRE_DATA(mnv1());
  test::TempDir tmp;
  const fs::path out = tmp.path() / "mv1-rv32";
  auto r = test::run_edgesim(fmt::format("codegen -p gap8 --policy dory --hal rv32 '{}' -o '{}'", mnv1(), out.string()));
  INFO(r.output);
  REQUIRE(r.status == 0);
  std::vector<uint64_t> cycles;
  uint64_t sum = 0;
  for (uint64_t k = 0; k < 30; ++k) sum += cycles.emplace_back(200000000 + k);   // 6,000,000,435 > 2^32
  const std::string log = tmp.file("rv32.log");
  std::ofstream(log) << synthetic_log(out, cycles, true, sum);
  const auto compare = [&](const std::string& options) {
    return test::run_edgesim(fmt::format("compare '{}' '{}' {}", mnv1(), log, options));
  };
  r = compare("-p gap8");
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK(measured_totals(r.output) == std::pair<std::string, std::string>{"6000000435", "6000000435"});
  CHECK(r.output.find("warning") == std::string::npos);
  // Another platform, policy or schedule than the program's: one error naming the line and both.
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"-p gap9", "generated for platform 'gap8', not 'gap9'"},
      {"-p gap8 --policy deeploy", "generated for policy 'dory', not 'deeploy'"},
      {"-p gap8 --set l1.size=48KiB", "generated for schedule '"}};
  for (const auto& [options, message] : refused) {
    r = compare(options);
    INFO(options << "\n" << r.output);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Contains("edgesim: error: " + log + ":2: the log's program was " + message));
    CHECK(r.output.find("edgesim: error:") == r.output.rfind("edgesim: error:"));
  }
  // An earlier edgesim's program (no program line, 32-bit total): read, with a line on each doubt.
  cycles[3] = 3000000000;
  sum += cycles[3] - 200000003;
  std::ofstream(log) << synthetic_log(out, cycles, false, sum % (uint64_t{1} << 32));
  r = compare("-p gap8");
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK(measured_totals(r.output) == std::pair<std::string, std::string>{std::to_string(sum), std::to_string(sum)});
  CHECK_THAT(r.output, Contains("no '[edgesim-perf] program' line") && Contains("its sum modulo 2^32") &&
                           Contains("step 3 measured 3000000000 cycles, near the 2^32 range"));
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
