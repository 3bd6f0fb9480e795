// The optimised depthwise and pointwise convolutions (kernels/conv/optimized.cc chooses them).
//
// Depthwise: the weights are transposed to [kh][kw][C], so that for each output pixel every
// tap is one multiply-accumulate along the contiguous channels of the channels-last input
// into a row of C int32 accumulators (the channel-vectorised loop of CMSIS-NN's depthwise
// s8 kernels [86]).
// Pointwise: a matrix product over channels, y[m][q] = Σ_c w[m][c]·x[q][c] for every pixel q,
// in blocks of four output channels by two pixels (eight int32 dot products sharing their
// loads of w and x).
#include "kernels/conv/optimized_internal.h"
#include "kernels/core/dense.h"

namespace edgesim::conv_opt {

void depthwise(const ConvParams& p, const std::vector<int16_t>& xp, const View& w, const Dims& d,
               const std::vector<ChannelRequant>& rq, std::vector<int64_t>& out) {
  const int64_t C = d.C, taps = p.kh * p.kw;
  std::vector<int16_t> wt(static_cast<size_t>(taps * C));
  // w [C, 1, kh, kw] viewed as [1, kh, kw, C]: row r (a tap) runs along the channels.
  dense::gather_rows<int16_t>(dense::permuted(w, {1, 2, 3, 0}), 0,
                              [&](int64_t row) { return &wt[static_cast<size_t>(row * C)]; });
  if (!p.w_zp.empty())
    for (int64_t t = 0; t < taps; ++t)
      for (int64_t c = 0; c < C; ++c)
        wt[t * C + c] = static_cast<int16_t>(wt[t * C + c] - (p.w_zp.size() == 1 ? p.w_zp[0] : p.w_zp[c]));
  std::vector<int32_t> bias(static_cast<size_t>(C), 0), acc(static_cast<size_t>(C));
  for (size_t c = 0; c < p.bias.size(); ++c) bias[c] = static_cast<int32_t>(p.bias[c]);
  const int64_t plane = d.Ho * d.Wo;
  for (int64_t n = 0; n < d.N; ++n)
    for (int64_t oh = 0; oh < d.Ho; ++oh)
      for (int64_t ow = 0; ow < d.Wo; ++ow) {
        int32_t* a = acc.data();
        std::copy(bias.begin(), bias.end(), acc.begin());
        for (int64_t r = 0; r < p.kh; ++r)
          for (int64_t s = 0; s < p.kw; ++s) {
            const int16_t* xs =
                &xp[static_cast<size_t>(((n * d.Hp + oh * p.sh + r * p.dh) * d.Wp + ow * p.sw + s * p.dw) * C)];
            const int16_t* ws = &wt[static_cast<size_t>((r * p.kw + s) * C)];
            for (int64_t c = 0; c < C; ++c) a[c] += static_cast<int32_t>(ws[c]) * xs[c];
          }
        int64_t* o = &out[static_cast<size_t>(n * C * plane + oh * d.Wo + ow)];
        for (int64_t c = 0; c < C; ++c) o[c * plane] = rq[c](a[c]);
      }
}

namespace {

// acc[k][j] += Σ_i w_k[i]·x_j[i] for four weight rows (k) and two pixels (j).
inline void dot4x2(const int16_t* w, int64_t wstride, const int16_t* x0, const int16_t* x1, int64_t n,
                   int32_t acc[4][2]) {
  const int16_t *w0 = w, *w1 = w + wstride, *w2 = w + 2 * wstride, *w3 = w + 3 * wstride;
  int32_t s00 = 0, s01 = 0, s10 = 0, s11 = 0, s20 = 0, s21 = 0, s30 = 0, s31 = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int32_t a = x0[i], b = x1[i];
    s00 += w0[i] * a; s01 += w0[i] * b;
    s10 += w1[i] * a; s11 += w1[i] * b;
    s20 += w2[i] * a; s21 += w2[i] * b;
    s30 += w3[i] * a; s31 += w3[i] * b;
  }
  acc[0][0] += s00; acc[0][1] += s01;
  acc[1][0] += s10; acc[1][1] += s11;
  acc[2][0] += s20; acc[2][1] += s21;
  acc[3][0] += s30; acc[3][1] += s31;
}

}  // namespace

void pointwise(const std::vector<int16_t>& xp, const std::vector<int16_t>& wp, const std::vector<int32_t>& bias,
               const Dims& d, const std::vector<ChannelRequant>& rq, std::vector<int64_t>& out) {
  const int64_t C = d.C, M = d.M, P = d.H * d.W;
  for (int64_t n = 0; n < d.N; ++n) {
    const int16_t* xn = &xp[static_cast<size_t>(n * P * C)];
    int64_t* on = &out[static_cast<size_t>(n * M * P)];
    int64_t q = 0;
    for (; q + 2 <= P; q += 2) {
      const int16_t *x0 = xn + q * C, *x1 = x0 + C;
      int64_t m = 0;
      for (; m + 4 <= M; m += 4) {
        int32_t acc[4][2];
        for (int k = 0; k < 4; ++k) acc[k][0] = acc[k][1] = bias[m + k];
        dot4x2(&wp[static_cast<size_t>(m * C)], C, x0, x1, C, acc);
        for (int k = 0; k < 4; ++k) {
          on[(m + k) * P + q] = rq[m + k](acc[k][0]);
          on[(m + k) * P + q + 1] = rq[m + k](acc[k][1]);
        }
      }
      for (; m < M; ++m) {
        const int16_t* wm = &wp[static_cast<size_t>(m * C)];
        on[m * P + q] = rq[m](bias[m] + dot(wm, x0, C));
        on[m * P + q + 1] = rq[m](bias[m] + dot(wm, x1, C));
      }
    }
    for (; q < P; ++q)
      for (int64_t m = 0; m < M; ++m) on[m * P + q] = rq[m](bias[m] + dot(&wp[static_cast<size_t>(m * C)], xn + q * C, C));
  }
}

}  // namespace edgesim::conv_opt
