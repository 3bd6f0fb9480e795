// EnergyMeter: accumulates a run's energy per layer and per block from the jobs the executor
// already simulates (sim/exec/executor.cc calls it when a job finishes): no second model of the
// schedule. Per event it charges the pure functions of kernels/energy/cost.h:
//   DMA transfer (cluster DMA, uDMA)  bytes · (source read + destination write) per level;
//                                     cluster DMA: + bursts · per_burst + commands · per_command
//   cluster kernel / DMA issue        busy core-cycles · per_active_cycle + MACs · per_mac
//   NPU job                           MACs · per_mac + input/weight view bytes read from their levels
//                                     + output view bytes written
//   MVU job                           MACs · a_bits · w_bits · per_bit_mac
// and when the run ends (finish): per layer, the cluster's waiting core-cycles
// (workers · cycles − busy core-cycles) · per_idle_cycle, and every block's leakage over the
// layer's cycles. Layers' windows partition the run, so the layers sum to the total.
// Blocks: "cluster", "l1", "l2", "l3", "wmem", "dma", "npu", "mvu".
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "compiler/schedule/schedule.h"
#include "platforms/loader/spec.h"
#include "sim/stats/run_result.h"

namespace edgesim {

class EnergyMeter {
 public:
  // workers: the cluster cores the run uses (idle core-cycles are counted for them).
  EnergyMeter(const PlatformSpec& p, int64_t workers, size_t layers);
  bool enabled() const { return e_.present; }

  void transfer(int layer, Level src, Level dst, int64_t bytes, int64_t bursts, int64_t commands);
  void l3_transfer(int layer, Level src, Level dst, int64_t bytes);
  void cluster_job(int layer, const std::vector<int64_t>& core_cycles, int64_t macs);
  void npu_job(int layer, int64_t macs, const std::vector<std::pair<Level, int64_t>>& reads,
               const std::vector<std::pair<Level, int64_t>>& writes);
  void mvu_job(int layer, int64_t macs, int64_t a_bits, int64_t w_bits);

  // Adds idle and leakage energy from the layers' cycles, stores each layer's EnergyStats and the
  // run's total in r (r.energy_modelled = enabled()).
  void finish(RunResult& r, int64_t freq_hz) const;

 private:
  const MemEnergySpec& level(Level l) const;
  static const char* block(Level l);
  void add(int layer, const char* block, double pj);

  EnergySpec e_;
  bool has_cluster_ = false, has_npu_ = false, has_mvu_ = false, has_l3_ = false, has_wmem_ = false, has_dma_ = false;
  int64_t workers_ = 0;
  std::vector<EnergyStats> layers_;
  std::vector<int64_t> busy_;   // busy core-cycles per layer
};

}  // namespace edgesim
