// Memory (memory.h): bounds-checked TLM target over caller-owned storage.
#include "sim/mem/memory.h"

#include <cstring>

#include "sim/core/context.h"

namespace edgesim {

Memory::Memory(const sc_core::sc_module_name& name, std::vector<std::byte>& storage, int64_t size)
    : sc_core::sc_module(name), socket("socket"), storage_(storage), size_(size) {
  socket.register_b_transport(this, &Memory::b_transport);
}

void Memory::b_transport(int, tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  const auto addr = static_cast<int64_t>(p.get_address());
  const auto len = static_cast<int64_t>(p.get_data_length());
  if (addr < 0 || len < 0 || addr + len > size()) {
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  const bool write = p.get_command() == tlm::TLM_WRITE_COMMAND;
  if (p.get_command() != tlm::TLM_IGNORE_COMMAND && addr + len > static_cast<int64_t>(storage_.size())) {
    p.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);   // data access of a timing-only memory
    return;
  }
  if (p.get_command() == tlm::TLM_READ_COMMAND) {
    std::memcpy(p.get_data_ptr(), storage_.data() + addr, static_cast<size_t>(len));
  } else if (write) {
    std::memcpy(storage_.data() + addr, p.get_data_ptr(), static_cast<size_t>(len));
  }
  const int64_t start = now_cycles() + to_cycles(delay);
  delay += delay_time(access_cycles(start, addr, len, write), start, "a memory access");
  p.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace edgesim
