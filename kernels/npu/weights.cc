// NPU weight layout encode / decode (layouts in weights.h). Both directions go through one
// function, locate(), that maps (row, channel within the row, input channel, tap, bit) to the byte
// and bit of the encoded row holding it, so encoder and decoder cannot disagree; the unit tests pin
// locate() itself down with hand-computed bit positions.
#include "kernels/npu/weights.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace edgesim {
namespace {

// Block sizes and word widths fixed by the hardware layouts.
constexpr int64_t kNeurekaBlock1x1 = 32;   // input channels per 1x1 block (8 words x 4 channels)
constexpr int64_t kNeurekaBlock3x3 = 28;   // input channels per 3x3 / depthwise block
constexpr int64_t kNeurekaWord3x3 = 32;    // bytes of one 256-bit 3x3 bit-plane word
constexpr int64_t kNe16Block = 16;         // channels per NE16 16-bit word
constexpr int64_t kNe16Word = 2;           // bytes of one NE16 word

int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

[[noreturn]] void fail(const char* where, const std::string& what) {
  throw std::invalid_argument(std::string(where) + ": " + what);
}

int64_t op_kernel(NpuOp op) { return op == NpuOp::Conv1x1 ? 1 : 3; }

// The geometry of a layout from its defining parameters (no platform needed).
NpuWeightGeom make_geom(const char* where, const std::string& impl, NpuOp op, int64_t ko, int64_t ki,
                        int64_t w_bits) {
  const bool neureka = impl == "neureka";
  if (!neureka && impl != "ne16")
    fail(where, "npu.impl '" + impl + "' has no weight layout (expected neureka or ne16)");
  if (w_bits < 2 || w_bits > 8) fail(where, "w_bits " + std::to_string(w_bits) + " outside 2..8");
  if (ko <= 0 || ki <= 0)
    fail(where, "non-positive channels (ko " + std::to_string(ko) + ", ki " + std::to_string(ki) + ")");
  NpuWeightGeom g;
  g.impl = impl;
  g.op = op;
  g.ko = ko;
  g.ki = ki;
  g.k = op_kernel(op);
  g.w_bits = w_bits;
  if (op == NpuOp::Dw3x3) {
    if (ki != 1 && ki != ko)
      fail(where, "depthwise ki " + std::to_string(ki) + " must be 1 or ko (" + std::to_string(ko) + ")");
    g.ki = 1;
    g.channels_per_row = neureka ? kNeurekaBlock3x3 : kNe16Block;
    g.rows = cdiv(ko, g.channels_per_row);
    g.row_bytes = neureka ? w_bits * kNeurekaWord3x3 : w_bits * 9 * kNe16Word;
    return g;
  }
  g.rows = ko;
  if (!neureka)
    g.row_bytes = cdiv(ki, kNe16Block) * w_bits * g.k * g.k * kNe16Word;
  else if (op == NpuOp::Conv1x1)
    g.row_bytes = cdiv(ki, kNeurekaBlock1x1) * kNeurekaBlock1x1;
  else
    g.row_bytes = cdiv(ki, kNeurekaBlock3x3) * w_bits * kNeurekaWord3x3;
  return g;
}

// Rejects a geometry that make_geom would not have produced (hand-built or stale).
void check_geom(const char* where, const NpuWeightGeom& g) {
  if (g.k != op_kernel(g.op))
    fail(where, std::string("k ") + std::to_string(g.k) + " does not match op " + npu_op_name(g.op));
  const NpuWeightGeom e = make_geom(where, g.impl, g.op, g.ko, g.ki, g.w_bits);
  if (g.logical != NpuWeightGeom::Logical::Conv && (g.op != NpuOp::Conv1x1 || g.impl != "neureka"))
    fail(where, "a Gemm's weights map to N-EUREKA's 1x1 layout only");
  if (e.ki != g.ki || e.rows != g.rows || e.row_bytes != g.row_bytes ||
      e.channels_per_row != g.channels_per_row)
    fail(where, std::string("inconsistent ") + g.impl + " " + npu_op_name(g.op) +
                    " geometry (use npu_weight_geom)");
}

struct Slot {
  int64_t byte;  // within the row
  int bit;       // within the byte
};
Slot at_bit(int64_t byte0, int64_t bitpos) { return {byte0 + bitpos / 8, int(bitpos % 8)}; }

// Where bit b of weight (input channel ci, tap t) of the m-th channel of a row is stored
// (m = 0 for dense rows; the channel within the group for depthwise rows, where ci = 0).
Slot locate(const NpuWeightGeom& g, int64_t m, int64_t ci, int64_t t, int64_t b) {
  const int64_t qw = g.w_bits;
  if (g.impl == "neureka") {
    if (g.op == NpuOp::Conv1x1) {
      const int64_t j = ci / kNeurekaBlock1x1, cc = ci % kNeurekaBlock1x1;
      return at_bit(j * kNeurekaBlock1x1 + (cc / 4) * 4, b * 4 + cc % 4);
    }
    if (g.op == NpuOp::Conv3x3) {
      const int64_t j = ci / kNeurekaBlock3x3, c = ci % kNeurekaBlock3x3;
      return at_bit((j * qw + b) * kNeurekaWord3x3, kNeurekaBlock3x3 * t + c);
    }
    return at_bit(b * kNeurekaWord3x3, kNeurekaBlock3x3 * t + m);
  }
  const int64_t taps = g.k * g.k;
  if (g.op == NpuOp::Dw3x3) return at_bit((b * taps + t) * kNe16Word, m);
  const int64_t j = ci / kNe16Block, c = ci % kNe16Block;
  return at_bit(((j * qw + b) * taps + t) * kNe16Word, c);
}

}  // namespace

