/* Element-wise kernels (kernels/eltwise/reference.cc, kernels/layout/reference.cc,
 * kernels/quant/reference.cc): Add, Mul, Clip, Requant, strided copy (Reshape, Transpose,
 * Concat pieces, Pad interior), fill (Pad border), Quantize, Dequantize. Each core takes a
 * contiguous chunk of the output's row-major elements. */
#include <math.h>

#include "es_iter.h"

static int32_t axis_index(const es_iter_t *it, int32_t axis) { return axis < 0 ? 0 : it->idx[axis]; }

/* Positions `it` over y and the operands a, b (NULL when absent) at the first element of this
 * core's chunk; returns the chunk's length. */
static int64_t start(es_iter_t *it, const es_view_t *y, const es_view_t *a, const es_view_t *b, int core, int ncores) {
  int64_t lo, hi;
  es_split(es_numel(y), core, ncores, &lo, &hi);
  const es_view_t *v[3] = {y, a, b};
  es_iter_init(it, y->shape, y->rank, v, b ? 3 : a ? 2 : 1, lo);
  return hi - lo;
}

/* Scale and zero point of channel c. */
static void quant_at(const es_quant_p_t *p, int32_t c, float *s, int64_t *zp) {
  *s = p->nscale == 1 ? p->scale[0] : p->scale[c];
  *zp = p->nzp == 0 ? 0 : (p->nzp == 1 ? p->zp[0] : p->zp[c]);
}

void es_add(const es_add_p_t *p, const es_view_t *a, const es_view_t *b, const es_view_t *y, int core, int ncores) {
  es_iter_t it;
  for (int64_t n = start(&it, y, a, b, core, ncores); n > 0; --n, es_iter_next(&it)) {
    const int64_t t1 = (es_load(a, it.off[1]) * p->mul1 + p->add1) >> p->shift1;
    const int64_t t2 = (es_load(b, it.off[2]) * p->mul2 + p->add2) >> p->shift2;
    es_store(y, it.off[0], es_rq_apply(&p->rq, (t1 + t2) >> p->shift_sum, axis_index(&it, p->rq.axis)));
  }
}

void es_mul(const es_rq_t *rq, const es_view_t *a, const es_view_t *b, const es_view_t *y, int core, int ncores) {
  es_iter_t it;
  for (int64_t n = start(&it, y, a, b, core, ncores); n > 0; --n, es_iter_next(&it))
    es_store(y, it.off[0], es_rq_apply(rq, es_load(a, it.off[1]) * es_load(b, it.off[2]), axis_index(&it, rq->axis)));
}

void es_clip(int64_t clo, int64_t chi, const es_view_t *x, const es_view_t *y, int core, int ncores) {
  es_iter_t it;
  for (int64_t n = start(&it, y, x, 0, core, ncores); n > 0; --n, es_iter_next(&it)) {
    const int64_t e = es_load(x, it.off[1]);
    es_store(y, it.off[0], e < clo ? clo : (e > chi ? chi : e));
  }
}

void es_requant(const es_rq_t *rq, const es_view_t *x, const es_view_t *y, int core, int ncores) {
  es_iter_t it;
  for (int64_t n = start(&it, y, x, 0, core, ncores); n > 0; --n, es_iter_next(&it))
    es_store(y, it.off[0], es_rq_apply(rq, es_load(x, it.off[1]), axis_index(&it, rq->axis)));
}

void es_copy(const es_view_t *x, const es_view_t *y, int core, int ncores) {
  int64_t lo, hi;
  es_split(es_numel(y), core, ncores, &lo, &hi);
  const es_view_t *vy[1] = {y}, *vx[1] = {x};
  es_iter_t iy, ix;
  es_iter_init(&iy, y->shape, y->rank, vy, 1, lo);
  es_iter_init(&ix, x->shape, x->rank, vx, 1, lo);
  if (x->dtype == ES_F32 && y->dtype == ES_F32) {
    for (int64_t i = lo; i < hi; ++i, es_iter_next(&iy), es_iter_next(&ix))
      ((float *)y->p)[iy.off[0]] = ((const float *)x->p)[ix.off[0]];
    return;
  }
  for (int64_t i = lo; i < hi; ++i, es_iter_next(&iy), es_iter_next(&ix))
    es_store(y, iy.off[0], es_load(x, ix.off[0]));
}

void es_fill(int64_t value, const es_view_t *y, int core, int ncores) {
  es_iter_t it;
  for (int64_t n = start(&it, y, 0, 0, core, ncores); n > 0; --n, es_iter_next(&it)) es_store(y, it.off[0], value);
}

static double load_f64(const es_view_t *x, int64_t i) {
  return x->dtype == ES_F32 ? (double)((const float *)x->p)[i] : (double)es_load(x, i);
}

void es_quantize(const es_quant_p_t *p, const es_view_t *x, const es_view_t *y, int core, int ncores) {
  static const int64_t range[5][2] = {{0, 255}, {-128, 127}, {-32768, 32767}, {-2147483647 - 1, 2147483647},
                                      {INT64_MIN, INT64_MAX}};
  const double qlo = (double)range[y->dtype][0], qhi = (double)range[y->dtype][1];
  es_iter_t it;
  for (int64_t n = start(&it, y, x, 0, core, ncores); n > 0; --n, es_iter_next(&it)) {
    float s;
    int64_t zp;
    quant_at(p, axis_index(&it, p->axis), &s, &zp);
    const float q = (float)load_f64(x, it.off[1]) / s;
    double r = nearbyint((double)q) + (double)zp;
    r = r < qlo ? qlo : (r > qhi ? qhi : r);
    es_store(y, it.off[0], (int64_t)r);
  }
}

void es_dequantize(const es_quant_p_t *p, const es_view_t *x, const es_view_t *y, int core, int ncores) {
  es_iter_t it;
  for (int64_t n = start(&it, y, x, 0, core, ncores); n > 0; --n, es_iter_next(&it)) {
    float s;
    int64_t zp;
    quant_at(p, axis_index(&it, p->axis), &s, &zp);
    ((float *)y->p)[it.off[0]] = (float)(es_load(x, it.off[1]) - zp) * s;
  }
}
