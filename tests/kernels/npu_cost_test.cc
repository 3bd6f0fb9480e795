// NPU cost models (kernels/npu): N-EUREKA per-state costs (docs/npu.md "N-EUREKA") and DORY's
// NE16 analytic model ("NE16"), with the constants of platforms/siracusa.yaml and
// platforms/gap9.yaml.
// Every expected figure is derived by hand in the comment beside it; the throughput checks hold
// the derived MAC/cycle of docs/npu.md "Throughput" within 10 % on large single-job layers.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "kernels/npu/cost_ne16.h"
#include "kernels/npu/cost_neureka.h"
#include "platforms/loader/loader.h"
#include "tests/support/paths.h"

using namespace edgesim;

namespace {

const NpuSpec& siracusa() {
  static const PlatformSpec p = load_platform(test::source_dir() + "/platforms/siracusa.yaml");
  return p.npu;
}
const NpuSpec& gap9() {
  static const PlatformSpec p = load_platform(test::source_dir() + "/platforms/gap9.yaml");
  return p.npu;
}

NpuJob job(NpuOp op, int64_t ki, int64_t ko, int64_t ho, int64_t wo) {
  NpuJob j;
  j.op = op;
  j.ki = ki;
  j.ko = ko;
  j.ho = ho;
  j.wo = wo;
  return j;
}

// DORY's Ne16PerfModel defaults: nq_shift = nq_bias = False, nq_bits = 32.
NpuJob dory(NpuJob j) {
  j.per_channel_shift = false;
  j.bias = false;
  return j;
}

void check_sum(const NpuCost& c) {
  CHECK(c.cycles == c.load + c.matrixvec + c.epilogue + c.streamout + c.config);
}

}  // namespace

// Config per job: JOB_END 1 + cfg_cycles 100 = 101.
// Epilogue of a full 32-channel block, 8-bit scales, per-channel shift, bias:
//   NORM_SHIFT 1+7 = 8, NORM_MULTIPLY ⌈32·8/32⌉ + 9 = 17, NORM_BIAS 4+8 = 12 → 37;
//   + OUTPUT_STREAMOUT 6·6 = 36 beats → 73 (the interior figure of docs/npu.md "N-EUREKA").
TEST_CASE("neureka 3x3 dense: interior 6x6x32 subtile, Ki = 28 and 56", "[npu]") {
  const NpuCost c = neureka_job_cost(job(NpuOp::Conv3x3, 28, 32, 6, 6), siracusa());
  // one step: LOAD_PREPARE 6 + ACTIVATION_LOAD 8·8 = 64 + MATRIXVEC_PREPARE 6 + MV 32·8 + 8 = 264 → 340
  CHECK(c.load == 6 + 64);
  CHECK(c.matrixvec == 6 + 264);
  CHECK(c.epilogue == 37);
  CHECK(c.streamout == 36);
  CHECK(c.config == 101);
  CHECK(c.cycles == 340 + 73 + 101);  // 514
  CHECK(c.kernel == "neureka_3x3");
  CHECK(c.macs == 36 * 32 * 28 * 9);
  check_sum(c);
  // Ki = 56: ⌈56/28⌉ = 2 steps → 2·340 + 73 + 101 = 854
  CHECK(neureka_job_cost(job(NpuOp::Conv3x3, 56, 32, 6, 6), siracusa()).cycles == 854);
  // 4-bit weights: MV 32·4 + 8 = 136 → step 212 → 212 + 73 + 101 = 386
  NpuJob w4 = job(NpuOp::Conv3x3, 28, 32, 6, 6);
  w4.w_bits = 4;
  CHECK(neureka_job_cost(w4, siracusa()).cycles == 386);
}

TEST_CASE("neureka 1x1: interior 6x6x32 subtile, two 32-channel input steps", "[npu]") {
  const NpuCost c = neureka_job_cost(job(NpuOp::Conv1x1, 64, 32, 6, 6), siracusa());
  // step: 6 + (36 beats + 6 = 42) + MATRIXVEC_PREPARE 10 + MV Kt = 32 → 90; ⌈64/32⌉ = 2 steps → 180
  // epilogue 37; streamout 36 + 3 = 39; config 101 → 357
  CHECK(c.load == 2 * (6 + 42));
  CHECK(c.matrixvec == 2 * (10 + 32));
  CHECK(c.streamout == 39);
  CHECK(c.cycles == 180 + 37 + 39 + 101);
  check_sum(c);
  // weight bits are parallel in 1×1: 2-bit weights cost the same
  NpuJob w2 = job(NpuOp::Conv1x1, 64, 32, 6, 6);
  w2.w_bits = 2;
  CHECK(neureka_job_cost(w2, siracusa()).cycles == c.cycles);
  // a 2×2 border subtile still loads 36 beats (padded) + 6; streamout 2·2 + 3 = 7
  // → 2·(6 + 42 + 10 + 32) + 37 + 7 + 101 = 325
  CHECK(neureka_job_cost(job(NpuOp::Conv1x1, 64, 32, 2, 2), siracusa()).cycles == 325);
}

