// Energy figures of a run for the report writers (terminal table, JSON, HTML, sweeps): the run's
// energy in joules, average power = energy / wall time at the cluster clock, energy-delay product
// = energy x wall time, energy per MAC, the blocks in a fixed order, and text forms with three
// significant digits. Only formatting and these ratios; the energy itself comes from the meter
// (sim/energy/meter.h). Internal to sim/report and the sweep.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/stats/run_result.h"

namespace edgesim::report {

double energy_j(const RunResult& r);     // total energy in joules (0 without a model)
double run_seconds(const RunResult& r);  // wall cycles / cluster clock (0 without a clock)
double avg_power_w(const RunResult& r);  // 0 when the time is 0
double edp_js(const RunResult& r);       // energy x time, J*s
double pj_per_mac(double pj, int64_t macs);   // 0 when macs == 0

// Blocks with energy in any layer, in the fixed order cluster, npu, mvu, dma, l1, l2, wmem, l3.
std::vector<std::string> energy_blocks(const RunResult& r);

// "12.3 uJ", "456 nJ", "1.23 mJ" (3 significant digits); "-" for a negative value.
std::string energy_text(double pj);
// "4.56 mW", "123 uW", "1.20 W".
std::string power_text(double watts);
// "5.67e-09 J*s".
std::string edp_text(double js);

// The terminal energy table (one row per layer: energy, pJ/MAC, share of the run and the energy
// of each block, a TOTAL row) fitted to `width` columns, then the summary lines: total energy,
// average power, EDP and energy per MAC, and the blocks' shares. "" without an energy model.
std::string energy_table(const RunResult& r, size_t width);

// Horizontal stacked bars per layer (the blocks' energy), rows aligned with layer_chart's.
std::string energy_chart(const RunResult& r);
// Colour of a block in the energy chart.
const char* block_colour(const std::string& block);

}  // namespace edgesim::report
