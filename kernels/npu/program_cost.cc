// NPU programming cost (program_cost.h).
#include "kernels/npu/program_cost.h"

namespace edgesim {

int64_t npu_program_cycles(const NpuSpec& npu, bool first_of_layer) {
  return npu.cfg_cycles + (first_of_layer ? npu.layer_cycles : 0);
}

}  // namespace edgesim
