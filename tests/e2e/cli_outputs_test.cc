// What a researcher gets from edgesim's outputs (issue: "the CLI and the reports as a researcher
// uses them"): provenance in JSON, trace and HTML; the tiling and the engine reasons in `run`;
// verdicts that say what failed; sweeps over policies, engine sets and linked keys with names that
// do not collide; warnings for implausible values; output paths checked before simulating;
// `--version` with the commit; and an installed binary that finds its platforms from anywhere.
// Timing-only runs on small networks, so the file stays fast.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "support/paths.h"
#include "support/run.h"
#include "support/temp_dir.h"

using namespace edgesim;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

std::string src(const std::string& rel) { return test::source_dir() + "/" + rel; }
std::string tiny() { return src("models/tiny/model.onnx"); }
std::string resnet8() { return src("models/resnet8/model.onnx"); }
std::string mnv1() { return std::string(EDGESIM_BUILD_DIR) + "/models/mobilenetv1_128/model.onnx"; }

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

nlohmann::json json_of(const std::string& path) { return nlohmann::json::parse(slurp(path)); }

std::vector<std::string> csv_rows(const std::string& path) {
  std::vector<std::string> rows;
  std::istringstream in(slurp(path));
  for (std::string l; std::getline(in, l);)
    if (!l.empty() && l[0] != '#') rows.push_back(l);
  return rows;
}

}  // namespace

TEST_CASE("provenance: two runs that differ in one --set differ in the recorded override", "[cli][provenance]") {
  test::TempDir d;
  const auto a = test::run_edgesim(fmt::format("run -p gap8 '{}' --timing-only --json '{}' --trace '{}' --report '{}'",
                                               resnet8(), d.file("a.json"), d.file("a.trace"), d.file("a.html")));
  const auto b = test::run_edgesim(
      fmt::format("run -p gap8 '{}' --timing-only --set l1.size=128KiB --json '{}'", resnet8(), d.file("b.json")));
  INFO(a.output << b.output);
  REQUIRE(a.status == 0);
  REQUIRE(b.status == 0);
  const auto pa = json_of(d.file("a.json"))["provenance"], pb = json_of(d.file("b.json"))["provenance"];
  CHECK(pa["overrides"].empty());
  CHECK(pb["overrides"] == nlohmann::json::array({"l1.size=128KiB"}));
  CHECK(pa["platform_spec_hash"] != pb["platform_spec_hash"]);
  CHECK_THAT(pb["command_line"].get<std::string>(), Contains("--set l1.size=128KiB"));
  CHECK(pa["version"] == pb["version"]);
  CHECK(std::regex_match(pa["commit"].get<std::string>(), std::regex("[0-9a-f]{7,40}(-dirty)?|unknown")));
  CHECK(pa["options"]["policy"] == "dory");
  // The platform and network files with their content hashes.
  std::set<std::string> roles;
  for (const auto& f : pa["files"]) {
    roles.insert(f["role"].get<std::string>());
    CHECK_THAT(f["hash"].get<std::string>(), Catch::StartsWith("fnv1a:"));
  }
  CHECK(roles == std::set<std::string>{"platform", "network"});
  // The trace and the HTML page carry the same provenance.
  CHECK(json_of(d.file("a.trace"))["otherData"]["provenance"] == pa);
  const std::string html = slurp(d.file("a.html"));
  CHECK_THAT(html, Contains("How this report was made") && Contains(pa["commit"].get<std::string>()));

  const auto v = test::run_edgesim("--version");
  CHECK_THAT(v.output, Contains("edgesim ") && Contains("(commit " + pa["commit"].get<std::string>() + ")"));
}

