// Optimised pooling (kernels/optimized.h): x − x_zp gathered as int32 planes [C][H][W], one
// image at a time, each window reduced in int32 (max, or a sum whose bound kh·kw·max|x − x_zp| is
// checked to fit), the channel's requant applied once per output. Global pooling is one window
// per plane, reduced as one run over the contiguous plane.
#include <algorithm>
#include <stdexcept>

#include "kernels/core/dense.h"
#include "kernels/core/shape_rules.h"
#include "kernels/optimized.h"

namespace edgesim {

bool pool_optimized(const PoolParams& p, const View& x, const View& y, ArithMode mode) {
  if (x.rank() != 4 || y.rank() != 4 || !dtype_is_int(y.dtype)) return false;
  if (x.dtype != DType::U8 && x.dtype != DType::I8 && x.dtype != DType::I16) return false;
  const int64_t N = x.shape[0], C = x.shape[1], H = x.shape[2], W = x.shape[3];
  PoolParams q = p;
  if (p.global) {
    q.kh = H, q.kw = W, q.sh = q.sw = 1;
    q.pad_t = q.pad_l = q.pad_b = q.pad_r = 0;
    q.ceil_mode = false;
  }
  if (q.kh < 1 || q.kw < 1 || q.sh < 1 || q.sw < 1 || p.x_zp < -65536 || p.x_zp > 65536) return false;
  const int64_t Ho = pool_out_size(H, q.kh, q.sh, q.pad_t, q.pad_b, q.ceil_mode);
  const int64_t Wo = pool_out_size(W, q.kw, q.sw, q.pad_l, q.pad_r, q.ceil_mode);
  if (y.shape != Shape{N, C, Ho, Wo}) return false;
  try {
    p.rq.validate(C);
  } catch (const std::invalid_argument&) {
    return false;
  }
  int64_t lo, hi;
  dense::shifted_range(x.dtype, p.x_zp, lo, hi);
  if (static_cast<double>(q.kh) * static_cast<double>(q.kw) * static_cast<double>(dense::max_abs(lo, hi)) >
      2147483647.0)
    return false;
  const bool is_max = q.kind == PoolParams::Kind::Max;
  // Every max window must cover an input element (the reference's error otherwise).
  for (int64_t oh = 0; is_max && oh < Ho; ++oh)
    if (std::min(oh * q.sh - q.pad_t + q.kh, H) <= std::max<int64_t>(oh * q.sh - q.pad_t, 0)) return false;
  for (int64_t ow = 0; is_max && ow < Wo; ++ow)
    if (std::min(ow * q.sw - q.pad_l + q.kw, W) <= std::max<int64_t>(ow * q.sw - q.pad_l, 0)) return false;
  // A window larger than the padded input leaves no output position: nothing to compute (the
  // loops below would index the empty output buffer).
  if (Ho == 0 || Wo == 0) return true;

  // One image at a time: the working buffers stay the size of one image whatever the batch.
  std::vector<int32_t> xv(static_cast<size_t>(C * H * W));
  std::vector<int64_t> out(static_cast<size_t>(C * Ho * Wo));
  std::vector<ChannelRequant> rq(static_cast<size_t>(C));
  for (int64_t c = 0; c < C; ++c) rq[c] = p.rq.channel(c, mode);
  for (int64_t n = 0; n < N; ++n) {
    dense::gather_rows<int32_t>(dense::batch_item(x, n), p.x_zp, [&](int64_t row) { return &xv[static_cast<size_t>(row * W)]; });
    for (int64_t c = 0; c < C; ++c) {
      const int32_t* plane = &xv[static_cast<size_t>(c * H * W)];
      int64_t* o = &out[static_cast<size_t>(c * Ho * Wo)];
      if (Ho == 1 && Wo == 1 && q.kh == H && q.kw == W && q.pad_t == 0 && q.pad_l == 0) {   // one window: the plane
        int32_t v = is_max ? plane[0] : 0;
        if (is_max) for (int64_t i = 0; i < H * W; ++i) v = std::max(v, plane[i]);
        else for (int64_t i = 0; i < H * W; ++i) v += plane[i];
        o[0] = rq[c](v);
        continue;
      }
      for (int64_t oh = 0; oh < Ho; ++oh) {
        const int64_t h0 = oh * q.sh - q.pad_t;
        const int64_t h_lo = std::max<int64_t>(h0, 0), h_hi = std::min(h0 + q.kh, H);
        for (int64_t ow = 0; ow < Wo; ++ow) {
          const int64_t w0 = ow * q.sw - q.pad_l;
          const int64_t w_lo = std::max<int64_t>(w0, 0), w_hi = std::min(w0 + q.kw, W);
          int32_t v = is_max ? INT32_MIN : 0;
          for (int64_t h = h_lo; h < h_hi; ++h) {
            const int32_t* r = plane + h * W;
            if (is_max) for (int64_t w = w_lo; w < w_hi; ++w) v = std::max(v, r[w]);
            else for (int64_t w = w_lo; w < w_hi; ++w) v += r[w];
          }
          o[oh * Wo + ow] = rq[c](v);
        }
      }
    }
    if (!dense::store_checked(dense::batch_item(y, n), out)) return false;
  }
  return true;
}

}  // namespace edgesim
