// Energy figures and the terminal energy table (energy_report.h).
#include "sim/report/energy_report.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "platforms/util/printable.h"
#include "sim/report/format.h"
#include "sim/report/text_table.h"

namespace edgesim::report {

namespace {

const char* const kBlockOrder[] = {"cluster", "npu", "mvu", "dma", "l1", "l2", "wmem", "l3"};

// v in the largest unit of `units` (factor, name) not above it, 3 significant digits.
std::string scaled(double v, const std::vector<std::pair<double, const char*>>& units) {
  if (v < 0) return "-";
  for (const auto& [f, name] : units)
    if (v >= f || f == units.back().first) {
      const double x = v / f;
      const int dec = x >= 100 ? 0 : x >= 10 ? 1 : 2;
      return fmt::format("{:.{}f} {}", x, dec, name);
    }
  return "-";
}

}  // namespace

double energy_j(const RunResult& r) { return r.energy_modelled ? r.energy.total_pj() * 1e-12 : 0.0; }

double run_seconds(const RunResult& r) {
  return r.freq_hz > 0 ? static_cast<double>(r.total_cycles) / static_cast<double>(r.freq_hz) : 0.0;
}

double avg_power_w(const RunResult& r) {
  const double t = run_seconds(r);
  return t > 0 ? energy_j(r) / t : 0.0;
}

double edp_js(const RunResult& r) { return energy_j(r) * run_seconds(r); }

double pj_per_mac(double pj, int64_t macs) { return macs > 0 ? pj / static_cast<double>(macs) : 0.0; }

std::vector<std::string> energy_blocks(const RunResult& r) {
  std::vector<std::string> out;
  const auto all = r.energy.by_block();
  for (const char* b : kBlockOrder)
    if (all.count(b)) out.emplace_back(b);
  return out;
}

std::string energy_text(double pj) {
  return scaled(pj, {{1e9, "mJ"}, {1e6, "uJ"}, {1e3, "nJ"}, {1.0, "pJ"}});
}

std::string power_text(double w) { return scaled(w, {{1.0, "W"}, {1e-3, "mW"}, {1e-6, "uW"}, {1e-9, "nW"}}); }

std::string edp_text(double js) { return fmt::format("{:.3g} J*s", js); }

std::string energy_table(const RunResult& r, size_t width) {
  if (!r.energy_modelled) return "";
  const std::vector<std::string> blocks = energy_blocks(r);
  std::vector<TableColumn> cols = {{"#"}, {"name", true, 14}, {"engine", true}, {"energy"}, {"pJ/MAC"}, {"share"}};
  for (const std::string& b : blocks) cols.push_back({b, false, 0, 2});
  TextTable t(cols);
  const double total = r.energy.total_pj();
  auto share = [&](double v) { return total > 0 ? fmt::format("{:.1f}%", 100.0 * v / total) : std::string("-"); };
  for (size_t i = 0; i < r.layers.size(); ++i) {
    const LayerStats& l = r.layers[i];
    const double e = l.energy.total_pj();
    std::vector<std::string> row = {std::to_string(i), printable(l.name), l.engine, energy_text(e),
                                    l.macs > 0 ? fmt::format("{:.1f}", pj_per_mac(e, l.macs)) : "-", share(e)};
    for (const std::string& b : blocks) row.push_back(energy_text(l.energy.block_pj(b)));
    t.add_row(std::move(row));
  }
  t.add_rule();
  std::vector<std::string> row = {"", "TOTAL", "", energy_text(total),
                                  r.total_macs > 0 ? fmt::format("{:.1f}", pj_per_mac(total, r.total_macs)) : "-", share(total)};
  for (const std::string& b : blocks) row.push_back(energy_text(r.energy.block_pj(b)));
  t.add_row(std::move(row));
  std::string s = t.render(width) + "\n";
  s += fmt::format("energy:       {} = {:.1f} pJ/MAC, avg power {} over {}, EDP {}\n", energy_text(total),
                   pj_per_mac(total, r.total_macs), power_text(avg_power_w(r)), duration(r.total_cycles, r.freq_hz),
                   edp_text(edp_js(r)));
  std::string split;
  for (const std::string& b : blocks)
    split += fmt::format("{}{} {}", split.empty() ? "" : ", ", b, share(r.energy.block_pj(b)));
  double leak = 0;
  for (const auto& [b, v] : r.energy.leakage_pj) leak += v;
  s += wrap_lines("by block:     " + split + fmt::format(" (leakage {} of it)", share(leak)), kTerminalWidth, 14);
  return s;
}

}  // namespace edgesim::report
