// Validation against published measurements (docs/validation.md): the cases of
// configs/validation/*.yaml, their timing-only runs and their verdicts.
//
// A case names one published reference point: the network (`model:<name>` = a network the
// models/ generator builds, `shared:<path>` = a reference network under the shared networks
// folder), the platform file and overrides, the policy and schedule options, where the figure was
// measured (gvsoc, rtl, silicon), the metric (accounted_cycles, cycles, mac_per_cycle; energy:
// pj_per_mac, top_per_joule = 2·MACs / energy, energy_ratio = the energy of a baseline run with
// `baseline_set` instead of `set` over this run's, for "N× less energy than" figures), the
// published figure(s), the tolerance and the exact source. Case files are strict: an unknown,
// duplicate or missing key, a bad value or a name that differs from the file stem is one error
// naming the file (and line).
// error = predicted / published - 1 (signed); a case passes when |error| <= tolerance and every
// published layer figure is within layer_tolerance (default: the case's tolerance).
#pragma once
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace edgesim::validate {

class ValidationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Case {
  std::string file;
  std::string name, what, network, platform, policy = "dory", buffering = "auto", network_loop = "auto";
  std::string io_layout = "hwc";   // graph I/O layout (compiler/passes/io_layout.h)
  std::string inputs;              // shared:<path> input data that types the graph's inputs (Deeploy), or ""
  std::vector<std::string> overrides, engines;
  std::vector<std::string> baseline_overrides;   // energy_ratio: the baseline run's overrides (instead of `set`)
  std::string measured_on, metric, source, notes;
  double published = 0;
  std::map<std::string, double> published_layers;   // edgesim layer name -> figure (same metric)
  double tolerance = 0, layer_tolerance = -1;        // -1: the case's tolerance
  double layer_limit() const { return layer_tolerance > 0 ? layer_tolerance : tolerance; }
};

Case read_case(const std::string& path);
// Every *.yaml of `dir`, sorted by name; throws when the folder has none or a name repeats.
std::vector<Case> read_cases(const std::string& dir);

struct Paths {
  std::string build_dir, source_dir, shared_dir;    // where model:, platforms and shared: resolve
};
// The ONNX file and platform file a case runs (throws ValidationError when one is missing).
std::string network_path(const Case& c, const Paths& p);
// The input data file of `inputs:` (empty when the case has none; throws when it is missing).
std::string inputs_path(const Case& c, const Paths& p);
std::string platform_path(const Case& c, const Paths& p);

struct LayerOutcome {
  std::string name;
  double published = 0, predicted = 0, error = 0;
};

struct Outcome {
  const Case* c = nullptr;
  double predicted = 0, error = 0;
  bool pass = false;
  int64_t wall_cycles = 0, accounted_cycles = 0, total_macs = 0;
  double energy_pj = 0, baseline_energy_pj = 0;   // energy of the run (and of the baseline run, energy_ratio)
  std::vector<LayerOutcome> layers;
};

// Every published layer of a validation run at once: how many, how many within 10 %, the median
// and the worst |error| (and whose). All zero without published layers.
struct LayerSummary {
  size_t count = 0, within_10pct = 0;
  double median_abs_error = 0, worst_abs_error = 0;
  std::string worst_case, worst_layer;
};
LayerSummary layer_summary(const std::vector<Outcome>& r);

double signed_error(double predicted, double published);
// True for the energy metrics (pj_per_mac, top_per_joule, energy_ratio), false for the timing ones.
bool energy_metric(const std::string& metric);
bool within(double error, double tolerance);
// Runs the case timing-only through run_flow (sim/flow: import, engines, tiling, schedule,
// SystemC). Throws ValidationError "<case file>: <message>" for a missing network or platform,
// a published layer name the network lacks, or any error of the flow.
Outcome run_case(const Case& c, const Paths& p);

// Reports: a terminal table (fitting `width` columns, 0 = all columns: sim/report/text_table.h;
// case and layer names are never cut: columns are hidden instead), a JSON document
// {"cases": [{..., "layers": [...]}], "layers": {summary}} and a self-contained HTML page.
std::string outcomes_table(const std::vector<Outcome>& r, size_t width = 100);
std::string outcomes_json(const std::vector<Outcome>& r);
std::string outcomes_html(const std::vector<Outcome>& r);

}  // namespace edgesim::validate
