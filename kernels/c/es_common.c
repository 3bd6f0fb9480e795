/* Shared pieces of the C kernels: element access by dtype and the requantisation
 * (kernels/core/requant.cc, same arithmetic: int64 for the integer forms, round half to even
 * of acc * scale in double for the float form). */
#include <math.h>

#include "es_kernels.h"

int64_t es_load(const es_view_t *v, int64_t i) {
  switch (v->dtype) {
    case ES_U8: return ((const uint8_t *)v->p)[i];
    case ES_I8: return ((const int8_t *)v->p)[i];
    case ES_I16: return ((const int16_t *)v->p)[i];
    case ES_I32: return ((const int32_t *)v->p)[i];
    case ES_I64: return ((const int64_t *)v->p)[i];
    default: return (int64_t)((const float *)v->p)[i];
  }
}

void es_store(const es_view_t *v, int64_t i, int64_t x) {
  switch (v->dtype) {
    case ES_U8: ((uint8_t *)v->p)[i] = (uint8_t)x; break;
    case ES_I8: ((int8_t *)v->p)[i] = (int8_t)x; break;
    case ES_I16: ((int16_t *)v->p)[i] = (int16_t)x; break;
    case ES_I32: ((int32_t *)v->p)[i] = (int32_t)x; break;
    case ES_I64: ((int64_t *)v->p)[i] = x; break;
    default: ((float *)v->p)[i] = (float)x; break;
  }
}

int64_t es_numel(const es_view_t *v) {
  int64_t n = 1;
  for (int d = 0; d < v->rank; ++d) n *= v->shape[d];
  return n;
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

static int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int64_t es_rq_apply(const es_rq_t *rq, int64_t acc, int32_t c) {
  if (rq->kind == 1) {
    const int64_t kk = rq->nk == 1 ? rq->k[0] : rq->k[c];
    const int64_t ll = rq->nl == 1 ? rq->lambda[0] : rq->lambda[c];
    const int64_t v = (kk * acc + ll) * rq->mul;
    if (rq->div > 0) return clamp64(floor_div(v, rq->div), rq->lo, rq->hi);
    return clamp64((v + rq->round) >> rq->shift, rq->lo, rq->hi);
  }
  if (rq->kind == 2) {
    const double s = rq->ns == 1 ? rq->scale[0] : rq->scale[c];
    return clamp64((int64_t)nearbyint((double)acc * s) + rq->zp, rq->lo, rq->hi);
  }
  return clamp64(acc, rq->lo, rq->hi);
}
