// Charts of a sweep's total cycles (charts.h): heatmaps over two varied keys, line plots over
// one (numeric keys on a numeric axis), infeasible points hatched grey with a short visible reason
// ("L1 too small") and the whole reason in a <title> tooltip.
#include "sim/sweep/charts.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "platforms/loader/units.h"
#include "sim/report/format.h"
#include "sim/report/svg.h"

namespace edgesim::sweep {

namespace {

using report::coord;
using report::escape;
using report::group_digits;
using report::short_number;

// A sequential colour ramp (light = few cycles, dark = many), interpolated in RGB.
std::string ramp(double t) {
  static const std::array<std::array<double, 3>, 5> stops = {{{255, 247, 188}, {254, 196, 79}, {236, 112, 20},
                                                              {178, 54, 26}, {94, 24, 50}}};
  t = std::clamp(t, 0.0, 1.0) * (stops.size() - 1);
  const size_t i = std::min<size_t>(static_cast<size_t>(t), stops.size() - 2);
  const double f = t - static_cast<double>(i);
  std::array<int, 3> c{};
  for (int k = 0; k < 3; ++k) c[k] = static_cast<int>(std::lround(stops[i][k] + (stops[i + 1][k] - stops[i][k]) * f));
  return fmt::format("#{:02x}{:02x}{:02x}", c[0], c[1], c[2]);
}

std::string hatch_defs(const std::string& id) {
  return fmt::format(R"(<defs><pattern id="{}" width="6" height="6" patternUnits="userSpaceOnUse" )"
                     R"~(patternTransform="rotate(45)"><rect width="6" height="6" fill="#d0d7de"/>)~"
                     R"(<line x1="0" y1="0" x2="0" y2="6" stroke="#8c959f" stroke-width="2"/></pattern></defs>)",
                     id);
}

// What a hatched (infeasible) cell says without hovering: the kind of failure in a few words.
std::string short_reason(const PointRecord& r) {
  if (r.status == "error") return "error";
  const std::string& w = r.reason;
  auto has = [&w](const char* t) { return w.find(t) != std::string::npos; };
  if (has("L1 budget") || has("no L2->L1 tiling")) return "L1 too small";
  if (has("L2 budget") || has("L2 overflow") || has("L3->L2") || has("L2 ")) return "L2 too small";
  if (has("WMEM") || has("weight memory")) return "WMEM full";
  if (has("no engine")) return "no engine";
  if (has("is not a") || has("must be") || has("out of range")) return "bad value";
  return "infeasible";
}

// The values of an axis as numbers when every one is a size, frequency or plain number (a
// numeric axis: points placed by value), else nothing (categorical, evenly spaced).
std::optional<std::vector<double>> numeric_values(const Axis& a) {
  std::vector<double> v;
  for (const std::string& text : a.values) {
    std::optional<double> x;
    for (auto parse : {+[](const std::string& t) { return static_cast<double>(parse_size(t)); },
                       +[](const std::string& t) { return static_cast<double>(parse_frequency(t)); },
                       +[](const std::string& t) { return parse_bandwidth(t); }}) {
      try {
        x = parse(text);
        break;
      } catch (const UnitError&) {
      }
    }
    if (!x) return std::nullopt;
    v.push_back(*x);
  }
  return v;
}

std::string tooltip(const SweepSpec& s, const PointRecord& r) {
  std::string t;
  for (size_t i = 0; i < s.axes.size(); ++i) t += s.axes[i].key + "=" + r.values[i] + "\n";
  if (r.status == "ok")
    t += fmt::format("{} cycles, {:.3f} ms, {:.2f} MAC/cycle", group_digits(r.total_cycles), r.time_ms, r.mac_per_cycle);
  else
    t += r.status + ": " + r.reason;
  return escape(t);
}

// Three significant digits, so neighbouring cells stay distinguishable: "1.48M", "997k", "15.5k".
std::string cell_label(int64_t v) {
  const double d = static_cast<double>(v);
  auto sig3 = [](double x, const char* unit) {
    return fmt::format("{:.{}f}{}", x, x >= 100 ? 0 : x >= 10 ? 1 : 2, unit);
  };
  if (d >= 1e9) return sig3(d / 1e9, "G");
  if (d >= 1e6) return sig3(d / 1e6, "M");
  if (d >= 1e4) return sig3(d / 1e3, "k");
  return std::to_string(v);
}

struct Range {
  int64_t lo = 0, hi = 0;
  double t(int64_t v) const { return hi > lo ? static_cast<double>(v - lo) / static_cast<double>(hi - lo) : 0.5; }
};

Range cycle_range(const std::vector<const PointRecord*>& rs) {
  Range r{-1, -1};
  for (const PointRecord* p : rs)
    if (p->status == "ok") {
      r.lo = r.lo < 0 ? p->total_cycles : std::min(r.lo, p->total_cycles);
      r.hi = std::max(r.hi, p->total_cycles);
    }
  return r;
}

// Heatmap: rows = values of axis `ya`, columns = values of axis `xa`; `cell(y, x)` the record.
std::string heatmap(const SweepSpec& s, size_t ya, size_t xa, const std::map<std::pair<size_t, size_t>, const PointRecord*>& cell,
                    const Range& range, const std::string& id) {
  const Axis& X = s.axes[xa];
  const Axis& Y = s.axes[ya];
  size_t ylab = 0;
  for (const std::string& v : Y.values) ylab = std::max(ylab, v.size());
  const double cw = 72, ch = 34, left = 28 + 7.0 * static_cast<double>(ylab) + 10, top = 44;
  const double legend_w = 150;
  const double w = left + cw * static_cast<double>(X.values.size()) + 24 + legend_w;
  const double h = top + ch * static_cast<double>(Y.values.size()) + 30;
  std::string out = fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {0} {1}" width="{0}" height="{1}" role="img" )"
      R"(aria-label="total cycles over {2} and {3}">)",
      coord(w), coord(h), escape(Y.key), escape(X.key));
  out += hatch_defs(id);
  out += fmt::format(R"(<text x="{}" y="14" text-anchor="middle">{}</text>)",
                     coord(left + cw * static_cast<double>(X.values.size()) / 2), escape(axis_title(s.axes, xa)));
  for (size_t x = 0; x < X.values.size(); ++x)
    out += fmt::format(R"(<text x="{}" y="{}" class="tick" text-anchor="middle">{}</text>)", coord(left + cw * (x + 0.5)),
                       coord(top - 8), escape(X.values[x]));
  out += fmt::format(R"~(<text transform="translate(14 {}) rotate(-90)" text-anchor="middle">{}</text>)~",
                     coord(top + ch * static_cast<double>(Y.values.size()) / 2), escape(axis_title(s.axes, ya)));
  for (size_t y = 0; y < Y.values.size(); ++y) {
    out += fmt::format(R"(<text x="{}" y="{}" class="tick" text-anchor="end">{}</text>)", coord(left - 6),
                       coord(top + ch * (y + 0.5) + 4), escape(Y.values[y]));
    for (size_t x = 0; x < X.values.size(); ++x) {
      const auto it = cell.find({y, x});
      if (it == cell.end()) continue;
      const PointRecord& r = *it->second;
      const double cx = left + cw * static_cast<double>(x), cy = top + ch * static_cast<double>(y);
      const bool ok = r.status == "ok";
      const double t = ok ? range.t(r.total_cycles) : 0;
      const std::string fill = ok ? ramp(t) : "url(#" + id + ")";
      out += fmt::format(R"(<g class="{}"><title>{}</title><rect x="{}" y="{}" width="{}" height="{}" class="cell" fill="{}"/>)",
                         ok ? "pt" : "pt infeasible", tooltip(s, r), coord(cx), coord(cy), coord(cw), coord(ch), fill);
      out += fmt::format(R"(<text x="{}" y="{}" class="lbl{}" text-anchor="middle" style="fill:{}">{}</text></g>)",
                         coord(cx + cw / 2), coord(cy + ch / 2 + 4), ok ? "" : " why", ok && t > 0.55 ? "#fff" : "#1f2328",
                         ok ? cell_label(r.total_cycles) : short_reason(r));
    }
  }
  // Legend: colour bar from the fewest to the most cycles, then the infeasible swatch.
  const double lx = left + cw * static_cast<double>(X.values.size()) + 24;
  out += fmt::format(R"(<text x="{}" y="{}">cycles</text>)", coord(lx), coord(top - 8));
  const int steps = 20;
  const double bar_h = std::max(60.0, std::min(160.0, ch * static_cast<double>(Y.values.size()) - 40));
  for (int i = 0; i < steps; ++i)
    out += fmt::format(R"(<rect x="{}" y="{}" width="16" height="{}" fill="{}"/>)", coord(lx),
                       coord(top + bar_h * i / steps), coord(bar_h / steps + 0.5), ramp(static_cast<double>(i) / (steps - 1)));
  if (range.lo >= 0) {
    out += fmt::format(R"(<text x="{}" y="{}" class="tick">{}</text>)", coord(lx + 22), coord(top + 10),
                       group_digits(range.lo));
    out += fmt::format(R"(<text x="{}" y="{}" class="tick">{}</text>)", coord(lx + 22), coord(top + bar_h),
                       group_digits(range.hi));
  }
  out += fmt::format(R"~(<rect x="{}" y="{}" width="16" height="14" fill="url(#{})"/>)~", coord(lx), coord(top + bar_h + 10), id);
  out += fmt::format(R"(<text x="{}" y="{}" class="tick">infeasible</text>)", coord(lx + 22), coord(top + bar_h + 21));
  return out + "</svg>";
}

// Line plot of total cycles over the values of axis `xa`: placed by value when the values are
// numbers (sizes, frequencies), else categorical and evenly spaced.
std::string line_plot(const SweepSpec& s, size_t xa, const std::vector<const PointRecord*>& rs, const Range& range,
                      const std::string& id) {
  const Axis& X = s.axes[xa];
  const double w = std::max(520.0, 90.0 + 70.0 * static_cast<double>(X.values.size())), h = 300;
  const double left = 70, right = 20, top = 20, bottom = 52;
  const double pw = w - left - right, ph = h - top - bottom;
  const std::vector<double> yt = report::nice_ticks(static_cast<double>(std::max<int64_t>(range.hi, 1)) * 1.06, 5);
  const std::optional<std::vector<double>> num = numeric_values(X);
  double lo = 0, hi = 0;
  if (num) lo = *std::min_element(num->begin(), num->end()), hi = *std::max_element(num->begin(), num->end());
  const bool by_value = num && hi > lo;
  const double margin = 0.5 / static_cast<double>(X.values.size());   // keep the end points off the frame
  auto x_of = [&](size_t i) {
    if (by_value) return left + pw * (margin + (1 - 2 * margin) * ((*num)[i] - lo) / (hi - lo));
    return left + pw * (static_cast<double>(i) + 0.5) / static_cast<double>(X.values.size());
  };
  auto y_of = [&](double v) { return top + ph - v * ph / yt.back(); };
  std::string out = fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {0} {1}" width="{0}" height="{1}" role="img" )"
      R"(aria-label="total cycles over {2}">)",
      coord(w), coord(h), escape(X.key));
  out += hatch_defs(id);
  for (double t : yt) {
    out += fmt::format(R"(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" class="grid"/>)", coord(left), coord(y_of(t)),
                       coord(w - right));
    out += fmt::format(R"(<text x="{}" y="{}" class="tick" text-anchor="end">{}</text>)", coord(left - 6),
                       coord(y_of(t) + 4), short_number(t));
  }
  out += fmt::format(R"~(<text transform="translate(14 {}) rotate(-90)" text-anchor="middle">total cycles</text>)~",
                     coord(top + ph / 2));
  out += fmt::format(R"(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" class="axis"/>)", coord(left), coord(y_of(0)), coord(w - right));
  // Value labels under the points; on a numeric axis a label too close to the last one drawn is
  // left out (its value is in the point's tooltip and the table).
  double last_label = -1e9;
  for (size_t i = 0; i < X.values.size(); ++i) {
    const double half = 3.5 * static_cast<double>(X.values[i].size());
    if (x_of(i) - half < last_label + 6) continue;
    out += fmt::format(R"(<text x="{}" y="{}" class="tick" text-anchor="middle">{}</text>)", coord(x_of(i)),
                       coord(top + ph + 16), escape(X.values[i]));
    last_label = x_of(i) + half;
  }
  out += fmt::format(R"(<text x="{}" y="{}" text-anchor="middle">{}</text>)", coord(left + pw / 2), coord(h - 8),
                     escape(axis_title(s.axes, xa)));
  // Infeasible points: a hatched band over the whole height (tooltip = reason).
  double band = pw / static_cast<double>(X.values.size());
  if (by_value)   // no wider than the closest neighbour spacing
    for (size_t i = 1; i < X.values.size(); ++i) band = std::min(band, std::abs(x_of(i) - x_of(i - 1)));
  for (size_t i = 0; i < rs.size(); ++i)
    if (rs[i]->status != "ok")
      out += fmt::format(R"~(<g class="pt infeasible"><title>{}</title><rect x="{}" y="{}" width="{}" height="{}" fill="url(#{})" )~"
                         R"~(opacity="0.7"/><text transform="translate({} {}) rotate(-90)" class="lbl" )~"
                         R"(text-anchor="middle">{}</text></g>)",
                         tooltip(s, *rs[i]), coord(x_of(i) - band * 0.4), coord(top), coord(band * 0.8), coord(ph), id,
                         coord(x_of(i) + 4), coord(top + ph / 2), short_reason(*rs[i]));
  std::string d;
  for (size_t i = 0; i < rs.size(); ++i) {
    if (rs[i]->status != "ok") {
      d += " ";
      continue;
    }
    const bool start = i == 0 || rs[i - 1]->status != "ok";
    d += fmt::format("{}{},{}", start ? "M" : "L", coord(x_of(i)), coord(y_of(static_cast<double>(rs[i]->total_cycles))));
  }
  if (d.find('M') != std::string::npos) out += R"(<path class="line" d=")" + d + R"("/>)";
  for (size_t i = 0; i < rs.size(); ++i)
    if (rs[i]->status == "ok")
      out += fmt::format(R"(<g class="pt"><title>{}</title><circle cx="{}" cy="{}" r="4.5" class="dot"/></g>)",
                         tooltip(s, *rs[i]), coord(x_of(i)), coord(y_of(static_cast<double>(rs[i]->total_cycles))));
  return out + "</svg>";
}

}  // namespace

std::string sweep_charts(const SweepSpec& s, const std::vector<const PointRecord*>& rs, int& id_counter) {
  const std::vector<size_t> varied = varied_axes(s.axes);
  if (varied.empty()) return "";
  const Range range = cycle_range(rs);
  auto index_of = [&](size_t axis, const std::string& v) {
    const auto& vals = s.axes[axis].values;
    return static_cast<size_t>(std::find(vals.begin(), vals.end(), v) - vals.begin());
  };
  // Group the points by the values of the varied axes beyond the first two (small multiples).
  const size_t plotted = std::min<size_t>(varied.size(), 2);
  std::map<std::vector<size_t>, std::vector<const PointRecord*>> groups;
  for (const PointRecord* r : rs) {
    std::vector<size_t> rest;
    for (size_t k = plotted; k < varied.size(); ++k) rest.push_back(index_of(varied[k], r->values[varied[k]]));
    groups[rest].push_back(r);
  }
  std::string out = groups.size() > 1 ? "<div class=\"multiples\">\n" : "";
  for (const auto& [rest, members] : groups) {
    if (groups.size() > 1) out += "<div>";
    if (!rest.empty()) {
      std::string title;
      for (size_t k = plotted; k < varied.size(); ++k)
        title += (title.empty() ? "" : ", ") + s.axes[varied[k]].key + " = " + s.axes[varied[k]].values[rest[k - plotted]];
      out += "<h3>" + escape(title) + "</h3>\n";
    }
    const std::string id = fmt::format("hatch{}", id_counter++);
    if (plotted == 1) {
      out += line_plot(s, varied[0], members, range, id) + "\n";
    } else {
      std::map<std::pair<size_t, size_t>, const PointRecord*> cell;
      for (const PointRecord* r : members)
        cell[{index_of(varied[0], r->values[varied[0]]), index_of(varied[1], r->values[varied[1]])}] = r;
      out += heatmap(s, varied[0], varied[1], cell, range, id) + "\n";
    }
    if (groups.size() > 1) out += "</div>\n";
  }
  return out + (groups.size() > 1 ? "</div>\n" : "");
}


}  // namespace edgesim::sweep
