// layer_chart: where each layer's cycles go, as horizontal stacked bars (compute, overhead,
// DMA wait; the split of run_result.h) on a shared cycle axis. One row per layer, so the chart
// height grows with the layer count: rows are 24 px for small networks and shrink to 12 px
// (labels 9 px) so that ~150 layers stay legible in about 2000 px. A coloured square before each
// name says which engine ran the layer (legend top left). Long names are shortened;
// each row's <title> tooltip carries the full name and figures. The cycle axis is drawn at the
// bottom, and also at the top when the chart is tall.
#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "sim/report/format.h"
#include "sim/report/svg.h"

namespace edgesim::report {

namespace {

constexpr double kWidth = 1240;
constexpr double kLeft = 300;    // layer labels
constexpr double kRight = 90;    // cycle count after each bar
constexpr size_t kNameChars = 36;

// Engines in order of first appearance.
std::vector<std::string> engines_of(const RunResult& r) {
  std::vector<std::string> e;
  for (const LayerStats& l : r.layers)
    if (std::find(e.begin(), e.end(), l.engine) == e.end()) e.push_back(l.engine);
  return e;
}

std::string legend(const RunResult& r) {
  std::string s;
  // Engine markers (the square left of each layer name), then the cycle split.
  double ex = 8;
  s += fmt::format(R"(<text x="{}" y="20.5" class="legend muted">engine</text>)", coord(ex));
  ex += 52;
  for (const std::string& e : engines_of(r)) {
    s += fmt::format(R"(<rect x="{}" y="10" width="10" height="12" rx="2" fill="{}"/>)", coord(ex), engine_colour(e));
    s += fmt::format(R"(<text x="{}" y="20.5" class="legend">{}</text>)", coord(ex + 14), escape(e));
    ex += 26 + 7.5 * static_cast<double>(e.size());
  }
  double x = kLeft;
  for (const auto& [label, colour] : {std::pair{"compute", kComputeColour}, std::pair{"overhead", kOverheadColour},
                                      std::pair{"DMA wait", kDmaWaitColour}}) {
    s += fmt::format(R"(<rect x="{}" y="9" width="14" height="14" rx="2" fill="{}"/>)", coord(x), colour);
    s += fmt::format(R"(<text x="{}" y="20.5" class="legend">{}</text>)", coord(x + 20), label);
    x += 40 + 8.0 * std::char_traits<char>::length(label);
  }
  s += fmt::format(R"(<text x="{}" y="20.5" class="legend muted" text-anchor="end">cycles per layer</text>)",
                   coord(kWidth - kRight));
  return s;
}

std::string axis(const std::vector<double>& ticks, double scale, double y_label, double y0, double y1) {
  std::string s;
  for (double t : ticks) {
    const double x = kLeft + t * scale;
    s += fmt::format(R"(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" class="grid"/>)", coord(x), coord(y0), coord(y1));
    s += fmt::format(R"(<text x="{}" y="{}" class="tick" text-anchor="middle">{}</text>)", coord(x), coord(y_label),
                     short_number(t));
  }
  return s;
}

std::string tooltip(size_t i, const LayerStats& l) {
  return fmt::format("#{} {} ({}, {})\n{} cycles, {} MACs, {} MAC/cycle\ncompute {} ({})\noverhead {} ({})\n"
                     "DMA wait {} ({})\n{} tiles",
                     i, l.name, l.op, l.engine, group_digits(l.cycles), group_digits(l.macs),
                     mac_per_cycle(l.macs, l.cycles), group_digits(l.compute_cycles),
                     percent(l.compute_cycles, l.cycles), group_digits(l.overhead_cycles),
                     percent(l.overhead_cycles, l.cycles), group_digits(l.dma_wait_cycles),
                     percent(l.dma_wait_cycles, l.cycles), l.tiles);
}

}  // namespace

std::string layer_chart(const RunResult& r) {
  const auto [row, font, plot_top, plot_h, height, top_axis] = layer_rows(r.layers.size());

  int64_t max_cycles = 0;
  for (const LayerStats& l : r.layers) max_cycles = std::max(max_cycles, l.cycles);
  const std::vector<double> ticks = nice_ticks(static_cast<double>(max_cycles), 8);
  const double scale = (kWidth - kLeft - kRight) / ticks.back();

  std::string s = fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {0} {1}" width="{0}" height="{1}" )"
      R"(role="img" aria-label="cycles per layer">)",
      coord(kWidth), coord(height));
  s += fmt::format(R"(<style>.rowlabel{{font-size:{}px}}</style>)", coord(font));
  s += legend(r);
  for (size_t i = 0; i < r.layers.size(); i += 2)  // zebra stripes
    s += fmt::format(R"(<rect x="0" y="{}" width="{}" height="{}" class="stripe"/>)",
                     coord(plot_top + row * static_cast<double>(i)), coord(kWidth), coord(row));
  s += axis(ticks, scale, plot_top + plot_h + 15, top_axis ? plot_top : plot_top - 4, plot_top + plot_h);
  if (top_axis) {
    for (double t : ticks)
      s += fmt::format(R"(<text x="{}" y="{}" class="tick" text-anchor="middle">{}</text>)", coord(kLeft + t * scale),
                       coord(plot_top - 6), short_number(t));
  }

  const double bar = std::max(row * 0.7, row - 6.0);
  for (size_t i = 0; i < r.layers.size(); ++i) {
    const LayerStats& l = r.layers[i];
    const double y = plot_top + row * static_cast<double>(i);
    const double mid = y + row / 2 + font * 0.35;
    s += "<g><title>" + escape(tooltip(i, l)) + "</title>";
    s += fmt::format(R"(<text x="{}" y="{}" class="rowlabel muted" text-anchor="end">{}</text>)", coord(34), coord(mid), i);
    s += fmt::format(R"(<rect x="40" y="{}" width="8" height="{}" rx="1.5" fill="{}"/>)", coord(y + (row - bar) / 2),
                     coord(bar), engine_colour(l.engine));
    s += fmt::format(R"(<text x="{}" y="{}" class="rowlabel" text-anchor="end">{}</text>)", coord(kLeft - 8), coord(mid),
                     escape(shorten(l.name, kNameChars)));
    double x = kLeft;
    for (const auto& [v, colour] : {std::pair{l.compute_cycles, kComputeColour}, std::pair{l.overhead_cycles, kOverheadColour},
                                    std::pair{l.dma_wait_cycles, kDmaWaitColour}}) {
      const double w = static_cast<double>(std::max<int64_t>(v, 0)) * scale;
      if (w <= 0) continue;
      s += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="{}"/>)", coord(x), coord(y + (row - bar) / 2),
                       coord(std::max(w, 0.5)), coord(bar), colour);
      x += w;
    }
    s += fmt::format(R"(<text x="{}" y="{}" class="rowlabel muted">{}</text>)",
                     coord(kLeft + static_cast<double>(l.cycles) * scale + 5), coord(mid), short_number(static_cast<double>(l.cycles)));
    s += "</g>";
  }
  s += fmt::format(R"(<text x="{}" y="{}" class="tick" text-anchor="middle">cycles</text>)",
                   coord(kLeft + (kWidth - kLeft - kRight) / 2), coord(height - 4));
  return s + "</svg>\n";
}

}  // namespace edgesim::report
