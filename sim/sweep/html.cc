// sweep_to_html (html.h): page layout, cards and tables of a sweep; the charts are charts.cc.
#include "sim/sweep/html.h"

#include <fmt/format.h>

#include "sim/report/format.h"
#include "sim/report/svg.h"
#include "sim/sweep/charts.h"

namespace edgesim::sweep {

namespace {

using report::escape;
using report::group_digits;

const char* const kCss = R"(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#1f2328;margin:0;background:#fff}
main{max-width:1200px;margin:0 auto;padding:24px 20px 48px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:32px 0 8px;border-bottom:1px solid #d8dee4;padding-bottom:4px}
h3{font-size:14px;margin:14px 0 2px}
.meta{color:#636c76}
.cards{display:flex;flex-wrap:wrap;gap:8px;margin:10px 0}
.card{border:1px solid #d8dee4;border-radius:6px;padding:7px 12px;min-width:96px}
.card .k{font-size:12px;color:#636c76}.card .v{font-size:17px;font-weight:600;font-variant-numeric:tabular-nums}
svg.chart{display:block;margin:8px 0;max-width:100%;height:auto}
svg text{font:12px system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;fill:#1f2328}
svg .tick{fill:#636c76;font-size:11px}svg .axis{stroke:#8c959f}svg .grid{stroke:#eaeef2}
svg .cell{stroke:#fff;stroke-width:1}svg .lbl{font-size:11px;font-variant-numeric:tabular-nums}
svg .line{fill:none;stroke:#4C78A8;stroke-width:2}svg .dot{fill:#4C78A8}svg .bad{stroke:#6e7781;stroke-width:2}
table{border-collapse:collapse;font-size:13px;font-variant-numeric:tabular-nums;margin-top:8px}
th,td{padding:3px 9px;border-bottom:1px solid #eaeef2;text-align:left;vertical-align:top}th{background:#f6f8fa}
td.n{text-align:right}tr.inf td{color:#6e7781}td.reason{max-width:560px;font-size:12px}
.best{background:#dafbe1}
.multiples{display:flex;flex-wrap:wrap;column-gap:36px}
summary{cursor:pointer;color:#636c76;margin-top:8px}
)";


std::string network_table(const SweepSpec& s, const std::vector<const PointRecord*>& rs, const PointRecord* best) {
  // Long grids fold the table away (a <details> element: no script needed).
  std::string t = rs.size() > 12 ? fmt::format("<details><summary>all {} points</summary>\n", rs.size()) : "";
  t += "<table><tr>";
  for (const Axis& a : s.axes) t += "<th>" + escape(a.key) + "</th>";
  t += "<th>status</th><th>total cycles</th><th>time</th><th>MAC/cycle</th><th>reason</th></tr>\n";
  for (const PointRecord* r : rs) {
    t += std::string("<tr") + (r == best ? " class=\"best\"" : r->status != "ok" ? " class=\"inf\"" : "") + ">";
    for (const std::string& v : r->values) t += "<td>" + escape(v) + "</td>";
    if (r->status == "ok")
      t += fmt::format(R"(<td>ok</td><td class="n">{}</td><td class="n">{:.3f} ms</td><td class="n">{:.2f}</td><td></td>)",
                       group_digits(r->total_cycles), r->time_ms, r->mac_per_cycle);
    else
      t += "<td>" + escape(r->status) + R"(</td><td class="n">-</td><td class="n">-</td><td class="n">-</td><td class="reason">)" +
           escape(r->reason) + "</td>";
    t += "</tr>\n";
  }
  return t + (rs.size() > 12 ? "</table></details>\n" : "</table>\n");
}


}  // namespace

std::string sweep_to_html(const SweepSpec& s, const std::vector<PointRecord>& records) {
  std::string grid;
  for (const Axis& a : s.axes) {
    std::string vals;
    for (const std::string& v : a.values) vals += (vals.empty() ? "" : ", ") + v;
    grid += (grid.empty() ? "" : "; ") + escape(a.key) +
            (a.values.size() > 1 ? " &isin; {" + escape(vals) + "}" : " = " + escape(vals));
  }
  std::string page = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>edgesim sweep: " +
                     escape(s.platform) + "</title>\n<style>" + kCss + "</style>\n</head>\n<body><main>\n";
  page += "<h1>edgesim sweep on " + escape(s.platform) + "</h1>\n";
  page += fmt::format("<div class=\"meta\">policy {} &middot; {} network(s) &middot; {} points per network &middot; {}</div>\n",
                      escape(s.policy), s.networks.size(), grid_size(s.axes), grid.empty() ? "no keys varied" : grid);
  int ids = 0;
  for (size_t n = 0; n < s.networks.size(); ++n) {
    const std::string name = network_name(s.networks[n]);
    std::vector<const PointRecord*> rs;
    for (const PointRecord& r : records)
      if (r.network == name) rs.push_back(&r);
    const PointRecord* best = nullptr;
    size_t infeasible = 0;
    for (const PointRecord* r : rs) {
      if (r->status != "ok") ++infeasible;
      else if (!best || r->total_cycles < best->total_cycles) best = r;
    }
    page += "<h2>" + escape(name) + " <span class=\"meta\">(" + escape(s.networks[n]) + ")</span></h2>\n<div class=\"cards\">";
    if (best) {
      std::string at;
      for (size_t i = 0; i < s.axes.size(); ++i)
        if (s.axes[i].values.size() > 1) at += (at.empty() ? "" : ", ") + s.axes[i].key + "=" + best->values[i];
      page += fmt::format(R"(<div class="card"><div class="k">fewest cycles</div><div class="v">{}</div></div>)"
                          R"(<div class="card"><div class="k">time</div><div class="v">{:.3f} ms</div></div>)"
                          R"(<div class="card"><div class="k">at</div><div class="v">{}</div></div>)",
                          group_digits(best->total_cycles), best->time_ms, escape(at.empty() ? "every point" : at));
    }
    page += fmt::format(R"(<div class="card"><div class="k">feasible</div><div class="v">{} / {}</div></div></div>)",
                        rs.size() - infeasible, rs.size());
    page += sweep_charts(s, rs, ids);
    page += network_table(s, rs, best);
  }
  return page + "</main></body>\n</html>\n";
}

}  // namespace edgesim::sweep
