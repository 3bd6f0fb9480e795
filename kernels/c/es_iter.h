/* Row-major walk over up to three views of one rank (private to the C kernels): the element
 * offsets of each view at the current multi-index, advanced one element at a time. Used by the
 * element-wise kernels, which split the flat element range of the output between the cores. */
#ifndef ES_ITER_H
#define ES_ITER_H
#include "es_kernels.h"

typedef struct {
  int32_t rank;
  int32_t idx[ES_MAX_RANK];
  const int32_t *shape;
  const es_view_t *v[3];
  int nv;
  int64_t off[3];
} es_iter_t;

/* Positions the walk at row-major flat index `flat` of `shape`. */
static inline void es_iter_init(es_iter_t *it, const int32_t *shape, int32_t rank, const es_view_t *const *v, int nv,
                                int64_t flat) {
  it->rank = rank;
  it->shape = shape;
  it->nv = nv;
  for (int d = rank - 1; d >= 0; --d) {
    it->idx[d] = shape[d] ? (int32_t)(flat % shape[d]) : 0;
    flat = shape[d] ? flat / shape[d] : 0;
  }
  for (int k = 0; k < nv; ++k) {
    it->v[k] = v[k];
    it->off[k] = 0;
    for (int d = 0; d < rank; ++d) it->off[k] += (int64_t)it->idx[d] * v[k]->stride[d];
  }
}

static inline void es_iter_next(es_iter_t *it) {
  for (int d = it->rank - 1; d >= 0; --d) {
    for (int k = 0; k < it->nv; ++k) it->off[k] += it->v[k]->stride[d];
    if (++it->idx[d] < it->shape[d]) return;
    for (int k = 0; k < it->nv; ++k) it->off[k] -= (int64_t)it->shape[d] * it->v[k]->stride[d];
    it->idx[d] = 0;
  }
}

/* The share [*lo, *hi) of n items of core `core` out of `ncores` (contiguous chunks). */
static inline void es_split(int64_t n, int core, int ncores, int64_t *lo, int64_t *hi) {
  const int64_t chunk = (n + ncores - 1) / ncores;
  *lo = chunk * core < n ? chunk * core : n;
  *hi = *lo + chunk < n ? *lo + chunk : n;
}

#endif
