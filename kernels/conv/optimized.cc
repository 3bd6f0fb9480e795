// Optimised convolution (kernels/optimized.h): picks the depthwise, pointwise or general
// kernel. All three read x − x_zp as int16 channels-last ([N][Hp][Wp][C], zero-padded, as
// CMSIS-NN's s8 convolutions read HWC activations [86]) and weights − w_zp as int16
// [M][kh][kw][Cg], and accumulate in int32, which the bound checked in `applicable` keeps
// exact. The general kernel computes each output pixel as, per kernel row r, one dot product
// over the contiguous (kw, Cg) window when groups = 1 and dilation_w = 1 (else one per tap),
// four output channels at a time so that each input window is read once per four channels.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "kernels/conv/optimized_internal.h"
#include "kernels/core/dense.h"
#include "kernels/optimized.h"

namespace edgesim {

namespace conv_opt {

bool applicable(const ConvParams& p, const View& x, const View& w, const View& y, Dims& d) {
  auto is8 = [](DType t) { return t == DType::U8 || t == DType::I8; };
  if (x.rank() != 4 || w.rank() != 4 || y.rank() != 4 || !is8(x.dtype) || !is8(w.dtype) || !dtype_is_int(y.dtype))
    return false;
  if (p.groups < 1 || p.sh < 1 || p.sw < 1 || p.dh < 1 || p.dw < 1 || p.kh < 1 || p.kw < 1) return false;
  if (p.pad_t < 0 || p.pad_l < 0 || p.pad_b < 0 || p.pad_r < 0) return false;
  d.N = x.shape[0], d.C = x.shape[1], d.H = x.shape[2], d.W = x.shape[3], d.M = w.shape[0];
  if (d.C % p.groups != 0 || d.M % p.groups != 0 || w.shape[1] != d.C / p.groups) return false;
  if (w.shape[2] != p.kh || w.shape[3] != p.kw) return false;
  d.Cg = d.C / p.groups, d.Mg = d.M / p.groups;
  d.Ho = ConvParams::out_size(d.H, p.kh, p.sh, p.dh, p.pad_t, p.pad_b);
  d.Wo = ConvParams::out_size(d.W, p.kw, p.sw, p.dw, p.pad_l, p.pad_r);
  if (d.Ho < 0 || d.Wo < 0 || y.shape != Shape{d.N, d.M, d.Ho, d.Wo}) return false;
  d.Hp = d.H + p.pad_t + p.pad_b, d.Wp = d.W + p.pad_l + p.pad_r;
  if (!p.bias.empty() && static_cast<int64_t>(p.bias.size()) != d.M) return false;
  if (p.w_zp.size() > 1 && static_cast<int64_t>(p.w_zp.size()) != d.M) return false;
  try {
    p.rq.validate(d.M);
  } catch (const std::invalid_argument&) {
    return false;
  }
  // Exactness of int16 operands and int32 accumulation.
  int64_t lo, hi;
  dense::shifted_range(x.dtype, p.x_zp, lo, hi);
  const int64_t mx = dense::max_abs(lo, hi);
  int64_t mw = 0;
  for (int64_t zp : p.w_zp.empty() ? std::vector<int64_t>{0} : p.w_zp) {
    if (zp < -65536 || zp > 65536) return false;
    dense::shifted_range(w.dtype, zp, lo, hi);
    mw = std::max(mw, dense::max_abs(lo, hi));
  }
  if (p.x_zp < -65536 || p.x_zp > 65536 || mx > 32767 || mw > 32767) return false;
  double mb = 0;
  for (int64_t b : p.bias) mb = std::max(mb, std::fabs(static_cast<double>(b)));
  const double bound = static_cast<double>(d.Cg * p.kh * p.kw) * static_cast<double>(mx) * static_cast<double>(mw) + mb;
  return bound <= 2147483647.0;
}

std::vector<int16_t> pack_input(const ConvParams& p, const View& x, const Dims& d) {
  std::vector<int16_t> xp(static_cast<size_t>(d.N * d.Hp * d.Wp * d.C), 0);
  // Rows of the [N, H, W, C] view run along C.
  dense::gather_rows<int16_t>(dense::permuted(x, {0, 2, 3, 1}), p.x_zp, [&](int64_t row) {
    const int64_t ww = row % d.W, h = (row / d.W) % d.H, n = row / (d.W * d.H);
    return &xp[static_cast<size_t>(((n * d.Hp + h + p.pad_t) * d.Wp + ww + p.pad_l) * d.C)];
  });
  return xp;
}

std::vector<int16_t> pack_weights(const ConvParams& p, const View& w, const Dims& d) {
  const int64_t taps = p.kh * p.kw;
  std::vector<int16_t> wp(static_cast<size_t>(d.M * taps * d.Cg));
  // Rows of the [M, kh, kw, Cg] view run along Cg.
  dense::gather_rows<int16_t>(dense::permuted(w, {0, 2, 3, 1}), 0,
                              [&](int64_t row) { return &wp[static_cast<size_t>(row * d.Cg)]; });
  if (!p.w_zp.empty())
    for (int64_t m = 0; m < d.M; ++m) {
      const auto zp = static_cast<int16_t>(p.w_zp.size() == 1 ? p.w_zp[0] : p.w_zp[m]);
      for (int64_t i = 0; i < taps * d.Cg; ++i) wp[m * taps * d.Cg + i] = static_cast<int16_t>(wp[m * taps * d.Cg + i] - zp);
    }
  return wp;
}

std::vector<int32_t> bias32(const ConvParams& p, const Dims& d) {
  std::vector<int32_t> b(static_cast<size_t>(d.M), 0);
  for (size_t m = 0; m < p.bias.size(); ++m) b[m] = static_cast<int32_t>(p.bias[m]);
  return b;
}

std::vector<ChannelRequant> channel_requants(const ConvParams& p, const Dims& d, ArithMode mode) {
  std::vector<ChannelRequant> r(static_cast<size_t>(d.M));
  for (int64_t m = 0; m < d.M; ++m) r[m] = p.rq.channel(m, mode);
  return r;
}

namespace {

// The general direct convolution.
void general(const ConvParams& p, const std::vector<int16_t>& xp, const std::vector<int16_t>& wp,
             const std::vector<int32_t>& bias, const Dims& d, const std::vector<ChannelRequant>& rq,
             std::vector<int64_t>& out) {
  const int64_t taps_c = p.kh * p.kw * d.Cg;
  const bool rows = p.groups == 1 && p.dw == 1;   // a kernel row's window is one contiguous run
  const int64_t seg = rows ? p.kw * d.C : d.Cg;
  for (int64_t n = 0; n < d.N; ++n)
    for (int64_t oh = 0; oh < d.Ho; ++oh)
      for (int64_t ow = 0; ow < d.Wo; ++ow) {
        const int16_t* px = &xp[static_cast<size_t>(((n * d.Hp + oh * p.sh) * d.Wp + ow * p.sw) * d.C)];
        for (int64_t g = 0; g < p.groups; ++g) {
          int64_t m = g * d.Mg;
          const int64_t m_end = m + d.Mg;
          auto accumulate = [&](int64_t cnt, int32_t* acc) {
            const int16_t* w0 = &wp[static_cast<size_t>(m * taps_c)];
            for (int64_t r = 0; r < p.kh; ++r) {
              const int16_t* xr = px + r * p.dh * d.Wp * d.C + g * d.Cg;
              for (int64_t s = 0; s < (rows ? 1 : p.kw); ++s) {
                const int16_t* xs = xr + s * p.dw * d.C;
                const int64_t wo = (r * p.kw + s) * d.Cg;
                if (cnt == 4) dot4(w0 + wo, w0 + taps_c + wo, w0 + 2 * taps_c + wo, w0 + 3 * taps_c + wo, xs, seg, acc);
                else acc[0] += dot(w0 + wo, xs, seg);
              }
            }
          };
          for (; m + 4 <= m_end; m += 4) {
            int32_t acc[4] = {bias[m], bias[m + 1], bias[m + 2], bias[m + 3]};
            accumulate(4, acc);
            for (int64_t k = 0; k < 4; ++k) out[static_cast<size_t>(((n * d.M + m + k) * d.Ho + oh) * d.Wo + ow)] = rq[m + k](acc[k]);
          }
          for (; m < m_end; ++m) {
            int32_t acc = bias[m];
            accumulate(1, &acc);
            out[static_cast<size_t>(((n * d.M + m) * d.Ho + oh) * d.Wo + ow)] = rq[m](acc);
          }
        }
      }
}

}  // namespace

}  // namespace conv_opt

bool conv_optimized(const ConvParams& p, const View& x, const View& w, const View& y, ArithMode mode) {
  using namespace conv_opt;
  Dims d;
  if (!applicable(p, x, w, y, d)) return false;
  if (y.numel() == 0) return true;   // a kernel larger than the padded input: no output position
  const std::vector<ChannelRequant> rq = channel_requants(p, d, mode);
  const bool dw = p.depthwise(d.C, d.M);
  const bool pw = p.kh == 1 && p.kw == 1 && p.sh == 1 && p.sw == 1 && p.groups == 1 && d.Hp == d.H && d.Wp == d.W;
  const std::vector<int16_t> wp = dw ? std::vector<int16_t>{} : pack_weights(p, w, d);
  const std::vector<int32_t> bias = bias32(p, d);
  // One image at a time: the working buffers stay the size of one image whatever the batch.
  Dims d1 = d;
  d1.N = 1;
  std::vector<int64_t> out(static_cast<size_t>(d.M * d.Ho * d.Wo));
  for (int64_t n = 0; n < d.N; ++n) {
    const std::vector<int16_t> xp = pack_input(p, dense::batch_item(x, n), d1);
    if (dw) depthwise(p, xp, w, d1, rq, out);
    else if (pw) pointwise(xp, wp, bias, d1, rq, out);
    else general(p, xp, wp, bias, d1, rq, out);
    // A value outside y's dtype: decline, and the reference reports it (images before n were
    // written, with the values the reference computes too).
    if (!dense::store_checked(dense::batch_item(y, n), out)) return false;
  }
  return true;
}

}  // namespace edgesim
