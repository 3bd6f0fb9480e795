// Npu: the cluster-coupled neural engine (impl `neureka` on Siracusa, `ne16` on GAP9), one
// parameterised component for both: a Compute command on engine "npu" becomes one NPU job (one
// tile dispatched by a core), timed by the per-state model of kernels/npu (cost_neureka.h:
// activation load, matrix-vector per output channel × weight bit, norm/quant, stream-out, plus
// the core's programming: npu.cfg_cycles per job and npu.layer_cycles on a layer's first job,
// kernels/npu/program_cost.h). Jobs run one at a time, lowest command id first.
//
// Ports: activations and outputs stream through the NPU's TCDM port (one wide 256-bit beat per
// cycle); weights come either through the same port (npu.weight_source l1) or from the weight
// memory over its own port (Siracusa's WMEM, 1 cycle per beat, no TCDM traffic). Both cost the
// same beat per cycle (docs/npu.md "The weight memory"), so the weight memory's gain is the DMA
// traffic, L1 space and TCDM contention it saves, not NPU cycles.
// Contention (fidelity.l1_conflicts and fidelity.npu_hci_contention both on): each TCDM beat of a
// job (activation loads, stream-out, and weight beats read from the TCDM) meets the DMA's ports
// when an L1 transfer is in flight at its start; a beat spans 8 banks, so it waits
// min(8 · Tcdm::expected_wait(DMA ports), npu.hci_max_stall) cycles on average (HCI caps the
// stall of the shallow port). Conversely the executor stretches DMA transfers that start while
// the NPU runs (cluster_dma.h) by its beat share.
// Data: the executor runs the reference kernel on the simulated memories with the weights
// decoded from their NPU layout (compiler/schedule/machine.h), so results are bit-exact by the
// rules of compiler/passes/assign_engine.h.
// Not modelled: activation prefetch (off in Deeploy), the core's polling of the NPU's status.
#pragma once
#include "compiler/schedule/schedule.h"
#include "kernels/npu/cost_neureka.h"
#include "platforms/loader/spec.h"
#include "sim/core/engine.h"
#include "sim/mem/tcdm.h"

namespace edgesim {

class Npu : public ProgramOrderEngine {
 public:
  Npu(const sc_core::sc_module_name& name, JobListener& listener, const PlatformSpec& p);

  // The NPU job of Compute command c (engine "npu"): the model's NpuJob and its cost.
  NpuJob job_of(const Command& c) const;
  NpuCost cost_of(const Command& c, bool first_of_layer = false) const;
  // Fills a job's duration (= cost cycles), work (cycles - config) and lead (config).
  // weights_in_tcdm: the weights stream through the TCDM port (else the weight memory's);
  // first_of_layer: the step's first Compute (its config adds npu.layer_cycles).
  void cost_job(Job& j, const Command& c, bool weights_in_tcdm, bool first_of_layer = false) const;
  // Bank-conflict mode: stretches a job that starts while `dma_ports` DMA ports stream into L1.
  void stretch_for_conflicts(Job& j, const Tcdm& l1, double dma_ports) const;
  // TCDM beats per cycle of the job (0..1), to stretch DMA transfers that meet it.
  double beat_share(const Job& j) const;

 private:
  const PlatformSpec& p_;
};

}  // namespace edgesim
