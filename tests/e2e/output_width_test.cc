// Reports that never cut (issue 39): every command's default text output on the bundled networks
// and platforms fits a 100-column terminal (tables wrap a long name or reason onto continuation
// lines, hide optional columns and say so; paragraphs wrap) and has no "..." inside an
// identifier, reason or case name. `describe NET.onnx` is left out: it prints the graph's stable
// text form (docs/graph.md), one node per line, a format rather than a report.
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "support/paths.h"
#include "support/run.h"
#include "support/temp_dir.h"

using namespace edgesim;

namespace {

void check_output(const std::string& args) {
  INFO("edgesim " << args);
  const test::RunResult r = test::run_edgesim(args);
  CHECK((r.status == 0 || r.status == 1));   // validate exits 1 when a case is out of tolerance
  CHECK(r.output.size() > 100);
  const std::regex cut("[A-Za-z0-9_]\\.\\.\\.[A-Za-z0-9_]");
  std::istringstream in(r.output);
  for (std::string line; std::getline(in, line);) {
    INFO(line);
    CHECK(line.size() <= 100);
    CHECK_FALSE(std::regex_search(line, cut));
  }
}

}  // namespace

TEST_CASE("reports: every command's default output fits 100 columns and cuts no name or reason", "[report][cli]") {
  const std::string mv1 = std::string(EDGESIM_BUILD_DIR) + "/models/mobilenetv1_128/model.onnx";
  const std::string r8 = test::source_dir() + "/models/resnet8/model.onnx";
  const std::string dr8 = test::source_dir() + "/models/diana_resnet8/model.onnx";
  const test::TempDir d;
  for (const std::string& args : std::vector<std::string>{
           "run -p gap8 " + r8, "run -p gap9 " + r8, "run -p siracusa " + r8, "run -p diana " + dr8,
           "run -p gap8 " + mv1 + " --timing-only", "compile -p gap9 " + r8,
           "compile -p gap8 " + mv1 + " --policy deeploy", "verify " + r8, "tune -p gap9 " + r8 + " --no-cache",
           std::string("describe -p gap9"), std::string("describe -p diana"),
           "sweep " + r8 + " -p gap8 --set l1.size=16KiB,64KiB --fresh -o " + d.file("s.csv"),
           std::string("validate --case vww")})
    check_output(args);
  // Paths longer than any checkout's wrap too (CI's checkout path is longer than a developer's):
  // the same bundled networks through a directory link with a long name.
  const std::string deep = d.file(std::string(40, 'd') + "/" + std::string(40, 'e'));
  std::filesystem::create_directories(deep);
  std::filesystem::create_directory_symlink(std::filesystem::path(r8).parent_path(), deep + "/resnet8");
  std::filesystem::create_directory_symlink(std::filesystem::path(mv1).parent_path(), deep + "/mv1");
  for (const std::string& args : std::vector<std::string>{"run -p gap8 " + deep + "/resnet8/model.onnx",
                                                          "compile -p gap8 " + deep + "/mv1/model.onnx --policy deeploy",
                                                          "verify " + deep + "/resnet8/model.onnx"})
    check_output(args);
  // Deeploy's transformer nodes have names of 40 to 60 characters.
  const std::string ml = test::shared_networks() + "/deeploy/Models/microLlama/INT8/microLlama64";
  REQUIRE_DATA(ml + "/network.onnx");
  check_output("run -p siracusa " + ml + "/network.onnx --inputs " + ml + "/inputs.npz");
}
