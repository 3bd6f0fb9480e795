// MCHAN-like cluster DMA: transfer time of one command (docs/timing.md "One MCHAN command",
// gvsoc and realistic) and its core-side issue cost (its "Issue cost"), plus the resolution of
// DmaTiming from a PlatformSpec.
// Timing: a command is `lines` lines of `line_bytes`; each line is cut into bursts of at most
// burst_bytes from its own start (bursts never cross lines). The TCDM side is dense, so line k
// lands at tcdm_addr + k·line_bytes and burst b at a_b occupies w_b = ⌈((a_b mod W) + ℓ_b)/W⌉
// word slots (W = l1.bank_width_bytes):
//   L2→L1  T_in  = t_h + max(N_b, ⌈Σ w_b / ports⌉)          (≤ 1 burst per cycle, `ports` writes)
//   L1→L2  T_out = t_h + Σ_b (⌈w_b / ports⌉ + 1)              (one burst read at a time)
// realistic: + λ and the terms ⌈N_b·(λ+1)/max_outstanding⌉ (fidelity.dma_ext_latency) and
// ⌈bytes / BW_L2⌉ (fidelity.l2_bw_cap) inside the max (in) / max with the sum (out).
// Cost: O(W) per command whatever the byte or line count — the word offset of line k,
// (tcdm_addr + k·ℓ) mod W, repeats with period W / gcd(ℓ mod W, W), and inside a line every
// full burst has the same offset when burst_bytes is a multiple of W (otherwise a loop over
// the bursts of one line, still independent of the number of lines).
// Parameters: platform.cluster.dma.*, l1.bank_width_bytes, fidelity.*, budgets.dory.*
// Not modelled: TCDM port conflicts with cores (realistic mode, docs/timing.md "Not modelled
// here"), queue back-pressure (the caller's job).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

#include "kernels/dma/cost.h"

namespace edgesim {
namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }  // a >= 0, b > 0

// ⌈bytes / bw⌉ for a bandwidth in bytes per cycle (bw > 0).
int64_t ceil_bw(int64_t bytes, double bw) {
  const double x = static_cast<double>(bytes) / bw;
  const double r = std::round(x);
  if (std::fabs(x - r) <= 1e-9 * std::max(1.0, x)) return static_cast<int64_t>(r);
  return static_cast<int64_t>(std::ceil(x));
}

// Sums over bursts that the two formulas need.
struct BurstSums {
  int64_t bursts = 0;     // N_b
  int64_t words = 0;      // Σ w_b
  int64_t out_slots = 0;  // Σ (⌈w_b/ports⌉ + 1)
};

// Parameters sanitised once so that a hand-built DmaTiming with zeros never divides by zero.
struct Geometry {
  int64_t word, burst, ports;
  explicit Geometry(const DmaTiming& t)
      : word(std::max<int64_t>(1, t.word_bytes)),
        burst(std::max<int64_t>(1, t.burst_bytes)),
        ports(std::max<int64_t>(1, t.tcdm_ports)) {}
};

// Adds one burst of `len` bytes starting at word offset `m`, `times` times.
void add_burst(const Geometry& g, int64_t m, int64_t len, int64_t times, BurstSums& s) {
  const int64_t w = ceil_div(m + len, g.word);
  s.bursts += times;
  s.words += times * w;
  s.out_slots += times * (ceil_div(w, g.ports) + 1);
}

// Adds `times` lines of `len` bytes whose first byte has word offset `m`.
void add_lines(const Geometry& g, int64_t m, int64_t len, int64_t times, BurstSums& s) {
  if (g.burst % g.word == 0) {  // every burst of the line starts at offset m
    const int64_t full = len / g.burst, rest = len % g.burst;
    if (full > 0) add_burst(g, m, g.burst, times * full, s);
    if (rest > 0) add_burst(g, m, rest, times, s);
    return;
  }
  for (int64_t off = 0; off < len; off += g.burst)
    add_burst(g, (m + off) % g.word, std::min(g.burst, len - off), times, s);
}

BurstSums burst_sums(const DmaTiming& t, int64_t lines, int64_t line_bytes, int64_t tcdm_addr) {
  const Geometry g(t);
  BurstSums s;
  const int64_t period = g.word / std::gcd(line_bytes % g.word, g.word);
  const int64_t a0 = ((tcdm_addr % g.word) + g.word) % g.word;
  for (int64_t k = 0; k < std::min(period, lines); ++k) {
    const int64_t m = (a0 + (k * (line_bytes % g.word))) % g.word;
    const int64_t times = (lines - 1 - k) / period + 1;  // lines k, k + period, ... < lines
    add_lines(g, m, line_bytes, times, s);
  }
  return s;
}

