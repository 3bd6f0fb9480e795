// MvuArray: BARVINN's array of mvu.count bit-serial matrix-vector units (impl `barvinn_mvu`),
// each driven by its PITO hart (docs/npu.md "The MVU array"). A Compute command on engine "mvu" is
// the slice of a conv one MVU computes (a range of output rows, build_mvu.cc) and runs on unit
// Command::unit as one engine job lasting exactly
//   jobs · (countdown + start + done + CPI_hart · n_instr) + xbar_latency + drain,
// with countdown and jobs from kernels/mvu/cost.h for the slice's geometry (mvu.geometry:
// "generator" counts MVU_Code_Gen's rows, ⌈(h + pt + pb)/sh⌉ per slice; "exact" the true output
// rows), drain = pipe_cycles + oprec, xbar_latency = the input crossing the crossbar once.
// The units run in parallel, each one job at a time (FIFO). A slice violating the quantizer
// constraint (iC·Fh·Fw·a·w ≥ oprec) still runs; quantizer_violation() lets the executor flag it.
// Not modelled: loading the MVUs' activation and weight RAMs (the schedule reads the L2 staging
// buffer in place), arbitration among harts on shared controller resources, DDR traffic.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "compiler/schedule/schedule.h"
#include "kernels/mvu/cost.h"
#include "platforms/loader/spec.h"
#include "sim/core/engine.h"

namespace edgesim {

class MvuArray : public sc_core::sc_module {
 public:
  MvuArray(const sc_core::sc_module_name& name, JobListener& listener, const PlatformSpec& p);
  int64_t units() const { return static_cast<int64_t>(units_.size()); }
  Engine& unit(int64_t u);   // throws std::out_of_range naming the unit

  // The MVU geometry of an "mvu" Compute command's slice (a conv tile on 4-D views).
  MvuConv conv_of(const Command& c) const;
  MvuConvCost cost_of(const Command& c) const;
  void cost_job(Job& j, const Command& c) const;
  bool quantizer_violation(const Command& c) const { return !mvu_quantizer_ok(conv_of(c), p_.mvu); }

 private:
  const PlatformSpec& p_;
  std::vector<std::unique_ptr<FifoEngine>> units_;
};

}  // namespace edgesim
