// L3 ↔ L2 copies (docs/timing.md "L3 (uDMA + HyperRAM, or DDR)"): uDMA + HyperRAM, or a simple
// DDR-like memory.
// Timing: a copy of L lines of n bytes is L 1-D uDMA sub-transfers, each paying its set-up.
//   hyperram, gvsoc (GVSoC udma_hyper_v3):  per line 1 + t_lat·2^add + cmd_bytes + n·max(1, clkdiv)
//     peripheral cycles; cluster cycles = ⌈Σ · f_cluster/f_periph⌉ + sw_cycles (once per copy).
//   hyperram, realistic (fidelity.l3_ddr):   per line bus_latency + ⌈n / bus_bytes_per_cycle⌉
//     HyperBus clocks; cluster cycles = ⌈Σ · f_cluster/f_bus⌉ + sw_cycles.
//   ddr:                                     per line latency + ⌈n / bw⌉ cluster cycles, no sw cost.
// A platform without a cluster clock (or a peripheral / bus clock of 0) converts 1:1.
// Parameters: platform.l3.*, cluster.freq_hz, fidelity.l3_ddr
// Not modelled: uDMA channel sharing with other peripherals, HyperRAM refresh, page boundaries.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "kernels/dma/cost.h"

namespace edgesim {
namespace {

// ⌈x⌉ that forgives the rounding error of a ratio such as 370/50 = 7.4 (740.0000001 → 740).
int64_t ceil_tolerant(double x) {
  const double r = std::round(x);
  if (std::fabs(x - r) <= 1e-9 * std::max(1.0, std::fabs(x))) return static_cast<int64_t>(r);
  return static_cast<int64_t>(std::ceil(x));
}

double clock_ratio(int64_t num_hz, int64_t den_hz) {
  return (num_hz > 0 && den_hz > 0) ? static_cast<double>(num_hz) / static_cast<double>(den_hz) : 1.0;
}

}  // namespace

L3Timing l3_timing(const PlatformSpec& p) {
  L3Timing t;
  const L3Spec& l3 = p.l3;
  t.present = !l3.impl.empty() && l3.impl != "none" && l3.size > 0;
  t.hyperram = l3.impl == "hyperram_udma";
  t.realistic = t.hyperram && p.fidelity.l3_ddr;
  const int64_t f_cluster = p.cluster.present ? p.cluster.freq_hz : 0;
  if (t.hyperram) {
    t.cluster_per_periph = clock_ratio(f_cluster, l3.periph_freq_hz);
    t.cluster_per_bus = clock_ratio(f_cluster, l3.bus_freq_hz);
    t.access_latency = l3.access_latency;
    t.additional_latency = l3.additional_latency;
    t.cmd_bytes = l3.cmd_bytes;
    t.clkdiv = l3.clkdiv;
    t.sw_cycles = l3.sw_cycles;
    if (l3.bus_bytes_per_cycle > 0) t.bus_bytes_per_cycle = l3.bus_bytes_per_cycle;
    t.bus_latency = l3.bus_latency;
  } else {
    t.ddr_bw = l3.bw_bytes_per_cycle;
    t.ddr_latency = l3.latency;
    t.sw_cycles = 0;
  }
  return t;
}

int64_t l3_copy_cycles(const L3Timing& t, int64_t lines, int64_t line_bytes) {
  if (!t.present)
    throw std::invalid_argument("l3_copy_cycles: the platform has no L3 (l3.impl none or l3.size 0)");
  if (lines < 0 || line_bytes < 0)
    throw std::invalid_argument("l3_copy_cycles: negative geometry (lines " + std::to_string(lines) +
                                ", line_bytes " + std::to_string(line_bytes) + ")");
  if (lines == 0 || line_bytes == 0) return 0;  // nothing to move: no request

  if (!t.hyperram) {
    if (t.ddr_bw <= 0) throw std::invalid_argument("l3_copy_cycles: ddr bandwidth must be > 0");
    return lines * (t.ddr_latency + ceil_tolerant(static_cast<double>(line_bytes) / t.ddr_bw));
  }
  if (t.realistic) {
    const double bw = t.bus_bytes_per_cycle > 0 ? t.bus_bytes_per_cycle : 1.0;
    const int64_t per_line = t.bus_latency + ceil_tolerant(static_cast<double>(line_bytes) / bw);
    return lines * ceil_tolerant(static_cast<double>(per_line) * t.cluster_per_bus) + t.sw_cycles;
  }
  const int64_t latency = t.access_latency * (t.additional_latency ? 2 : 1);
  const int64_t per_line = 1 + latency + t.cmd_bytes + line_bytes * std::max<int64_t>(1, t.clkdiv);
  // Each line (a 1-D sub-transfer) ends on a cluster-clock edge: rounding per line keeps this
  // function equal to the sum of the HyperRAM component's per-access times (sim/mem/hyperram.h).
  return lines * ceil_tolerant(static_cast<double>(per_line) * t.cluster_per_periph) + t.sw_cycles;
}

}  // namespace edgesim
