// Inline-SVG building blocks of the HTML report (html.cc): text escaping, coordinates, "nice"
// axis ticks, short number and byte labels, and the two chart kinds of the page. Each chart is
// one complete <svg> element with its own legend and axes, sized from its data (the layer chart
// grows one row per layer), with <title> tooltips and no scripts. Internal to sim/report.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/stats/run_result.h"

namespace edgesim::report {

// Escapes & < > " ' for HTML / SVG text and attribute values.
std::string escape(const std::string& text);

// A coordinate with at most one decimal ("12", "12.5").
std::string coord(double v);

// Tick values 0, s, 2s, ... covering [0, max] with s a 1-2-5 multiple of a power of ten and
// about `target` intervals. max <= 0 gives {0, 1}.
std::vector<double> nice_ticks(double max, int target);

// 950 -> "950", 12500 -> "12.5k", 3400000 -> "3.4M" (axis labels).
std::string short_number(double v);

// A binary byte unit suited to `max_bytes`: {1, "B"}, {1024, "KiB"}, {1048576, "MiB"}, ...
struct ByteUnit {
  double scale;
  const char* name;
};
ByteUnit byte_unit(double max_bytes);
// 65536 -> "64 KiB", 1536 -> "1.5 KiB".
std::string bytes_label(int64_t bytes);

// Colours of the cycle split, shared by the chart, the summary bar and the table.
inline constexpr const char* kComputeColour = "#4C78A8";
inline constexpr const char* kOverheadColour = "#F2A33A";
inline constexpr const char* kDmaWaitColour = "#D9534F";
// Colour of an engine's marker in the per-layer chart (cluster, npu, mvu, and the DIANA engines
// host / digital / analog); other names get a neutral grey.
const char* engine_colour(const std::string& engine);

// Vertical geometry of the per-layer charts (layer_chart, energy_chart), the same for both so their
// rows line up side by side: rows of 24 px shrinking to 12 px with many layers, a 30 px legend
// strip, axes of 22 px (the top one only above 30 layers).
struct LayerRows {
  double row, font, plot_top, plot_h, height;
  bool top_axis;
};
inline constexpr double kChartAxis = 22;
LayerRows layer_rows(size_t layers);

// Horizontal stacked bars, one row per layer: compute / overhead / DMA wait in cycles.
std::string layer_chart(const RunResult& r);

// Bytes live per step of one memory level (step function, filled), capacity as a dashed line.
std::string memory_chart(const MemoryUse& m, const RunResult& r);

}  // namespace edgesim::report
