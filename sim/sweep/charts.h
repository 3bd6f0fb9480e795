// Inline-SVG charts of `edgesim sweep --report` (internal to sim/sweep): for one network, a
// heatmap of total cycles when two keys vary (rows: the first varied key, columns: the second;
// one heatmap per combination of any further varied keys), a line plot when one key varies.
// Colours run from light (fewest cycles of the network) to dark (most); infeasible points are
// hatched grey and every cell / point has a <title> tooltip with its values and cycles or the
// reason it is infeasible. Each chart is one complete <svg> with its own hatch pattern id.
#pragma once
#include <string>
#include <vector>

#include "sim/sweep/evaluate.h"
#include "sim/sweep/record.h"

namespace edgesim::sweep {

// The charts of one network's points (in point order): "" when no key varies. `id_counter`
// numbers the pattern ids so they stay unique on the page.
std::string sweep_charts(const SweepSpec& s, const std::vector<const PointRecord*>& records, int& id_counter);

}  // namespace edgesim::sweep
