// The command-line surface as a user meets it (docs/cli.md): options and the network in any
// order for every subcommand, every parse error as one "edgesim: error:" line on stderr with
// exit status 2 and a "did you mean" for a misspelled name, and platforms by name (-p gap8,
// describe --list). Runs the binary from the source tree, as a user in the checkout would; the
// runs are timing-only on the small networks under models/, so the file stays fast.
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <sys/wait.h>

#include <catch2/catch.hpp>

#include "support/paths.h"
#include "support/temp_dir.h"

namespace {

using edgesim::test::TempDir;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

struct Outcome {
  int status = -1;
  std::string out, err;   // stdout, stderr
};

// Runs `edgesim ARGS` in the source tree with stdout and stderr captured apart.
Outcome cli(const std::string& args) {
  TempDir tmp;
  const std::string err = tmp.file("stderr");
  const std::string cmd = "cd '" + edgesim::test::source_dir() + "' && '" + edgesim::test::edgesim_bin() + "' " + args +
                          " 2>'" + err + "'";
  Outcome r;
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  std::ifstream f(err);
  std::stringstream ss;
  ss << f.rdbuf();
  r.err = ss.str();
  return r;
}

int lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

// The parse-error contract: exit 2, nothing on stdout, one "edgesim: error:" line on stderr.
void check_one_error_line(const Outcome& r, const std::string& args) {
  INFO("edgesim " << args << "\nstdout: " << r.out << "\nstderr: " << r.err);
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK(lines(r.err) == 1);
  CHECK_THAT(r.err, StartsWith("edgesim: error: "));
}

const std::string kNet = "models/resnet8/model.onnx";
const std::string kTiny = "models/tiny/model.onnx";

// Seconds vary from run to run; everything else in the output must not.
std::string without_times(const std::string& s) {
  return std::regex_replace(s, std::regex(R"([0-9]+\.[0-9]+ s\b)"), "<t> s");
}

}  // namespace

TEST_CASE("cli surface: options before and after the network give the same result", "[e2e][cli]") {
  struct Order {
    std::string before, after;   // the same arguments, options first / network first
    int status;
  };
  TempDir tmp;
  // validate has no network: its options in either order, on one case of the tiny network.
  tmp.write("cases/tiny-gap8.yaml", "name: tiny-gap8\nwhat: \"tiny on gap8\"\nnetwork: model:tiny\nplatform: gap8\n"
                                    "measured_on: gvsoc\nmetric: cycles\npublished:\n  total: 15817\ntolerance: 0.9\n"
                                    "source: \"none: a test case\"\n");
  const std::string cases = "'" + tmp.file("cases") + "'", csv = "'" + tmp.file("sweep.csv") + "'";
  const std::vector<Order> orders{
      {"describe -p gap8 --set l1.size=128KiB --set l2.size=256KiB " + kTiny,
       "describe " + kTiny + " -p gap8 --set l1.size=128KiB --set l2.size=256KiB", 0},
      {"describe --set l1.size=128KiB gap8", "describe gap8 --set l1.size=128KiB", 0},
      {"verify --seed 3 " + kTiny, "verify " + kTiny + " --seed 3", 0},
      {"compile -p gap8 --set l1.size=128KiB --engines cluster --policy deeploy " + kNet,
       "compile " + kNet + " -p gap8 --set l1.size=128KiB --engines cluster --policy deeploy", 0},
      {"run -p gap8 --set l1.size=128KiB --set cluster.n_cores=4 " + kNet + " --timing-only",
       "run " + kNet + " -p gap8 --set l1.size=128KiB --set cluster.n_cores=4 --timing-only", 0},
      {"run --engines npu,cluster -p gap9 --network-loop dory " + kNet + " --timing-only",
       "run " + kNet + " --timing-only --engines npu,cluster -p gap9 --network-loop dory", 0},
      {"tune -p gap8 --set l1.size=128KiB --analytic-only --no-cache " + kTiny,
       "tune " + kTiny + " -p gap8 --set l1.size=128KiB --analytic-only --no-cache", 0},
      {"sweep -p gap8 --set l1.size=64KiB,128KiB --fresh -o " + csv + " " + kTiny + " " + kNet,
       "sweep " + kTiny + " --set l1.size=64KiB,128KiB " + kNet + " -p gap8 --fresh -o " + csv, 0},
      {"validate --cases " + cases + " --case tiny-gap8", "validate --case tiny-gap8 --cases " + cases, 0},
  };
  for (const Order& o : orders) {
    const Outcome a = cli(o.before), b = cli(o.after);
    INFO("edgesim " << o.before << "\n" << a.out << a.err << "\nedgesim " << o.after << "\n" << b.out << b.err);
    CHECK(a.status == o.status);
    CHECK(b.status == o.status);
    CHECK(!a.out.empty());
    CHECK(without_times(a.out) == without_times(b.out));
  }
  // The reproducer of issue 18: a repeatable option before the network no longer swallows it.
  const Outcome r = cli("run -p platforms/gap8.yaml --set l1.size=128KiB " + kNet + " --timing-only");
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Contains("model:        " + kNet));
}

