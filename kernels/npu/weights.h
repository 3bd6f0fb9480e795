// NPU weight layouts: the compile step rewrites every NPU-mapped conv's weights from the logical
// ONNX tensor [Cout, Cin/groups, k, k] into the bit-sliced order the engine's weight streamer reads
// (one beat per cycle, no reordering in hardware), so that the L2/L3 constant images, the tile DMA
// sizes and the weight-memory footprint the simulator charges are those of the real device. The
// simulator decodes the very bytes it moved back into logical weights and runs the reference conv
// kernel on them, so a layout bug shows up as a bit-exactness failure, not as silently wrong timing.
//
// Layouts (facts from pulp-nnx test/{Neureka,Ne16}.py weight unroll, also used by GVSoC/Deeploy;
// implemented fresh here). Weights are signed qw-bit two's complement (qw = w_bits, 2..8); "bit b
// of a weight" is bit b of that pattern and decoding sign-extends from bit qw-1. Every word is
// little-endian: bit n of a word is bit n%8 of its byte n/8. Padding channels / bits are zero.
//   N-EUREKA (impl "neureka", tp_in 32, tp_in_3x3 28):
//   * 1x1: per output channel, per block j of 32 input channels: 8 32-bit words; bit b*4+c of
//     word k = bit b of channel 32j+4k+c. Row = ceil(Ki/32)*32 bytes (independent of qw).
//   * 3x3 dense: per output channel, per block j of 28 input channels, per bit b: one 256-bit
//     word; tap t = r*3+s owns bits [28t, 28t+28), bit 28t+c = bit b of channel 28j+c; bits
//     252..255 zero. Row = ceil(Ki/28)*qw*32 bytes.
//   * dw 3x3: channels in groups of 28; per group, per bit b, one 256-bit word packed like the
//     dense one with c = channel within the group. Row (= group) = qw*32 bytes.
//   NE16 (impl "ne16", tp_in 16):
//   * 1x1 / 3x3 dense: per output channel, per block j of 16 input channels, per bit b, per tap
//     t = r*k+s: one 16-bit word, bit c = bit b of channel 16j+c. Row = ceil(Ki/16)*qw*k*k*2 bytes.
//   * dw 3x3: channels in groups of 16; per group, per bit b, per tap t: one 16-bit word, bit c =
//     channel 16g+c. Row (= group) = qw*9*2 bytes.
// The block sizes are properties of the layout, not free parameters: npu_weight_geom() rejects a
// platform whose npu.tp_in / npu.tp_in_3x3 differ from them. A row is the unit the tiler may cut
// (an output-channel tile of a dense layer is a range of rows; of a depthwise layer, of groups).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/core/tensor.h"
#include "kernels/npu/cost_neureka.h"
#include "platforms/loader/spec.h"

namespace edgesim {

struct NpuWeightGeom {
  std::string impl;            // "neureka" | "ne16"
  NpuOp op = NpuOp::Conv3x3;
  int64_t ko = 0, ki = 0;      // output channels; input channels per group (depthwise: 1)
  int64_t k = 3;               // kernel size (1 or 3)
  int64_t w_bits = 8;
  int64_t rows = 0;            // encoded rows: dense = ko (one per output channel); depthwise = ceil(ko/G)
  int64_t row_bytes = 0;       // bytes per row
  int64_t channels_per_row = 1;// dense 1; depthwise G (28 neureka, 16 ne16)
  // The graph's logical weight tensor: a conv's [ko, ki, k, k], or a Gemm's B lowered to a 1x1
  // conv (Deeploy's RequantizedGemmToPwPass): [ko = N, ki = K] with trans_b, [K, N] without.
  enum class Logical { Conv, GemmNK, GemmKN };
  Logical logical = Logical::Conv;
  int64_t bytes() const { return rows * row_bytes; }
};

// Throws std::invalid_argument (one line naming what is wrong) for an impl other than neureka/ne16, k not matching op, w_bits outside 2..8, non-positive sizes.
// Depthwise accepts ki == 1 (per-group weight shape) or ki == ko (NpuJob convention); the
// geometry always records ki = 1.
NpuWeightGeom npu_weight_geom(const NpuSpec& npu, NpuOp op, int64_t ko, int64_t ki, int64_t w_bits);
// w: logical weights [Cout, Cin/g, k, k] (or a Gemm's B, g.logical) (any integer dtype View, may be strided). Returns geom.bytes() bytes.
// Throws std::invalid_argument for a shape other than [ko, ki, k, k], a non-integer dtype, an
// inconsistent geometry, or a weight outside the signed w_bits range (naming the channel).
std::vector<std::byte> encode_npu_weights(const View& w, const NpuWeightGeom& g);
// Decodes n_rows encoded rows that start at `data` (which is row r0 of the layer's encoding) into the logical weights of the output channels those rows hold, as an I8 Tensor: dense [n_rows, ki, k, k]; depthwise [min(n_rows*G, ko - r0*G), 1, 3, 3]. Throws std::invalid_argument if r0/n_rows are out of range.
Tensor decode_npu_weights(const std::byte* data, int64_t r0, int64_t n_rows, const NpuWeightGeom& g);
// A whole layer's decoded weights [ko, ki, k, k] in the graph's logical shape (g.logical): a Gemm's
// B as [N, K] or [K, N].
Tensor npu_logical_weights(const Tensor& decoded, const NpuWeightGeom& g);

}  // namespace edgesim
