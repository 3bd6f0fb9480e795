// NPU weight layouts (kernels/npu/weights.h): row sizes, single-bit positions computed by hand
// from the layout rules (pulp-nnx test/{Neureka,Ne16}.py weight unroll), encode/decode round trips
// on random weights with odd channel counts, and the errors. Platforms: siracusa.yaml (neureka,
// tp_in 32, tp_in_3x3 28) and gap9.yaml (ne16, tp_in 16).
#include <catch2/catch.hpp>

#include <bitset>
#include <map>
#include <random>
#include <stdexcept>

#include "kernels/npu/weights.h"
#include "platforms/loader/loader.h"
#include "tests/support/paths.h"

using namespace edgesim;

namespace {

const NpuSpec& neureka() {
  static const PlatformSpec p = load_platform(test::source_dir() + "/platforms/siracusa.yaml");
  return p.npu;
}
const NpuSpec& ne16() {
  static const PlatformSpec p = load_platform(test::source_dir() + "/platforms/gap9.yaml");
  return p.npu;
}

// A zero weight tensor of the geometry's logical shape.
Tensor zeros(const NpuWeightGeom& g) { return Tensor(DType::I8, {g.ko, g.ki, g.k, g.k}); }

// The encoding of `w` must be exactly the bytes in `set` (byte offset -> value), all others zero.
void require_bytes(const Tensor& w, const NpuWeightGeom& g, const std::map<int64_t, int>& set) {
  const std::vector<std::byte> enc = encode_npu_weights(w.view(), g);
  REQUIRE(int64_t(enc.size()) == g.bytes());
  for (int64_t i = 0; i < int64_t(enc.size()); ++i) {
    const auto it = set.find(i);
    INFO("byte " << i);
    CHECK(std::to_integer<int>(enc[size_t(i)]) == (it == set.end() ? 0 : it->second));
  }
}

}  // namespace

TEST_CASE("npu weight geometry: row counts and sizes", "[npu]") {
  // neureka 3x3, ki 64: ceil(64/28) = 3 blocks x 8 bit-planes x 32 B = 768 B per output channel.
  NpuWeightGeom g = npu_weight_geom(neureka(), NpuOp::Conv3x3, 64, 64, 8);
  CHECK(g.rows == 64);
  CHECK(g.row_bytes == 768);
  CHECK(g.bytes() == 64 * 768);
  CHECK(g.k == 3);
  // neureka 1x1, ki 100: ceil(100/32) = 4 blocks x 32 B = 128 B, whatever qw.
  g = npu_weight_geom(neureka(), NpuOp::Conv1x1, 16, 100, 8);
  CHECK(g.rows == 16);
  CHECK(g.row_bytes == 128);
  CHECK(g.k == 1);
  CHECK(npu_weight_geom(neureka(), NpuOp::Conv1x1, 16, 100, 2).row_bytes == 128);
  // neureka dw, C 60: ceil(60/28) = 3 groups x 8 x 32 B = 256 B; ki given as 1 or as C.
  g = npu_weight_geom(neureka(), NpuOp::Dw3x3, 60, 1, 8);
  CHECK(g.rows == 3);
  CHECK(g.row_bytes == 256);
  CHECK(g.channels_per_row == 28);
  CHECK(npu_weight_geom(neureka(), NpuOp::Dw3x3, 60, 60, 8).bytes() == 3 * 256);
  CHECK(npu_weight_geom(neureka(), NpuOp::Dw3x3, 60, 60, 8).ki == 1);
  // ne16 3x3, ki 20: ceil(20/16) = 2 blocks x 8 bits x 9 taps x 2 B = 288 B.
  g = npu_weight_geom(ne16(), NpuOp::Conv3x3, 8, 20, 8);
  CHECK(g.rows == 8);
  CHECK(g.row_bytes == 288);
  // ne16 1x1, ki 20, qw 4: 2 blocks x 4 bits x 1 tap x 2 B = 16 B.
  CHECK(npu_weight_geom(ne16(), NpuOp::Conv1x1, 8, 20, 4).row_bytes == 16);
  // ne16 dw, C 20: ceil(20/16) = 2 groups x 8 x 9 x 2 B = 144 B.
  g = npu_weight_geom(ne16(), NpuOp::Dw3x3, 20, 1, 8);
  CHECK(g.rows == 2);
  CHECK(g.row_bytes == 144);
  CHECK(g.channels_per_row == 16);
}