TEST_CASE("neureka depthwise 3x3: 28-channel block, one step", "[npu]") {
  const NpuCost c = neureka_job_cost(job(NpuOp::Dw3x3, 28, 28, 6, 6), siracusa());
  // step: 6 + 64 + MATRIXVEC_PREPARE 34 + MV Cb·Wb = 28·8 = 224 → 328
  // epilogue: 8 + (⌈28·8/32⌉ = 7) + 9 + 12 = 36; streamout 36; config 101 → 501
  CHECK(c.load == 70);
  CHECK(c.matrixvec == 34 + 224);
  CHECK(c.epilogue == 36);
  CHECK(c.cycles == 328 + 36 + 36 + 101);
  CHECK(c.macs == 36 * 28 * 9);
  check_sum(c);
  // 40 channels = blocks of 28 and 12: second block MV 12·8 = 96 → step 200,
  // epilogue 8 + ⌈12·8/32⌉ + 9 + 12 = 32, streamout 36 → 501 + 200 + 32 + 36 = 769
  CHECK(neureka_job_cost(job(NpuOp::Dw3x3, 40, 40, 6, 6), siracusa()).cycles == 769);
}

TEST_CASE("neureka border subtiles: h_s, w_s < 6", "[npu]") {
  // 4×4 output: one subtile, ACTIVATION_LOAD (4+2)·(4+2) = 36 → step 6 + 36 + 6 + 264 = 312;
  // epilogue 37, streamout 16, config 101 → 466
  CHECK(neureka_job_cost(job(NpuOp::Conv3x3, 28, 32, 4, 4), siracusa()).cycles == 466);
  // 8×8 output: subtiles (6,6), (6,2), (2,6), (2,2)
  //   steps: 6+64+270 = 340, 6+8·4+270 = 308, 308, 6+4·4+270 = 292 → 1248
  //   epilogue 4·37 = 148; streamout 36 + 12 + 12 + 4 = 64; config 101 → 1561
  const NpuCost c = neureka_job_cost(job(NpuOp::Conv3x3, 28, 32, 8, 8), siracusa());
  CHECK(c.subtiles == 4);
  CHECK(c.epilogue == 148);
  CHECK(c.streamout == 64);
  CHECK(c.cycles == 1561);
  check_sum(c);
}

TEST_CASE("neureka Kt < 32 remainder block: partial NORM_MULTIPLY", "[npu]") {
  // Ko = 40 → blocks of 32 and 8. Block 32: 340 + 37 + 36 = 413.
  // Block 8: step 6 + 64 + 6 + (8·8 + 8 = 72) = 148; epilogue 8 + (⌈8/4⌉ = 2) + 9 + 12 = 31;
  // streamout 36 → 215. Total 413 + 215 + 101 = 729.
  const NpuCost c = neureka_job_cost(job(NpuOp::Conv3x3, 28, 40, 6, 6), siracusa());
  CHECK(c.blocks == 2);
  CHECK(c.epilogue == 37 + 31);
  CHECK(c.cycles == 729);
  // 16-bit scales: full block 8 + (16 + 9) + 12 = 45, partial 8 + (⌈8/2⌉ = 4) + 9 + 12 = 33
  // → 340 + 45 + 36 + 148 + 33 + 36 + 101 = 739
  NpuJob s16 = job(NpuOp::Conv3x3, 28, 40, 6, 6);
  s16.scale_bits = 16;
  CHECK(neureka_job_cost(s16, siracusa()).cycles == 739);
  // 32-bit scales, no per-channel shift: full (32 + 9) + 12 = 53, partial (8 + 9) + 12 = 29
  // → 340 + 53 + 36 + 148 + 29 + 36 + 101 = 743
  NpuJob s32 = job(NpuOp::Conv3x3, 28, 40, 6, 6);
  s32.scale_bits = 32;
  s32.per_channel_shift = false;
  CHECK(neureka_job_cost(s32, siracusa()).cycles == 743);
}

