// aimc_job_cost (cost.h).
#include "kernels/aimc/cost.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace edgesim {

namespace {

int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

AimcCost aimc_job_cost(const AimcJob& j, const PlatformSpec& p) {
  const AimcSpec& a = p.aimc;
  if (!a.present) throw std::invalid_argument("AIMC cost model: the platform has no aimc section");
  if (a.rows < 1 || a.cols < 1) throw std::invalid_argument("AIMC cost model: aimc.rows and aimc.cols must be >= 1");
  if (j.c < 1 || j.k < 1 || j.fx < 1 || j.fy < 1 || j.stride < 1 || j.ox < 1 || j.oy < 1)
    throw std::invalid_argument("AIMC cost model: non-positive extent in a job");
  AimcCost r;
  auto span = [&](int64_t u) { return j.c * j.fy * (j.fx + (u - 1) * j.stride); };
  for (int i = 0; i < 2; ++i)
    if (r.unroll * 2 * j.k <= a.cols && span(r.unroll * 2) <= a.rows) r.unroll *= 2;
  r.rows = span(r.unroll);
  r.cols = j.k * r.unroll;
  r.passes = j.oy * cdiv(j.ox, r.unroll) * cdiv(r.rows, a.rows) * cdiv(r.cols, a.cols);
  r.compute = r.passes * a.mvm_cycles;
  r.macs = j.c * j.fy * j.fx * j.k * j.ox * j.oy;
  if (j.program) {
    r.program_bytes = cdiv(r.rows * r.cols * 2, 8);
    double bw = p.l1_wana.present && p.l1_wana.bw_bytes_per_cycle > 0 ? p.l1_wana.bw_bytes_per_cycle : 0;
    if (p.cluster.dma.present && p.cluster.dma.bytes_per_cycle > 0)
      bw = bw > 0 ? std::min(bw, p.cluster.dma.bytes_per_cycle) : p.cluster.dma.bytes_per_cycle;
    if (bw <= 0) throw std::invalid_argument("AIMC cost model: no weight bandwidth (l1_wana, cluster.dma)");
    r.program = static_cast<int64_t>(std::ceil(static_cast<double>(r.program_bytes) / bw));
    if (p.fidelity.dma_ext_latency && p.cluster.dma.present) r.program += std::max<int64_t>(0, p.cluster.dma.l2_latency);
  }
  r.config = a.cfg_cycles;
  r.cycles = r.program + r.compute + r.config;
  return r;
}

}  // namespace edgesim
