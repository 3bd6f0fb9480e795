// Reports of a validation run (validate.h): the terminal table (cases, then per-layer figures of
// the cases that publish them, then the count within tolerance), the JSON document and a
// self-contained HTML page with a bar per case of its signed error against its tolerance band.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/report/format.h"
#include "sim/report/svg.h"
#include "sim/report/text_table.h"
#include "sim/validate/validate.h"

namespace edgesim::validate {

namespace {

std::string figure(double v, const std::string& metric) {
  if (metric == "mac_per_cycle" || metric == "pj_per_mac" || metric == "top_per_joule" || metric == "energy_ratio")
    return fmt::format("{:.2f}", v);
  return report::group_digits(static_cast<int64_t>(std::llround(v)));
}

std::string pct(double e) { return fmt::format("{:+.1f} %", 100.0 * e); }

int count_pass(const std::vector<Outcome>& r) {
  return static_cast<int>(std::count_if(r.begin(), r.end(), [](const Outcome& o) { return o.pass; }));
}

std::string metric_label(const std::string& metric) {
  return metric == "accounted_cycles" ? "accounted"
         : metric == "cycles"         ? "wall"
         : metric == "pj_per_mac"     ? "pJ/MAC"
         : metric == "top_per_joule"  ? "TOp/J"
         : metric == "energy_ratio"   ? "E ratio"
                                      : "MAC/cyc";
}

// "per layer: 3/4 within 10 %, median |error| 4.4 %, worst 8.6 %" and, on a line of its own,
// "worst layer: LAYER (CASE)"; "" without layers.
std::string layer_summary_line(const LayerSummary& s) {
  if (s.count == 0) return "";
  return fmt::format("per layer: {}/{} within 10 %, median |error| {:.1f} %, worst {:.1f} %\nworst layer: {} ({})",
                     s.within_10pct, s.count, 100.0 * s.median_abs_error, 100.0 * s.worst_abs_error, s.worst_layer,
                     s.worst_case);
}

}  // namespace

LayerSummary layer_summary(const std::vector<Outcome>& r) {
  LayerSummary s;
  std::vector<double> abs;
  for (const Outcome& o : r)
    for (const LayerOutcome& l : o.layers) {
      const double e = std::fabs(l.error);
      abs.push_back(e);
      s.within_10pct += within(l.error, 0.10);
      if (s.worst_case.empty() || e > s.worst_abs_error) {
        s.worst_abs_error = e;
        s.worst_case = o.c->name;
        s.worst_layer = l.name;
      }
    }
  s.count = abs.size();
  if (abs.empty()) return s;
  std::sort(abs.begin(), abs.end());
  const size_t n = abs.size();
  s.median_abs_error = n % 2 ? abs[n / 2] : (abs[n / 2 - 1] + abs[n / 2]) / 2.0;
  return s;
}

std::string outcomes_table(const std::vector<Outcome>& r, size_t width) {
  // Names are never cut: to fit, the description goes first, then where and how it was measured.
  report::TextTable t({{"case", true},
                       {"what", true, 12, 1},
                       {"on", true, 0, 2},
                       {"metric", true, 0, 4},
                       {"published"},
                       {"edgesim"},
                       {"error"},
                       {"tol", false, 0, 3},
                       {"pass", true}});
  for (const Outcome& o : r) {
    const Case& c = *o.c;
    t.add_row({c.name, c.what, c.measured_on, metric_label(c.metric), figure(c.published, c.metric),
               figure(o.predicted, c.metric), pct(o.error), fmt::format("{:.0f}%", 100.0 * c.tolerance),
               o.pass ? "yes" : "NO"});
  }
  std::string s = t.render(width);
  for (const Outcome& o : r) {
    if (o.layers.empty()) continue;
    s += fmt::format("\n{} per layer ({}, tolerance {:.0f}%):\n", o.c->name, metric_label(o.c->metric),
                     100.0 * o.c->layer_limit());
    report::TextTable lt({{"layer", true}, {"published"}, {"edgesim"}, {"error"}, {"pass", true}});
    for (const LayerOutcome& l : o.layers)
      lt.add_row({l.name, figure(l.published, o.c->metric), figure(l.predicted, o.c->metric), pct(l.error),
                  within(l.error, o.c->layer_limit()) ? "yes" : "NO"});
    s += lt.render(width);
  }
  s += fmt::format("\n{}/{} cases within tolerance\n", count_pass(r), r.size());
  if (const std::string l = layer_summary_line(layer_summary(r)); !l.empty()) s += l + "\n";
  return s;
}

std::string outcomes_json(const std::vector<Outcome>& r) {
  using nlohmann::json;
  json cases = json::array();
  for (const Outcome& o : r) {
    const Case& c = *o.c;
    json layers = json::array();
    for (const LayerOutcome& l : o.layers)
      layers.push_back({{"name", l.name}, {"published", l.published}, {"predicted", l.predicted}, {"error", l.error}});
    cases.push_back({{"name", c.name}, {"what", c.what}, {"measured_on", c.measured_on}, {"metric", c.metric},
                     {"published", c.published}, {"predicted", o.predicted}, {"error", o.error},
                     {"tolerance", c.tolerance}, {"pass", o.pass}, {"source", c.source}, {"network", c.network},
                     {"platform", c.platform}, {"policy", c.policy}, {"overrides", c.overrides},
                     {"wall_cycles", o.wall_cycles}, {"accounted_cycles", o.accounted_cycles},
                     {"total_macs", o.total_macs}, {"layer_tolerance", c.layer_limit()}, {"layers", layers}});
  }
  const LayerSummary ls = layer_summary(r);
  const json layer_doc = {{"count", ls.count},
                          {"within_10pct", ls.within_10pct},
                          {"median_abs_error", ls.median_abs_error},
                          {"worst_abs_error", ls.worst_abs_error},
                          {"worst", {{"case", ls.worst_case}, {"layer", ls.worst_layer}}}};
  const json doc = {{"cases", cases}, {"passed", count_pass(r)}, {"total", r.size()}, {"layers", layer_doc}};
  return doc.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string outcomes_html(const std::vector<Outcome>& r) {
  using report::escape;
  // Error chart: one row per case, zero in the middle, the tolerance band shaded.
  double span = 0.1;
  for (const Outcome& o : r) span = std::max({span, std::fabs(o.error), o.c->tolerance});
  span = std::ceil(span * 10.0) / 10.0;
  const int row = 26, left = 300, width = 420, top = 30;
  const int h = top + row * static_cast<int>(r.size()) + 30;
  auto x_of = [&](double e) { return left + width / 2.0 + e / span * (width / 2.0); };
  std::string svg = fmt::format("<svg xmlns='http://www.w3.org/2000/svg' width='{}' height='{}' font-family='sans-serif' "
                                "font-size='12'>",
                                left + width + 80, h);
  for (size_t i = 0; i < r.size(); ++i) {
    const Outcome& o = r[i];
    const double y = top + row * static_cast<double>(i);
    const double tol = o.c->tolerance;
    svg += fmt::format("<rect x='{}' y='{}' width='{}' height='{}' fill='#e8f4e8'/>", report::coord(x_of(-tol)),
                       report::coord(y), report::coord(x_of(tol) - x_of(-tol)), row - 4);
    const double x0 = x_of(0), x1 = x_of(o.error);
    svg += fmt::format("<rect x='{}' y='{}' width='{}' height='{}' fill='{}'><title>{}: {} (tolerance ±{:.0f} %)</title></rect>",
                       report::coord(std::min(x0, x1)), report::coord(y + 4), report::coord(std::fabs(x1 - x0)), row - 12,
                       o.pass ? "#4C78A8" : "#D9534F", escape(o.c->name), pct(o.error), 100 * tol);
    svg += fmt::format("<text x='{}' y='{}' text-anchor='end'>{}</text>", left - 8, report::coord(y + row / 2.0 + 2),
                       escape(o.c->name));
    svg += fmt::format("<text x='{}' y='{}'>{}</text>", left + width + 6, report::coord(y + row / 2.0 + 2), pct(o.error));
  }
  svg += fmt::format("<line x1='{0}' x2='{0}' y1='{1}' y2='{2}' stroke='#333'/>", report::coord(x_of(0)), top - 6, h - 24);
  svg += fmt::format("<text x='{}' y='{}' text-anchor='middle'>-{:.0f} %</text><text x='{}' y='{}' text-anchor='middle'>"
                     "+{:.0f} %</text></svg>",
                     left, h - 8, 100 * span, left + width, h - 8, 100 * span);
  std::string rows;
  for (const Outcome& o : r) {
    const Case& c = *o.c;
    rows += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class='n'>{}</td><td class='n'>{}</td>"
                        "<td class='n'>{}</td><td class='n'>{:.0f} %</td><td>{}</td><td>{}</td></tr>\n",
                        escape(c.name), escape(c.what), c.measured_on, c.metric, figure(c.published, c.metric),
                        figure(o.predicted, c.metric), pct(o.error), 100 * c.tolerance, o.pass ? "yes" : "<b>no</b>",
                        escape(c.source));
  }
  std::string layer_rows;
  for (const Outcome& o : r)
    for (const LayerOutcome& l : o.layers) {
      const bool ok = within(l.error, o.c->layer_limit());
      layer_rows += fmt::format("<tr><td>{}</td><td>{}</td><td class='n'>{}</td><td class='n'>{}</td><td class='n'>{}</td>"
                                "<td class='n'>{:.0f} %</td><td>{}</td></tr>\n",
                                escape(o.c->name), escape(l.name), figure(l.published, o.c->metric),
                                figure(l.predicted, o.c->metric), pct(l.error), 100 * o.c->layer_limit(),
                                ok ? "yes" : "<b>no</b>");
    }
  std::string layers;
  if (!layer_rows.empty())
    layers = fmt::format("<h2>Per layer</h2><p>{}.</p><table><tr><th>case</th><th>layer</th><th>published</th>"
                         "<th>edgesim</th><th>error</th><th>tolerance</th><th>pass</th></tr>\n{}</table>",
                         escape(layer_summary_line(layer_summary(r))), layer_rows);
  return fmt::format(
      "<!DOCTYPE html><html><head><meta charset='utf-8'><title>edgesim validation</title><style>body{{font-family:"
      "sans-serif;margin:2em}}table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:3px 6px;"
      "font-size:13px}}td.n{{text-align:right}}</style></head><body><h1>edgesim against published measurements</h1>"
      "<p>{}/{} cases within tolerance. error = edgesim / published &minus; 1; the shaded band is each case's "
      "tolerance.</p>{}<table><tr><th>case</th><th>what</th><th>on</th><th>metric</th><th>published</th><th>edgesim"
      "</th><th>error</th><th>tolerance</th><th>pass</th><th>source</th></tr>\n{}</table>{}</body></html>\n",
      count_pass(r), r.size(), svg, rows, layers);
}

}  // namespace edgesim::validate
