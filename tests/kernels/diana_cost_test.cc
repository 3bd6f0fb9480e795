// DIANA's cost models, each expectation derived by hand in the comment next to it:
// the SOMA digital accelerator (kernels/soma/cost.h, docs/diana.md "Digital accelerator (SOMA)"),
// the analog core (kernels/aimc/cost.h) and the RISC-V host's loop nests (kernels/host/cost.h),
// with diana.yaml's parameters (pe 16 × 16, cfg 100, add 16 elements/cycle; rows 1152, cols 512,
// t_mvm 32, aimc cfg 100, DMA 8 B/cycle + 10; host call 50, loop 4, mac 6, out 10, pad 6, elem 8).
#include <catch2/catch.hpp>

#include "kernels/aimc/cost.h"
#include "kernels/host/cost.h"
#include "kernels/soma/cost.h"
#include "kernels/soma/shift_requant.h"
#include "platforms/loader/loader.h"
#include "support/paths.h"

using namespace edgesim;

namespace {

PlatformSpec diana(const std::vector<std::string>& overrides = {}) {
  return load_platform(test::source_dir() + "/platforms/diana.yaml", overrides);
}

}  // namespace

TEST_CASE("soma cost: conv, depthwise, dense, add and pool tiles to the cycle", "[diana][soma]") {
  const NpuSpec npu = diana().npu;
  SomaJob conv;   // K 20, C 8, 20 x 4 outputs, 3x3
  conv.k = 20, conv.c = 8, conv.ox = 20, conv.oy = 4, conv.fx = conv.fy = 3;
  // ⌈20/16⌉ · ⌈20/16⌉ · 4 · 8 · 3 · 3 = 2 · 2 · 4 · 72 = 1152, + cfg 100
  SomaCost c = soma_job_cost(conv, npu);
  CHECK(c.compute == 1152);
  CHECK(c.cycles == 1252);
  CHECK(c.config == 100);
  CHECK(c.macs == 20 * 20 * 4 * 72);
  CHECK(c.utilisation == Approx(20.0 * 20 / (32 * 32)));   // K·OX / (16⌈K/16⌉ · 16⌈OX/16⌉)

  SomaJob dw;   // 24 channels, 10 x 5 outputs, 3x3
  dw.op = SomaOp::Depthwise;
  dw.k = dw.c = 24, dw.ox = 10, dw.oy = 5, dw.fx = dw.fy = 3;
  // ⌈24/16⌉ · ⌈10/16⌉ · 5 · 16 · 9 = 2 · 1 · 5 · 144 = 1440 (weights ×16: one filter per PE row)
  CHECK(soma_job_cost(dw, npu).compute == 1440);
  CHECK(soma_job_cost(dw, npu).cycles == 1540);

  SomaJob fc;   // 64 -> 40, one vector
  fc.op = SomaOp::Dense;
  fc.k = 40, fc.c = 64;
  // ⌈40/16⌉ · 64 = 3 · 64 = 192 (OX = 1: 16 of 256 PEs busy)
  CHECK(soma_job_cost(fc, npu).cycles == 292);
  CHECK(soma_job_cost(fc, npu).utilisation == Approx(40.0 * 64 / (256.0 * 192)));

  SomaJob add;
  add.op = SomaOp::Add;
  add.elements = 1000;   // ⌈1000 / 16⌉ = 63
  CHECK(soma_job_cost(add, npu).cycles == 163);

  SomaJob pool;   // 8 channels, 20 x 4 outputs, 2x2 window: 8 · 4 · ⌈20/16⌉ · 1 · 1 = 64
  pool.op = SomaOp::Pool;
  pool.k = pool.c = 8, pool.ox = 20, pool.oy = 4, pool.fx = pool.fy = 2;
  CHECK(soma_job_cost(pool, npu).compute == 64);

  conv.ox = 0;
  CHECK_THROWS_WITH(soma_job_cost(conv, npu), Catch::Contains("non-positive"));
  CHECK_THROWS_WITH(soma_job_cost(fc, load_platform(test::source_dir() + "/platforms/gap9.yaml").npu),
                    Catch::Contains("not soma"));
}

