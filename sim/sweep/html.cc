// sweep_to_html (html.h): page layout, cards and tables of a sweep; the charts are charts.cc.
#include "sim/sweep/html.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "sim/report/format.h"
#include "sim/report/provenance.h"
#include "sim/report/svg.h"
#include "sim/sweep/charts.h"
#include "sim/sweep/pareto.h"

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
svg .cell{stroke:#fff;stroke-width:1}svg .lbl{font-size:11px;font-variant-numeric:tabular-nums}svg .lbl.why{font-size:9px}
svg .line{fill:none;stroke:#4C78A8;stroke-width:2}svg .dot{fill:#4C78A8}svg .bad{stroke:#6e7781;stroke-width:2}
table{border-collapse:collapse;font-size:13px;font-variant-numeric:tabular-nums;margin-top:8px}
th,td{padding:3px 9px;border-bottom:1px solid #eaeef2;text-align:left;vertical-align:top}th{background:#f6f8fa}
td.n{text-align:right}tr.inf td{color:#6e7781}td.reason{max-width:560px;font-size:12px}
.best{background:#dafbe1}
.multiples{display:flex;flex-wrap:wrap;column-gap:36px}
summary{cursor:pointer;color:#636c76;margin-top:8px}
)";


std::string network_table(const SweepSpec& s, const std::vector<const PointRecord*>& rs, const PointRecord* best) {
  const bool energy = std::any_of(rs.begin(), rs.end(), [](const PointRecord* r) { return r->energy_uj >= 0; });
  // Long grids fold the table away (a <details> element: no script needed).
  std::string t = rs.size() > 12 ? fmt::format("<details><summary>all {} points</summary>\n", rs.size()) : "";
  t += "<table><tr>";
  for (const Axis& a : s.axes) t += "<th>" + escape(a.key) + "</th>";
  t += std::string("<th>status</th><th>total cycles</th><th>time</th><th>MAC/cycle</th>") +
       (energy ? "<th>energy</th><th>EDP (uJ&middot;ms)</th>" : "") + "<th>reason</th></tr>\n";
  for (const PointRecord* r : rs) {
    t += std::string("<tr") + (r == best ? " class=\"best\"" : r->status != "ok" ? " class=\"inf\"" : "") + ">";
    for (const std::string& v : r->values) t += "<td>" + escape(v) + "</td>";
    if (r->status == "ok") {
      t += fmt::format(R"(<td>ok</td><td class="n">{}</td><td class="n">{:.3f} ms</td><td class="n">{:.2f}</td>)",
                       group_digits(r->total_cycles), r->time_ms, r->mac_per_cycle);
      if (energy)
        t += r->energy_uj >= 0 ? fmt::format(R"(<td class="n">{:.3f} uJ</td><td class="n">{:.4g}</td>)", r->energy_uj,
                                             r->energy_uj * r->time_ms)
                               : std::string(R"(<td class="n">-</td><td class="n">-</td>)");
      t += r->carried_from.empty() ? std::string("<td></td>")
                                   : R"(<td class="reason">plan of )" + escape(r->carried_from) + "</td>";
    } else {
      t += "<td>" + escape(r->status) + R"(</td><td class="n">-</td><td class="n">-</td><td class="n">-</td>)" +
           (energy ? R"(<td class="n">-</td><td class="n">-</td>)" : "") + R"(<td class="reason">)" + escape(r->reason) + "</td>";
    }
    t += "</tr>\n";
  }
  return t + (rs.size() > 12 ? "</table></details>\n" : "</table>\n");
}


}  // namespace

std::string sweep_to_html(const SweepSpec& s, const std::vector<PointRecord>& records, const Provenance& prov) {
  std::string grid;
  for (size_t i = 0; i < s.axes.size(); ++i) {
    const Axis& a = s.axes[i];
    std::string vals;
    for (const std::string& v : a.values) vals += (vals.empty() ? "" : ", ") + v;
    grid += (grid.empty() ? "" : "; ") + escape(a.key) +
            (a.values.size() > 1 ? " &isin; {" + escape(vals) + "}" : " = " + escape(vals)) +
            (a.link >= 0 ? fmt::format(" (linked {})", a.link) : "");
  }
  std::string policies, engines;
  for (const std::string& p : s.policies) policies += (policies.empty() ? "" : ", ") + p;
  for (const auto& e : s.engine_sets) engines += (engines.empty() ? "" : " | ") + (e.empty() ? "platform's" : engines_label(e));
  std::string page = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>edgesim sweep: " +
                     escape(s.platform) + "</title>\n<style>" + kCss + "</style>\n</head>\n<body><main>\n";
  page += "<h1>edgesim sweep on " + escape(s.platform) + "</h1>\n";
  page += fmt::format("<div class=\"meta\">{} {} &middot; engines {} &middot; {} network(s) &middot; {} points per network "
                      "&middot; {}</div>\n",
                      s.policies.size() > 1 ? "policies" : "policy", escape(policies), escape(engines), s.networks.size(),
                      point_count(s) / std::max<size_t>(s.networks.size(), 1), grid.empty() ? "no keys varied" : grid);
  int ids = 0;
  for (size_t n = 0; n < s.networks.size(); ++n) {
    const std::string name = spec_network_name(s, n);
    page += "<h2>" + escape(name) + " <span class=\"meta\">(" + escape(s.networks[n]) + ")</span></h2>\n";
    // One block per (policy, engine set): its best point, its charts and its table.
    for (const std::string& policy : s.policies)
      for (const auto& eset : s.engine_sets) {
        const std::string elabel = engines_label(eset);
        std::vector<const PointRecord*> rs;
        for (const PointRecord& r : records)
          if (r.network == name && r.policy == policy && r.engines == elabel) rs.push_back(&r);
        if (s.policies.size() > 1 || s.engine_sets.size() > 1)
          page += "<h3>policy " + escape(policy) + (s.engine_sets.size() > 1 ? ", engines " +
                  escape(elabel.empty() ? "(platform's)" : elabel) : "") + "</h3>\n";
        const PointRecord* best = nullptr;   // the lowest figure of the objective (cycles, energy, edp)
        size_t infeasible = 0;
        for (const PointRecord* r : rs) {
          if (r->status != "ok") ++infeasible;
          const std::optional<double> v = objective_value(*r, s.objective);
          if (v && (!best || *v < *objective_value(*best, s.objective))) best = r;
        }
        page += "<div class=\"cards\">";
        if (best) {
          std::string at;
          for (size_t i : varied_axes(s.axes)) at += (at.empty() ? "" : ", ") + s.axes[i].key + "=" + best->values[i];
          const char* title = s.objective == "energy" ? "least energy" : s.objective == "edp" ? "lowest EDP" : "fewest cycles";
          page += fmt::format(R"(<div class="card"><div class="k">{} at</div><div class="v">{}</div></div>)"
                              R"(<div class="card"><div class="k">cycles</div><div class="v">{}</div></div>)"
                              R"(<div class="card"><div class="k">time</div><div class="v">{:.3f} ms</div></div>)",
                              title, escape(at.empty() ? "every point" : at), group_digits(best->total_cycles), best->time_ms);
          if (best->energy_uj >= 0)
            page += fmt::format(R"(<div class="card"><div class="k">energy</div><div class="v">{:.3f} uJ</div></div>)"
                                R"(<div class="card"><div class="k">EDP</div><div class="v">{:.4g} uJ&middot;ms</div></div>)",
                                best->energy_uj, best->energy_uj * best->time_ms);
        }
        page += fmt::format(R"(<div class="card"><div class="k">feasible</div><div class="v">{} / {}</div></div></div>)",
                            rs.size() - infeasible, rs.size());
        page += sweep_charts(s, rs, ids);
        if (const std::string front = pareto_chart(s, rs, best); !front.empty())
          page += "<h3>Cycles and energy: the Pareto front</h3>\n" + front +
                  "<p class=\"meta\">red: points no other point beats in both cycles and energy; ringed: the best "
                  "point of the objective (" + escape(s.objective) + ")</p>\n";
        page += network_table(s, rs, best);
      }
  }
  page += report::provenance_html(prov);
  return page + "</main></body>\n</html>\n";
}

}  // namespace edgesim::sweep
