// `edgesim validate`: runs the published reference points of configs/validation (or --cases DIR)
// timing-only, prints published vs edgesim with the signed error and the tolerance per case, and
// writes --json / --report. Exit status: 0 every case within its tolerance, 1 a case outside it,
// 2 an error (bad case file, missing network or platform, a flow error).
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "compiler/io/write_file.h"
#include "sim/cli/args.h"
#include "sim/cli/commands.h"
#include "sim/cli/resources.h"
#include "sim/validate/calibration.h"
#include "sim/validate/validate.h"

namespace edgesim::cli {
namespace {

namespace fs = std::filesystem;

struct ValidateArgs {
  std::vector<std::string> cases;
  std::string dir, shared, json, report, calibration;
  bool wide = false;
};

std::string default_cases_dir() {
  const std::string d = data_path("configs/validation");
  return d.empty() ? "configs/validation" : d;
}

// $EDGESIM_SHARED_NETWORKS, else the build's EDGESIM_SHARED_NETWORKS (CMake cache), else the
// folder beside the source tree.
std::string default_shared_dir() {
  if (const char* e = std::getenv("EDGESIM_SHARED_NETWORKS"); e && *e) return e;
  if (std::string(EDGESIM_SHARED_NETWORKS).empty()) return std::string(EDGESIM_SOURCE_DIR) + "/../shared/networks";
  return EDGESIM_SHARED_NETWORKS;
}

int run_validate(const ValidateArgs& a) {
  using namespace edgesim::validate;
  check_output_path("--json", a.json);
  check_output_path("--report", a.report);
  check_output_path("--calibration", a.calibration);
  if (!a.calibration.empty() && !a.cases.empty())
    throw CliError("--calibration records every case: it cannot be combined with --case");
  std::vector<Case> all;
  try {
    all = read_cases(a.dir.empty() ? default_cases_dir() : a.dir);
  } catch (const ValidationError& e) {
    throw CliError(e.what());
  }
  // --case NAME: that case, or every case whose name starts with NAME.
  std::set<std::string> wanted(a.cases.begin(), a.cases.end());
  auto picks = [&](const Case& c, const std::string& w) {
    if (c.name == w) return true;
    for (const Case& o : all)
      if (o.name == w) return false;   // an exact name picks that case alone
    return c.name.rfind(w, 0) == 0;
  };
  std::vector<const Case*> chosen;
  for (const Case& c : all)
    if (wanted.empty() || std::any_of(wanted.begin(), wanted.end(), [&](const std::string& w) { return picks(c, w); }))
      chosen.push_back(&c);
  for (const std::string& w : wanted) {
    bool known = false;
    for (const Case& c : all) known = known || picks(c, w);
    if (!known) {
      std::string names;
      for (const Case& c : all) names += (names.empty() ? "" : ", ") + c.name;
      throw CliError("--case " + w + ": no such case (known: " + names + ")");
    }
  }
  const std::string platforms = data_path("platforms");   // the tree holding platforms/ and models/
  const Paths paths{generated_models_root(),
                    platforms.empty() ? std::string(EDGESIM_SOURCE_DIR) : fs::path(platforms).parent_path().string(),
                    a.shared.empty() ? default_shared_dir() : a.shared};
  std::vector<Outcome> out;
  for (size_t i = 0; i < chosen.size(); ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    std::cerr << fmt::format("[{}/{}] {} ...", i + 1, chosen.size(), chosen[i]->name) << std::flush;
    try {
      out.push_back(run_case(*chosen[i], paths));
    } catch (const ValidationError& e) {
      std::cerr << "\n";
      throw CliError(e.what());
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cerr << fmt::format(" {:.1f} s\n", s);
  }
  std::cout << outcomes_table(out, a.wide ? 0 : 100);
  if (!a.json.empty()) write_file_atomically(a.json, outcomes_json(out));
  if (!a.report.empty()) write_file_atomically(a.report, outcomes_html(out));
  if (!a.calibration.empty()) write_file_atomically(a.calibration, calibration_yaml(out));
  for (const Outcome& o : out)
    if (!o.pass) return 1;
  return 0;
}

}  // namespace

void register_validate(CLI::App& app, Action& action) {
  auto* sub = app.add_subcommand("validate", "Compare edgesim's cycles with published measurements (docs/validation.md)");
  auto args = std::make_shared<ValidateArgs>();
  sub->add_option("--case", args->cases, "run only these cases, or the cases whose names start with it (repeatable or comma-separated)")
      ->delimiter(',')
      ->allow_extra_args(false);
  sub->add_option("--cases", args->dir, "folder of case files (default: configs/validation)");
  sub->add_option("--shared", args->shared,
                  "folder of the shared reference networks (default: $EDGESIM_SHARED_NETWORKS or ../shared/networks)");
  sub->add_option("--json", args->json, "write the results as JSON");
  sub->add_option("--report", args->report, "write an HTML page with the errors per case");
  sub->add_option("--calibration", args->calibration,
                  "write every platform's calibration status, the file `run` reads (configs/calibration.yaml)");
  sub->add_flag("--wide", args->wide, "print every table column (default: fit 100 columns)");
  add_memory_limit_option(sub);
  sub->footer("Exit status: 0 every case within its tolerance, 1 a case outside it, 2 an error.");
  action = [args] { return run_validate(*args); };
}

}  // namespace edgesim::cli
