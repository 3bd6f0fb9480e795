// Cluster: the PULP cluster's N cores acting as one team (impl `pulp_cluster`), or the single
// RISC-V host core of a platform without a cluster (impl `riscv_host`, DIANA): the same engine
// with the host's loop-nest kernel costs (kernels/host/cost.h) and no team fork or barriers
// (its cluster.cost constants are absent, hence zero).
// Timing: runs one job at a time, chosen among the ready ones: DMA issue jobs first (the
// deployment loop programs the next transfers before it forks the kernel, docs/simulator.md
// "Replaying a schedule"), then the lowest command id (program order). A kernel job lasts
//   [wake]  + [fork] + [extra barriers] + kernel cost (kernels/*/cost_cluster, incl. its barrier)
//   wake    = cluster.dma.wake_cycles when the kernel waited on a DMA transfer
//   fork    = cluster.cost.t_fork: once per layer for DORY schedules (the layer runs inside one
//             team fork), once per tile for Deeploy's (the tiling loop forks each kernel);
//             whole-tensor steps fork once. Under the paper-era network loop (dory-2020) the
//             network runs in one fork: a layer pays the barrier t_bar that ends it instead
//   barriers= 3 · t_bar per tile for DORY's pipelined loop (4 barriers per iteration, the kernel
//             model holds one)
// A DMA issue job lasts the core-side programming cost of the copy's MCHAN commands as DORY
// issues them (kernels/dma/cost.h dory_copy_cost; per-row commands spread over the cores);
// Deeploy's single-core loop issues everything from core 0. The conventions come per step (from
// its tiling's policy), so a tuned network may mix DORY's and Deeploy's loops.
// Parameters: the policy's worker cores (budgets.*.n_cores, else cluster.n_cores),
// cluster.cost.*, cluster.dma.* (issue, wake), budgets.dory.*.
// A whole-tensor step (policy untiled, layout ops) runs its kernel on L2: the cost models charge
// l2.latency_from_cluster per core access (kernels/cost/cluster_cost.h).
// Not modelled: instruction cache misses, overlap of DMA programming with the kernel.
#pragma once
#include <string>

#include "compiler/schedule/schedule.h"
#include "kernels/dma/cost.h"
#include "platforms/loader/spec.h"
#include "sim/core/engine.h"
#include "sim/mem/tcdm.h"

namespace edgesim {

struct ClusterConventions {
  bool fork_per_tile = false;     // Deeploy: one team fork per kernel call
  int64_t extra_barriers = 3;     // per tiled kernel (DORY 3, Deeploy 0)
  bool single_core_issue = false; // Deeploy's tiling loop / GAP9's single_core_dma
  bool deeploy_kernels = false;   // Deeploy's kernel library (ClusterCostOptions::deeploy)
  bool dw3x3_s1 = false;          // the tuned flow's depthwise kernel choice (ClusterCostOptions::dw3x3_s1)
  int64_t workers = 8;            // cores the kernels run on (the policy's budgets: GAP9 uses 8 of 9)
  bool fork_per_layer = true;     // DORY's network.c forks each layer; the paper-era loop
                                  // (network loop "dory-2020") runs the whole network in one
                                  // fork and separates the layers by a barrier instead
};
// The conventions of the flow the tiling names (compiler/flows/flow.h RuntimeConventions; a name
// no flow has: DORY's loop on all cores); network_loop: the schedule's (Schedule::network_loop).
ClusterConventions conventions_for(const std::string& policy, const PlatformSpec& p,
                                   const std::string& network_loop = "");

class Cluster : public Engine {
 public:
  // `workers`: the cores kernels run on (conventions_for(...).workers of the schedule's policy).
  Cluster(const sc_core::sc_module_name& name, JobListener& listener, const PlatformSpec& p, int64_t workers);
  int n_cores() const { return n_cores_; }   // worker cores

  // Fills a kernel job's duration, work, lead and per-core cycles for Compute command c.
  // first_of_step: the step's first kernel (pays the fork under DORY and the layer's cold code,
  // cluster.cost.c_layer / c_layer_tr); tiled: part of a tiled
  // step (pays the pipeline barriers); in_l1: every operand buffer is in L1 (else each core access
  // pays the L2 latency); waited_dma: c depends on a DMA transfer (pays the wake).
  // conv: the conventions of the command's step (a tuned network may mix DORY's and Deeploy's loops).
  void cost_kernel(Job& j, const Command& c, const ClusterConventions& conv, bool first_of_step, bool tiled,
                   bool in_l1, bool waited_dma) const;
  // Fills an issue job for a cluster_dma copy; gather_channels > 0: a depthwise layer's input,
  // gathered HWC -> CHW with one command per channel (docs/timing.md "How DORY issues a schedule
  // copy", rule 4).
  void cost_issue(Job& j, const Command& c, const ClusterConventions& conv, int64_t gather_channels) const;
  // TCDM bank-conflict mode: in every cycle of a kernel's work each worker accesses the TCDM with
  // probability kTcdmShare (6 loads in the 14 instructions of the 4x2 MatMul loop,
  // docs/timing.md "The instruction count"), and the DMA's ports access every cycle while an L1
  // transfer is in flight. A core's access then waits Tcdm::expected_wait(others) on average,
  // others = (workers - 1)·share + DMA ports: work grows by work · share · expected_wait(others).
  static constexpr double kTcdmShare = 6.0 / 14.0;
  void stretch_for_conflicts(Job& j, const Tcdm& l1, bool dma_in_flight) const;

 protected:
  size_t pick() const override;

 private:
  const PlatformSpec& p_;
  ClusterSpec workers_;            // cluster spec with n_cores = the worker cores
  DmaTiming dma_;
  int n_cores_;
};

}  // namespace edgesim
