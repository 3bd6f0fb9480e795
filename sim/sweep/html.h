// The HTML page of `edgesim sweep --report`: self-contained (inline CSS and SVG, no scripts, no
// external resources). Per network: the best point, then a chart of total cycles over the grid —
// a heatmap when two keys vary (one per combination of any further varied keys), a line plot
// when one does — with infeasible points hatched grey and their reason in a <title> tooltip,
// then the table of every point. Text from the inputs is HTML-escaped.
#pragma once
#include <string>
#include <vector>

#include "sim/stats/provenance.h"
#include "sim/sweep/evaluate.h"
#include "sim/sweep/record.h"

namespace edgesim::sweep {

// `records` in point order (networks outer, then policies, engine sets, the grid), complete; the
// provenance goes into the page's footer. Several policies or engine sets give one block (best
// point, charts, table) per combination under each network.
std::string sweep_to_html(const SweepSpec& s, const std::vector<PointRecord>& records, const Provenance& prov = {});

}  // namespace edgesim::sweep
