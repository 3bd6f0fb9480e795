// memory_chart: bytes live in one memory level at each step of the schedule. A step's sample
// holds for the whole step, so the curve is a filled step function over steps [i, i + 1); the
// level's capacity (the policy budget for L1, the level size otherwise) is a dashed line and the
// high-water mark a thin dotted one. The y axis uses the binary unit that fits the larger of
// capacity and peak. Each step has a <title> tooltip with its layer and byte count.
#include <algorithm>
#include <map>
#include <string>

#include <fmt/format.h>

#include "sim/report/format.h"
#include "sim/report/svg.h"

namespace edgesim::report {

namespace {

constexpr double kWidth = 610, kHeight = 250;
constexpr double kLeft = 62, kRight = 18, kTop = 26, kBottom = 40;

}  // namespace

std::string memory_chart(const MemoryUse& m, const RunResult& r) {
  const size_t n = std::max<size_t>(m.per_step.size(), 1);
  int64_t peak = m.high_water;
  for (int64_t v : m.per_step) peak = std::max(peak, v);
  const double top_value = static_cast<double>(std::max<int64_t>({peak, m.capacity, 1})) * 1.06;
  const ByteUnit unit = byte_unit(top_value);
  const std::vector<double> yt = nice_ticks(top_value / unit.scale, 5);
  const double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  auto x_of = [&](double step) { return kLeft + step * plot_w / static_cast<double>(n); };
  auto y_of = [&](double bytes) { return kTop + plot_h - bytes / unit.scale * plot_h / yt.back(); };

  std::string s = fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {0} {1}" width="{0}" height="{1}" )"
      R"(role="img" aria-label="{2} bytes live per step">)",
      coord(kWidth), coord(kHeight), escape(m.level));

  for (double t : yt) {
    const double y = y_of(t * unit.scale);
    s += fmt::format(R"(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" class="grid"/>)", coord(kLeft), coord(y),
                     coord(kWidth - kRight));
    s += fmt::format(R"(<text x="{}" y="{}" class="tick" text-anchor="end">{}</text>)", coord(kLeft - 6), coord(y + 4),
                     short_number(t));
  }
  for (double t : nice_ticks(static_cast<double>(n), static_cast<int>(std::min<size_t>(n, 10)))) {  // whole steps
    if (t > static_cast<double>(n)) break;
    s += fmt::format(R"(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" class="axis"/>)", coord(x_of(t)), coord(kTop + plot_h),
                     coord(kTop + plot_h + 4));
    s += fmt::format(R"(<text x="{}" y="{}" class="tick" text-anchor="middle">{}</text>)", coord(x_of(t)),
                     coord(kTop + plot_h + 16), short_number(t));
  }
  s += fmt::format(R"(<text x="{}" y="{}" class="tick" text-anchor="middle">step</text>)", coord(kLeft + plot_w / 2),
                   coord(kHeight - 6));
  s += fmt::format(R"(<text x="{}" y="{}" class="tick">{}</text>)", coord(kLeft - 50), coord(kTop - 10), unit.name);

  if (!m.per_step.empty()) {  // the step function, closed along the x axis
    std::string d = fmt::format("M{},{}", coord(x_of(0)), coord(y_of(0)));
    for (size_t i = 0; i < m.per_step.size(); ++i) {
      const std::string y = coord(y_of(static_cast<double>(m.per_step[i])));
      d += fmt::format("L{},{}L{},{}", coord(x_of(static_cast<double>(i))), y, coord(x_of(static_cast<double>(i + 1))), y);
    }
    d += fmt::format("L{},{}Z", coord(x_of(static_cast<double>(n))), coord(y_of(0)));
    s += R"(<path d=")" + d + R"(" class="area"/>)";
  }
  s += fmt::format(R"(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" class="axis"/>)", coord(kLeft), coord(y_of(0)),
                   coord(kWidth - kRight));

  auto level_line = [&](int64_t bytes, const char* cls, const std::string& label) {
    const double y = y_of(static_cast<double>(bytes));
    s += fmt::format(R"(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" class="{3}"/>)", coord(kLeft), coord(y),
                     coord(kWidth - kRight), cls);
    s += fmt::format(R"(<text x="{}" y="{}" class="tick {}" text-anchor="end">{}</text>)", coord(kWidth - kRight - 2),
                     coord(y - 4), cls, escape(label));
  };
  if (m.capacity > 0)
    level_line(m.capacity, "capacity", (m.is_budget ? "policy budget " : "capacity ") + bytes_label(m.capacity));
  // The high-water label would collide with the capacity label when the two are close.
  const bool hw_label = m.capacity <= 0 || y_of(static_cast<double>(m.high_water)) - y_of(static_cast<double>(m.capacity)) > 14;
  if (m.high_water > 0) level_line(m.high_water, "highwater", hw_label ? "high water " + bytes_label(m.high_water) : "");

  std::map<int, const LayerStats*> layer_of_step;
  for (const LayerStats& l : r.layers) layer_of_step.emplace(l.step, &l);
  for (size_t i = 0; i < m.per_step.size(); ++i) {  // hover targets
    const auto it = layer_of_step.find(static_cast<int>(i));
    const std::string who = it == layer_of_step.end() ? "" : " (" + it->second->name + ")";
    s += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" class="hover"><title>{}</title></rect>)",
                     coord(x_of(static_cast<double>(i))), coord(kTop), coord(plot_w / static_cast<double>(n)), coord(plot_h),
                     escape(fmt::format("step {}{}: {} bytes live ({})", i, who, group_digits(m.per_step[i]),
                                        bytes_label(m.per_step[i]))));
  }
  return s + "</svg>\n";
}

}  // namespace edgesim::report
