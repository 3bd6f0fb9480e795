// Policy `tuned` over memory sizes (docs/sweep.md "Tuned plans carried to more memory"): a plan
// found with less memory also fits with more, so a sweep gives each tuned point the best of its
// own tuning and of the plans of the points just below it. The tuner's search is heuristic (the
// analytic top K simulated per layer, the greedy rounds of network plans: docs/tune.md "Monotone
// in memory"), so its own result at a larger size can be a little slower than at a smaller one;
// with the carry a sweep's tuned cycles never grow along a memory axis, as long as a plan takes
// no more cycles with more memory (the timing does not depend on the sizes the plan leaves unused).
//
// Memory axes: the axes of kMemoryKeys that are not linked to others and whose values are all
// sizes. Point q is just below p along such an axis when q differs from p only in that axis (same
// network, policy and engine set) and q's value is the next smaller size among the axis's values.
#pragma once
#include <cstddef>
#include <functional>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/sweep/evaluate.h"
#include "sim/sweep/record.h"

namespace edgesim::sweep {

inline constexpr const char* kMemoryKeys[] = {"l1.size", "l2.size", "l3.size", "wmem.size"};

// For each point index of the sweep: the indices of the points just below it along each memory
// axis, for points of policy `tuned` (empty for the others and when no axis is a memory axis).
std::vector<std::vector<size_t>> tuned_points_below(const SweepSpec& s);

// A point evaluated with a given plan (evaluate_plan in the sweep's process).
using EvaluatePlan = std::function<PointRecord(size_t index, const nlohmann::json& plan)>;

struct CarryTotals {
  size_t simulated = 0;   // plans simulated at a point other than their own
  size_t carried = 0;     // points whose figures are now those of a plan found below them
};

// Visits the tuned points so that the points below come first. A point whose status is "ok" or
// "infeasible" simulates the plan of each point just below it that is ok and has a plan other than
// its own; a plan that runs in fewer cycles (or at all, for an infeasible point) replaces the
// point's record, with carried_from naming the point whose tuning found it (its values of the
// axes that have more than one: "l1.size=80KiB l2.size=448KiB"). Ties keep the point's
// own plan; records without a plan (read back from a CSV) carry nothing.
CarryTotals carry_tuned_plans(const SweepSpec& s, std::vector<PointRecord>& rs, const EvaluatePlan& evaluate);

}  // namespace edgesim::sweep