NpuWeightGeom npu_weight_geom(const NpuSpec& npu, NpuOp op, int64_t ko, int64_t ki, int64_t w_bits) {
  const char* where = "npu_weight_geom";
  NpuWeightGeom g = make_geom(where, npu.impl, op, ko, ki, w_bits);
  auto need = [&](const char* key, int64_t have, int64_t want) {
    if (have != want)
      fail(where, std::string(key) + " = " + std::to_string(have) + " but the " + npu.impl +
                      " weight layout is defined for " + std::to_string(want));
  };
  if (npu.impl == "neureka") {
    need("npu.tp_in", npu.tp_in, kNeurekaBlock1x1);
    need("npu.tp_in_3x3", npu.tp_in_3x3, kNeurekaBlock3x3);
  } else {
    need("npu.tp_in", npu.tp_in, kNe16Block);
  }
  return g;
}

std::vector<std::byte> encode_npu_weights(const View& w0, const NpuWeightGeom& g) {
  const char* where = "encode_npu_weights";
  check_geom(where, g);
  View w = w0;   // a Gemm's B as the 1x1 conv weights [N, K, 1, 1]
  if (g.logical != NpuWeightGeom::Logical::Conv) {
    if (w0.rank() != 2) fail(where, "Gemm weights " + shape_str(w0.shape) + " are not 2-D");
    const bool kn = g.logical == NpuWeightGeom::Logical::GemmKN;
    w.shape = {w0.shape[kn ? 1 : 0], w0.shape[kn ? 0 : 1], 1, 1};
    w.strides = {w0.strides[kn ? 1 : 0], w0.strides[kn ? 0 : 1], 0, 0};
  }
  if (!dtype_is_int(w.dtype)) fail(where, std::string("weights of dtype ") + dtype_name(w.dtype));
  const Shape want = {g.ko, g.ki, g.k, g.k};
  if (w.shape != want)
    fail(where, "weights " + shape_str(w.shape) + " do not match the layer's " + shape_str(want));
  const int64_t lo = -(int64_t{1} << (g.w_bits - 1)), hi = (int64_t{1} << (g.w_bits - 1)) - 1;
  const int64_t mask = (int64_t{1} << g.w_bits) - 1;
  const bool dw = g.op == NpuOp::Dw3x3;
  std::vector<std::byte> out(static_cast<size_t>(g.bytes()), std::byte{0});
  for (int64_t co = 0; co < g.ko; ++co) {
    const int64_t row = dw ? co / g.channels_per_row : co;
    const int64_t m = dw ? co % g.channels_per_row : 0;
    std::byte* rp = out.data() + row * g.row_bytes;
    for (int64_t ci = 0; ci < g.ki; ++ci)
      for (int64_t r = 0; r < g.k; ++r)
        for (int64_t s = 0; s < g.k; ++s) {
          const int64_t v = w.get({co, ci, r, s});
          if (v < lo || v > hi)
            fail(where, "output channel " + std::to_string(co) + ": weight [" + std::to_string(co) +
                            ", " + std::to_string(ci) + ", " + std::to_string(r) + ", " +
                            std::to_string(s) + "] = " + std::to_string(v) + " outside the " +
                            std::to_string(g.w_bits) + "-bit range [" + std::to_string(lo) + ", " +
                            std::to_string(hi) + "]");
          const int64_t pattern = v & mask;
          for (int64_t b = 0; b < g.w_bits; ++b) {
            if (((pattern >> b) & 1) == 0) continue;
            const Slot sl = locate(g, m, ci, r * g.k + s, b);
            rp[sl.byte] |= std::byte(uint8_t(1u << sl.bit));
          }
        }
  }
  return out;
}