TEST_CASE("aimc cost: one pass, output-column unrolling and a reprogramming to the cycle", "[diana][aimc]") {
  const PlatformSpec p = diana();
  AimcJob j;   // C 16, K 32, 3x3, stride 1, one output row of 4 columns
  j.c = 16, j.k = 32, j.fx = j.fy = 3, j.ox = 4, j.oy = 1;
  // unroll: u = 1 -> 2 (2·32 ≤ 512, 16·3·(3+1) = 192 ≤ 1152) -> 4 (4·32 = 128 ≤ 512, 16·3·(3+3) = 288 ≤ 1152)
  // passes = 1 row · ⌈4/4⌉ = 1; T = 32 + cfg 100 = 132
  AimcCost a = aimc_job_cost(j, p);
  CHECK(a.unroll == 4);
  CHECK(a.rows == 288);
  CHECK(a.cols == 128);
  CHECK(a.passes == 1);
  CHECK(a.cycles == 132);
  CHECK(a.program == 0);
  // 4 rows of 8 columns: 4 · ⌈8/4⌉ = 8 passes, 256 cycles
  j.ox = 8, j.oy = 4;
  CHECK(aimc_job_cost(j, p).compute == 256);
  // Reprogramming: 288 x 128 cells, 2 bits each = 9216 B at min(DMA 8, l1_wana 32) = 8 B/cycle
  // = 1152 cycles, + the L2 latency 10 (fidelity.dma_ext_latency) = 1162; T = 1162 + 256 + 100
  j.program = true;
  a = aimc_job_cost(j, p);
  CHECK(a.program_bytes == 9216);
  CHECK(a.program == 1162);
  CHECK(a.cycles == 1518);
  // A layer filling the array's rows cannot unroll: C 128 x 3x3 = 1152 rows, 2-column span 1536
  AimcJob big;
  big.c = 128, big.k = 256, big.fx = big.fy = 3, big.ox = 10, big.oy = 2;
  const AimcCost b = aimc_job_cost(big, p);
  CHECK(b.unroll == 1);
  CHECK(b.rows == 1152);
  CHECK(b.passes == 20);
  // stride 2 widens the unrolled receptive field: 16·3·(3 + 2) = 240 for u = 2, 16·3·(3+6) = 432 for u = 4
  j.stride = 2, j.program = false;
  CHECK(aimc_job_cost(j, p).rows == 432);
}

