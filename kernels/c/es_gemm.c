/* Matrix product (kernels/gemm/reference.cc semantics): acc[b,m,n] = bias(m,n) +
 * sum_k (a[b,m,k] - a_zp[m]) (b[b,n,k] - b_zp[n]), y = rq(acc, index along rq.axis of y).
 * Operands arrive K-last ([.., M, K] and [.., N, K]) with batch axes aligned to y's.
 * The cores split the rows M of every batch, or the columns N when there is a single row (a
 * fully connected layer); inside, output columns are taken four at a time and rows two at a
 * time (the 4x2 block), the reduction over K innermost. */
#include "es_iter.h"

static int64_t zp_at(int32_t n, const int64_t *zp, int32_t i) { return n == 0 ? 0 : (n == 1 ? zp[0] : zp[i]); }

void es_gemm(const es_gemm_p_t *p, const es_view_t *a, const es_view_t *b, const es_view_t *y, int core, int ncores) {
  const int32_t r = y->rank, M = y->shape[r - 2], N = y->shape[r - 1], K = a->shape[r - 1];
  int64_t nbatch = 1;
  for (int32_t d = 0; d < r - 2; ++d) nbatch *= y->shape[d];
  const int split_n = M == 1;
  int64_t lo, hi;
  es_split(split_n ? N : M, core, ncores, &lo, &hi);
  const int32_t m0 = split_n ? 0 : (int32_t)lo, m1 = split_n ? M : (int32_t)hi;
  const int32_t n0 = split_n ? (int32_t)lo : 0, n1 = split_n ? (int32_t)hi : N;
  const int32_t ak = a->stride[r - 1], bk = b->stride[r - 1];
  const int axis = p->rq.axis;
  int32_t idx[ES_MAX_RANK] = {0};
  for (int64_t bi = 0; bi < nbatch; ++bi) {
    int64_t ab = 0, bb = 0, yb = 0, rem = bi;
    for (int32_t d = r - 3; d >= 0; --d) {
      idx[d] = (int32_t)(rem % y->shape[d]);
      rem /= y->shape[d];
      ab += (int64_t)idx[d] * a->stride[d];
      bb += (int64_t)idx[d] * b->stride[d];
      yb += (int64_t)idx[d] * y->stride[d];
    }
    for (int32_t m = m0; m < m1; m += 2) {
      const int rows = m + 1 < m1 ? 2 : 1;
      for (int32_t n = n0; n < n1; n += 4) {
        const int cols = n + 3 < n1 ? 4 : n1 - n;
        int64_t acc[2][4];
        for (int i = 0; i < rows; ++i)
          for (int j = 0; j < cols; ++j)
            acc[i][j] = p->nbias ? p->bias[(int64_t)(m + i) * p->bias_sm + (int64_t)(n + j) * p->bias_sn] : 0;
        for (int32_t k = 0; k < K; ++k) {
          int64_t av[2], bv[4];
          for (int i = 0; i < rows; ++i)
            av[i] = es_load(a, ab + (int64_t)(m + i) * a->stride[r - 2] + (int64_t)k * ak) - zp_at(p->nazp, p->a_zp, m + i);
          for (int j = 0; j < cols; ++j)
            bv[j] = es_load(b, bb + (int64_t)(n + j) * b->stride[r - 2] + (int64_t)k * bk) - zp_at(p->nbzp, p->b_zp, n + j);
          for (int i = 0; i < rows; ++i)
            for (int j = 0; j < cols; ++j) acc[i][j] += av[i] * bv[j];
        }
        for (int i = 0; i < rows; ++i)
          for (int j = 0; j < cols; ++j) {
            idx[r - 2] = m + i;
            idx[r - 1] = n + j;
            es_store(y, yb + (int64_t)(m + i) * y->stride[r - 2] + (int64_t)(n + j) * y->stride[r - 1],
                     es_rq_apply(&p->rq, acc[i][j], axis < 0 ? 0 : idx[axis]));
          }
      }
    }
  }
}
