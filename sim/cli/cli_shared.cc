// Helpers shared by several subcommands (declared in commands.h).
#include <filesystem>
#include <iostream>
#include <memory>

#include <unistd.h>

#include <fmt/format.h>

#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "platforms/util/printable.h"
#include "sim/cli/commands.h"

namespace edgesim::cli {

namespace fs = std::filesystem;

// Translates a TilingError's minimal L1 budget into the memory size that gives it, when the
// policy's budget follows l1.size (dory: l1.size minus reserved space and stacks), so the user
// learns which `--set l1.size=` would work. Empty when no such size can be stated.
std::string tiling_size_hint(const PlatformSpec& spec, const std::string& policy, const TilingError& e) {
  const Flow* f = find_flow(policy);
  if (e.level() != "L1" || e.min_budget() <= 0 || !f || !f->l1_budget_follows_l1_size(spec)) return "";
  const int64_t overhead = spec.l1.size - policy_budgets(spec, policy).l1;
  return fmt::format(" (l1.size >= {} B on {})", e.min_budget() + overhead, spec.name);
}

std::function<void(const std::string&)> tuning_progress(const std::string& cache_path) {
  auto first = std::make_shared<bool>(true);
  return [first, cache_path](const std::string& line) {
    if (*first) {
      std::cerr << (cache_path.empty() ? std::string("edgesim: tuning the plan (no tune cache)")
                                       : "edgesim: tuning the plan (not in the tune cache " + printable(cache_path) + ")")
                << "; each layer's candidates are simulated\n";
      *first = false;
    }
    std::cerr << "edgesim: tuning: " << line << std::endl;
  };
}

EngineAssignment assign_engines_cli(Graph& g, const PlatformSpec& spec, const std::vector<std::string>& engines) {
  try {
    return assign_engines(g, spec, engines);
  } catch (const std::invalid_argument& e) {
    throw CliError(std::string(engines.empty() ? "" : "--engines: ") + e.what());
  } catch (const std::runtime_error& e) {
    throw CliError(e.what());
  }
}

std::string engine_summary(const Graph& g, const EngineAssignment& a) {
  std::string s;
  for (size_t i = 0; i < a.preference.size(); ++i) {
    const std::string& e = a.preference[i];
    int64_t layers = 0, nodes = 0;
    for (const Node& n : g.nodes)
      if (n.engine == e) ++nodes, layers += Graph::is_layer(n);
    if (nodes == 0) continue;
    s += fmt::format("{}{} {} {}", s.empty() ? "" : ", ", i < a.labels.size() ? a.labels[i] : e, e == "cluster" ? nodes : layers,
                     e == "cluster" ? (nodes == 1 ? "node" : "nodes") : (layers == 1 ? "layer" : "layers"));
    if (e == "npu" && a.wmem_budget > 0) s += fmt::format(" (weights {} B in WMEM)", a.wmem_bytes);
  }
  return s;
}

// Without --inputs, an --expected directory may supply them (docs/verify.md).
std::string inputs_next_to(const std::string& expected) {
  std::error_code ec;
  if (expected.empty() || !fs::is_directory(expected, ec)) return "";
  const fs::path dir(expected);
  if (fs::is_regular_file(dir / "input.txt")) return (dir / "input.txt").string();
  if (fs::is_regular_file(dir / "inputs.npz")) return (dir / "inputs.npz").string();
  if (fs::is_regular_file(dir / "input_0.pb")) return dir.string();
  if (fs::is_regular_file(dir / "test_data_set_0" / "input_0.pb")) return (dir / "test_data_set_0").string();
  return "";
}

void check_input_path(const std::string& flag, const std::string& path) {
  std::error_code ec;
  if (!path.empty() && !fs::exists(path, ec)) throw CliError(flag + " " + path + ": no such file or directory");
}

void check_output_path(const std::string& flag, const std::string& path) {
  if (path.empty()) return;
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw CliError(fmt::format("{} {}: is a directory", flag, path));
  const fs::path dir = fs::path(path).parent_path();
  const fs::path where = dir.empty() ? fs::path(".") : dir;
  if (!fs::is_directory(where, ec))
    throw CliError(fmt::format("{} {}: directory '{}' does not exist", flag, path, where.string()));
  if (::access(where.c_str(), W_OK) != 0)
    throw CliError(fmt::format("{} {}: directory '{}' is not writable", flag, path, where.string()));
}

void print_platform_warnings(const PlatformSpec& spec) {
  for (const std::string& w : spec.warnings) std::cerr << "edgesim: warning: " << printable(w) << "\n";
}

std::string guessed_input_types_note(const Graph& g) {
  int n = 0;
  const TensorDesc* first = nullptr;
  for (int id : g.inputs)
    if (g.tensor(id).dtype_inferred && n++ == 0) first = &g.tensor(id);
  if (n == 0) return "";
  return fmt::format("{} graph input(s) (first '{}') declare no integer type and were typed {} by default; "
                     "Deeploy types them from the input data: pass --inputs FILE (e.g. the network's "
                     "inputs.npz) for the graph and cycles of the verified run",
                     n, printable(first->name), dtype_name(first->dtype));
}

}  // namespace edgesim::cli
