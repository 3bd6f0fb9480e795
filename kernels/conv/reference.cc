// Reference convolution (the golden model for every Conv of every dialect).
// The input is copied once into a zero-padded int64 plane with the zero point removed, so
// padded positions contribute exactly 0 (= padding with x_zp) and the MAC loops need no
// bounds checks and no per-element dtype dispatch. The weights get the same treatment
// (w − w_zp[m]). Accumulation is int64; the requant is applied per output element at the end.
// Loop order per output plane (n, m): ci, r, s outer, then the output rows and columns, so
// the innermost loop runs along one input row with stride sw.
#include <stdexcept>
#include <string>

#include "kernels/core/shape_rules.h"
#include "kernels/reference.h"

namespace edgesim {

namespace {

void check_shapes(const ConvParams& p, const View& x, const View& w, const View& y) {
  auto fail = [&](const std::string& what) {
    throw std::invalid_argument("conv: " + what + " (x " + shape_str(x.shape) + ", w " +
                                shape_str(w.shape) + ", y " + shape_str(y.shape) + ")");
  };
  if (x.rank() != 4 || w.rank() != 4 || y.rank() != 4) fail("expects rank-4 x, w and y");
  if (p.groups < 1 || x.shape[1] % p.groups != 0 || w.shape[0] % p.groups != 0)
    fail("groups " + std::to_string(p.groups) + " do not divide the channels");
  if (w.shape[1] != x.shape[1] / p.groups) fail("weight input channels != Cin/groups");
  if (w.shape[2] != p.kh || w.shape[3] != p.kw) fail("weight kernel size != params kh x kw");
  if (p.sh < 1 || p.sw < 1 || p.dh < 1 || p.dw < 1) fail("strides and dilations must be >= 1");
  if (p.pad_t < 0 || p.pad_l < 0 || p.pad_b < 0 || p.pad_r < 0) fail("negative pads");
  const int64_t ho = ConvParams::out_size(x.shape[2], p.kh, p.sh, p.dh, p.pad_t, p.pad_b);
  const int64_t wo = ConvParams::out_size(x.shape[3], p.kw, p.sw, p.dw, p.pad_l, p.pad_r);
  if (y.shape[0] != x.shape[0] || y.shape[1] != w.shape[0] || y.shape[2] != ho || y.shape[3] != wo)
    fail("output shape should be " + shape_str({x.shape[0], w.shape[0], ho, wo}));
  const auto cout = static_cast<size_t>(w.shape[0]);
  if (!p.bias.empty() && p.bias.size() != cout) fail("bias needs " + std::to_string(cout) + " entries");
  if (p.w_zp.size() > 1 && p.w_zp.size() != cout) fail("w_zp needs 1 or Cout entries");
  p.rq.validate(w.shape[0]);
}

}  // namespace

void conv_reference(const ConvParams& p, const View& x, const View& w, const View& y, ArithMode mode) {
  check_shapes(p, x, w, y);
  // A kernel larger than the padded input leaves no output position (Ho or Wo is 0): nothing to
  // compute, and the loops below would index the empty accumulator.
  if (y.numel() == 0) return;
  const int64_t N = x.shape[0], C = x.shape[1], H = x.shape[2], W = x.shape[3];
  const int64_t M = w.shape[0], Cg = C / p.groups, Mg = M / p.groups;
  const int64_t Ho = y.shape[2], Wo = y.shape[3];
  const int64_t Hp = H + p.pad_t + p.pad_b, Wp = W + p.pad_l + p.pad_r;

  // x − x_zp in a zero-initialised padded buffer [N][C][Hp][Wp].
  std::vector<int64_t> xp(static_cast<size_t>(N * C * Hp * Wp), 0);
  {
    const std::vector<int64_t> xv = x.to_ints();
    for (int64_t nc = 0; nc < N * C; ++nc)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t ww = 0; ww < W; ++ww)
          xp[(nc * Hp + h + p.pad_t) * Wp + ww + p.pad_l] = xv[(nc * H + h) * W + ww] - p.x_zp;
  }
  // w − w_zp[m], row-major [M][Cg][kh][kw].
  std::vector<int64_t> wv = w.to_ints();
  const int64_t wsize = Cg * p.kh * p.kw;
  if (!p.w_zp.empty())
    for (int64_t m = 0; m < M; ++m) {
      const int64_t zp = p.w_zp.size() == 1 ? p.w_zp[0] : p.w_zp[m];
      for (int64_t i = 0; i < wsize; ++i) wv[m * wsize + i] -= zp;
    }

  std::vector<int64_t> out(static_cast<size_t>(N * M * Ho * Wo));
  std::vector<int64_t> acc(static_cast<size_t>(Ho * Wo));
  for (int64_t n = 0; n < N; ++n)
    for (int64_t m = 0; m < M; ++m) {
      const int64_t g = m / Mg;
      std::fill(acc.begin(), acc.end(), p.bias.empty() ? 0 : p.bias[m]);
      for (int64_t ci = 0; ci < Cg; ++ci) {
        const int64_t* plane = &xp[((n * C + g * Cg + ci) * Hp) * Wp];
        for (int64_t r = 0; r < p.kh; ++r)
          for (int64_t s = 0; s < p.kw; ++s) {
            const int64_t wt = wv[((m * Cg + ci) * p.kh + r) * p.kw + s];
            if (wt == 0) continue;
            for (int64_t oh = 0; oh < Ho; ++oh) {
              const int64_t* row = plane + (oh * p.sh + r * p.dh) * Wp + s * p.dw;
              int64_t* a = &acc[oh * Wo];
              for (int64_t ow = 0; ow < Wo; ++ow) a[ow] += wt * row[ow * p.sw];
            }
          }
      }
      int64_t* o = &out[(n * M + m) * Ho * Wo];
      for (int64_t i = 0; i < Ho * Wo; ++i) o[i] = p.rq.apply(acc[i], m, mode);
    }
  store_ints_checked(y, out);
}

}  // namespace edgesim
