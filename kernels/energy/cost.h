// Energy of one simulated event, in picojoules: pure functions of the platform's energy section
// (PlatformSpec::energy, docs/energy.md) and the event's size. The simulator's meter
// (sim/energy/meter.h) charges them on the jobs it runs; nothing here knows about time except
// leakage_pj. Accounting rules (the assumptions of the model):
//   * a copy of B bytes from level S to level D costs B·(S.read_per_byte + D.write_per_byte); the
//     cluster DMA adds per_burst for each burst and per_command for each command it executes;
//   * a cluster kernel or DMA issue costs per_active_cycle per busy core-cycle (the cores' own
//     instruction fetch and TCDM accesses are inside this figure, as in the cluster power
//     measurements it comes from) plus per_mac per int8 MAC; waiting cores cost per_idle_cycle;
//   * an NPU job costs per_mac per MAC plus its compulsory operand traffic: the bytes of its input
//     and weight views read from their levels and of its output view written;
//   * an MVU job costs per_bit_mac · MACs · a_bits · w_bits (bit-serial); its RAMs are inside it;
//   * leakage: watts × elapsed time, per block, whatever the block does.
#pragma once
#include <cstdint>

#include "platforms/loader/spec.h"

namespace edgesim {

double copy_energy_pj(const MemEnergySpec& src, const MemEnergySpec& dst, int64_t bytes);
double dma_overhead_pj(const EnergySpec& e, int64_t bursts, int64_t commands);
double read_energy_pj(const MemEnergySpec& level, int64_t bytes);
double write_energy_pj(const MemEnergySpec& level, int64_t bytes);
double core_energy_pj(const EnergySpec& e, int64_t active_core_cycles, int64_t idle_core_cycles, int64_t macs);
double npu_mac_energy_pj(const EnergySpec& e, int64_t macs);
double mvu_energy_pj(const EnergySpec& e, int64_t macs, int64_t a_bits, int64_t w_bits);
// Leakage of `watts` over `cycles` of a clock of freq_hz (0 without a clock).
double leakage_pj(double watts, int64_t cycles, int64_t freq_hz);

// Bursts of an L2<->L1 copy of `lines` lines of `line_bytes`: each line is cut into bursts of at
// most burst_bytes (cluster.dma.burst_bytes).
int64_t dma_bursts(int64_t lines, int64_t line_bytes, int64_t burst_bytes);

}  // namespace edgesim
