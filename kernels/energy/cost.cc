// Energy of simulated events (cost.h).
#include "kernels/energy/cost.h"

#include <algorithm>

namespace edgesim {

double read_energy_pj(const MemEnergySpec& level, int64_t bytes) {
  return static_cast<double>(std::max<int64_t>(0, bytes)) * level.read_per_byte;
}

double write_energy_pj(const MemEnergySpec& level, int64_t bytes) {
  return static_cast<double>(std::max<int64_t>(0, bytes)) * level.write_per_byte;
}

double copy_energy_pj(const MemEnergySpec& src, const MemEnergySpec& dst, int64_t bytes) {
  return read_energy_pj(src, bytes) + write_energy_pj(dst, bytes);
}

double dma_overhead_pj(const EnergySpec& e, int64_t bursts, int64_t commands) {
  return static_cast<double>(std::max<int64_t>(0, bursts)) * e.dma.per_burst +
         static_cast<double>(std::max<int64_t>(0, commands)) * e.dma.per_command;
}

double core_energy_pj(const EnergySpec& e, int64_t active_core_cycles, int64_t idle_core_cycles, int64_t macs) {
  return static_cast<double>(std::max<int64_t>(0, active_core_cycles)) * e.cluster.per_active_cycle +
         static_cast<double>(std::max<int64_t>(0, idle_core_cycles)) * e.cluster.per_idle_cycle +
         static_cast<double>(std::max<int64_t>(0, macs)) * e.cluster.per_mac;
}

double npu_mac_energy_pj(const EnergySpec& e, int64_t macs) {
  return static_cast<double>(std::max<int64_t>(0, macs)) * e.npu.per_mac;
}

double mvu_energy_pj(const EnergySpec& e, int64_t macs, int64_t a_bits, int64_t w_bits) {
  return static_cast<double>(std::max<int64_t>(0, macs)) * static_cast<double>(a_bits * w_bits) * e.mvu.per_bit_mac;
}

double leakage_pj(double watts, int64_t cycles, int64_t freq_hz) {
  if (freq_hz <= 0 || cycles <= 0) return 0.0;
  return watts * static_cast<double>(cycles) / static_cast<double>(freq_hz) * 1e12;
}

int64_t dma_bursts(int64_t lines, int64_t line_bytes, int64_t burst_bytes) {
  if (lines <= 0 || line_bytes <= 0) return 0;
  const int64_t b = std::max<int64_t>(1, burst_bytes);
  return lines * ((line_bytes + b - 1) / b);
}

}  // namespace edgesim
