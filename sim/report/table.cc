// print_run_table: the terminal summary of `edgesim run`. A few header lines naming the run,
// one row per layer with its wall and accounted cycles and the cycle split of docs/report.md
// (compute / DMA wait / overhead, each in cycles and % of the layer), a TOTAL row with the sums
// over the layers, the wall and accounted totals, the run time at the cluster clock and the
// verification status. Column widths follow the content; the output
// depends only on the RunResult (no locale, no terminal width).
#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

#include "sim/report/format.h"
#include "sim/report/report.h"

namespace edgesim {

namespace {

using report::group_digits;
using report::percent;

constexpr size_t kNameChars = 32;  // longer layer names are shortened around "..."

struct Column {
  std::string title;
  bool left;  // left-aligned (text) or right-aligned (numbers)
};

const std::vector<Column>& columns() {
  static const std::vector<Column> cols = {
      {"#", false},       {"name", true},  {"op", true},       {"engine", true}, {"MACs", false},
      {"cycles", false},  {"accounted", false}, {"MAC/cyc", false}, {"compute", false}, {"%", false},  {"DMA wait", false},
      {"%", false},       {"overhead", false}, {"%", false},     {"tiles", false}};
  return cols;
}

std::vector<std::string> layer_row(size_t index, const LayerStats& l) {
  return {std::to_string(index),
          report::shorten(l.name, kNameChars),
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

void print_row(std::ostream& os, const std::vector<std::string>& cells, const std::vector<size_t>& width) {
  std::string line;
  for (size_t c = 0; c < cells.size(); ++c) {
    const std::string pad(width[c] - cells[c].size(), ' ');
    if (c > 0) line += "  ";
    line += columns()[c].left ? cells[c] + pad : pad + cells[c];
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  os << line << '\n';
}

std::string or_dash(const std::string& s) { return s.empty() ? "-" : s; }

}  // namespace

void print_run_table(std::ostream& os, const RunResult& r) {
  os << "network:      " << or_dash(r.network) << '\n';
  os << "platform:     " << or_dash(r.platform) << " @ " << report::frequency(r.freq_hz);
  if (r.n_cores > 0) os << ", " << r.n_cores << (r.n_cores == 1 ? " core" : " cores");
  os << '\n';
  os << "policy:       " << or_dash(r.policy) << '\n';
  os << "buffering:    " << or_dash(r.buffering) << '\n';
  os << "fidelity:     " << or_dash(r.fidelity) << '\n';
  os << '\n';

  std::vector<std::vector<std::string>> rows;
  rows.reserve(r.layers.size() + 2);
  std::vector<std::string> header;
  for (const Column& c : columns()) header.push_back(c.title);
  rows.push_back(header);
  for (size_t i = 0; i < r.layers.size(); ++i) rows.push_back(layer_row(i, r.layers[i]));
  const report::Totals totals = report::layer_totals(r);
  rows.push_back(total_row(totals));

  std::vector<size_t> width(columns().size(), 0);
  for (const auto& row : rows)
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  size_t line_width = 2 * (width.size() - 1);
  for (size_t w : width) line_width += w;
  const std::string rule(line_width, '-');

  print_row(os, rows.front(), width);
  os << rule << '\n';
  for (size_t i = 1; i + 1 < rows.size(); ++i) print_row(os, rows[i], width);
  os << rule << '\n';
  print_row(os, rows.back(), width);
  os << '\n';

  os << "total:        " << group_digits(r.total_cycles) << " cycles (wall) = "
     << report::time_at_clock(r.total_cycles, r.freq_hz)
     << ", " << group_digits(r.total_macs) << " MACs, " << report::mac_per_cycle(r.total_macs, r.total_cycles)
     << " MAC/cycle\n";
  os << "accounted:    " << group_digits(r.accounted_cycles)
     << " cycles = the layers' own counters, as DORY/Deeploy print them (wall cycles add the network loop's "
        "blocking L3->L2 weight reads)\n";
  if (totals.cycles != r.total_cycles)
    os << "note:         layers cover " << group_digits(totals.cycles) << " of the " << group_digits(r.total_cycles)
       << " cycles\n";
  os << "engines:      " << report::engine_split_line(r) << '\n';
  for (const std::string& w : r.warnings) os << "warning:      " << w << '\n';
  os << "verification: " << report::verification(r) << '\n';
}

}  // namespace edgesim
