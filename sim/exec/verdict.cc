// run_verdict (verdict.h).
#include "sim/exec/verdict.h"

#include <fmt/format.h>

namespace edgesim {

RunVerdict run_verdict(const VerifyOutcome& sim_vs_model, const GoldenSummary* golden) {
  RunVerdict v;
  if (!sim_vs_model.ok) {
    v.message = "the simulator differs from the golden model: " + sim_vs_model.message;
    return v;
  }
  const std::string sim = fmt::format("simulator = golden model on {} tensors", sim_vs_model.tensors);
  if (!golden) {
    v.ok = true;
    v.message = "bit-exact: " + sim;
    return v;
  }
  if (golden->bit_exact == golden->tensors) {
    v.ok = true;
    v.message = fmt::format("bit-exact: {}; golden files {}: {}/{} bit-exact", sim, golden->path, golden->bit_exact,
                            golden->tensors);
    return v;
  }
  v.message = fmt::format("the golden files differ from the golden model: {}/{} of {} bit-exact{} (the {})",
                          golden->bit_exact, golden->tensors, golden->path,
                          golden->layout.empty() ? "" : " read as --layout " + golden->layout, sim);
  if (!golden->other_layout.empty())
    v.message += fmt::format("; the {} others match with --layout {}: rerun with it",
                             golden->tensors - golden->bit_exact, golden->other_layout);
  return v;
}

}  // namespace edgesim
