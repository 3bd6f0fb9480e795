// Shared pieces of the cluster kernel cost models (docs/timing.md "Cluster kernel cost models"):
// the static work split of PULP-NN kernels over the cluster's cores, the check that the platform
// has cost constants, and the assembly of a KernelCost from the per-core work of one kernel call.
//
// Split rule (docs/timing.md "Inputs and result"): chunk(n) = ⌈n/NC⌉ and core c gets
// max(0, min(chunk, n − c·chunk)) items, so trailing cores may be idle (Hout = 10 on 8 cores:
// 5 cores with 2 rows, 3 idle). A KernelCost covers `calls` identical kernel calls (batch images,
// conv groups, Gemm batch matrices); each call ends with the cluster barrier t_bar, which is the
// only fixed per-call overhead (the team fork t_fork is charged by the schedule, docs/simulator.md
// "Replaying a schedule").
#pragma once
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kernels/core/cost.h"
#include "platforms/loader/spec.h"

namespace edgesim::cluster_cost {

// Throws unless the cluster carries cost constants and at least one core.
inline void require_cost(const ClusterSpec& cl) {
  if (!cl.cost.present)
    throw std::invalid_argument("cluster cost model: platform has no cluster.cost section");
  if (cl.n_cores < 1)
    throw std::invalid_argument("cluster cost model: cluster.n_cores must be >= 1, got " +
                                std::to_string(cl.n_cores));
}

inline int64_t ceil_div(int64_t a, int64_t b) { return b <= 0 ? 0 : (a + b - 1) / b; }

// A word access at byte address a is misaligned unless a is a multiple of 4 (GVSoC's core splits
// it in two, cluster.cost.c_misalign).
inline bool misaligned_word(int64_t a) { return (a % 4 + 4) % 4 != 0; }
// #{i in [0, n): base + i·step misaligned}: the residues repeat with period 4.
inline int64_t misaligned_words(int64_t base, int64_t step, int64_t n) {
  int64_t m = 0;
  for (int64_t k = 0; k < std::min<int64_t>(n, 4); ++k)
    if (misaligned_word(base + k * step)) m += (n - k + 3) / 4;
  return m;
}

// Items of `n` (split in chunks of ⌈n/parts⌉) that part `c` receives.
inline int64_t share(int64_t n, int64_t parts, int64_t c) {
  if (n <= 0 || parts <= 0) return 0;
  const int64_t chunk = ceil_div(n, parts);
  return std::max<int64_t>(0, std::min(chunk, n - c * chunk));
}

// Cost of a call that has nothing to compute: the cores still meet at the barrier.
inline KernelCost empty_cost(const ClusterSpec& cl, std::string kernel) {
  KernelCost k;
  k.cycles = k.overhead = cl.cost.t_bar;
  k.core_cycles.assign(static_cast<size_t>(std::max<int64_t>(cl.n_cores, 0)), 0);
  k.kernel = std::move(kernel);
  return k;
}

// `calls` identical calls, each costing max over cores of `per_core` plus one barrier.
inline KernelCost make_cost(const ClusterSpec& cl, std::string kernel,
                            const std::vector<int64_t>& per_core, int64_t calls = 1) {
  KernelCost k;
  k.kernel = std::move(kernel);
  if (calls <= 0) return empty_cost(cl, k.kernel);
  int64_t worst = 0;
  k.core_cycles.reserve(per_core.size());
  for (int64_t t : per_core) {
    k.core_cycles.push_back(t * calls);
    worst = std::max(worst, t);
  }
  k.overhead = calls * cl.cost.t_bar;
  k.cycles = calls * worst + k.overhead;
  return k;
}

// ---- Row-wise and Deeploy-structured kernels (kernels/{softmax,norm,act,reduce,fakequant},
// kernels/gemm/cost_deeploy, kernels/layout/cost_cluster) ----

// Per-core work: cycles with every memory access at the L1 latency, and how many accesses to the
// operands' memory the core makes. A kernel whose operands sit in L2 (policy `untiled`, whole-
// tensor steps) pays `mem_latency` more cycles per access: a core's load or store to L2 stalls
// for the cluster -> L2 round trip (platforms' l2.latency_from_cluster; GVSoC models no L2
// bandwidth limit, [2], docs/platforms.md "fidelity").
struct Work {
  int64_t cycles = 0;
  int64_t accesses = 0;
  Work& operator+=(const Work& o) { cycles += o.cycles, accesses += o.accesses; return *this; }
  Work operator*(int64_t n) const { return {cycles * n, accesses * n}; }
  Work operator+(const Work& o) const { return {cycles + o.cycles, accesses + o.accesses}; }
  int64_t charged(int64_t mem_latency) const { return cycles + accesses * mem_latency; }
};

// Stall of an integer division on the cluster cores as GVSoC models it ([61] gvsoc-core
// models/cpu/iss/include/isa/rv32m.hpp, non-Snitch cores): clz(divisor) + 3 cycles for a positive
// divisor (div and divu alike), plus the issue cycle.
inline int64_t div_cycles(int64_t divisor) {
  if (divisor == 0) return 2;
  const auto d = static_cast<uint32_t>(divisor > 0 ? divisor : -divisor);
  return (d == 0 ? 32 : __builtin_clz(d)) + 3 + 1;
}

// Deeploy's PULP kernels split n items as chunk = ⌈n/NC⌉ per core (the same rule as share()):
// iRMSNorm's positions, RQSiHardswish / Mul / UniformRequantShift elements.
// iSoftmax (PULPSoftmax_*): cores 0..NC-2 take ⌊n/NC⌋ rows each and the last core the rest.
inline int64_t share_last(int64_t n, int64_t parts, int64_t c) {
  if (n <= 0 || parts <= 0) return 0;
  const int64_t base = n / parts;
  return c < parts - 1 ? base : n - base * (parts - 1);
}
// Transpose (PULPTransposeTemplate): ⌊n/NC⌋ per core, the first n mod NC cores one more.
inline int64_t share_spread(int64_t n, int64_t parts, int64_t c) {
  if (n <= 0 || parts <= 0) return 0;
  return n / parts + (c < n % parts ? 1 : 0);
}

// A KernelCost from per-core work, each core's work charged at `mem_latency`.
inline KernelCost work_cost(const ClusterSpec& cl, std::string kernel, const std::vector<Work>& per_core,
                            int64_t mem_latency, int64_t calls = 1) {
  std::vector<int64_t> t;
  for (const Work& w : per_core) t.push_back(w.charged(mem_latency));
  return make_cost(cl, std::move(kernel), t, calls);
}

// Product of a shape's extents (1 for rank 0); negative extents count as 0.
inline int64_t elements(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= std::max<int64_t>(d, 0);
  return n;
}

}  // namespace edgesim::cluster_cost
