// Cluster (cluster.h).
#include "sim/cluster/cluster.h"

#include <algorithm>
#include <cmath>
#include <variant>

#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "kernels/cost/cluster_cost.h"
#include "kernels/cost/host_cost.h"
#include "kernels/energy/cost.h"
#include "kernels/layout/params.h"

namespace edgesim {

ClusterConventions conventions_for(const std::string& policy, const PlatformSpec& p, const std::string& network_loop) {
  ClusterConventions c;
  c.fork_per_layer = network_loop != "dory-2020";
  c.workers = p.cluster.n_cores;
  const Flow* f = find_flow(policy);   // null: a hand-made tiling's label (all cores, DORY's loop)
  try {
    // The generated code's cores, at most the cluster's: DORY code generated for 8 cores runs
    // with fewer NUM_CORES unchanged (budgets.dory.n_cores > cluster.n_cores, docs/platforms.md).
    if (f) c.workers = std::min<int64_t>(f->budgets(p).nc, p.cluster.n_cores);
  } catch (const std::exception&) {
    // a platform without the flow's budgets: all cores
  }
  const RuntimeConventions rc = f ? f->conventions(p) : RuntimeConventions{};
  if (rc.deeploy_loop) {
    c.deeploy_kernels = true;
    c.fork_per_tile = true;
    c.extra_barriers = 0;
    c.single_core_issue = true;
  } else {
    c.single_core_issue = p.budgets.dory.present && p.budgets.dory.single_core_dma;
    c.dw3x3_s1 = rc.dw3x3_s1;
  }
  return c;
}

Cluster::Cluster(const sc_core::sc_module_name& name, JobListener& listener, const PlatformSpec& p, int64_t workers)
    : Engine(name, listener), p_(p), workers_(p.cluster), dma_(dma_timing(p)),
      n_cores_(static_cast<int>(std::max<int64_t>(1, workers))) {
  workers_.n_cores = n_cores_;
  track_ = "cluster";
}

size_t Cluster::pick() const {
  size_t best = 0;
  auto key = [](const Job* j) { return std::pair{j->kind != Job::Kind::Issue, j->id}; };
  for (size_t k = 1; k < pending_.size(); ++k)
    if (key(pending_[k]) < key(pending_[best])) best = k;
  return best;
}

void Cluster::cost_kernel(Job& j, const Command& c, const ClusterConventions& conv, bool first_of_step, bool tiled,
                          bool in_l1, bool waited_dma) const {
  std::vector<Shape> in, out;
  for (const BufView& v : c.inputs) in.push_back(v.shape);
  for (const BufView& v : c.outputs) out.push_back(v.shape);
  // Operands outside L1 (a whole-tensor step's tensors in L2 or an L2 staging buffer: policy
  // untiled, layout ops): every core access pays the cluster -> L2 latency; tiles read L1.
  ClusterCostOptions opt;
  opt.mem_latency = in_l1 ? 0 : p_.l2.latency_from_cluster;
  opt.deeploy = conv.deeploy_kernels;
  opt.dw3x3_s1 = conv.dw3x3_s1;
  // impl riscv_host: one core running TVM's plain C loops (kernels/host/cost.h).
  const KernelCost k = p_.cluster.impl == "riscv_host" ? host_kernel_cost(c.params, in, out, p_.cluster.host_cost)
                                                        : cluster_kernel_cost(c.params, in, out, workers_, opt);
  const ClusterCostSpec& cc = p_.cluster.cost;
  int64_t lead = waited_dma ? dma_.wake_cycles : 0;
  if (conv.fork_per_tile) lead += cc.t_fork;
  else if (first_of_step) lead += conv.fork_per_layer ? cc.t_fork : cc.t_bar;
  // the layer's own code, run once per inference, fetched cold on its first kernel (docs/timing.md
  // "Cold code"; 0 unless the platform's or the flow's library counts it)
  if (first_of_step) lead += std::holds_alternative<TransposeParams>(c.params) ? cc.c_layer_tr : cc.c_layer;
  const int64_t barriers = tiled ? conv.extra_barriers * cc.t_bar : 0;
  j.kind = Job::Kind::Kernel;
  j.lead = lead;
  j.work = std::max<int64_t>(0, k.cycles - k.overhead);
  j.duration = lead + k.cycles + barriers;
  j.core_cycles = k.core_cycles;
  j.kernel = k.kernel;
}

void Cluster::stretch_for_conflicts(Job& j, const Tcdm& l1, bool dma_in_flight) const {
  const double others =
      static_cast<double>(n_cores_ - 1) * kTcdmShare + static_cast<double>(dma_in_flight ? dma_.tcdm_ports : 0);
  const auto extra =
      static_cast<int64_t>(std::llround(static_cast<double>(j.work) * kTcdmShare * l1.expected_wait(others)));
  j.work += extra;
  j.duration += extra;
}

void Cluster::cost_issue(Job& j, const Command& c, const ClusterConventions& conv, int64_t gather_channels) const {
  const bool gather = gather_channels > 0;
  DmaTiming t = dma_;
  if (conv.single_core_issue) t.single_core_dma = true;
  const CopyCost cost = dory_copy_cost(t, c.count.data(), 0, true, gather, gather_channels);
  j.kind = Job::Kind::Issue;
  j.lead = 0;
  j.work = 0;
  j.duration = cost.issue;
  j.core_cycles.assign(static_cast<size_t>(n_cores_), 0);
  j.dma_commands = j.dma_bursts = 0;
  for (const MchanCommand& m : dory_commands(t, c.count.data(), gather, gather_channels)) {
    j.core_cycles[static_cast<size_t>(std::clamp(m.core, 0, n_cores_ - 1))] += mchan_issue_cycles(t, m.two_d);
    ++j.dma_commands;
    j.dma_bursts += dma_bursts(m.lines, m.line_bytes, t.burst_bytes);
  }
  j.kernel = "dma issue";
}

}  // namespace edgesim
