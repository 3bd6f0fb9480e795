// Deeploy's NE16 pointwise reshape (compiler/tiler/ne16_reshape.h) and its effect on a simulated
// NE16 pointwise job.
#include <catch2/catch.hpp>

#include "compiler/tiler/ne16_reshape.h"
#include "kernels/npu/cost_ne16.h"
#include "platforms/loader/loader.h"
#include "support/paths.h"

using namespace edgesim;

TEST_CASE("ne16 reshape: Deeploy's choice of the pointwise spatial extent", "[tiler][ne16]") {
  using P = std::pair<int64_t, int64_t>;
  // 9 = 3·3: the factor search stops below ⌈√9⌉ = 3, so no split: 9 × 1.
  CHECK(deeploy_ne16_pointwise_reshape(9) == P{9, 1});
  CHECK(deeploy_ne16_pointwise_reshape(25) == P{25, 1});
  // 36 = 2·2·3·3: (6, 6) is the only option with one 6 × 6 subtile.
  CHECK(deeploy_ne16_pointwise_reshape(36) == P{6, 6});
  // 144: four subtiles for (12, 12), (24, 6), (6, 24), ...; the smallest side wins: 24 × 6.
  CHECK(deeploy_ne16_pointwise_reshape(144) == P{24, 6});
  CHECK(deeploy_ne16_pointwise_reshape(576) == P{96, 6});
  CHECK(deeploy_ne16_pointwise_reshape(2304) == P{384, 6});
  CHECK(deeploy_ne16_pointwise_reshape(1024) == P{64, 16});
  CHECK(deeploy_ne16_pointwise_reshape(12) == P{6, 2});
  CHECK(deeploy_ne16_pointwise_reshape(100) == P{20, 5});
  CHECK(deeploy_ne16_pointwise_reshape(3) == P{3, 1});
  CHECK(deeploy_ne16_pointwise_reshape(1) == P{1, 1});
}

TEST_CASE("ne16 reshape: a 3x3 pointwise output runs as three NE16 patches", "[tiler][ne16]") {
  const PlatformSpec spec = load_platform(test::source_dir() + "/platforms/gap9.yaml");
  NpuJob j;
  j.op = NpuOp::Conv1x1;
  j.ki = 128, j.ko = 256, j.ho = 3, j.wo = 3;
  j.quantize = true, j.bias = true;
  const NpuCost square = ne16_job_cost(j, spec.npu);
  j.ho = 9, j.wo = 1;
  const NpuCost flat = ne16_job_cost(j, spec.npu);
  CHECK(square.subtiles == 1);
  CHECK(flat.subtiles == 3);
  CHECK(flat.cycles - spec.npu.cfg_cycles == 3 * (square.cycles - spec.npu.cfg_cycles));
}