TEST_CASE("neureka 32-bit output streamout, quantisation off", "[npu]") {
  // Ko = 40, raw accumulators: no norm states; streamout 36·⌈32/8⌉ = 144 and 36·⌈8/8⌉ = 36
  // → 340 + 144 + 148 + 36 + 101 = 769
  NpuJob j = job(NpuOp::Conv3x3, 28, 40, 6, 6);
  j.out_bits = 32;
  j.quantize = false;
  const NpuCost c = neureka_job_cost(j, siracusa());
  CHECK(c.epilogue == 0);
  CHECK(c.streamout == 144 + 36);
  CHECK(c.cycles == 769);
  // 1×1, Ki = Ko = 32: step 90; streamout 36·4 + 3 = 147 → 90 + 147 + 101 = 338
  NpuJob p = job(NpuOp::Conv1x1, 32, 32, 6, 6);
  p.out_bits = 32;
  p.quantize = false;
  CHECK(neureka_job_cost(p, siracusa()).cycles == 338);
}

TEST_CASE("npu cost models reject bad jobs with one clear message", "[npu]") {
  NpuJob s2 = job(NpuOp::Conv3x3, 28, 32, 6, 6);
  s2.stride = 2;  // siracusa lists strides [1]
  CHECK_THROWS_WITH(neureka_job_cost(s2, siracusa()), Catch::Contains("stride 2 not in npu.strides"));
  NpuJob w9 = job(NpuOp::Conv3x3, 28, 32, 6, 6);
  w9.w_bits = 9;
  CHECK_THROWS_AS(neureka_job_cost(w9, siracusa()), std::invalid_argument);
  CHECK_THROWS_AS(neureka_job_cost(job(NpuOp::Dw3x3, 28, 32, 6, 6), siracusa()), std::invalid_argument);
  CHECK_THROWS_AS(neureka_job_cost(job(NpuOp::Conv3x3, 0, 32, 6, 6), siracusa()), std::invalid_argument);
  CHECK_THROWS_WITH(neureka_job_cost(job(NpuOp::Conv3x3, 28, 32, 6, 6), gap9()), Catch::Contains("not neureka"));
  CHECK_THROWS_WITH(ne16_job_cost(job(NpuOp::Conv3x3, 28, 32, 6, 6), siracusa()), Catch::Contains("not ne16"));
  NpuJob o32 = job(NpuOp::Conv3x3, 16, 32, 3, 3);
  o32.out_bits = 32;
  NpuSpec g8 = gap9();
  g8.out_bits = {8};  // a platform listing 8-bit outputs only
  CHECK_THROWS_WITH(ne16_job_cost(o32, g8), Catch::Contains("npu.out_bits"));
  // stride 2 is listed for NE16 (gap9 strides [1, 2]): the formulas apply to the output extent
  NpuJob n2 = job(NpuOp::Conv3x3, 16, 32, 3, 3);
  n2.stride = 2;
  CHECK(ne16_job_cost(n2, gap9()).cycles == ne16_job_cost(job(NpuOp::Conv3x3, 16, 32, 3, 3), gap9()).cycles);
}

// NE16 constants from gap9.yaml: load 1×1 = 10 + 3·3·⌈16·8/256⌉ = 19, 3×3/dw = 6 + 5·5·1 = 31;
// so = 3 + 3·3·⌈32·8/256⌉ + 1 = 13; q = 32 → multiply term ⌈k·4/4⌉ = k; config = npu.cfg_cycles
// (+ npu.layer_cycles on a layer's first job).
TEST_CASE("ne16 1x1 layer: DORY formulas", "[npu]") {
  // Ho = Wo = 3, Ko = 32, Ki = 32: n_sp 1, nb 1, kr 0, n_in 2
  // iter(32) = 2·(19 + 6 + (6 + 32) + 2 = 65) + nq(9 + 32 = 41) + 13 = 184
  const NpuCost c = ne16_job_cost(dory(job(NpuOp::Conv1x1, 32, 32, 3, 3)), gap9());
  CHECK(c.cycles - c.config == 184);
  CHECK(c.config == gap9().cfg_cycles);
  NpuJob first = dory(job(NpuOp::Conv1x1, 32, 32, 3, 3));
  first.first_of_layer = true;
  CHECK(ne16_job_cost(first, gap9()).config == gap9().cfg_cycles + gap9().layer_cycles);
  CHECK(ne16_job_cost(first, gap9()).cycles - ne16_job_cost(first, gap9()).config == 184);
  CHECK(c.kernel == "ne16_1x1");
  check_sum(c);
  // per-channel shift and bias: nq = ⌈32/4⌉ + 9 + 32 + (8 + ⌈32/8⌉) = 61 → 130 + 61 + 13 = 204
  CHECK(ne16_job_cost(job(NpuOp::Conv1x1, 32, 32, 3, 3), gap9()).cycles == 204 + gap9().cfg_cycles);
  const Ne16Terms t = ne16_terms(job(NpuOp::Conv1x1, 32, 32, 3, 3), gap9(), 32);
  CHECK(t.load == 19);
  CHECK(t.so == 13);
  CHECK(t.nq == 61);
  // raw 32-bit accumulators ([36] ne16_streamout.cpp): no nq, ⌈k/8⌉ port words per pixel:
  // so(32) = 4 + 9·4 = 40, so(12) = 4 + 9·2 = 22; Ko = 44 → one 32 block and a 12 remainder:
  // 2·(65) + 40 = 170 and 2·(19 + 6 + 18 + 2) + 22 = 112
  NpuJob raw = dory(job(NpuOp::Conv1x1, 32, 44, 3, 3));
  raw.out_bits = 32;
  raw.quantize = false;
  CHECK(ne16_terms(raw, gap9(), 32).so == 40);
  CHECK(ne16_terms(raw, gap9(), 12).so == 22);
  CHECK(ne16_terms(raw, gap9(), 32).nq == 0);
  const NpuCost rc = ne16_job_cost(raw, gap9());
  CHECK(rc.cycles - rc.config == 170 + 112);
  CHECK(rc.streamout == 62);
  check_sum(rc);
}