void check_geometry(const char* fn, int64_t lines, int64_t line_bytes) {
  if (lines < 0 || line_bytes < 0)
    throw std::invalid_argument(std::string(fn) + ": negative geometry (lines " +
                                std::to_string(lines) + ", line_bytes " +
                                std::to_string(line_bytes) + ")");
}

// The realistic-mode lower bounds shared by both directions (0 when the flags are off).
int64_t realistic_bound(const DmaTiming& t, const BurstSums& s, int64_t bytes) {
  int64_t bound = 0;
  if (t.ext_latency)
    bound = ceil_div(s.bursts * (std::max<int64_t>(0, t.l2_latency) + 1),
                     std::max<int64_t>(1, t.max_outstanding));
  if (t.l2_bw > 0) bound = std::max(bound, ceil_bw(bytes, t.l2_bw));
  return bound;
}

int64_t latency(const DmaTiming& t) { return t.ext_latency ? std::max<int64_t>(0, t.l2_latency) : 0; }

}  // namespace

DmaTiming dma_timing(const PlatformSpec& p) {
  DmaTiming t;
  if (p.l1.bank_width_bytes > 0) t.word_bytes = p.l1.bank_width_bytes;
  if (p.budgets.dory.present && p.budgets.dory.n_cores > 0)
    t.n_cores = p.budgets.dory.n_cores;
  else if (p.cluster.present && p.cluster.n_cores > 0)
    t.n_cores = p.cluster.n_cores;
  if (p.budgets.dory.present) {
    t.single_core_dma = p.budgets.dory.single_core_dma;
    t.blocking = p.budgets.dory.blocking_dma;
  }
  t.ext_latency = p.fidelity.dma_ext_latency;
  t.l2_bw = p.fidelity.l2_bw_cap ? std::max(0.0, p.l2.bw_bytes_per_cycle) : 0.0;

  const DmaSpec& d = p.cluster.dma;
  if (!p.cluster.present || !d.present) return t;  // no cluster DMA: defaults, flags only
  if (d.burst_bytes > 0) t.burst_bytes = d.burst_bytes;
  if (d.bytes_per_cycle > 0)
    t.tcdm_ports = std::max<int64_t>(1, static_cast<int64_t>(d.bytes_per_cycle / t.word_bytes));
  t.setup = std::max<int64_t>(0, d.setup_cycles);
  if (d.max_outstanding > 0) t.max_outstanding = d.max_outstanding;
  t.l2_latency = std::max<int64_t>(0, d.l2_latency);
  // Keys of mchan_v7 only; other engines (simple_dma) keep the DmaTiming defaults.
  if (d.impl == "mchan_v7") {
    t.id_cycles = d.id_cycles;
    t.reg_cycles = d.reg_cycles;
    t.sw_cycles = d.sw_cycles;
    t.wake_cycles = d.wake_cycles;
    if (d.cmd_words_1d > 0) t.words_1d = d.cmd_words_1d;
    if (d.cmd_words_2d > 0) t.words_2d = d.cmd_words_2d;
    if (d.max_cmd_bytes > 0) t.max_cmd_bytes = d.max_cmd_bytes;
  }
  return t;
}

int64_t mchan_in_cycles(const DmaTiming& t, int64_t lines, int64_t line_bytes, int64_t tcdm_addr) {
  check_geometry("mchan_in_cycles", lines, line_bytes);
  if (lines == 0 || line_bytes == 0) return 0;  // nothing to move: no command
  const BurstSums s = burst_sums(t, lines, line_bytes, tcdm_addr);
  const int64_t ports = std::max<int64_t>(1, t.tcdm_ports);
  int64_t body = std::max(s.bursts, ceil_div(s.words, ports));
  body = std::max(body, realistic_bound(t, s, lines * line_bytes));
  return t.setup + latency(t) + body;
}

int64_t mchan_out_cycles(const DmaTiming& t, int64_t lines, int64_t line_bytes, int64_t tcdm_addr) {
  check_geometry("mchan_out_cycles", lines, line_bytes);
  if (lines == 0 || line_bytes == 0) return 0;
  const BurstSums s = burst_sums(t, lines, line_bytes, tcdm_addr);
  const int64_t body = std::max(s.out_slots, realistic_bound(t, s, lines * line_bytes));
  return t.setup + latency(t) + body;
}

int64_t mchan_issue_cycles(const DmaTiming& t, bool two_d) {
  return t.id_cycles + (two_d ? t.words_2d : t.words_1d) * t.reg_cycles + t.sw_cycles;
}

}  // namespace edgesim