TEST_CASE("run: the tiling of every layer in JSON and table, the engine reason of every layer", "[cli][run]") {
  REQUIRE_DATA(mnv1());
  test::TempDir d;
  const auto r = test::run_edgesim(fmt::format("run -p gap8 '{}' --timing-only --json '{}'", mnv1(), d.file("m.json")));
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto j = json_of(d.file("m.json"));
  int tiled = 0;
  for (const auto& l : j["layers"]) {
    if (l["tiling"].is_null()) continue;
    ++tiled;
    const auto& t = l["tiling"]["l1"];
    for (const char* k : {"out", "in"}) {
      REQUIRE(t[k].size() == 3);
      for (const auto& x : t[k]) CHECK(x.get<int64_t>() > 0);
    }
    CHECK(!t["label"].get<std::string>().empty());
    CHECK_THAT(r.output, Contains(t["label"].get<std::string>()));   // the terminal's tiling table
  }
  CHECK(tiled == 29);   // every conv, the pool and the fc of MobileNetV1-128 (only the flatten runs whole)
  for (const std::string& line : [&] {
         std::vector<std::string> v;
         std::istringstream in(r.output);
         for (std::string l; std::getline(in, l);) v.push_back(l);
         return v;
       }())
    // The tables fit 100 columns; the header lines echo file paths, as long as the user's.
    if (line.rfind("accounted:", 0) != 0 && line.rfind("model:", 0) != 0 && line.rfind("inputs:", 0) != 0 &&
        line.find(" written to ") == std::string::npos)
      CHECK(line.size() <= 100);

  // Siracusa: every layer says why it runs where it does; cluster layers name what the NPU refused.
  const auto s =
      test::run_edgesim(fmt::format("run -p siracusa '{}' --timing-only --wide --json '{}'", resnet8(), d.file("s.json")));
  REQUIRE(s.status == 0);
  int cluster = 0;
  const auto sj = json_of(d.file("s.json"));
  for (const auto& l : sj["layers"]) {
    const std::string why = l["engine_reason"];
    CHECK(!why.empty());
    if (l["engine"] == "cluster") {
      ++cluster;
      CHECK_THAT(why, Contains("not npu: "));
      CHECK_THAT(s.output, Contains(why));   // --wide: the whole reason in the tiling table
    }
  }
  CHECK(cluster > 0);
  // compile shows the engine too.
  const auto c = test::run_edgesim(fmt::format("compile -p siracusa '{}' --wide", resnet8()));
  REQUIRE(c.status == 0);
  CHECK_THAT(c.output, Contains("engine") && Contains("npu") && Contains("not npu: "));
}

TEST_CASE("run: a verdict that says the golden files, not the simulator, disagree", "[cli][run]") {
  const std::string net = test::shared_networks() + "/dory/PenguiNet_32";
  REQUIRE_DATA(net);
  std::string onnx;
  for (const auto& e : fs::directory_iterator(net))
    if (e.path().extension() == ".onnx") onnx = e.path().string();
  const auto r = test::run_edgesim(fmt::format("run -p gap9 '{}' --expected '{}' --layout chw", onnx, net));
  INFO(r.output);
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Contains("verification: FAILED: the golden files differ from the golden model") &&
                           Contains("simulator = golden model") && Contains("match with --layout hwc: rerun with it"));
  const auto ok = test::run_edgesim(fmt::format("run -p gap9 '{}' --expected '{}' --arith exact", onnx, net));
  CHECK(ok.status == 0);
  CHECK_THAT(ok.output, Contains("verification: bit-exact: simulator = golden model on"));
}

TEST_CASE("run: output paths are checked before simulating, implausible values are warned about", "[cli][run]") {
  const auto r = test::run_edgesim(fmt::format("run -p gap8 '{}' --report /no/such/dir/r.html", resnet8()));
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Contains("edgesim: error: --report /no/such/dir/r.html: directory '/no/such/dir' does not exist"));
  CHECK(r.output.find("cycles") == std::string::npos);   // nothing was simulated

  const auto w = test::run_edgesim(
      fmt::format("run -p gap8 '{}' --timing-only --set cluster.freq_hz=250 --set l1.size=64KB", resnet8()));
  CHECK(w.status == 0);
  CHECK_THAT(w.output, Contains("edgesim: warning: --set cluster.freq_hz=250: 250 Hz is below 1 MHz"));
  CHECK_THAT(w.output, Contains("edgesim: warning: --set l1.size=64KB: 64KB is 64000 B (SI units)") &&
                           Contains("64KiB = 65536 B"));
}

