// The include graph keeps one direction (docs/architecture.md "Dependency rule"):
// platforms <- kernels <- compiler <- sim <- sim/cli, and inside compiler/
// ir, io <- frontend, passes <- golden <- tiler <- flows <- budget <- schedule <- tune <- pipeline <- codegen. A project header included from a lower layer, or SystemC / TLM included
// outside sim/, fails here and names the file and line.
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <utility>
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

// Rank inside compiler/ (docs/architecture.md "Dependency rule"): a file includes headers of its
// own folder or of a folder ranked lower, never of one ranked the same or higher, so no two
// folders include each other. -1 outside compiler/.
int compiler_layer(const std::string& rel) {
  if (rel.rfind("compiler/", 0) != 0) return -1;
  static const std::vector<std::pair<std::string, int>> ranks = {
      {"ir/", 0},     {"io/", 0},       {"frontend/", 1}, {"passes/", 1},   {"golden/", 2},  {"tiler/", 3},
      {"flows/", 4},  {"budget/", 5},   {"schedule/", 6}, {"tune/", 7},     {"pipeline/", 8}, {"codegen/", 9}};
  for (const auto& [folder, rank] : ranks)
    if (rel.compare(9, folder.size(), folder) == 0) return rank;
  return 10;   // a new folder: rank it here
}

std::string compiler_folder(const std::string& rel) {
  const size_t slash = rel.find('/', 9);
  return slash == std::string::npos ? rel : rel.substr(0, slash);
}

// Whether `rel` (under compiler/) may include `target` (under compiler/).
bool compiler_include_ok(const std::string& rel, const std::string& target) {
  return compiler_folder(rel) == compiler_folder(target) || compiler_layer(target) < compiler_layer(rel);
}

}  // namespace

TEST_CASE("layering: platforms <- kernels <- compiler <- sim <- cli, one order inside compiler/, SystemC only in sim/",
          "[ir][layering]") {
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
        else if (std::regex_search(line, m, project_include) && compiler_layer(rel) >= 0 &&
                 compiler_layer(m[1].str()) >= 0 && !compiler_include_ok(rel, m[1].str()))
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
