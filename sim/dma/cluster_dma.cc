// ClusterDma (cluster_dma.h).
#include "sim/dma/cluster_dma.h"

#include <cmath>

namespace edgesim {

ClusterDma::ClusterDma(const sc_core::sc_module_name& name, JobListener& listener, const PlatformSpec& p)
    : sc_core::sc_module(name),
      l1("l1"),
      l2("l2"),
      wmem("wmem"),
      in("in", listener, "dma in"),
      out("out", listener, "dma out"),
      t_(dma_timing(p)),
      simple_(p.cluster.dma.impl == "simple_dma"),
      simple_bpc_(p.cluster.dma.bytes_per_cycle > 0 ? p.cluster.dma.bytes_per_cycle : 1.0) {}

void ClusterDma::cost_transfer(Job& j, const Command& c, const DmaAddresses& a, int64_t gather_channels) const {
  j.kind = Job::Kind::Transfer;
  j.work = 0;
  j.lead = 0;
  if (simple_) {
    j.duration = t_.setup + (t_.ext_latency ? t_.l2_latency : 0) +
                 static_cast<int64_t>(std::ceil(static_cast<double>(c.bytes()) / simple_bpc_));
    return;
  }
  const bool to_l1 = a.src_level != Level::L1;
  const int64_t tcdm = to_l1 ? a.dst : a.src;
  j.duration = dory_copy_cost(t_, c.count.data(), tcdm, to_l1, gather_channels > 0, gather_channels).transfer;
}

void ClusterDma::stretch_for_conflicts(Job& j, const Tcdm& l1, int64_t workers, double share) const {
  const double wait = l1.expected_wait(static_cast<double>(workers) * share);
  j.duration = static_cast<int64_t>(std::ceil(static_cast<double>(j.duration) * (1.0 + wait)));
}

void ClusterDma::move(const Command& c, const DmaAddresses& a, const std::string& who) {
  auto side = [&](Level l) -> tlm::tlm_fw_transport_if<>& {
    if (l == Level::L1) return *l1.operator->();
    if (l == Level::L2) return *l2.operator->();
    if (l == Level::WMEM) return *wmem.operator->();
    throw std::runtime_error(who + ": the cluster DMA reaches only L1, L2 and WMEM, not " + level_name(l));
  };
  move_rows(c, a, side(a.src_level), side(a.dst_level), true, -1, who);
}

}  // namespace edgesim
