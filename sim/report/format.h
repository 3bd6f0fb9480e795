// Formatting shared by the report writers (terminal table and HTML page), so both print the
// same figures the same way: grouped integers, percentages of a layer, MAC/cycle, run time at
// the cluster clock, shortened layer names and the verification status line. Internal to
// sim/report; nothing here computes timing.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/stats/run_result.h"

namespace edgesim::report {

// 1234567 -> "1,234,567" (deterministic, locale-independent).
std::string group_digits(int64_t v);

// part / whole as "12.3%"; "-" when whole == 0.
std::string percent(int64_t part, int64_t whole);

// macs / cycles with 2 decimals; "-" when macs == 0 or cycles == 0.
std::string mac_per_cycle(int64_t macs, int64_t cycles);

// Cycles at freq_hz as a time with 3 significant digits: "4.21 ms", "913 us", "1.20 s";
// "" when freq_hz <= 0.
std::string duration(int64_t cycles, int64_t freq_hz);

// "175 MHz", "37.5 MHz"; "? MHz" when freq_hz <= 0.
std::string frequency(int64_t freq_hz);

// "4.21 ms @ 175 MHz", or "(no clock frequency)" when freq_hz <= 0.
std::string time_at_clock(int64_t cycles, int64_t freq_hz);

// Names longer than max_chars keep their head and their (more distinctive) tail around "...".
std::string shorten(const std::string& name, size_t max_chars);

// Verification status without the "verification: " prefix: "bit-exact (3 outputs)",
// "FAILED: <first mismatch>" or "skipped (timing only)".
std::string verification(const RunResult& r);

// Which of the three the run is in (for the HTML badge colour).
enum class Verdict { Passed, Failed, Skipped };
Verdict verdict(const RunResult& r);

// Sums over the layers (the TOTAL row).
struct Totals {
  int64_t macs = 0, cycles = 0, accounted = 0, compute = 0, overhead = 0, dma_wait = 0;
  int64_t tiles = 0, dma_in = 0, dma_out = 0, l3 = 0;
};
Totals layer_totals(const RunResult& r);

// Steps per engine that ran them ("npu", "cluster", "mvu"), in order of first appearance: the
// NPU / cluster split of a run. Steps without computation count for the cluster.
struct EngineShare {
  std::string engine;
  int64_t steps = 0, cycles = 0, macs = 0;
};
std::vector<EngineShare> engine_split(const RunResult& r);
// "npu 6,123,456 cycles (57.4%, 22 steps), cluster 4,536,332 cycles (42.6%, 8 steps)"
std::string engine_split_line(const RunResult& r);
// The same split by op kind (LayerStats::op, compiler/ir/op_label's vocabulary with the kernel
// size dropped: "conv", "gemm", "matmul", "isoftmax", ...), most cycles first.
std::vector<EngineShare> op_split(const RunResult& r);
// "isoftmax 4,512,000 (40.1%), gemm 3,801,223 (33.7%), ..." wrapped into lines of at most `width`
// columns after a `indent`-column prefix.
std::vector<std::string> op_split_lines(const RunResult& r, size_t width, size_t indent);

}  // namespace edgesim::report
