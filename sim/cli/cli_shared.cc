// Helpers shared by several subcommands (declared in commands.h).
#include <filesystem>

#include <fmt/format.h>

#include "compiler/tiler/policy.h"
#include "sim/cli/commands.h"

namespace edgesim::cli {

namespace fs = std::filesystem;

// Translates a TilingError's minimal L1 budget into the memory size that gives it, when the
// policy's budget follows l1.size (dory: l1.size minus reserved space and stacks), so the user
// learns which `--set l1.size=` would work. Empty when no such size can be stated.
std::string tiling_size_hint(const PlatformSpec& spec, const std::string& policy, const TilingError& e) {
  if (e.level() != "L1" || e.min_budget() <= 0 || policy != "dory" || !spec.budgets.dory.present) return "";
  const int64_t overhead = spec.l1.size - policy_budgets(spec, policy).l1;
  return fmt::format(" (l1.size >= {} B on {})", e.min_budget() + overhead, spec.name);
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

}  // namespace edgesim::cli