TEST_CASE("host cost: TVM's plain C loop nests to the cycle", "[diana][host]") {
  const HostCostSpec h = diana().cluster.host_cost;
  ConvParams p;   // conv 3x3, 4 -> 8, 6x6, pad 1
  p.kh = p.kw = 3;
  p.pad_t = p.pad_l = p.pad_b = p.pad_r = 1;
  // pad copy (4, 8, 8): loop 4 · (4 + 32 + 256) = 1168, + 256 elements · pad 6 = 1536
  // nest (8, 6, 6, 4, 3, 3): loop 4 · (8 + 48 + 288 + 1152 + 3456 + 10368) = 61280
  // 288 outputs · (out 10 + 4·9 MACs · mac 6 = 226) = 65088;   total 50 + 1168 + 1536 + 61280 + 65088
  const KernelCost k = host_conv_cost(p, {1, 4, 6, 6}, {1, 8, 6, 6}, h);
  CHECK(k.cycles == 129122);
  CHECK(k.overhead == 50);
  CHECK(k.kernel == "tvm_conv2d");
  // Depthwise 8 channels: no rc loop (extent 1 dropped): nest (8, 6, 6, 3, 3)
  // loop 4 · (8 + 48 + 288 + 864 + 2592) = 15200; 288 · (10 + 9·6) = 18432; pad copy (8, 8, 8):
  // 4 · (8 + 64 + 512) + 512 · 6 = 2336 + 3072
  p.groups = 8;
  CHECK(host_conv_cost(p, {1, 8, 6, 6}, {1, 8, 6, 6}, h).cycles == 50 + 5408 + 15200 + 18432);
  // Dense 64 -> 10: nest (10, 64): 4 · (10 + 640) = 2600; 10 · (10 + 64·6) = 3940
  GemmParams g;
  CHECK(host_gemm_cost(g, {1, 64}, {1, 10}, h).cycles == 50 + 2600 + 3940);
  // Element-wise over 1000 elements: 1000 · (loop 4 + elem 8)
  CHECK(host_eltwise_cost("add", 1000, h).cycles == 50 + 12000);
  // Average pool 8x8 of 64 channels: nest (64, 1, 1, 8, 8) -> (64, 8, 8): 4 · (64 + 512 + 4096)
  // = 18688; 64 · (10 + 64·6) = 25216
  PoolParams q;
  q.kind = PoolParams::Kind::Sum;
  q.kh = q.kw = 8;
  CHECK(host_pool_cost(q, {1, 64, 8, 8}, {1, 64, 1, 1}, h).cycles == 50 + 18688 + 25216);
  CHECK(host_loop_iterations({4, 1, 3}) == 16);
  CHECK_THROWS_WITH(host_conv_cost(p, {1, 8, 6, 6}, {1, 8, 6, 6}, HostCostSpec{}), Catch::Contains("host_cost"));
}

TEST_CASE("shift form: power-of-two requants become clamp((acc + offset) >> shift), others say why",
          "[diana][soma]") {
  Requant rq;   // ((2·acc + λ)·4 + 16) >> 7  ==  (acc + ⌊(4λ + 16)/8⌋) >> 4
  rq.kind = Requant::Kind::Integer;
  rq.axis = 1;
  rq.k = {2, 2};
  rq.lambda = {-5, 7};
  rq.mul = 4;
  rq.shift = 7;
  rq.round = 16;
  rq.lo = -128, rq.hi = 127;
  std::string why;
  const auto s = to_shift_requant(rq, {100, -3}, 2, why);
  REQUIRE(s);
  CHECK(s->shift == 4);
  CHECK(s->offset == std::vector<int64_t>{100 + floor_div(-20 + 16, 8), -3 + floor_div(28 + 16, 8)});
  const Requant f = shift_form_requant(*s, 1);
  for (int64_t acc = -3000; acc <= 3000; acc += 7)
    for (int64_t c = 0; c < 2; ++c) CHECK(f.apply(acc, c) == rq.apply(acc + (c ? -3 : 100), c));
  rq.k = {2, 3};
  CHECK_FALSE(to_shift_requant(rq, {}, 2, why));
  CHECK_THAT(why, Catch::Contains("not a power of two"));
  rq.k = {2, 4};
  CHECK_FALSE(to_shift_requant(rq, {}, 2, why));
  CHECK_THAT(why, Catch::Contains("differ between channels"));
  rq.k = {256, 256};   // 2^10 > shift 7: a multiplication remains
  CHECK_FALSE(to_shift_requant(rq, {}, 2, why));
  CHECK_THAT(why, Catch::Contains("multiplies by 2^3"));
  Requant q;
  q.kind = Requant::Kind::Float;
  q.scale = {0.0625};
  CHECK_FALSE(to_shift_requant(q, {}, 1, why));
  CHECK_THAT(why, Catch::Contains("rounds half to even"));
  q.scale = {0.1};
  CHECK_FALSE(to_shift_requant(q, {}, 1, why));
  CHECK_THAT(why, Catch::Contains("not a power of two"));
  CHECK_FALSE(to_shift_requant(Requant{}, {}, 1, why));
  CHECK_THAT(why, Catch::Contains("raw int32"));
}
