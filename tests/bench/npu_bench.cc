// Effective MAC/cycle of the two NPU cost models (kernels/npu) on large layers, each layer run as
// one job (no L1 tiling): dense 3×3 256→256 at 32×32, deep 1×1 512→512 at 16×16, depthwise 3×3
// 256 channels at 32×32. Platform constants come from platforms/siracusa.yaml (N-EUREKA) and
// platforms/gap9.yaml (NE16); docs/npu.md "Throughput" states the derived throughputs these should
// approach (≈ 850 / 410 / 23 and ≈ 136 / 67 / 5.7); three more rows use shapes aligned to the
// subtile grids, where the border-subtile and channel-step losses vanish. Prints figures only.
// Usage: edgesim_bench_npu [siracusa.yaml] [gap9.yaml]
#include <fmt/core.h>

#include <exception>
#include <string>

#include "kernels/npu/cost_ne16.h"
#include "kernels/npu/cost_neureka.h"
#include "platforms/loader/loader.h"

using namespace edgesim;

namespace {

struct Layer {
  const char* name;
  NpuJob job;
};

NpuJob make(NpuOp op, int64_t ki, int64_t ko, int64_t h) {
  NpuJob j;
  j.op = op;
  j.ki = ki;
  j.ko = ko;
  j.ho = h;
  j.wo = h;
  return j;
}

void row(const char* npu, const char* layer, const NpuCost& c) {
  fmt::print("{:<9} {:<26} {:>12} {:>12} {:>8.1f}   load {:>5.1f}%  mv {:>5.1f}%  epi {:>4.1f}%  so {:>4.1f}%\n",
             npu, layer, c.macs, c.cycles, c.macs_per_cycle(), 100.0 * c.load / c.cycles,
             100.0 * c.matrixvec / c.cycles, 100.0 * c.epilogue / c.cycles,
             100.0 * c.streamout / c.cycles);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string sir = argc > 1 ? argv[1] : EDGESIM_SOURCE_DIR "/platforms/siracusa.yaml";
  const std::string gap = argc > 2 ? argv[2] : EDGESIM_SOURCE_DIR "/platforms/gap9.yaml";
  try {
    const PlatformSpec ps = load_platform(sir), pg = load_platform(gap);
    const Layer layers[] = {
        {"dense 3x3 256->256 32x32", make(NpuOp::Conv3x3, 256, 256, 32)},
        {"1x1 512->512 16x16", make(NpuOp::Conv1x1, 512, 512, 16)},
        {"dw 3x3 256ch 32x32", make(NpuOp::Dw3x3, 256, 256, 32)},
        // shapes aligned to both subtile grids (36 = 6·6 = 12·3) and to 28-channel steps
        {"dense 3x3 280->256 36x36", make(NpuOp::Conv3x3, 280, 256, 36)},
        {"1x1 512->512 36x36", make(NpuOp::Conv1x1, 512, 512, 36)},
        {"dw 3x3 280ch 36x36", make(NpuOp::Dw3x3, 280, 280, 36)},
    };
    fmt::print("{:<9} {:<26} {:>12} {:>12} {:>8}\n", "npu", "layer (one job)", "MACs", "cycles", "MAC/cyc");
    for (const Layer& l : layers) row("neureka", l.name, neureka_job_cost(l.job, ps.npu));
    for (const Layer& l : layers) {
      // DORY's Ne16PerfModel defaults: no per-channel shift, no bias, 32-bit scales
      NpuJob j = l.job;
      j.per_channel_shift = false;
      j.bias = false;
      row("ne16", l.name, ne16_job_cost(j, pg.npu));
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "edgesim_bench_npu: {}\n", e.what());
    return 1;
  }
  return 0;
}
