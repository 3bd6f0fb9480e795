// Pareto front and cycles-energy scatter plot of a sweep (pareto.h).
#include "sim/sweep/pareto.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sim/report/format.h"
#include "sim/report/svg.h"
#include "sim/sweep/grid.h"

namespace edgesim::sweep {

std::vector<size_t> pareto_front(const std::vector<std::pair<double, double>>& pts) {
  std::vector<size_t> front;
  for (size_t i = 0; i < pts.size(); ++i) {
    bool dominated = false;
    for (size_t j = 0; j < pts.size() && !dominated; ++j)
      dominated = j != i && pts[j].first <= pts[i].first && pts[j].second <= pts[i].second &&
                  (pts[j].first < pts[i].first || pts[j].second < pts[i].second);
    if (!dominated) front.push_back(i);
  }
  std::sort(front.begin(), front.end(), [&](size_t a, size_t b) {
    return pts[a] < pts[b] || (pts[a] == pts[b] && a < b);
  });
  return front;
}

std::string pareto_chart(const SweepSpec& s, const std::vector<const PointRecord*>& rs, const PointRecord* best) {
  using report::coord;
  using report::escape;
  std::vector<const PointRecord*> ok;
  std::vector<std::pair<double, double>> pts;
  for (const PointRecord* r : rs)
    if (r->status == "ok" && r->energy_uj >= 0) {
      ok.push_back(r);
      pts.emplace_back(static_cast<double>(r->total_cycles), r->energy_uj);
    }
  if (ok.size() < 2) return "";
  const std::vector<size_t> front = pareto_front(pts);
  // Axes over the points' range (padded), so that close points stay apart.
  double lo_x = pts[0].first, hi_x = lo_x, lo_y = pts[0].second, hi_y = lo_y;
  for (const auto& [x, y] : pts) lo_x = std::min(lo_x, x), hi_x = std::max(hi_x, x), lo_y = std::min(lo_y, y), hi_y = std::max(hi_y, y);
  auto pad = [](double& lo, double& hi) {
    const double d = hi > lo ? (hi - lo) * 0.08 : std::max(1e-9, std::abs(hi) * 0.05);
    lo -= d, hi += d;
  };
  pad(lo_x, hi_x);
  pad(lo_y, hi_y);
  const double W = 640, H = 360, L = 70, R = 20, T = 20, B = 46;
  auto X = [&](double v) { return L + (v - lo_x) / (hi_x - lo_x) * (W - L - R); };
  auto Y = [&](double v) { return H - B - (v - lo_y) / (hi_y - lo_y) * (H - T - B); };
  std::string svg = fmt::format(R"(<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {0} {1}" width="{0}" )"
                                R"(height="{1}" role="img" aria-label="cycles and energy of the points">)",
                                coord(W), coord(H));
  for (int k = 0; k <= 5; ++k) {
    const double tx = lo_x + (hi_x - lo_x) * k / 5, ty = lo_y + (hi_y - lo_y) * k / 5;
    svg += fmt::format(R"(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" class="grid"/><text x="{0}" y="{3}" class="tick" )"
                       R"(text-anchor="middle">{4}</text>)",
                       coord(X(tx)), coord(T), coord(H - B), coord(H - B + 15), report::short_number(tx));
    svg += fmt::format(R"(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" class="grid"/><text x="{3}" y="{4}" class="tick" )"
                       R"(text-anchor="end">{5:.4g}</text>)",
                       coord(L), coord(Y(ty)), coord(W - R), coord(L - 6), coord(Y(ty) + 4), ty);
  }
  svg += fmt::format(R"(<text x="{}" y="{}" class="tick" text-anchor="middle">total cycles</text>)", coord((L + W - R) / 2),
                     coord(H - 8));
  svg += fmt::format(R"~(<text x="14" y="{}" class="tick" text-anchor="middle" transform="rotate(-90 14 {})">energy (uJ)</text>)~",
                     coord((T + H - B) / 2), coord((T + H - B) / 2));
  std::string path;   // the front as a staircase (lower-left region dominated)
  for (size_t k = 0; k < front.size(); ++k) {
    const auto& [x, y] = pts[front[k]];
    if (k == 0) path += fmt::format("M{} {}", coord(X(x)), coord(Y(y)));
    else path += fmt::format(" H{} V{}", coord(X(x)), coord(Y(y)));
  }
  svg += R"(<path d=")" + path + R"(" fill="none" stroke="#cf222e" stroke-width="1.5"/>)";
  for (size_t i = 0; i < ok.size(); ++i) {
    const bool on = std::find(front.begin(), front.end(), i) != front.end();
    const std::string label = point_label(s.axes, ok[i]->values);
    svg += fmt::format(R"(<g><title>{}&#10;{} cycles, {:.3f} uJ{}</title><circle cx="{}" cy="{}" r="{}" fill="{}"/>)",
                       escape(label.empty() ? "the point" : label), report::group_digits(ok[i]->total_cycles), ok[i]->energy_uj,
                       on ? " (Pareto front)" : "", coord(X(pts[i].first)), coord(Y(pts[i].second)), on ? 5 : 3.5,
                       on ? "#cf222e" : "#8c959f");
    if (ok[i] == best)
      svg += fmt::format(R"(<circle cx="{}" cy="{}" r="9" fill="none" stroke="#1a7f37" stroke-width="2"/>)",
                         coord(X(pts[i].first)), coord(Y(pts[i].second)));
    svg += "</g>";
  }
  return svg + "</svg>\n";
}

}  // namespace edgesim::sweep