TEST_CASE("ne16 3x3 layer with an output-channel remainder", "[npu]") {
  // Ho = Wo = 6, Ko = 40, Ki = 16: n_sp = 2·2 = 4, nb = 1, kr = 8, n_in = 1
  // iter(32) = 31 + 6 + (6 + 8·32 = 262) + 2 + nq(9 + 32 = 41) + 13 = 355
  // iter(8)  = 31 + 6 + (6 + 8·8 = 70) + 2 + nq(9 + 8 = 17) + 13 = 139
  // T = 4·(355 + 139) = 1976
  const NpuCost c = ne16_job_cost(dory(job(NpuOp::Conv3x3, 16, 40, 6, 6)), gap9());
  CHECK(c.cycles - c.config == 1976);
  CHECK(c.subtiles == 4);
  CHECK(c.blocks == 8);
  check_sum(c);
}

TEST_CASE("ne16 depthwise layer: 16-channel blocks, weight offsets per channel", "[npu]") {
  // Ho = Wo = 4, Ko = Ki = 20: n_sp = 2·2 = 4, kb = 16, nb = 1, kr = 4
  // iter(16) = 31 + (6 + 16) + (6 + 8·16) + 2 + nq(9 + 16 = 25) + 13 = 227
  // iter(4)  = 31 + (6 + 4) + (6 + 8·4) + 2 + nq(9 + 4 = 13) + 13 = 107
  // T = 4·(227 + 107) = 1336
  const NpuCost c = ne16_job_cost(dory(job(NpuOp::Dw3x3, 20, 20, 4, 4)), gap9());
  CHECK(c.cycles - c.config == 1336);
  check_sum(c);
}

TEST_CASE("npu derived throughputs of docs/npu.md (Throughput) within 10 %", "[npu]") {
  // N-EUREKA, 36×36 outputs (whole 6×6 subtiles); Ki a multiple of 28 for the deep 3×3
  const double n3 = neureka_job_cost(job(NpuOp::Conv3x3, 560, 256, 36, 36), siracusa()).macs_per_cycle();
  const double n1 = neureka_job_cost(job(NpuOp::Conv1x1, 1024, 512, 36, 36), siracusa()).macs_per_cycle();
  const double nd = neureka_job_cost(job(NpuOp::Dw3x3, 280, 280, 36, 36), siracusa()).macs_per_cycle();
  CHECK(n3 == Approx(850).epsilon(0.10));
  CHECK(n1 == Approx(410).epsilon(0.10));
  CHECK(nd == Approx(23).epsilon(0.10));
  // NE16, 48×48 outputs (whole 3×3 subtiles), DORY defaults
  const double e3 = ne16_job_cost(dory(job(NpuOp::Conv3x3, 256, 256, 48, 48)), gap9()).macs_per_cycle();
  const double e1 = ne16_job_cost(dory(job(NpuOp::Conv1x1, 256, 256, 48, 48)), gap9()).macs_per_cycle();
  const double ed = ne16_job_cost(dory(job(NpuOp::Dw3x3, 256, 256, 48, 48)), gap9()).macs_per_cycle();
  CHECK(e3 == Approx(136).epsilon(0.10));
  CHECK(e1 == Approx(67).epsilon(0.10));
  CHECK(ed == Approx(5.7).epsilon(0.10));
  // the ideal peaks of docs/npu.md "Throughput" are never exceeded
  CHECK(n3 < 1134);
  CHECK(n1 < 1152);
  CHECK(nd < 40.5);
}

TEST_CASE("npu KernelCost view", "[npu]") {
  const NpuCost c = neureka_job_cost(job(NpuOp::Dw3x3, 28, 28, 6, 6), siracusa());
  const KernelCost k = c.kernel_cost();
  CHECK(k.cycles == c.cycles);
  CHECK(k.overhead == 101);
  CHECK(k.kernel == "neureka_dw3x3");
}
