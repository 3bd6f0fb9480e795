// Layout op cluster costs (see cost_cluster.h for the loops and assumptions).
#include "kernels/layout/cost_cluster.h"

#include <algorithm>

#include "kernels/cost/cluster_common.h"

namespace edgesim {

using namespace cluster_cost;

KernelCost transpose_cluster_cost(const TransposeParams& p, const Shape& y, const ClusterSpec& cl, int64_t lat) {
  require_cost(cl);
  (void)p;
  const int64_t n = elements(y);
  if (n <= 0 || y.empty()) return empty_cost(cl, "transpose");
  size_t par = 0;
  bool found = false;
  for (size_t d = 0; d < y.size() && !found; ++d)
    if (y[d] >= 8) par = d, found = true;
  if (!found) par = static_cast<size_t>(std::max_element(y.begin(), y.end()) - y.begin());
  const int64_t inner = n / std::max<int64_t>(1, y[par]);
  std::vector<Work> t(static_cast<size_t>(cl.n_cores));
  for (int64_t c = 0; c < cl.n_cores; ++c)
    t[static_cast<size_t>(c)] = Work{8, 0} + Work{cl.cost.c_transpose, 2} * (share_spread(y[par], cl.n_cores, c) * inner);
  return work_cost(cl, "transpose", t, lat);
}

KernelCost concat_cluster_cost(const ConcatParams& p, const std::vector<Shape>& inputs, const Shape& y,
                               const ClusterSpec& cl, int64_t lat) {
  require_cost(cl);
  if (elements(y) <= 0 || y.empty()) return empty_cost(cl, "concat");
  const auto axis = static_cast<size_t>(std::clamp<int64_t>(p.axis, 0, static_cast<int64_t>(y.size()) - 1));
  int64_t outer = 1;
  for (size_t d = 0; d < axis; ++d) outer *= y[d];
  Work one;
  for (const Shape& s : inputs) {
    int64_t chunk = 1;
    for (size_t d = axis; d < s.size(); ++d) chunk *= s[d];
    one += Work{12, 0} + Work{2, 2} * (chunk / 4 + chunk % 4);
  }
  std::vector<Work> t(static_cast<size_t>(cl.n_cores));
  t[0] = one * outer;
  return work_cost(cl, "concat", t, lat);
}

KernelCost gather_cluster_cost(const Shape& y, const ClusterSpec& cl, int64_t lat) {
  require_cost(cl);
  const int64_t n = elements(y);
  if (n <= 0) return empty_cost(cl, "gather");
  std::vector<Work> t(static_cast<size_t>(cl.n_cores));
  for (int64_t c = 0; c < cl.n_cores; ++c) t[static_cast<size_t>(c)] = Work{2, 2} * share(n, cl.n_cores, c);
  return work_cost(cl, "gather", t, lat);
}

}  // namespace edgesim
