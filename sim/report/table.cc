// print_run_table: the terminal summary of `edgesim run`. A few header lines naming the run,
// one row per layer with its wall and accounted cycles and the cycle split of docs/report.md
// (compute / DMA wait / overhead, each in cycles and % of the layer), a TOTAL row with the sums
// over the layers; then the tiling table (L2->L1 tile, L1 bytes, L3->L2 slab per layer and why it
// runs on its engine); then the wall and accounted totals, the run time at the cluster clock and
// the verification status. Both tables fit `width` columns (sim/report/text_table.h; 0 = --wide);
// the output depends only on the RunResult and the width (no locale, no terminal query). Names
// read from files (nodes, network, platform) are printed through printable(): a name cannot
// drive the terminal (ESC), break a line (CR, LF, NUL) or emit invalid UTF-8.
#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

#include "platforms/util/printable.h"
#include "sim/report/calibration_text.h"
#include "sim/report/energy_report.h"
#include "sim/report/format.h"
#include "sim/report/report.h"
#include "sim/report/text_table.h"

namespace edgesim {

namespace {

using report::group_digits;
using report::percent;

// "label:       text", wrapped under the text within 100 columns.
void labelled(std::ostream& os, const std::string& label, const std::string& text) {
  constexpr size_t kIndent = 14;
  os << report::wrap_lines(label + std::string(kIndent - std::min(kIndent - 1, label.size()), ' ') + text,
                           report::kTerminalWidth, kIndent);
}
using report::TableColumn;

// The cycles table: on a 100-column terminal the absolute compute / DMA-wait / overhead columns,
// then MACs, MAC/cycle, accounted cycles and tiles give way first (their percentages and the
// totals below stay); --wide shows all.
constexpr long kAccountedColumn = 6;   // its index in cycle_columns()

std::vector<TableColumn> cycle_columns() {
  return {{"#"},
          {"name", true, 14},
          {"op", true, 14},
          {"engine", true},
          {"MACs", false, 0, 2},
          {"cycles"},
          {"accounted", false, 0, 4},
          {"MAC/cyc", false, 0, 3},
          {"compute", false, 0, 1},
          {"compute%"},
          {"DMA wait", false, 0, 1},
          {"wait%"},
          {"overhead", false, 0, 1},
          {"ovh%"},
          {"tiles", false, 0, 5}};
}

std::vector<std::string> layer_row(size_t index, const LayerStats& l) {
  return {std::to_string(index),
          printable(l.name),
          l.op,
          l.engine,
          group_digits(l.macs),
          group_digits(l.cycles),
          group_digits(l.accounted_cycles),
          report::mac_per_cycle(l.macs, l.cycles),
          group_digits(l.compute_cycles),
          percent(l.compute_cycles, l.cycles),
          group_digits(l.dma_wait_cycles),
          percent(l.dma_wait_cycles, l.cycles),
          group_digits(l.overhead_cycles),
          percent(l.overhead_cycles, l.cycles),
          std::to_string(l.tiles)};
}

std::vector<std::string> total_row(const report::Totals& t) {
  return {"",
          "TOTAL",
          "",
          "",
          group_digits(t.macs),
          group_digits(t.cycles),
          group_digits(t.accounted),
          report::mac_per_cycle(t.macs, t.cycles),
          group_digits(t.compute),
          percent(t.compute, t.cycles),
          group_digits(t.dma_wait),
          percent(t.dma_wait, t.cycles),
          group_digits(t.overhead),
          percent(t.overhead, t.cycles),
          std::to_string(t.tiles)};
}

// The tiling table: which tiling each layer ran with and why it is on its engine. Columns that
// would say nothing are left out: the L3 slab when no layer streams from L3, the reason when the
// platform has a single engine.
std::string tiling_table(const RunResult& r, size_t width) {
  bool reasons = false, l3 = false;
  for (const LayerStats& l : r.layers) {
    reasons = reasons || (!l.engine_reason.empty() && l.engine_reason != "the only engine");
    l3 = l3 || (l.tiling.tiled && l.tiling.l3);
  }
  std::vector<report::TableColumn> cols = {
      {"#"}, {"name", true, 14}, {"engine", true}, {"L2->L1 tile (out / in)", true, 14}, {"L1 B", false, 0, 2}};
  if (l3) cols.push_back({"L3->L2 slab", true, 11, 3});
  if (reasons) cols.push_back({"why this engine", true, 20, 1});
  report::TextTable t(cols);
  for (size_t i = 0; i < r.layers.size(); ++i) {
    const LayerStats& l = r.layers[i];
    const LayerTilingStats& ti = l.tiling;
    std::vector<std::string> row = {std::to_string(i), printable(l.name), l.engine, ti.tiled ? ti.l1_label : "whole tensors in L2",
                                    ti.tiled ? group_digits(ti.l1_bytes) : "-"};
    if (l3) row.push_back(ti.tiled ? ti.l3_label : "-");
    if (reasons) row.push_back(l.engine_reason);
    t.add_row(std::move(row));
  }
  return t.render(width);
}

// Names from files (network, platform) are escaped, as node names in the tables are: every byte
// outside printable ASCII as \xNN (the JSON report keeps the bytes).
std::string or_dash(const std::string& s) { return s.empty() ? "-" : printable(s); }

}  // namespace

void print_run_table(std::ostream& os, const RunResult& r, size_t width) {
  os << "network:      " << or_dash(r.network) << '\n';
  os << "platform:     " << or_dash(r.platform) << " @ " << report::frequency(r.freq_hz);
  if (r.n_cores > 0) os << ", " << r.n_cores << (r.n_cores == 1 ? " core" : " cores");
  os << '\n';
  os << "policy:       " << or_dash(r.policy) << '\n';
  os << "buffering:    " << or_dash(r.buffering) << '\n';
  os << "fidelity:     " << or_dash(r.fidelity) << '\n';
  if (const std::string c = report::calibration_text(r.calibration); !c.empty())
    os << report::wrap_lines("calibration:  " + c, width, 14);
  os << '\n';

  // The accounted column says something only where a layer's own counter differs from its cycles
  // (a blocking network loop); elsewhere it would repeat them, so it is left out.
  const bool accounted = std::any_of(r.layers.begin(), r.layers.end(),
                                     [](const LayerStats& l) { return l.accounted_cycles != l.cycles; });
  auto keep = [&](std::vector<std::string> cells) {
    if (!accounted) cells.erase(cells.begin() + kAccountedColumn);
    return cells;
  };
  std::vector<TableColumn> cols = cycle_columns();
  if (!accounted) cols.erase(cols.begin() + kAccountedColumn);
  report::TextTable t(cols);
  for (size_t i = 0; i < r.layers.size(); ++i) t.add_row(keep(layer_row(i, r.layers[i])));
  t.add_rule();
  const report::Totals totals = report::layer_totals(r);
  t.add_row(keep(total_row(totals)));
  os << t.render(width) << '\n';
  os << tiling_table(r, width) << '\n';

  os << "total:        " << group_digits(r.total_cycles) << " cycles (wall) = "
     << report::time_at_clock(r.total_cycles, r.freq_hz)
     << ", " << group_digits(r.total_macs) << " MACs, " << report::mac_per_cycle(r.total_macs, r.total_cycles)
     << " MAC/cycle\n";
  labelled(os, "accounted:", group_digits(r.accounted_cycles) +
                               " cycles = the layers' own counters, as DORY/Deeploy print them (wall cycles add the "
                               "network loop's blocking L3->L2 weight reads)");
  if (totals.cycles != r.total_cycles)
    os << "note:         layers cover " << group_digits(totals.cycles) << " of the " << group_digits(r.total_cycles)
       << " cycles\n";
  labelled(os, "engines:", report::engine_split_line(r));
  const auto ops = report::op_split_lines(r, 100, 14);
  for (size_t i = 0; i < ops.size(); ++i) os << (i == 0 ? "by op:        " : "              ") << ops[i] << '\n';
  if (r.energy_modelled) os << '\n' << report::energy_table(r, width);
  for (const std::string& w : r.warnings) labelled(os, "warning:", printable(w));
  os << "verification: " << report::verification(r) << '\n';
}

}  // namespace edgesim
