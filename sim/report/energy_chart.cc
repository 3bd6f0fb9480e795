// energy_chart: where each layer's energy goes, as horizontal stacked bars of the blocks' energy
// (dynamic + leakage) on a shared axis in microjoules. Rows have the same height and order as
// layer_chart's, so the two charts sit side by side in the HTML page and read row by row; the
// labels are the layer indices (names are on the cycle chart). Each row's <title> tooltip lists
// the layer's blocks.
#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "sim/report/energy_report.h"
#include "sim/report/svg.h"

namespace edgesim::report {

namespace {

constexpr double kWidth = 620;
constexpr double kLeft = 40;
constexpr double kRight = 70;

std::string tooltip(size_t i, const LayerStats& l, const std::vector<std::string>& blocks) {
  std::string s = fmt::format("#{} {}: {}", i, l.name, energy_text(l.energy.total_pj()));
  for (const std::string& b : blocks)
    if (l.energy.block_pj(b) > 0) s += fmt::format("\n{} {}", b, energy_text(l.energy.block_pj(b)));
  return s;
}

}  // namespace

const char* block_colour(const std::string& b) {
  if (b == "cluster") return "#4C78A8";
  if (b == "npu") return "#54A24B";
  if (b == "mvu") return "#B279A2";
  if (b == "dma") return "#F2A33A";
  if (b == "l1") return "#72B7B2";
  if (b == "l2") return "#9D755D";
  if (b == "wmem") return "#E45756";
  if (b == "l3") return "#79706E";
  return "#BAB0AC";
}

std::string energy_chart(const RunResult& r) {
  const std::vector<std::string> blocks = energy_blocks(r);
  // The same row height, legend strip and axes as layer_chart, so rows line up.
  const auto [row, font, plot_top, plot_h, height, top_axis] = layer_rows(r.layers.size());
  double max_uj = 0;
  for (const LayerStats& l : r.layers) max_uj = std::max(max_uj, l.energy.total_pj() * 1e-6);
  const std::vector<double> ticks = nice_ticks(max_uj, 5);
  const double scale = (kWidth - kLeft - kRight) / ticks.back();

  std::string s = fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {0} {1}" width="{0}" height="{1}" )"
      R"(role="img" aria-label="energy per layer">)",
      coord(kWidth), coord(height));
  s += fmt::format(R"(<style>.rowlabel{{font-size:{}px}}</style>)", coord(font));
  double x = 8;
  for (const std::string& b : blocks) {
    s += fmt::format(R"(<rect x="{}" y="9" width="12" height="12" rx="2" fill="{}"/>)", coord(x), block_colour(b));
    s += fmt::format(R"(<text x="{}" y="20" class="legend">{}</text>)", coord(x + 16), escape(b));
    x += 28 + 7.5 * static_cast<double>(b.size());
  }
  for (size_t i = 0; i < r.layers.size(); i += 2)
    s += fmt::format(R"(<rect x="0" y="{}" width="{}" height="{}" class="stripe"/>)",
                     coord(plot_top + row * static_cast<double>(i)), coord(kWidth), coord(row));
  for (double t : ticks) {
    const double tx = kLeft + t * scale;
    s += fmt::format(R"(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" class="grid"/>)", coord(tx),
                     coord(top_axis ? plot_top : plot_top - 4), coord(plot_top + plot_h));
    s += fmt::format(R"(<text x="{}" y="{}" class="tick" text-anchor="middle">{}</text>)", coord(tx),
                     coord(plot_top + plot_h + 15), fmt::format("{:g}", t));
    if (top_axis)
      s += fmt::format(R"(<text x="{}" y="{}" class="tick" text-anchor="middle">{}</text>)", coord(tx),
                       coord(plot_top - 6), fmt::format("{:g}", t));
  }
  const double bar = std::max(row * 0.7, row - 6.0);
  for (size_t i = 0; i < r.layers.size(); ++i) {
    const LayerStats& l = r.layers[i];
    const double y = plot_top + row * static_cast<double>(i);
    const double mid = y + row / 2 + font * 0.35;
    s += "<g><title>" + escape(tooltip(i, l, blocks)) + "</title>";
    s += fmt::format(R"(<text x="{}" y="{}" class="rowlabel muted" text-anchor="end">{}</text>)", coord(kLeft - 6),
                     coord(mid), i);
    double bx = kLeft;
    for (const std::string& b : blocks) {
      const double w = l.energy.block_pj(b) * 1e-6 * scale;
      if (w <= 0) continue;
      s += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="{}"/>)", coord(bx), coord(y + (row - bar) / 2),
                       coord(std::max(w, 0.5)), coord(bar), block_colour(b));
      bx += w;
    }
    s += fmt::format(R"(<text x="{}" y="{}" class="rowlabel muted">{}</text>)", coord(bx + 5), coord(mid),
                     escape(energy_text(l.energy.total_pj())));
    s += "</g>";
  }
  s += fmt::format(R"(<text x="{}" y="{}" class="tick" text-anchor="middle">energy per layer (uJ)</text>)",
                   coord(kLeft + (kWidth - kLeft - kRight) / 2), coord(height - 4));
  return s + "</svg>\n";
}

}  // namespace edgesim::report