TEST_CASE("cli surface: every documented option of run, misspelled, is one error with a suggestion", "[e2e][cli]") {
  // docs/cli.md, `edgesim run`: each option is misspelled twice, by swapping two neighbouring
  // letters and by dropping one, before the network as a user would type it.
  const std::vector<std::string> options{"--platform", "--policy", "--set",    "--engines", "--network-loop",
                                         "--buffering", "--inputs", "--expected", "--layout", "--seed",
                                         "--timing-only", "--json", "--trace", "--report"};
  for (const std::string& opt : options) {
    std::string swapped = opt, dropped = opt;
    for (size_t i = 3; i + 1 < opt.size(); ++i)
      if (opt[i] != opt[i + 1]) {
        std::swap(swapped[i], swapped[i + 1]);
        break;
      }
    dropped.erase(2 + (opt.size() - 2) / 2, 1);
    for (const std::string& typo : {swapped, dropped}) {
      const std::string args = "run " + typo + " x " + kNet;
      const Outcome r = cli(args);
      check_one_error_line(r, args);
      CHECK_THAT(r.err, Contains("run: unknown option '" + typo + "' (did you mean ") && Contains("'" + opt + "'"));
    }
  }
}

TEST_CASE("cli surface: parse errors are one line with exit status 2", "[e2e][cli]") {
  struct Case {
    std::string args, message;
  };
  const std::vector<Case> cases{
      {"", "edgesim: error: no command given (commands: describe, verify, compile, run, tune, sweep, validate"},
      {"runn " + kNet, "edgesim: error: unknown command 'runn' (did you mean 'run'?)"},
      {"simulate " + kNet, "edgesim: error: unknown command 'simulate' (commands: describe, verify,"},
      {"--verison", "edgesim: error: unknown option '--verison' (did you mean '--version'?)"},
      {"-p gap8 run " + kNet, "edgesim: error: option '-p' before the command: options follow it (edgesim run -p ...)"},
      {"run --polcy dory " + kNet, "edgesim: error: run: unknown option '--polcy' (did you mean '--policy'?)"},
      {"compile " + kNet + " --polcy=dory", "edgesim: error: compile: unknown option '--polcy' (did you mean '--policy'?)"},
      {"tune " + kNet + " --top_k 3", "edgesim: error: tune: unknown option '--top_k' (did you mean '--top-k'?)"},
      {"sweep " + kNet + " --jsn r.json", "edgesim: error: sweep: unknown option '--jsn' (did you mean '--json'?)"},
      {"verify " + kNet + " --expcted x", "edgesim: error: verify: unknown option '--expcted' (did you mean '--expected'?)"},
      {"describe --lst", "edgesim: error: describe: unknown option '--lst' (did you mean '--list'?)"},
      {"validate --cse x", "edgesim: error: validate: unknown option '--cse' (did you mean '--case'?)"},
      {"run --xyzzy " + kNet, "edgesim: error: run: unknown option '--xyzzy' (edgesim run --help lists the options)"},
      {"run -timing-only " + kNet, "edgesim: error: run: unknown option '-timing-only' (did you mean '--timing-only'?)"},
      {"run --timing-only", "edgesim: error: run: missing argument 'model' (ONNX network)"},
      {"compile " + kNet + " " + kTiny, "edgesim: error: compile: unexpected argument '" + kTiny + "' (after '" + kNet + "')"},
      {"validate extra", "edgesim: error: validate: unexpected argument 'extra' (validate takes no positional arguments)"},
      {"run " + kNet + " --policy", "edgesim: error: run: --policy needs a value"},
      {"run --set --timing-only " + kNet, "edgesim: error: run: --set needs a value (got the option '--timing-only')"},
      {"run " + kNet + " --policy dorry",
       "edgesim: error: --policy: tiling policy 'dorry' is not one of dory, dory-2021, deeploy, tuned, untiled (did you mean 'dory'?)"},
      {"sweep " + kNet + " --policy deeploi", "edgesim: error: --policy: tiling policy 'deeploi' is not one of "},
      {"run " + kNet + " --engines npu,clustr",
       "edgesim: error: --engines: engine 'clustr' is not one of npu, aimc, mvu, cluster, digital, analog, host (did you mean 'cluster'?)"},
      {"compile --engines nppu " + kNet, "edgesim: error: --engines: engine 'nppu' is not one of npu, aimc, mvu, cluster, digital, analog, host (did you mean 'npu'?)"},
      {"run " + kNet + " --buffering dubble", "edgesim: error: --buffering: 'dubble' is not one of auto, single, double (did you mean 'double'?)"},
      {"verify " + kNet + " --arith dorry", "edgesim: error: --arith: 'dorry' is not one of exact, dory (did you mean 'dory'?)"},
      {"run " + kNet + " --seed abc", "edgesim: error: --seed: 'abc' is not a non-negative integer"},
      {"tune " + kNet + " -j 0", "edgesim: error: --jobs: "},
      {"run -p gap7 " + kNet,
       "edgesim: error: --platform gap7: no such file and no bundled platform of that name (did you mean 'gap8' or "
       "'gap9'?); bundled: barvinn, diana, gap8, gap9, pulp_open, siracusa"},
      {"describe sircusa", "edgesim: error: describe sircusa: no such file and no bundled platform of that name (did you mean 'siracusa'?)"},
      {"describe --list -p gap8", "edgesim: error: --platform excludes --list"},
      {"run -p GAP8 " + kNet, "edgesim: error: --platform GAP8: no such file and no bundled platform of that name (did you mean 'gap8'?)"},
      {"run gap8 " + kNet, "edgesim: error: run: unexpected argument '" + kNet + "' (after 'gap8'; 'gap8' is a platform: give it with -p gap8)"},
      {"run -p gap8 platforms/gap9.yaml",
       "edgesim: error: platforms/gap9.yaml: a YAML file, not an ONNX model (a platform file? give it as the platform, -p)"},
  };
  for (const Case& c : cases) {
    const Outcome r = cli(c.args);
    check_one_error_line(r, c.args);
    CHECK_THAT(r.err, StartsWith(c.message));
  }
  const Outcome help = cli("run --help");
  CHECK(help.status == 0);
  CHECK_THAT(help.out, Contains("--timing-only"));
  CHECK(cli("--version").status == 0);
}

TEST_CASE("cli surface: platforms by name", "[e2e][cli]") {
  const Outcome by_name = cli("run -p gap8 " + kNet + " --timing-only");
  const Outcome by_path = cli("run -p platforms/gap8.yaml " + kNet + " --timing-only");
  INFO(by_name.out << by_name.err);
  CHECK(by_name.status == 0);
  CHECK(by_path.status == 0);
  CHECK_THAT(by_name.out, Contains("platform:     gap8"));
  CHECK(by_name.out == by_path.out);
  CHECK(cli("compile -p gap9 " + kNet).out == cli("compile -p platforms/gap9.yaml " + kNet).out);
  CHECK(cli("describe siracusa").out == cli("describe -p platforms/siracusa.yaml").out);

  const Outcome list = cli("describe --list");
  INFO(list.out << list.err);
  CHECK(list.status == 0);
  CHECK(list.err.empty());
  for (const char* name : {"gap8", "gap9", "siracusa"})
    CHECK(std::regex_search(list.out, std::regex(std::string("(^|\n)") + name + " +[^ \n][^\n]*\n")));
  CHECK_THAT(list.out, Contains("GreenWaves GAP8"));
}
