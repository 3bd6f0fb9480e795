// Cost model of one BARVINN-like MVU (Matrix-Vector Unit) running a convolution layer or a GEMV,
// docs/timing.md "MVU (BARVINN) countdown model", from [35] (MVU_Code_Gen's job parameters and
// countdown), [21] (the MVU controller RTL), [22] and [20] (BARVINN's docs and paper). Pure
// functions of the layer geometry and the platform's mvu.* / ctrl.* keys.
//
// One MVU job computes one output row: every window position of the row, every 64-channel block
// of output channels, direct convolution (no im2col), bit-serial over a·w activation × weight bit
// planes. With iC = ⌈Cin/64⌉, fC = ⌈Cout/64⌉ and W the unpadded input width:
//   countdown     = iC · Fw · Fh · a · w · fC · ⌊(W − Fw + 1) / Sw⌋        cycles of one job
//   layer (generator) = countdown · ⌈(H + Pt + Pb) / Sh⌉                   MVU_Code_Gen's total
//   layer (exact)     = iC · Fh · Fw · a · w · fC · Ho · Wo                 the true output geometry
//   job time      = countdown + start + done + CPI_hart · n_instr           (controller overhead)
//   drain         = pipe_cycles + oprec after the last job of a chain
//   GEMV          = ⌈M/64⌉ · ⌈N/64⌉ · a · w
// Quantizer constraint: the serializer emits one output vector over `oprec` cycles without a
// stall path, so a job needs iC · Fh · Fw · a · w >= oprec (mvu_quantizer_ok).
// The countdown scales exactly with a·w; `oprec` does not change it. Calibration: the published
// countdowns and totals of MVU_Code_Gen / BARVINN's examples are reproduced exactly
// (tests/kernels/mvu_cost_test.cc).
#pragma once
#include <cstdint>
#include <string>

#include "platforms/loader/spec.h"

namespace edgesim {

struct MvuConv {
  int64_t cin = 64, cout = 64;         // channels (blocks of mvu.n = 64)
  int64_t h = 1, w = 1;                // unpadded input rows and columns
  int64_t fh = 3, fw = 3;              // kernel
  int64_t sh = 1, sw = 1;              // strides
  int64_t pt = 0, pb = 0, pl = 0, pr = 0;   // padding
  int64_t a_bits = 8, w_bits = 8;      // activation and weight precision
  int64_t out_bits = 8;                // oprec: output precision of the quantizer
};

struct MvuConvCost {
  int64_t countdown = 0;               // cycles of one job (one output row)
  int64_t jobs = 0;                    // output rows, in the chosen geometry
  int64_t layer = 0;                   // countdown · jobs
  int64_t job_overhead = 0;            // start + done + controller instructions, per job
  int64_t total = 0;                   // layer + jobs · job_overhead + drain
};

// geometry: "generator" (MVU_Code_Gen's row count, the default of barvinn.yaml) or "exact".
// Throws std::invalid_argument for a non-positive geometry or precision outside
// [prec_min, prec_max], naming the field.
MvuConvCost mvu_conv_cost(const MvuConv& c, const MvuSpec& mvu, const CtrlSpec& ctrl,
                          const std::string& geometry = "generator");
int64_t mvu_gemv_cycles(int64_t m, int64_t n, int64_t a_bits, int64_t w_bits, const MvuSpec& mvu);
// iC · Fh · Fw · a · w >= oprec.
bool mvu_quantizer_ok(const MvuConv& c, const MvuSpec& mvu);

}  // namespace edgesim
