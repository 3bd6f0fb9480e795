// The include graph keeps one direction (docs/architecture.md "Dependency rule"):
// platforms <- kernels <- compiler <- sim <- sim/cli, and inside compiler/ the other folders <-
// pipeline <- codegen. A project header included from a lower layer, or SystemC / TLM included
// outside sim/, fails here and names the file and line.
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "support/paths.h"

namespace fs = std::filesystem;

namespace {

// Rank of a project path in the layer order; -1 for anything else (tests, python, models).
int layer(const std::string& rel) {
  if (rel.rfind("platforms/", 0) == 0) return 0;
  if (rel.rfind("kernels/", 0) == 0) return 1;
  if (rel.rfind("compiler/", 0) == 0) return 2;
  if (rel.rfind("sim/cli/", 0) == 0) return 4;
  if (rel.rfind("sim/", 0) == 0) return 3;
  return -1;
}

// Rank inside compiler/ (docs/architecture.md "Dependency rule"): the pipeline sits above every
// other folder but codegen, which takes its schedules. -1 outside compiler/; 0 for the folders
// below the pipeline (their own order is not checked yet: the tiler and the tuner include each other).
int compiler_layer(const std::string& rel) {
  if (rel.rfind("compiler/", 0) != 0) return -1;
  if (rel.rfind("compiler/pipeline/", 0) == 0) return 1;
  if (rel.rfind("compiler/codegen/", 0) == 0) return 2;
  return 0;
}

}  // namespace

TEST_CASE("layering: platforms <- kernels <- compiler <- sim <- cli, compiler/pipeline below codegen, SystemC only in sim/", "[ir][layering]") {
  const fs::path root = edgesim::test::source_dir();
  const std::regex project_include(R"(^\s*#\s*include\s+"([a-z_]+/[^"]+)\")");
  const std::regex systemc_include(R"(^\s*#\s*include\s+[<"](systemc|tlm)[^>"]*[>"])");
  std::vector<std::string> violations;
  int files = 0;
  for (const char* top : {"platforms", "kernels", "compiler", "sim"}) {
    for (const auto& e : fs::recursive_directory_iterator(root / top)) {
      const std::string ext = e.path().extension().string();
      if (!e.is_regular_file() || (ext != ".h" && ext != ".cc")) continue;
      ++files;
      const std::string rel = fs::relative(e.path(), root).generic_string();
      const int from = layer(rel);
      std::ifstream in(e.path());
      std::string line;
      std::smatch m;
      for (int no = 1; std::getline(in, line); ++no) {
        if (std::regex_search(line, m, project_include) && layer(m[1].str()) > from)
          violations.push_back(rel + ":" + std::to_string(no) + " includes " + m[1].str());
        else if (std::regex_search(line, m, project_include) && compiler_layer(m[1].str()) > compiler_layer(rel) &&
                 compiler_layer(rel) >= 0)
          violations.push_back(rel + ":" + std::to_string(no) + " includes " + m[1].str() + " (inside compiler/)");
        if (from < 3 && std::regex_search(line, systemc_include))
          violations.push_back(rel + ":" + std::to_string(no) + " includes SystemC/TLM outside sim/");
      }
    }
  }
  CHECK(files > 300);   // the walk found the sources
  std::string all;
  for (const std::string& v : violations) all += v + "\n";
  INFO(all);
  CHECK(violations.empty());
}
