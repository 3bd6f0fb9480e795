// Pure timing functions of the data movers (docs/timing.md "DMA and L3 timing"), shared by the
// SystemC DMA components (sim/dma) and the analytic evaluator: cycles = f(command geometry,
// DmaTiming).
// All results are in cluster cycles. Negative sizes (and an L3 copy on a platform without L3)
// throw std::invalid_argument; a copy of zero bytes costs 0. docs/timing.md "DMA and L3 timing" has
// the formulas.
#pragma once
#include <cstdint>
#include <vector>

#include "platforms/loader/spec.h"

namespace edgesim {

// The cluster DMA (MCHAN-like) parameters, resolved once from a PlatformSpec.
struct DmaTiming {
  int64_t burst_bytes = 256;         // cluster.dma.burst_bytes
  int64_t tcdm_ports = 2;            // TCDM ports per direction = bytes_per_cycle / bank width
  int64_t word_bytes = 4;            // l1.bank_width_bytes
  int64_t setup = 2;                 // t_h = cluster.dma.setup_cycles
  int64_t max_outstanding = 8;       // cluster.dma.max_outstanding
  bool ext_latency = false;          // fidelity.dma_ext_latency (realistic): charge lambda
  int64_t l2_latency = 0;            // lambda = cluster.dma.l2_latency
  double l2_bw = 0;                  // bytes/cycle cap of L2 (fidelity.l2_bw_cap), 0 = none
  // core-side issue and wait (docs/timing.md "One MCHAN command", issue cost)
  int64_t id_cycles = 2, reg_cycles = 2, sw_cycles = 10, words_1d = 3, words_2d = 5;
  int64_t wake_cycles = 5;
  int64_t n_cores = 8;
  bool single_core_dma = false;      // budgets.dory.single_core_dma (GAP9): core 0 issues all
  bool blocking = false;             // budgets.dory.blocking_dma (GAP8): every command waited
  int64_t max_cmd_bytes = 128 * 1024;  // cluster.dma.max_cmd_bytes: larger copies are split
};
DmaTiming dma_timing(const PlatformSpec& p);

// One MCHAN command: `lines` lines of `line_bytes` each; the TCDM side is contiguous from byte
// address `tcdm_addr` (alignment decides the word slots of each burst).
int64_t mchan_in_cycles(const DmaTiming& t, int64_t lines, int64_t line_bytes, int64_t tcdm_addr);   // L2 -> L1
int64_t mchan_out_cycles(const DmaTiming& t, int64_t lines, int64_t line_bytes, int64_t tcdm_addr);  // L1 -> L2
// Core-side cost of programming one command (T_issue, docs/timing.md "One MCHAN command").
int64_t mchan_issue_cycles(const DmaTiming& t, bool two_d);

// How DORY's dory_dma.c issues one schedule copy of count[0]·count[1] rows of count[2] bytes
// (docs/timing.md "How DORY issues a schedule copy", rules 1-4): the list of MCHAN commands and
// the core issuing each.
struct MchanCommand {
  int64_t lines = 1;
  int64_t line_bytes = 0;
  int64_t tcdm_offset = 0;           // bytes from the copy's TCDM-side start
  bool two_d = false;
  int core = 0;
};
// depthwise_gather: the copy is a depthwise layer's input, gathered HWC -> CHW as one 2-D command
// per channel of one-byte lines (rule 4); count[2] is then the channel count of a pixel run.
// gather_channels (additive): the channel count C of a gather when count[2] is not it (e.g. a
// merged copy {1, rows, w·C}); 0 = count[2]. The copy must then hold a whole number of pixels.
std::vector<MchanCommand> dory_commands(const DmaTiming& t, const int64_t count[3], bool depthwise_gather,
                                        int64_t gather_channels = 0);

// Totals for one schedule copy as issued by DORY: transfer cycles on the DMA engine (commands
// back to back in FIFO order, one direction), issue cycles on the cores (cores issue their
// shares in parallel: the maximum over cores), and the number of MCHAN commands.
struct CopyCost {
  int64_t transfer = 0;
  int64_t issue = 0;
  int64_t commands = 0;
};
// With t.blocking (GAP8) the commands form one serial chain issue, transfer, wake per command:
// issue = the sum over all commands, transfer = the sum plus (commands - 1)·wake_cycles, so a
// consumer charging issue + transfer + one final T_wake gets exactly that chain.
CopyCost dory_copy_cost(const DmaTiming& t, const int64_t count[3], int64_t tcdm_addr, bool to_l1,
                        bool depthwise_gather, int64_t gather_channels = 0);

// L3 (uDMA + HyperRAM, or a DDR-like memory) per docs/timing.md "L3 (uDMA + HyperRAM, or DDR)".
struct L3Timing {
  bool present = false;
  bool hyperram = true;              // l3.impl == hyperram_udma; else ddr
  bool realistic = false;            // fidelity.l3_ddr
  double cluster_per_periph = 1;     // f_cluster / f_periph
  int64_t access_latency = 6, cmd_bytes = 6, clkdiv = 0, sw_cycles = 200;
  bool additional_latency = true;
  double cluster_per_bus = 1;        // f_cluster / bus_freq (realistic)
  double bus_bytes_per_cycle = 2;
  int64_t bus_latency = 15;
  double ddr_bw = 0;                 // ddr: bytes per cluster cycle
  int64_t ddr_latency = 0;
};
L3Timing l3_timing(const PlatformSpec& p);
// A copy of `lines` lines of `line_bytes` between L3 and L2 (each line a 1-D uDMA sub-transfer
// paying the set-up; one software request per copy). Rounded up to whole cluster cycles.
int64_t l3_copy_cycles(const L3Timing& t, int64_t lines, int64_t line_bytes);

}  // namespace edgesim