Tensor decode_npu_weights(const std::byte* data, int64_t r0, int64_t n_rows, const NpuWeightGeom& g) {
  const char* where = "decode_npu_weights";
  check_geom(where, g);
  if (r0 < 0 || n_rows < 0 || r0 + n_rows > g.rows)
    fail(where, "rows [" + std::to_string(r0) + ", " + std::to_string(r0 + n_rows) +
                    ") outside the layer's " + std::to_string(g.rows) + " rows");
  if (data == nullptr && n_rows > 0) fail(where, "null data");
  const bool dw = g.op == NpuOp::Dw3x3;
  const int64_t c0 = r0 * g.channels_per_row;
  const int64_t n_ch = dw ? std::min(n_rows * g.channels_per_row, g.ko - c0) : n_rows;
  Tensor t(DType::I8, {n_ch, g.ki, g.k, g.k});
  const int64_t sign = int64_t{1} << (g.w_bits - 1);
  int64_t flat = 0;
  for (int64_t ch = 0; ch < n_ch; ++ch) {
    const int64_t row = dw ? ch / g.channels_per_row : ch;  // relative to r0
    const int64_t m = dw ? (c0 + ch) % g.channels_per_row : 0;
    const std::byte* rp = data + row * g.row_bytes;
    for (int64_t ci = 0; ci < g.ki; ++ci)
      for (int64_t tap = 0; tap < g.k * g.k; ++tap) {
        int64_t pattern = 0;
        for (int64_t b = 0; b < g.w_bits; ++b) {
          const Slot sl = locate(g, m, ci, tap, b);
          if ((std::to_integer<unsigned>(rp[sl.byte]) >> sl.bit) & 1u) pattern |= int64_t{1} << b;
        }
        t.set_int(flat++, (pattern ^ sign) - sign);  // sign-extend from bit w_bits-1
      }
  }
  return t;
}

Tensor npu_logical_weights(const Tensor& decoded, const NpuWeightGeom& g) {
  if (g.logical == NpuWeightGeom::Logical::Conv) return decoded;
  const Tensor nk = decoded.reshaped({g.ko, g.ki});
  if (g.logical == NpuWeightGeom::Logical::GemmNK) return nk;
  Tensor kn(nk.dtype(), {g.ki, g.ko});
  for (int64_t n = 0; n < g.ko; ++n)
    for (int64_t k = 0; k < g.ki; ++k) kn.set_int(k * g.ko + n, nk.get_int(n * g.ki + k));
  return kn;
}

}  // namespace edgesim
