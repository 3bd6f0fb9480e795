// SVG / HTML primitives of the report page (see svg.h).
#include "sim/report/svg.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace edgesim::report {

std::string escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string coord(double v) {
  const double r = std::round(v * 10.0) / 10.0;
  if (r == std::floor(r)) return fmt::format("{:.0f}", r);
  return fmt::format("{:.1f}", r);
}

std::vector<double> nice_ticks(double max, int target) {
  if (!(max > 0) || target < 1) return {0.0, 1.0};
  const double raw = max / target;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = 10.0 * mag;
  for (double m : {1.0, 2.0, 5.0})
    if (m * mag >= raw) {
      step = m * mag;
      break;
    }
  std::vector<double> ticks;
  const int n = static_cast<int>(std::ceil(max / step - 1e-9));
  for (int i = 0; i <= n; ++i) ticks.push_back(i * step);
  return ticks;
}

LayerRows layer_rows(size_t layers) {
  constexpr double kLegend = 30;
  const size_t n = std::max<size_t>(layers, 1);
  LayerRows g{};
  g.row = std::clamp(std::floor(900.0 / static_cast<double>(n)), 12.0, 24.0);
  g.font = std::clamp(g.row - 3.0, 9.0, 12.0);
  g.top_axis = n > 30;
  g.plot_top = kLegend + (g.top_axis ? kChartAxis : 6.0);
  g.plot_h = g.row * static_cast<double>(n);
  g.height = g.plot_top + g.plot_h + kChartAxis + 22;
  return g;
}

std::string short_number(double v) {
  const double a = std::fabs(v);
  auto trim = [](double x, const char* suffix) {
    std::string s = fmt::format("{:.1f}", x);
    if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
    return s + suffix;
  };
  if (a >= 1e9) return trim(v / 1e9, "G");
  if (a >= 1e6) return trim(v / 1e6, "M");
  if (a >= 1e3) return trim(v / 1e3, "k");
  return trim(v, "");
}

ByteUnit byte_unit(double max_bytes) {
  if (max_bytes >= 1024.0 * 1024.0 * 1024.0) return {1024.0 * 1024.0 * 1024.0, "GiB"};
  if (max_bytes >= 1024.0 * 1024.0) return {1024.0 * 1024.0, "MiB"};
  if (max_bytes >= 1024.0) return {1024.0, "KiB"};
  return {1.0, "B"};
}

std::string bytes_label(int64_t bytes) {
  const ByteUnit u = byte_unit(static_cast<double>(bytes));
  if (u.scale == 1.0) return fmt::format("{} B", bytes);
  std::string s = fmt::format("{:.1f}", static_cast<double>(bytes) / u.scale);
  if (s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  return s + " " + u.name;
}

const char* engine_colour(const std::string& engine) {
  if (engine == "cluster") return "#6E7781";
  if (engine == "npu") return "#8250DF";
  if (engine == "mvu") return "#1A7F64";
  if (engine == "host") return "#BF8700";
  if (engine == "digital") return "#0969DA";
  if (engine == "analog") return "#BC4C00";
  return "#AFB8C1";
}

}  // namespace edgesim::report
