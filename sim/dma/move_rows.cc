// move_rows (cluster_dma.h): a schedule copy as TLM transactions, one READ and one WRITE per
// contiguous row.
#include <vector>

#include <fmt/format.h>

#include "sim/core/context.h"
#include "sim/dma/cluster_dma.h"

namespace edgesim {

int64_t move_rows(const Command& c, const DmaAddresses& a, tlm::tlm_fw_transport_if<>& src,
                  tlm::tlm_fw_transport_if<>& dst, bool data, int timed_side, const std::string& who) {
  if (c.bytes() == 0) return 0;
  std::vector<unsigned char> row(static_cast<size_t>(c.count[2]));
  tlm::tlm_generic_payload gp;
  // Loosely timed: the accesses of one side follow each other, so each starts with the delay
  // accumulated by the previous ones on that side (a busy bus then serialises them correctly).
  sc_core::sc_time acc[2] = {sc_core::SC_ZERO_TIME, sc_core::SC_ZERO_TIME};
  auto access = [&](int sidx, tlm::tlm_fw_transport_if<>& mem, tlm::tlm_command cmd, int64_t addr) {
    gp.set_command(data ? cmd : tlm::TLM_IGNORE_COMMAND);
    gp.set_address(static_cast<uint64_t>(addr));
    gp.set_data_ptr(row.data());
    gp.set_data_length(static_cast<unsigned>(row.size()));
    gp.set_streaming_width(static_cast<unsigned>(row.size()));
    gp.set_byte_enable_ptr(nullptr);
    gp.set_dmi_allowed(false);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    mem.b_transport(gp, acc[sidx]);
    if (gp.is_response_error())
      throw std::runtime_error(fmt::format("{}: {} access of {} B at {} failed ({})", who,
                                           sidx == 0 ? "source" : "destination", row.size(), addr,
                                           gp.get_response_string()));
  };
  for (int64_t i = 0; i < c.count[0]; ++i)
    for (int64_t j = 0; j < c.count[1]; ++j) {
      const int64_t sa = a.src + i * c.src.stride[0] + j * c.src.stride[1];
      const int64_t da = a.dst + i * c.dst.stride[0] + j * c.dst.stride[1];
      if (data || timed_side == 0) access(0, src, tlm::TLM_READ_COMMAND, sa);
      if (data || timed_side == 1) access(1, dst, tlm::TLM_WRITE_COMMAND, da);
    }
  if (timed_side < 0) return 0;
  return to_cycles(acc[timed_side]);
}

}  // namespace edgesim
