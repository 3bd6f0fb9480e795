// The project is self-contained in its citations (issue 17 point 6): every numbered source a
// platform file, preset, configuration, code comment or doc page cites ("[12]") is an entry of
// docs/sources.md, and no platform or configuration file points to a path outside the project.
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <catch2/catch.hpp>

#include "support/paths.h"

namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::set<int> listed_sources() {
  std::set<int> n;
  const std::regex entry(R"(^(\d+)\. )");
  std::istringstream in(read(fs::path(edgesim::test::source_dir()) / "docs/sources.md"));
  std::string line;
  std::smatch m;
  while (std::getline(in, line))
    if (std::regex_search(line, m, entry)) n.insert(std::stoi(m[1]));
  return n;
}

// The commented part of a line: after '#' (YAML, Python), after '//' (C++), the whole line else.
std::string comment_of(const fs::path& p, const std::string& line) {
  const std::string ext = p.extension().string();
  size_t at = std::string::npos;
  if (ext == ".cc" || ext == ".h") at = line.find("//");
  else if (ext == ".yaml" || ext == ".py") at = line.find('#');
  else return line;
  return at == std::string::npos ? "" : line.substr(at);
}

}  // namespace

TEST_CASE("every cited source number is listed in docs/sources.md", "[platforms]") {
  const std::set<int> listed = listed_sources();
  REQUIRE(listed.count(1));
  REQUIRE(listed.count(90));
  const std::regex cite(R"((?:^|[\s(;,])\[(\d{1,3})\](?=[\s,;:).]|†|$))");
  const fs::path root = edgesim::test::source_dir();
  int files = 0, citations = 0;
  for (const char* dir : {"platforms", "configs", "kernels", "compiler", "sim", "docs", "python", "models"}) {
    for (const auto& e : fs::recursive_directory_iterator(root / dir)) {
      const std::string ext = e.path().extension().string();
      if (!e.is_regular_file() || (ext != ".yaml" && ext != ".cc" && ext != ".h" && ext != ".md" && ext != ".py")) continue;
      ++files;
      std::istringstream in(read(e.path()));
      std::string line;
      int n = 0;
      while (std::getline(in, line)) {
        ++n;
        const std::string c = comment_of(e.path(), line);
        for (std::sregex_iterator it(c.begin(), c.end(), cite), end; it != end; ++it) {
          ++citations;
          INFO(e.path().string() << ":" << n << ": " << line);
          CHECK(listed.count(std::stoi((*it)[1])) == 1);
        }
      }
    }
  }
  CHECK(files > 100);
  CHECK(citations > 300);
}

TEST_CASE("platform and configuration files name no path outside the project", "[platforms]") {
  const fs::path root = edgesim::test::source_dir();
  for (const char* dir : {"platforms", "configs"})
    for (const auto& e : fs::recursive_directory_iterator(root / dir)) {
      if (!e.is_regular_file() || e.path().extension() != ".yaml") continue;
      std::istringstream in(read(e.path()));
      std::string line;
      int n = 0;
      while (std::getline(in, line)) {
        ++n;
        INFO(e.path().string() << ":" << n << ": " << line);
        CHECK(line.find("../") == std::string::npos);
        CHECK(line.find("/work/") == std::string::npos);
        CHECK(line.find("/home/") == std::string::npos);
      }
    }
}
