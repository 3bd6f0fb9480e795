/* Pooling (kernels/pool/reference.cc semantics): max (padded positions ignored) or sum
 * (padded positions add 0) over x - x_zp in each window, then rq per channel. The caller gives
 * the window of a global pool explicitly (kh = H, kw = W). Cores split the output rows (N*Ho);
 * within a row the loop runs over pixels, then channels (contiguous in HWC). */
#include "es_iter.h"

void es_pool(const es_pool_p_t *p, const es_view_t *x, const es_view_t *y, int core, int ncores) {
  const int32_t C = x->shape[1], H = x->shape[2], W = x->shape[3], Ho = y->shape[2], Wo = y->shape[3];
  int64_t lo, hi;
  es_split((int64_t)x->shape[0] * Ho, core, ncores, &lo, &hi);
  for (int64_t row = lo; row < hi; ++row) {
    const int32_t n = (int32_t)(row / Ho), oh = (int32_t)(row % Ho);
    const int32_t h0 = oh * p->sh - p->pad_t;
    const int32_t hlo = h0 < 0 ? 0 : h0, hhi = h0 + p->kh < H ? h0 + p->kh : H;
    for (int32_t ow = 0; ow < Wo; ++ow) {
      const int32_t w0 = ow * p->sw - p->pad_l;
      const int32_t wlo = w0 < 0 ? 0 : w0, whi = w0 + p->kw < W ? w0 + p->kw : W;
      for (int32_t ch = 0; ch < C; ++ch) {
        int64_t v = p->sum ? 0 : INT64_MIN;
        const int64_t base = (int64_t)n * x->stride[0] + (int64_t)ch * x->stride[1];
        for (int32_t h = hlo; h < hhi; ++h)
          for (int32_t w = wlo; w < whi; ++w) {
            const int64_t e = es_load(x, base + (int64_t)h * x->stride[2] + (int64_t)w * x->stride[3]) - p->x_zp;
            v = p->sum ? v + e : (e > v ? e : v);
          }
        es_store(y, (int64_t)n * y->stride[0] + (int64_t)ch * y->stride[1] + (int64_t)oh * y->stride[2] +
                        (int64_t)ow * y->stride[3],
                 es_rq_apply(&p->rq, v, ch));
      }
    }
  }
}