TEST_CASE("sweep: policies, engine sets and linked keys as axes, names, all-failing exits 1", "[cli][sweep]") {
  test::TempDir d;
  const auto p = test::run_edgesim(fmt::format("sweep -p gap8 --policy dory,deeploy,tuned --set l1.size=64KiB,128KiB '{}' -o '{}'",
                                               tiny(), d.file("p.csv")));
  INFO(p.output);
  REQUIRE(p.status == 0);
  const auto rows = csv_rows(d.file("p.csv"));
  REQUIRE(rows.size() == 1 + 3 * 2);   // one row per (policy, point)
  std::set<std::string> seen;
  for (size_t i = 1; i < rows.size(); ++i) {
    std::vector<std::string> f;   // network, platform, policy, engines, l1.size, status, ...
    std::istringstream in(rows[i]);
    for (std::string x; std::getline(in, x, ',');) f.push_back(x);
    REQUIRE(f.size() > 5);
    seen.insert(f[2] + "|" + f[4]);
    CHECK(f[5] == "ok");
  }
  CHECK(seen == std::set<std::string>{"dory|64KiB", "dory|128KiB", "deeploy|64KiB", "deeploy|128KiB", "tuned|64KiB",
                                      "tuned|128KiB"});

  const auto e = test::run_edgesim(fmt::format("sweep -p siracusa --engines npu,cluster --engines cluster '{}' --json '{}'",
                                               resnet8(), d.file("e.json")));
  REQUIRE(e.status == 0);
  const auto ej = json_of(d.file("e.json"));
  REQUIRE(ej["results"].size() == 2);
  CHECK(ej["results"][0]["engines"] == "npu,cluster");
  CHECK(ej["results"][1]["engines"] == "cluster");
  CHECK(ej["results"][0]["total_cycles"] != ej["results"][1]["total_cycles"]);
  const auto br = test::run_edgesim(fmt::format("sweep -p siracusa --engines '[npu,cluster],[cluster]' '{}'", resnet8()));
  CHECK_THAT(br.output, Contains("sweep: 2 points, 2 ok"));

  const auto l = test::run_edgesim(fmt::format("sweep -p gap8 --link l1.size=64KiB,128KiB:l2.size=384KiB,512KiB '{}' -o '{}'",
                                               tiny(), d.file("l.csv")));
  REQUIRE(l.status == 0);
  const auto lrows = csv_rows(d.file("l.csv"));
  REQUIRE(lrows.size() == 3);   // 2 linked steps, not 4
  CHECK_THAT(lrows[1], Contains(",64KiB,384KiB,ok,"));
  CHECK_THAT(lrows[2], Contains(",128KiB,512KiB,ok,"));

  // Two networks with the same file name are told apart by their folders, or named NAME=path.
  const auto n = test::run_edgesim(fmt::format("sweep -p gap8 '{}' 'other={}' '{}' -o '{}'", tiny(), tiny(), resnet8(),
                                               d.file("n.csv")));
  REQUIRE(n.status == 0);
  const auto nrows = csv_rows(d.file("n.csv"));
  REQUIRE(nrows.size() == 4);
  CHECK_THAT(nrows[1], Catch::StartsWith("tiny,"));
  CHECK_THAT(nrows[2], Catch::StartsWith("other,"));
  CHECK_THAT(nrows[3], Catch::StartsWith("resnet8,"));

  const auto none = test::run_edgesim(fmt::format("sweep -p gap8 --set l1.size=1000,2000 '{}'", tiny()));
  CHECK(none.status == 1);
  CHECK_THAT(none.output, Contains("edgesim: error: sweep: none of the 2 points could be evaluated"));
}

TEST_CASE("install: the installed binary finds its platforms from any directory", "[cli][install]") {
  REQUIRE_DATA(mnv1());
  test::TempDir d;
  const std::string prefix = d.file("prefix");
  const int inst = std::system(fmt::format("cmake --install '{}' --prefix '{}' > '{}' 2>&1", EDGESIM_BUILD_DIR, prefix,
                                           d.file("install.log"))
                                   .c_str());
  INFO(slurp(d.file("install.log")));
  REQUIRE(inst == 0);
  CHECK(fs::is_regular_file(prefix + "/share/edgesim/platforms/gap8.yaml"));
  CHECK(fs::is_regular_file(prefix + "/share/edgesim/models/mobilenetv1_128/model.onnx"));
  CHECK(fs::is_directory(prefix + "/share/edgesim/configs/validation"));
  CHECK(fs::is_regular_file(prefix + "/lib/edgesim/libedgesim_mpi.so"));   // where an installed sweep --mpi looks
  // From a directory with no platforms/ in it: -p gap8 resolves to the installed file.
  const std::string cmd = fmt::format("cd '{}' && '{}/bin/edgesim' run -p gap8 '{}/share/edgesim/models/resnet8/model.onnx' "
                                      "--timing-only --json r.json 2>&1",
                                      d.path().string(), prefix, prefix);
  FILE* f = popen(cmd.c_str(), "r");
  REQUIRE(f != nullptr);
  std::string out;
  char buf[4096];
  for (size_t k; (k = fread(buf, 1, sizeof buf, f)) > 0;) out.append(buf, k);
  const int st = pclose(f);
  INFO(out);
  CHECK(WEXITSTATUS(st) == 0);
  const auto j = json_of(d.file("r.json"));
  bool platform_installed = false;
  for (const auto& file : j["provenance"]["files"])
    if (file["role"] == "platform") platform_installed = file["path"].get<std::string>().find(prefix) == 0;
  CHECK(platform_installed);
  const auto list = popen(fmt::format("cd '{}' && '{}/bin/edgesim' describe --list", d.path().string(), prefix).c_str(), "r");
  std::string listing;
  for (size_t k; (k = fread(buf, 1, sizeof buf, list)) > 0;) listing.append(buf, k);
  pclose(list);
  CHECK_THAT(listing, Contains("gap8") && Contains("siracusa"));
}

