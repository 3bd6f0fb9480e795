// The cycles-energy trade-off of a sweep (internal to sim/sweep): the Pareto front of its points
// (a point is on the front when no other point has fewer or equal cycles and less or equal energy
// with one of the two strictly lower) and a scatter plot of every feasible point with the front
// drawn as a staircase, the best point of the objective ringed, a <title> tooltip per point.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "sim/sweep/evaluate.h"
#include "sim/sweep/record.h"

namespace edgesim::sweep {

// Indices of the front of (cycles, energy) points, ordered by increasing cycles. Equal points
// are all kept.
std::vector<size_t> pareto_front(const std::vector<std::pair<double, double>>& points);

// The scatter plot of one block of the page (records of one network, policy and engine set); ""
// when fewer than two feasible points have an energy.
std::string pareto_chart(const SweepSpec& s, const std::vector<const PointRecord*>& records, const PointRecord* best);

}  // namespace edgesim::sweep
