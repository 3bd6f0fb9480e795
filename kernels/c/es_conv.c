/* Convolution (kernels/conv/reference.cc semantics): acc = bias[m] + sum (x - x_zp)(w - w_zp[m])
 * over the taps inside the input (padded taps add 0), y = rq(acc, m).
 *
 * Loop structure of PULP-NN's HWC convolutions: the cores split the output rows (N*Ho) into
 * contiguous chunks; inside a row, output pixels are taken two at a time and output channels
 * four at a time (the 4x2 register block: each input element loaded serves four channels, each
 * weight serves two pixels), the reduction runs over kernel rows, kernel columns and then the
 * input channels, which are contiguous in HWC tiles. Leftover channels and pixels of a row run
 * the same reduction one at a time. Grouped and depthwise convolutions (four consecutive output
 * channels of different groups read different input channels) take the 1x1 path: the
 * reduction over (r, s, ci) per output element. 8-bit activations and weights are read through
 * typed pointers; other dtypes through es_load. */
#include "es_iter.h"

typedef struct {
  const es_conv_p_t *p;
  const es_view_t *x, *w, *y;
  int32_t C, H, W, M, Cg, Mg, Ho, Wo;
} conv_ctx_t;

static int64_t wzp(const es_conv_p_t *p, int32_t m) {
  return p->nwzp == 0 ? 0 : (p->nwzp == 1 ? p->w_zp[0] : p->w_zp[m]);
}

/* One output element: the reference reduction for output channel m at (n, oh, ow). */
static int64_t conv_one(const conv_ctx_t *c, int32_t n, int32_t m, int32_t oh, int32_t ow) {
  const es_conv_p_t *p = c->p;
  const es_view_t *x = c->x, *w = c->w;
  const int32_t cbase = (m / c->Mg) * c->Cg;
  const int64_t zw = wzp(p, m);
  int64_t acc = p->nbias ? p->bias[m] : 0;
  for (int32_t r = 0; r < p->kh; ++r) {
    const int32_t ih = oh * p->sh - p->pad_t + r * p->dh;
    if (ih < 0 || ih >= c->H) continue;
    for (int32_t s = 0; s < p->kw; ++s) {
      const int32_t iw = ow * p->sw - p->pad_l + s * p->dw;
      if (iw < 0 || iw >= c->W) continue;
      const int64_t xo = (int64_t)n * x->stride[0] + (int64_t)cbase * x->stride[1] + (int64_t)ih * x->stride[2] +
                         (int64_t)iw * x->stride[3];
      const int64_t wo = (int64_t)m * w->stride[0] + (int64_t)r * w->stride[2] + (int64_t)s * w->stride[3];
      for (int32_t ci = 0; ci < c->Cg; ++ci)
        acc += (es_load(x, xo + (int64_t)ci * x->stride[1]) - p->x_zp) * (es_load(w, wo + (int64_t)ci * w->stride[1]) - zw);
    }
  }
  return acc;
}

/* The 4x2 block for 8-bit x (XT) and w (WT): channels m..m+3 of one group at pixels ow, ow+1. */
#define CONV_BLOCK(NAME, XT, WT)                                                                              \
  static void NAME(const conv_ctx_t *c, int32_t n, int32_t m, int32_t oh, int32_t ow, int64_t acc[4][2]) {   \
    const es_conv_p_t *p = c->p;                                                                              \
    const es_view_t *x = c->x, *w = c->w;                                                                     \
    const XT *xb = (const XT *)x->p;                                                                          \
    const WT *wb = (const WT *)w->p;                                                                          \
    const int32_t cbase = (m / c->Mg) * c->Cg, xs = x->stride[1], ws = w->stride[1];                          \
    int32_t zw[4];                                                                                            \
    for (int j = 0; j < 4; ++j) {                                                                             \
      zw[j] = (int32_t)wzp(p, m + j);                                                                         \
      acc[j][0] = acc[j][1] = p->nbias ? p->bias[m + j] : 0;                                                  \
    }                                                                                                         \
    const int32_t xzp = (int32_t)p->x_zp;                                                                     \
    for (int32_t r = 0; r < p->kh; ++r) {                                                                     \
      const int32_t ih = oh * p->sh - p->pad_t + r * p->dh;                                                   \
      if (ih < 0 || ih >= c->H) continue;                                                                     \
      for (int32_t s = 0; s < p->kw; ++s) {                                                                   \
        const int32_t iw0 = ow * p->sw - p->pad_l + s * p->dw, iw1 = iw0 + p->sw;                             \
        const int v0 = iw0 >= 0 && iw0 < c->W, v1 = iw1 >= 0 && iw1 < c->W;                                   \
        if (!v0 && !v1) continue;                                                                             \
        const XT *x0 = xb + (int64_t)n * x->stride[0] + (int64_t)cbase * xs + (int64_t)ih * x->stride[2] +    \
                       (int64_t)(v0 ? iw0 : iw1) * x->stride[3];                                              \
        const XT *x1 = xb + (int64_t)n * x->stride[0] + (int64_t)cbase * xs + (int64_t)ih * x->stride[2] +    \
                       (int64_t)(v1 ? iw1 : iw0) * x->stride[3];                                              \
        const WT *w0 = wb + (int64_t)m * w->stride[0] + (int64_t)r * w->stride[2] + (int64_t)s * w->stride[3]; \
        const int64_t wm = w->stride[0];                                                                      \
        int32_t a00 = 0, a01 = 0, a10 = 0, a11 = 0, a20 = 0, a21 = 0, a30 = 0, a31 = 0;                       \
        for (int32_t ci = 0; ci < c->Cg; ++ci) {                                                              \
          const int32_t e0 = (int32_t)x0[ci * xs] - xzp, e1 = (int32_t)x1[ci * xs] - xzp;                     \
          const WT *wc = w0 + ci * ws;                                                                        \
          const int32_t k0 = (int32_t)wc[0] - zw[0], k1 = (int32_t)wc[wm] - zw[1];                            \
          const int32_t k2 = (int32_t)wc[2 * wm] - zw[2], k3 = (int32_t)wc[3 * wm] - zw[3];                   \
          a00 += e0 * k0; a01 += e1 * k0; a10 += e0 * k1; a11 += e1 * k1;                                     \
          a20 += e0 * k2; a21 += e1 * k2; a30 += e0 * k3; a31 += e1 * k3;                                     \
        }                                                                                                     \
        if (v0) { acc[0][0] += a00; acc[1][0] += a10; acc[2][0] += a20; acc[3][0] += a30; }                   \
        if (v1) { acc[0][1] += a01; acc[1][1] += a11; acc[2][1] += a21; acc[3][1] += a31; }                   \
      }                                                                                                       \
    }                                                                                                         \
  }

