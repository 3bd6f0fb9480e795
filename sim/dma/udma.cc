// Udma (udma.h).
#include "sim/dma/udma.h"

#include "sim/dma/cluster_dma.h"

namespace edgesim {

Udma::Udma(const sc_core::sc_module_name& name, JobListener& listener, const PlatformSpec& p)
    : sc_core::sc_module(name), l3("l3"), l2("l2"), channel("channel", listener, "l3 dma"), t_(l3_timing(p)) {}

void Udma::start(Job& j, const Command& c, const DmaAddresses& a, bool data, const std::string& who) {
  auto side = [&](Level l) -> tlm::tlm_fw_transport_if<>& {
    if (l == Level::L3) return *l3.operator->();
    if (l == Level::L2) return *l2.operator->();
    throw std::runtime_error(who + ": the L3 DMA reaches only L3 and L2, not " + level_name(l));
  };
  const int timed_side = a.src_level == Level::L3 ? 0 : a.dst_level == Level::L3 ? 1 : -1;
  const int64_t lines = move_rows(c, a, side(a.src_level), side(a.dst_level), data, timed_side, who);
  j.kind = Job::Kind::Transfer;
  j.work = 0;
  j.lead = 0;
  j.duration = (c.bytes() > 0 && t_.hyperram ? t_.sw_cycles : 0) + lines;
}

}  // namespace edgesim