TEST_CASE("npu weight layout: neureka single-bit positions", "[npu]") {
  SECTION("3x3 dense") {
    const NpuWeightGeom g = npu_weight_geom(neureka(), NpuOp::Conv3x3, 2, 64, 8);
    Tensor w = zeros(g);
    // w[0, 29, 1, 2]: block 1, c 1, tap 5 -> bit 28*5+1 = 141 of word (ko 0, block 1, bit b):
    // byte 1*8*32 + b*32 + 141/8 = 256 + 32b + 17, bit 141%8 = 5 (0x20).
    w.view().set({0, 29, 1, 2}, 1);
    require_bytes(w, g, {{273, 0x20}});
    w.view().set({0, 29, 1, 2}, -1);  // all 8 bit-planes
    std::map<int64_t, int> all;
    for (int b = 0; b < 8; ++b) all[256 + 32 * b + 17] = 0x20;
    require_bytes(w, g, all);
  }
  SECTION("1x1") {
    const NpuWeightGeom g = npu_weight_geom(neureka(), NpuOp::Conv1x1, 2, 40, 8);
    REQUIRE(g.row_bytes == 64);
    Tensor w = zeros(g);
    // w[1, 37, 0, 0] = 5 (bits 0, 2): row 1 (byte 64), block 1 (+32), channel 5 -> word 1 (+4),
    // c 1; word bits b*4+c = 1 and 9 -> byte 100 bit 1 and byte 101 bit 1.
    w.view().set({1, 37, 0, 0}, 5);
    require_bytes(w, g, {{100, 0x02}, {101, 0x02}});
  }
  SECTION("depthwise") {
    const NpuWeightGeom g = npu_weight_geom(neureka(), NpuOp::Dw3x3, 60, 1, 4);
    REQUIRE(g.row_bytes == 128);
    Tensor w = zeros(g);
    // channel 31: group 1 (byte 128), c 3; tap 8 -> bit 28*8+3 = 227 -> byte 28, bit 3 of each
    // plane word (32 B). -2 in 4 bits = 0b1110: planes 1..3 -> bytes 128+32b+28 for b = 1, 2, 3.
    w.view().set({31, 0, 2, 2}, -2);
    require_bytes(w, g, {{188, 0x08}, {220, 0x08}, {252, 0x08}});
  }
}

TEST_CASE("npu weight layout: ne16 single-bit positions", "[npu]") {
  SECTION("3x3 dense") {
    const NpuWeightGeom g = npu_weight_geom(ne16(), NpuOp::Conv3x3, 1, 32, 8);
    REQUIRE(g.row_bytes == 288);  // 2 blocks x 8 bits x 9 taps x 2 B
    Tensor w = zeros(g);
    // w[0, 25, 2, 1] = 2 (bit 1): block 1, c 9, tap 7 -> word ((1*8+1)*9+7) = 88 -> byte 176,
    // c 9 is bit 1 of the word's high byte 177.
    w.view().set({0, 25, 2, 1}, 2);
    require_bytes(w, g, {{177, 0x02}});
  }
  SECTION("1x1") {
    const NpuWeightGeom g = npu_weight_geom(ne16(), NpuOp::Conv1x1, 2, 20, 4);
    Tensor w = zeros(g);
    // w[1, 3, 0, 0] = -8 = 0b1000 in 4 bits: bit 3 only; block 0, c 3, tap 0 -> word 3 of row 1:
    // byte 16 + 3*2 = 22, bit 3.
    w.view().set({1, 3, 0, 0}, -8);
    require_bytes(w, g, {{22, 0x08}});
  }
  SECTION("depthwise") {
    const NpuWeightGeom g = npu_weight_geom(ne16(), NpuOp::Dw3x3, 20, 1, 8);
    Tensor w = zeros(g);
    // channel 18: group 1 (byte 144), c 2; tap 4, bit 0 -> word 0*9+4 -> byte 144+8 = 152, bit 2.
    w.view().set({18, 0, 1, 1}, 1);
    require_bytes(w, g, {{152, 0x04}});
  }
}

TEST_CASE("npu weight layout: random round trip, all ops and impls", "[npu]") {
  std::mt19937 rng(1234);
  for (const NpuSpec* npu : {&neureka(), &ne16()})
    for (NpuOp op : {NpuOp::Conv3x3, NpuOp::Conv1x1, NpuOp::Dw3x3})
      for (int64_t ki : {37, 13})
        for (int64_t qw : {2, 4, 8}) {
          const bool dw = op == NpuOp::Dw3x3;
          const int64_t ko = dw ? ki : 5;  // depthwise: 37 / 13 channels
          const NpuWeightGeom g = npu_weight_geom(*npu, op, ko, dw ? 1 : ki, qw);
          INFO(npu->impl << " " << npu_op_name(op) << " ko " << ko << " ki " << ki << " qw " << qw);
          const int64_t lo = -(int64_t{1} << (qw - 1)), hi = -lo - 1;
          std::uniform_int_distribution<int64_t> dist(lo, hi);
          // Store the weights as I16 in [ki, ko, k, k] order and encode a permuted (strided) view.
          Tensor store(DType::I16, {g.ki, g.ko, g.k, g.k});
          std::vector<int64_t> vals(size_t(g.ko * g.ki * g.k * g.k));
          for (int64_t& v : vals) v = dist(rng);
          const int64_t kk = g.k * g.k;
          View sv = store.view();
          for (int64_t co = 0; co < g.ko; ++co)
            for (int64_t ci = 0; ci < g.ki; ++ci)
              for (int64_t t = 0; t < kk; ++t)
                sv.set({ci, co, t / g.k, t % g.k}, vals[size_t((co * g.ki + ci) * kk + t)]);
          View w = sv;
          w.shape = {g.ko, g.ki, g.k, g.k};
          w.strides = {sv.strides[1], sv.strides[0], sv.strides[2], sv.strides[3]};
          const std::vector<std::byte> enc = encode_npu_weights(w, g);
          REQUIRE(int64_t(enc.size()) == g.bytes());

          const Tensor whole = decode_npu_weights(enc.data(), 0, g.rows, g);
          REQUIRE(whole.shape() == Shape{g.ko, g.ki, g.k, g.k});
          CHECK(whole.to_ints() == vals);

          // A middle slice of rows (the last row alone when there are two, the only one of one).
          const int64_t r0 = g.rows > 1 ? 1 : 0, n = std::max<int64_t>(1, g.rows - 2);
          const Tensor part = decode_npu_weights(enc.data() + r0 * g.row_bytes, r0, n, g);
          const int64_t c0 = r0 * g.channels_per_row;
          const int64_t c1 = std::min(g.ko, (r0 + n) * g.channels_per_row);
          REQUIRE(part.shape() == Shape{c1 - c0, g.ki, g.k, g.k});
          const std::vector<int64_t> want(vals.begin() + c0 * g.ki * kk, vals.begin() + c1 * g.ki * kk);
          CHECK(part.to_ints() == want);
        }
}

