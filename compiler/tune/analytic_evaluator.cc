// AnalyticEvaluator (evaluator.h): analytic_cycles for every candidate, -1 for a candidate the
// analytic model rejects (TilingError: not a valid tiling of the layer, e.g. a Cout tile that
// splits a group or a partial-sum tile) or that cannot be costed (std::invalid_argument from a
// cost model, e.g. a platform without cluster cost constants or without L3 for an L3 copy).
// Feasibility against memory budgets is the enumeration's job (l1_footprint); this evaluator
// does not re-check it.
#include <stdexcept>

#include "compiler/tune/evaluator.h"

namespace edgesim {

std::vector<int64_t> AnalyticEvaluator::cycles(const Graph& g, int node, const std::vector<Candidate>& cands,
                                               const PlatformSpec& spec, const AnalyticContext& ctx) {
  std::vector<int64_t> out;
  out.reserve(cands.size());
  for (const Candidate& c : cands) {
    try {
      out.push_back(analytic_cycles(g, node, c.tiling, spec, ctx));
    } catch (const TilingError&) {
      out.push_back(-1);
    } catch (const std::invalid_argument&) {
      out.push_back(-1);
    }
  }
  return out;
}

}  // namespace edgesim
