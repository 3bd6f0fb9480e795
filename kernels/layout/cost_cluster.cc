// Layout op cluster costs (see cost_cluster.h for the loops and assumptions).
#include "kernels/layout/cost_cluster.h"

#include <algorithm>

#include "kernels/cost/cluster_common.h"

namespace edgesim {

using namespace cluster_cost;

Shape transpose_loop_shape(const TransposeParams& p, const Shape& y) {
  // A layout conversion keeps the logical NCHW shape; Deeploy's Transpose writes NHWC towards HWC.
  if (p.relayout == "nchw_to_hwc" && y.size() == 4) return {y[0], y[2], y[3], y[1]};
  return y;
}

int transpose_parallel_axis(const Shape& loop) {
  for (size_t d = 0; d < loop.size(); ++d)
    if (loop[d] >= 8) return static_cast<int>(d);
  return static_cast<int>(std::max_element(loop.begin(), loop.end()) - loop.begin());
}

KernelCost transpose_cluster_cost(const TransposeParams& p, const Shape& y, const ClusterSpec& cl, int64_t lat) {
  require_cost(cl);
  const int64_t n = elements(y);
  if (n <= 0 || y.empty()) return empty_cost(cl, "transpose");
  const Shape loop = transpose_loop_shape(p, y);
  const auto par = static_cast<size_t>(p.par_axis >= 0 && p.par_axis < static_cast<int>(loop.size())
                                           ? p.par_axis : transpose_parallel_axis(loop));
  const int64_t inner = n / std::max<int64_t>(1, loop[par]);
  const int64_t per = cl.cost.c_transpose + (p.runtime_index ? cl.cost.c_transpose_idx : 0);
  std::vector<Work> t(static_cast<size_t>(cl.n_cores));
  for (int64_t c = 0; c < cl.n_cores; ++c)
    t[static_cast<size_t>(c)] = Work{8, 0} + Work{per, 2} * (share_spread(loop[par], cl.n_cores, c) * inner);
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
