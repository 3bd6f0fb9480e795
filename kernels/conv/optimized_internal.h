// Shared by the optimised convolutions (kernels/conv/optimized*.cc): the checks that decide
// whether the int16/int32 path is exact, the channels-last packing of x and w, and the store.
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/conv/params.h"
#include "kernels/core/requant.h"
#include "kernels/core/tensor.h"

namespace edgesim::conv_opt {

struct Dims {
  int64_t N = 0, C = 0, H = 0, W = 0, M = 0, Cg = 0, Mg = 0, Ho = 0, Wo = 0, Hp = 0, Wp = 0;
};

// The shapes the reference accepts, 8-bit x and w, and an int32-safe accumulator; else false.
bool applicable(const ConvParams& p, const View& x, const View& w, const View& y, Dims& d);

// x − x_zp as int16, channels last and zero-padded: [N][Hp][Wp][C] (padding = x_zp, so 0).
std::vector<int16_t> pack_input(const ConvParams& p, const View& x, const Dims& d);
// w − w_zp[m] as int16 in [M][kh][kw][Cg] (channels of a tap contiguous).
std::vector<int16_t> pack_weights(const ConvParams& p, const View& w, const Dims& d);
// Bias as int32, M entries (0 without bias).
std::vector<int32_t> bias32(const ConvParams& p, const Dims& d);
// The requant of each output channel.
std::vector<ChannelRequant> channel_requants(const ConvParams& p, const Dims& d, ArithMode mode);

// Σ a[i]·b[i], i < n, in int32 (the caller's bound rules out overflow).
inline int32_t dot(const int16_t* a, const int16_t* b, int64_t n) {
  int32_t s = 0;
  for (int64_t i = 0; i < n; ++i) s += static_cast<int32_t>(a[i]) * b[i];
  return s;
}

// Four dot products of rows w0..w3 with x (x read once).
inline void dot4(const int16_t* w0, const int16_t* w1, const int16_t* w2, const int16_t* w3, const int16_t* x,
                 int64_t n, int32_t* s) {
  int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int32_t v = x[i];
    s0 += w0[i] * v;
    s1 += w1[i] * v;
    s2 += w2[i] * v;
    s3 += w3[i] * v;
  }
  s[0] += s0;
  s[1] += s1;
  s[2] += s2;
  s[3] += s3;
}

// The depthwise and pointwise kernels (optimized_dw_pw.cc); results row-major [N][M][Ho][Wo].
void depthwise(const ConvParams& p, const std::vector<int16_t>& xp, const View& w, const Dims& d,
               const std::vector<ChannelRequant>& rq, std::vector<int64_t>& out);
void pointwise(const std::vector<int16_t>& xp, const std::vector<int16_t>& wp, const std::vector<int32_t>& bias,
               const Dims& d, const std::vector<ChannelRequant>& rq, std::vector<int64_t>& out);

}  // namespace edgesim::conv_opt
