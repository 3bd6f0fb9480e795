// Requant: the canonical requantisation every dialect lowers to (docs/dialects.md, "What each
// dialect becomes"), shared by every op that fuses one.
//
//   integer form:  y = clamp( ((k[c]·acc + λ[c])·mul + r) >> shift, lo, hi )
//   exact-divisor: y = clamp( ⌊(k[c]·acc + λ[c])·mul / div⌋, lo, hi )      (NEMO d = 2^n − 1)
//   float form:    y = clamp( rne(acc·scale[c]) + zp, lo, hi )               (QDQ / QLinear*)
//
// "c" is the index along `axis` of the output tensor (-1: the vectors are scalars). k, λ and
// scale are scalars (size 1) or one entry per index along the axis. Everything is evaluated in
// int64 (no intermediate wraps at int32); the float form computes in double from the float32 scales.
#pragma once
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace edgesim {

// Round half to even (ONNX rne); std::nearbyint in the default rounding mode. Values beyond
// ±2^62 saturate there: converting them to int64 would be undefined, and every caller adds a
// zero point and clamps to an output range (a float requant whose scale is far larger than the
// accumulators need gives that range's bound).
inline int64_t round_half_even(double v) {
  constexpr int64_t kSat = int64_t{1} << 62;
  if (v >= static_cast<double>(kSat)) return kSat;
  if (v <= -static_cast<double>(kSat)) return -kSat;
  return static_cast<int64_t>(std::nearbyint(v));
}
// ⌊a/b⌋ for b > 0
inline int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
inline int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

// Arithmetic used when a Requant carries an exact divisor `div` (NEMO, docs/dialects.md "NEMO").
//   Exact:     divide by div (the golden model; reproduces the NEMO goldens).
//   DoryShift: use `>> shift` as DORY does on target (may be 1 LSB lower).
enum class ArithMode { Exact, DoryShift };

// A Requant resolved for one channel and mode: the per-channel vectors looked up once, so a
// kernel can apply it to a row of accumulators of that channel. Requant::apply is defined by
// it, so both paths compute the same bits.
struct ChannelRequant {
  int kind = 0;                // 0: none (clamp only), 1: integer shift, 2: exact divisor, 3: float
  int64_t k = 1, lambda = 0, mul = 1, round = 0, div = 0, zp = 0, lo = INT64_MIN, hi = INT64_MAX;
  int shift = 0;
  double scale = 0;

  int64_t operator()(int64_t acc) const {
    switch (kind) {
      case 0: return clamp64(acc, lo, hi);
      case 1: return clamp64(((k * acc + lambda) * mul + round) >> shift, lo, hi);
      case 2: return clamp64(floor_div((k * acc + lambda) * mul, div), lo, hi);
      default: return clamp64(round_half_even(static_cast<double>(acc) * scale) + zp, lo, hi);
    }
  }
};

struct Requant {
  enum class Kind { None, Integer, Float };
  Kind kind = Kind::None;      // None: output is the raw accumulator (only lo/hi clamp applies)

  int axis = -1;               // output axis that indexes k / lambda / scale
  std::vector<int64_t> k{1};
  std::vector<int64_t> lambda{0};
  int64_t mul = 1;
  int shift = 0;
  int64_t round = 0;           // r: 0 (floor) or 2^(shift-1) (round half up)
  int64_t div = 0;             // exact divisor (0: none); kept beside shift = round(log2 div)

  std::vector<double> scale;   // Float kind: real multiplier per channel (x_s·w_s/y_s)
  int64_t zp = 0;              // Float kind: output zero point

  int64_t lo = INT64_MIN;      // output range; the raw-accumulator case uses the int32 range
  int64_t hi = INT64_MAX;

  bool enabled() const { return kind != Kind::None; }
  // Applies the requant to one accumulator whose output index along `axis` is c.
  int64_t apply(int64_t acc, int64_t c, ArithMode mode = ArithMode::Exact) const { return channel(c, mode)(acc); }
  // The requant of channel c (index along axis; any c when the vectors are scalars).
  ChannelRequant channel(int64_t c, ArithMode mode = ArithMode::Exact) const;
  // Number of channels the vectors hold (1 when all are scalars).
  int64_t channels() const;
  // Checks sizes against the channel count along axis (n); throws std::invalid_argument.
  void validate(int64_t n_along_axis) const;
  // One-line textual form for the graph printer, e.g. "rq(k[32] l[32] mul=3 >>23 /8388607 [0,255])".
  std::string str() const;
};


}  // namespace edgesim