TEST_CASE("compile and validate check their output paths before any work", "[cli]") {
  const auto c = test::run_edgesim(fmt::format("compile -p gap8 '{}' -o /no/such/dir/s.json", resnet8()));
  CHECK(c.status == 2);
  CHECK_THAT(c.output, Contains("edgesim: error: -o /no/such/dir/s.json: directory '/no/such/dir' does not exist"));
  CHECK(c.output.find("network:") == std::string::npos);
  const auto v = test::run_edgesim("validate --json /no/such/dir/v.json");
  CHECK(v.status == 2);
  CHECK_THAT(v.output, Contains("edgesim: error: --json /no/such/dir/v.json: directory '/no/such/dir' does not exist"));
}

TEST_CASE("run: a timing-only run types guessed graph inputs from --inputs like the verified run, and warns without",
          "[cli][run]") {
  // Deeploy graphs declare FLOAT inputs; their integer type comes from the data (docs/dialects.md).
  const std::string dir = test::shared_networks() + "/deeploy/Models/microLlama/INT8/microLlama1";
  REQUIRE_DATA(dir);
  auto total = [](const std::string& out) {
    std::smatch m;
    REQUIRE(std::regex_search(out, m, std::regex("total: +([0-9,]+) cycles")));
    return m[1].str();
  };
  const auto verified = test::run_edgesim(fmt::format("run -p siracusa '{0}/network.onnx' --inputs '{0}/inputs.npz'", dir));
  const auto typed = test::run_edgesim(fmt::format("run -p siracusa '{0}/network.onnx' --inputs '{0}/inputs.npz' --timing-only", dir));
  const auto guessed = test::run_edgesim(fmt::format("run -p siracusa '{0}/network.onnx' --timing-only", dir));
  REQUIRE(verified.status == 0);
  REQUIRE(typed.status == 0);
  REQUIRE(guessed.status == 0);
  CHECK(total(typed.output) == total(verified.output));
  CHECK(total(guessed.output) != total(verified.output));   // u8 guessed: another graph
  CHECK_THAT(test::unwrapped(guessed.output), Contains("declare no integer type and were typed u8 by default"));
  CHECK(typed.output.find("declare no integer type") == std::string::npos);
  CHECK(verified.output.find("declare no integer type") == std::string::npos);
}

TEST_CASE("compile and tune: --inputs types guessed graph inputs as run does, and they warn without",
          "[cli][compile][tune]") {
  const std::string dir = test::shared_networks() + "/deeploy/Models/microLlama/INT8/microLlama1";
  REQUIRE_DATA(dir);
  test::TempDir tmp;
  const auto typed = test::run_edgesim(fmt::format(
      "compile -p siracusa --policy deeploy '{0}/network.onnx' --inputs '{0}/inputs.npz' --check -o '{1}'", dir,
      tmp.file("typed.json")));
  const auto guessed = test::run_edgesim(fmt::format("compile -p siracusa --policy deeploy '{0}/network.onnx' -o '{1}'",
                                                     dir, tmp.file("guessed.json")));
  INFO(typed.output);
  REQUIRE(typed.status == 0);
  REQUIRE(guessed.status == 0);
  // --check runs on the given data; the typed graph is another schedule than the guessed one.
  CHECK_THAT(typed.output, Contains("check: tiled execution bit-exact") && Contains("inputs.npz)"));
  CHECK(typed.output.find("declare no integer type") == std::string::npos);
  CHECK_THAT(test::unwrapped(guessed.output), Contains("declare no integer type and were typed u8 by default"));
  CHECK(slurp(tmp.file("typed.json")) != slurp(tmp.file("guessed.json")));
  const auto tuned = test::run_edgesim(fmt::format(
      "tune -p siracusa '{0}/network.onnx' --inputs '{0}/inputs.npz' --no-cache --analytic-only", dir));
  INFO(tuned.output);
  CHECK(tuned.status == 0);
  CHECK(tuned.output.find("declare no integer type") == std::string::npos);
  const auto missing = test::run_edgesim(fmt::format("tune -p siracusa '{0}/network.onnx' --inputs /no/such.npz", dir));
  CHECK(missing.status == 2);
  CHECK_THAT(missing.output, Contains("edgesim: error: --inputs /no/such.npz: no such file or directory"));
}

TEST_CASE("edgesim tune --no-cache: layers tuned earlier in the run are labelled so, not as cached", "[cli][tune]") {
  // On gap9 the engine choice tunes NPU layers before the per-layer pass reuses them.
  const auto r = test::run_edgesim(fmt::format("tune -p gap9 '{}' --no-cache --wide", resnet8()));
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(r.output.find("cached") == std::string::npos);
  CHECK_THAT(r.output, Contains(" earlier\n") && Contains("layers already tuned earlier in this run"));
}
