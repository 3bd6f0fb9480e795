// Aimc: DIANA's analog in-memory core (aimc.impl diana_aimc), a 1152 × 512 array of ternary
// cells with 7-bit DACs, 6-bit ADCs and a digital post-processing stage. A Compute command on
// engine "aimc" is one job (one tile programmed by the host), lasting exactly
// kernels/aimc/cost.h's T_p + T_c + aimc.cfg_cycles: the array is (re)written first when
// Command::aimc_program says it holds other weights (the schedule tracks its content across
// tiles and layers), then evaluated once per output row and group of unrolled output columns.
// T_p and cfg_cycles count as overhead, T_c as compute. Jobs run one at a time, lowest id first.
// Semantics (bit-exact): the ideal integer result — inputs inside the DACs' range (so their
// clipping never changes a value), ternary weights, the ADC as offset, shift and the 6-bit clip
// (compiler/passes/diana_rules.h); the analog noise and the ADCs' non-linearity are not
// modelled. Not modelled either: L1 bank contention, the activation buffer's shift-and-reuse.
#pragma once
#include "compiler/schedule/schedule.h"
#include "kernels/aimc/cost.h"
#include "platforms/loader/spec.h"
#include "sim/core/engine.h"

namespace edgesim {

class Aimc : public ProgramOrderEngine {
 public:
  Aimc(const sc_core::sc_module_name& name, JobListener& listener, const PlatformSpec& p);
  AimcJob job_of(const Command& c) const;   // throws std::runtime_error for a non-conv command
  AimcCost cost_of(const Command& c) const { return aimc_job_cost(job_of(c), p_); }
  void cost_job(Job& j, const Command& c) const;

 private:
  const PlatformSpec& p_;
};

}  // namespace edgesim
