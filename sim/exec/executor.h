// Timed execution of a Schedule on the SystemC model of a platform (docs/architecture.md "Data
// flow today", docs/simulator.md).
//
// simulate() builds the SoC (sim/soc) inside a fresh SimContext, replays the schedule and
// returns per-layer cycles. Replay rules:
//   * a command becomes ready when every command in its deps has completed;
//   * a Compute command becomes a job on its engine, through the compute model the SoC built for
//     the engine it names (sim/engines/compute_model.h: the cluster's cores, the NPU, DIANA's
//     analog core, an MVU of BARVINN's array, or a model registered from elsewhere);
//   * a cluster_dma copy becomes an issue job on the cluster (the cores program the DMA), then a
//     transfer job on the DMA channel of its direction; an l3_dma copy a transfer on the uDMA;
//   * engines choose among their ready jobs by their own rule (sim/cluster/cluster.h, FIFO DMAs).
// With data (the default) the run is a ScheduleMachine: memories hold the real bytes, DMA
// transfers move them as TLM transactions and kernels run the reference on the simulated
// memories, so the outputs can be checked bit-exactly (verify.h). Statistics: an NPU job counts
// as compute (its register programming as overhead); a step on parallel units (BARVINN's MVUs)
// reports its busiest unit.
#pragma once
#include <optional>
#include <vector>

#include "kernels/ir/graph.h"
#include "compiler/schedule/functional.h"
#include "compiler/schedule/schedule.h"
#include "kernels/core/tensor.h"
#include "platforms/loader/spec.h"
#include "sim/stats/run_result.h"

namespace edgesim {

struct SimOptions {
  bool data = true;             // move bytes and compute (needed for verification)
  bool trace = false;           // record TraceSlices
  ArithMode arith = ArithMode::Exact;   // requant arithmetic of the kernels (`run --arith`)
};

struct SimOutcome {
  RunResult result;                          // verified = false until verify_run()
  std::optional<FunctionalResult> values;    // with data: outputs and every placed tensor
};

// inputs: one tensor per graph input (ignored without data). Throws SimError for a platform the
// simulator cannot model, std::runtime_error naming the command for a schedule error.
SimOutcome simulate(const Graph& g, const Schedule& s, const PlatformSpec& p, const std::vector<Tensor>& inputs,
                    const SimOptions& opt = {});

}  // namespace edgesim