CONV_BLOCK(block_u8_i8, uint8_t, int8_t)
CONV_BLOCK(block_i8_i8, int8_t, int8_t)
CONV_BLOCK(block_u8_u8, uint8_t, uint8_t)
CONV_BLOCK(block_i8_u8, int8_t, uint8_t)

typedef void (*block_fn)(const conv_ctx_t *, int32_t, int32_t, int32_t, int32_t, int64_t[4][2]);

/* The 4x2 block needs 8-bit operands whose per-tap partial sums fit int32: |x - x_zp| <= 510,
 * |w - w_zp| <= 510, Cg <= 8192 keeps Cg * 510 * 510 < 2^31. */
static block_fn pick_block(const conv_ctx_t *c) {
  const es_conv_p_t *p = c->p;
  if (c->Cg > 8192 || p->x_zp < -255 || p->x_zp > 255) return 0;
  for (int32_t j = 0; j < p->nwzp; ++j)
    if (p->w_zp[j] < -255 || p->w_zp[j] > 255) return 0;
  if (c->x->dtype == ES_U8 && c->w->dtype == ES_I8) return block_u8_i8;
  if (c->x->dtype == ES_I8 && c->w->dtype == ES_I8) return block_i8_i8;
  if (c->x->dtype == ES_U8 && c->w->dtype == ES_U8) return block_u8_u8;
  if (c->x->dtype == ES_I8 && c->w->dtype == ES_U8) return block_i8_u8;
  return 0;
}

void es_conv(const es_conv_p_t *p, const es_view_t *x, const es_view_t *w, const es_view_t *y, int core, int ncores) {
  conv_ctx_t c = {p, x, w, y, x->shape[1], x->shape[2], x->shape[3], w->shape[0], 0, 0, y->shape[2], y->shape[3]};
  c.Cg = c.C / p->groups;
  c.Mg = c.M / p->groups;
  const block_fn block = pick_block(&c);
  /* Channels m..m+3 share a group (and so their input channels) when Mg is a multiple of 4. */
  const int blocked = block && c.Mg % 4 == 0;
  int64_t lo, hi;
  es_split((int64_t)x->shape[0] * c.Ho, core, ncores, &lo, &hi);
  for (int64_t row = lo; row < hi; ++row) {
    const int32_t n = (int32_t)(row / c.Ho), oh = (int32_t)(row % c.Ho);
    const int64_t yrow = (int64_t)n * y->stride[0] + (int64_t)oh * y->stride[2];
    int32_t ow = 0;
    if (blocked)
      for (; ow + 1 < c.Wo; ow += 2)
        for (int32_t m = 0; m + 3 < c.M; m += 4) {
          int64_t acc[4][2];
          block(&c, n, m, oh, ow, acc);
          for (int j = 0; j < 4; ++j)
            for (int k = 0; k < 2; ++k)
              es_store(y, yrow + (int64_t)(m + j) * y->stride[1] + (int64_t)(ow + k) * y->stride[3],
                       es_rq_apply(&p->rq, acc[j][k], m + j));
        }
    /* Leftovers: the last odd pixel of the row for all channels; with blocking, the channels of
     * the blocked pixels beyond the last multiple of 4. */
    const int32_t mtail = blocked ? c.M - c.M % 4 : 0;
    for (int32_t o = 0; o < c.Wo; ++o)
      for (int32_t m = o < ow ? mtail : 0; m < c.M; ++m)
        es_store(y, yrow + (int64_t)m * y->stride[1] + (int64_t)o * y->stride[3],
                 es_rq_apply(&p->rq, conv_one(&c, n, m, oh, o), m));
  }
}
