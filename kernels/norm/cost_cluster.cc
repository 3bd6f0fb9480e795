// Integer norm cluster cost (see cost_cluster.h for the loops and assumptions).
#include "kernels/norm/cost_cluster.h"

#include "kernels/cost/cluster_common.h"

namespace edgesim {

namespace {
constexpr int64_t kRms = 32;          // ASSUMPTION (asm): typical divisor r
constexpr int64_t kSqrtCycles = 56;   // 8 binary-search steps of 7 instructions
}  // namespace

KernelCost norm_cluster_cost(const NormParams& p, const Shape& y, const ClusterSpec& cl, int64_t lat) {
  using namespace cluster_cost;
  require_cost(cl);
  const bool layer = p.kind == NormParams::Kind::Layer;
  const char* name = layer ? "ilayernorm" : "irmsnorm";
  const int64_t len = y.empty() ? 0 : y.back();
  const int64_t rows = len > 0 ? elements(y) / len : 0;
  if (rows <= 0) return empty_cost(cl, name);
  std::vector<Work> t(static_cast<size_t>(cl.n_cores));
  for (int64_t c = 0; c < cl.n_cores; ++c) {
    Work w;
    if (layer) {
      Work row{6 + kSqrtCycles + 2 * (div_cycles(len) + 2), 0};
      row += Work{2, 1} * len;
      row += Work{3, 1} * len;
      row += Work{10 + div_cycles(kRms), 4} * len;
      w = row * share(rows, cl.n_cores, c);
    } else {
      Work row{6 + kSqrtCycles + div_cycles(len) + 2, 0};
      row += Work{2, 1} * len;
      row += Work{7 + div_cycles(kRms), 3} * share(len, cl.n_cores, c);
      w = row * rows;
    }
    t[static_cast<size_t>(c)] = w;
  }
  return work_cost(cl, name, t, lat);
}

}  // namespace edgesim
