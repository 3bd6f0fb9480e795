// Reference pooling: Max (padded positions ignored) and integer Sum (padded positions add 0),
// both over x − x_zp (QDQ pools; 0 elsewhere), then the fused requant per channel. Windows follow
// the params literally (docs/dialects.md "NEMO", P4: a 7×7/stride-7 pool over 13×13 reads only the
// top-left window). The output size is taken from y and checked against pool_out_size (floor or
// ceil mode); windows clipped by the input border simply cover fewer elements. Global pooling uses
// one window over the whole map.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "kernels/core/shape_rules.h"
#include "kernels/reference.h"

namespace edgesim {

void pool_reference(const PoolParams& p, const View& x, const View& y, ArithMode mode) {
  if (x.rank() != 4 || y.rank() != 4)
    throw std::invalid_argument("pool: expects rank-4 x and y, got " + shape_str(x.shape) + " -> " + shape_str(y.shape));
  const int64_t N = x.shape[0], C = x.shape[1], H = x.shape[2], W = x.shape[3];
  PoolParams q = p;
  if (p.global) {
    q.kh = H; q.kw = W; q.sh = q.sw = 1;
    q.pad_t = q.pad_l = q.pad_b = q.pad_r = 0;
    q.ceil_mode = false;
  }
  if (q.kh < 1 || q.kw < 1 || q.sh < 1 || q.sw < 1)
    throw std::invalid_argument("pool: kernel and strides must be >= 1");
  const int64_t Ho = pool_out_size(H, q.kh, q.sh, q.pad_t, q.pad_b, q.ceil_mode);
  const int64_t Wo = pool_out_size(W, q.kw, q.sw, q.pad_l, q.pad_r, q.ceil_mode);
  if (y.shape != Shape{N, C, Ho, Wo})
    throw std::invalid_argument("pool: output shape " + shape_str(y.shape) + ", expected " +
                                shape_str({N, C, Ho, Wo}) + " for input " + shape_str(x.shape));
  p.rq.validate(C);

  const std::vector<int64_t> xv = x.to_ints();
  std::vector<int64_t> out(static_cast<size_t>(N * C * Ho * Wo));
  for (int64_t nc = 0; nc < N * C; ++nc) {
    const int64_t c = nc % C;
    const int64_t* plane = &xv[nc * H * W];
    for (int64_t oh = 0; oh < Ho; ++oh)
      for (int64_t ow = 0; ow < Wo; ++ow) {
        const int64_t h0 = oh * q.sh - q.pad_t, w0 = ow * q.sw - q.pad_l;
        const int64_t h_lo = std::max<int64_t>(h0, 0), h_hi = std::min(h0 + q.kh, H);
        const int64_t w_lo = std::max<int64_t>(w0, 0), w_hi = std::min(w0 + q.kw, W);
        if (q.kind == PoolParams::Kind::Max && (h_lo >= h_hi || w_lo >= w_hi))
          throw std::invalid_argument("pool: max window at output (" + std::to_string(oh) + "," +
                                      std::to_string(ow) + ") covers no input element");
        int64_t v = q.kind == PoolParams::Kind::Max ? INT64_MIN : 0;
        for (int64_t h = h_lo; h < h_hi; ++h)
          for (int64_t w = w_lo; w < w_hi; ++w) {
            const int64_t e = plane[h * W + w] - p.x_zp;
            v = q.kind == PoolParams::Kind::Max ? std::max(v, e) : v + e;
          }
        out[(nc * Ho + oh) * Wo + ow] = p.rq.apply(v, c, mode);
      }
  }
  store_ints_checked(y, out);
}

}  // namespace edgesim
