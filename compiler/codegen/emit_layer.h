// One generated layer file per Schedule step (docs/codegen.md): a C function es_step_<k>()
// that issues the step's commands in list order — every Dma as an asynchronous HAL copy into a
// handle slot, every Compute as a forked C kernel — and waits for a DMA exactly before the
// first command that depends on it (plus when all handle slots are busy, and for everything
// still in flight at the end of the step, which is the barrier between steps). The unrolled
// tiles come back as loops (reroll.h). Comments name the layer, its tiling, its buffers and
// their offsets.
#pragma once
#include <cstdint>
#include <string>

#include "kernels/ir/graph.h"
#include "compiler/schedule/schedule.h"

namespace edgesim::codegen {

struct LayerFile {
  std::string file;              // "layer_03_L03_dw.c"
  std::string function;          // "es_step_3"
  std::string text;
  int64_t npu_scratch = 0;       // bytes of decoded NPU weights its calls need
};

// DMA handle slots per step: the most copies in flight before the oldest is waited.
constexpr int kDmaSlots = 8;

LayerFile emit_layer(const Graph& g, const Schedule& s, size_t step);

}  // namespace edgesim::codegen
