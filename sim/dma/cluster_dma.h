// ClusterDma: the cluster's MCHAN-like DMA between L2 and the TCDM (impls `mchan_v7`,
// `simple_dma`).
// Timing: two channels, L2->L1 ("dma in") and L1->L2 ("dma out"), run concurrently; each serves
// its copies in FIFO order (the order in which the cores finished programming them). A copy of
// the schedule is cut into MCHAN commands the way DORY's dory_dma.c issues it (1-D, one 2-D,
// one 2-D per row, or one per channel of one-byte lines for a depthwise layer's HWC -> CHW input
// gather) and each command costs the burst formula of docs/timing.md "One MCHAN command"
// (kernels/dma/cost.h): t_h + max(bursts, word slots / TCDM ports) in, t_h + Σ(⌈w/ports⌉ + 1)
// out, plus λ, the outstanding-burst limit and the L2 bandwidth cap in realistic mode.
// simple_dma: setup_cycles + ⌈bytes / bytes_per_cycle⌉ per copy, + cluster.dma.l2_latency with
// fidelity.dma_ext_latency (DIANA: bytes/8 + 10, docs/diana.md "Digital accelerator (SOMA)").
// Data: each contiguous row becomes a TLM READ on the source memory and a WRITE on the
// destination, at the start of the transfer (dependencies make that order-equivalent); the
// memories' annotated delays are not added — the burst formula already accounts for the ports
// and, in realistic mode, for λ and the L2 bandwidth (GVSoC charges no L2 latency to the DMA).
// Parameters: cluster.dma.*, l1.bank_width_bytes, l2.bw_bytes_per_cycle, fidelity.*.
// Not modelled: per-core command queue back-pressure (queue depth 2, global 8), TCDM port
// contention with the cores, the 16 transfer counters.
#pragma once
#include <memory>

#include <tlm_utils/simple_initiator_socket.h>

#include "compiler/schedule/machine.h"
#include "kernels/dma/cost.h"
#include "sim/core/engine.h"
#include "sim/mem/tcdm.h"

namespace edgesim {

// Moves a checked schedule copy row by row through the TLM forward interfaces of the source and
// destination memories (shared by both DMAs). Returns the delay accumulated on `timed_side`
// (0 = source, 1 = destination, -1 = none: returns 0), the accesses of a side following each
// other. With data off, only the timed side is accessed, with TLM_IGNORE_COMMANDs (no bytes move).
int64_t move_rows(const Command& c, const DmaAddresses& a, tlm::tlm_fw_transport_if<>& src,
                  tlm::tlm_fw_transport_if<>& dst, bool data, int timed_side, const std::string& who);

class ClusterDma : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<ClusterDma> l1, l2, wmem;   // wmem: the level WMEM (sim/mem/scratch.h)
  FifoEngine in, out;

  ClusterDma(const sc_core::sc_module_name& name, JobListener& listener, const PlatformSpec& p);
  // The channel a copy runs on: towards L1 -> in, from L1 -> out, other (L2 -> L2) -> in.
  FifoEngine& channel(const DmaAddresses& a) { return a.src_level == Level::L1 ? out : in; }
  // Fills a transfer job's duration for copy c (TCDM-side start address from a; gather_channels
  // as Cluster::cost_issue).
  void cost_transfer(Job& j, const Command& c, const DmaAddresses& a, int64_t gather_channels) const;
  // TCDM bank-conflict mode, a kernel running when the transfer starts: its ports share the banks
  // with the worker cores (each accessing with probability `share`); every word slot waits
  // Tcdm::expected_wait(workers · share) on average (its own ports stream consecutive words,
  // which never meet in one bank).
  // (Alone, the ports stream consecutive words, which never meet in one bank.)
  void stretch_for_conflicts(Job& j, const Tcdm& l1, int64_t workers, double share) const;
  // Moves the bytes of copy c; throws std::runtime_error naming `who` on a failed transaction.
  void move(const Command& c, const DmaAddresses& a, const std::string& who);
  const DmaTiming& timing() const { return t_; }

 private:
  DmaTiming t_;
  bool simple_;
  double simple_bpc_;
};

}  // namespace edgesim