TEST_CASE("npu weight layout: weights map to distinct bits, padding stays zero", "[npu]") {
  // All weights -1 set every bit of every weight: the encoding's popcount equals
  // ko*ki*k*k*qw only if no two (weight, bit) pairs share a position.
  for (const NpuSpec* npu : {&neureka(), &ne16()})
    for (NpuOp op : {NpuOp::Conv3x3, NpuOp::Conv1x1, NpuOp::Dw3x3}) {
      const bool dw = op == NpuOp::Dw3x3;
      const NpuWeightGeom g = npu_weight_geom(*npu, op, dw ? 45 : 3, dw ? 1 : 45, 6);
      INFO(npu->impl << " " << npu_op_name(op));
      Tensor w = zeros(g);
      for (int64_t i = 0; i < w.numel(); ++i) w.set_int(i, -1);
      const std::vector<std::byte> enc = encode_npu_weights(w.view(), g);
      int64_t ones = 0;
      for (std::byte b : enc) ones += int64_t(std::bitset<8>(std::to_integer<unsigned>(b)).count());
      CHECK(ones == w.numel() * g.w_bits);
    }
}

TEST_CASE("npu weight layout: errors", "[npu]") {
  const NpuWeightGeom g = npu_weight_geom(neureka(), NpuOp::Conv3x3, 4, 8, 4);
  Tensor w = zeros(g);
  w.view().set({2, 3, 0, 0}, 7);
  w.view().set({1, 0, 0, 0}, -8);
  CHECK_NOTHROW(encode_npu_weights(w.view(), g));
  w.view().set({2, 3, 0, 0}, 8);  // outside [-8, 7]
  CHECK_THROWS_WITH(encode_npu_weights(w.view(), g), Catch::Contains("output channel 2"));
  w.view().set({2, 3, 0, 0}, -9);
  CHECK_THROWS_AS(encode_npu_weights(w.view(), g), std::invalid_argument);

  // Shape mismatch, geometry errors, spec mismatch, row range.
  CHECK_THROWS_AS(encode_npu_weights(Tensor(DType::I8, {4, 8, 1, 1}).view(), g), std::invalid_argument);
  CHECK_THROWS_AS(npu_weight_geom(neureka(), NpuOp::Conv3x3, 4, 8, 1), std::invalid_argument);
  CHECK_THROWS_AS(npu_weight_geom(neureka(), NpuOp::Conv3x3, 4, 8, 9), std::invalid_argument);
  CHECK_THROWS_AS(npu_weight_geom(neureka(), NpuOp::Conv3x3, 0, 8, 8), std::invalid_argument);
  CHECK_THROWS_AS(npu_weight_geom(neureka(), NpuOp::Dw3x3, 8, 4, 8), std::invalid_argument);
  NpuSpec other = neureka();
  other.impl = "soma";
  CHECK_THROWS_WITH(npu_weight_geom(other, NpuOp::Conv1x1, 4, 8, 8), Catch::Contains("soma"));
  other = neureka();
  other.tp_in_3x3 = 24;
  CHECK_THROWS_WITH(npu_weight_geom(other, NpuOp::Conv3x3, 4, 8, 8), Catch::Contains("npu.tp_in_3x3"));
  NpuWeightGeom bad = g;
  bad.k = 1;
  CHECK_THROWS_WITH(encode_npu_weights(w.view(), bad), Catch::Contains("k 1"));
  const std::vector<std::byte> enc(size_t(g.bytes()));
  CHECK_THROWS_AS(decode_npu_weights(enc.data(), 3, 2, g), std::invalid_argument);
  CHECK_THROWS_AS(decode_npu_weights(enc.data(), -1, 1, g), std::invalid_argument);
  CHECK_NOTHROW(decode_npu_weights(enc.data(), 3, 1, g));
}
