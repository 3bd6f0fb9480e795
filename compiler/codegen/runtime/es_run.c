/* Kernel glue of the generated programs (es_run.h): pack the call's arguments, fork the team,
 * let each core run the kernel on its share. */
#include "es_run.h"

typedef struct {
  const void *p;
  const es_view_t *a, *b, *y;
  int64_t lo, hi;
} call_t;

#define ENTRY(NAME, CALL)                                 \
  static void NAME(void *arg) {                           \
    const call_t *c = (const call_t *)arg;                \
    const int core = es_core_id(), n = es_num_cores();    \
    CALL;                                                 \
  }

ENTRY(conv_entry, es_conv((const es_conv_p_t *)c->p, c->a, c->b, c->y, core, n))
ENTRY(pool_entry, es_pool((const es_pool_p_t *)c->p, c->a, c->y, core, n))
ENTRY(gemm_entry, es_gemm((const es_gemm_p_t *)c->p, c->a, c->b, c->y, core, n))
ENTRY(add_entry, es_add((const es_add_p_t *)c->p, c->a, c->b, c->y, core, n))
ENTRY(mul_entry, es_mul((const es_rq_t *)c->p, c->a, c->b, c->y, core, n))
ENTRY(clip_entry, es_clip(c->lo, c->hi, c->a, c->y, core, n))
ENTRY(requant_entry, es_requant((const es_rq_t *)c->p, c->a, c->y, core, n))
ENTRY(copy_entry, es_copy(c->a, c->y, core, n))
ENTRY(fill_entry, es_fill(c->lo, c->y, core, n))
ENTRY(quantize_entry, es_quantize((const es_quant_p_t *)c->p, c->a, c->y, core, n))
ENTRY(dequantize_entry, es_dequantize((const es_quant_p_t *)c->p, c->a, c->y, core, n))

static void run(void (*fn)(void *), const void *p, const es_view_t *a, const es_view_t *b, const es_view_t *y,
                int64_t lo, int64_t hi) {
  call_t c;
  c.p = p;
  c.a = a;
  c.b = b;
  c.y = y;
  c.lo = lo;
  c.hi = hi;
  es_fork(fn, &c);
}

void es_run_conv(const es_conv_p_t *p, const es_view_t *x, const es_view_t *w, const es_view_t *y) { run(conv_entry, p, x, w, y, 0, 0); }
void es_run_pool(const es_pool_p_t *p, const es_view_t *x, const es_view_t *y) { run(pool_entry, p, x, 0, y, 0, 0); }
void es_run_gemm(const es_gemm_p_t *p, const es_view_t *a, const es_view_t *b, const es_view_t *y) { run(gemm_entry, p, a, b, y, 0, 0); }
void es_run_add(const es_add_p_t *p, const es_view_t *a, const es_view_t *b, const es_view_t *y) { run(add_entry, p, a, b, y, 0, 0); }
void es_run_mul(const es_rq_t *rq, const es_view_t *a, const es_view_t *b, const es_view_t *y) { run(mul_entry, rq, a, b, y, 0, 0); }
void es_run_clip(int64_t lo, int64_t hi, const es_view_t *x, const es_view_t *y) { run(clip_entry, 0, x, 0, y, lo, hi); }
void es_run_requant(const es_rq_t *rq, const es_view_t *x, const es_view_t *y) { run(requant_entry, rq, x, 0, y, 0, 0); }
void es_run_copy(const es_view_t *x, const es_view_t *y) { run(copy_entry, 0, x, 0, y, 0, 0); }
void es_run_fill(int64_t value, const es_view_t *y) { run(fill_entry, 0, 0, 0, y, value, 0); }
void es_run_quantize(const es_quant_p_t *p, const es_view_t *x, const es_view_t *y) { run(quantize_entry, p, x, 0, y, 0, 0); }
void es_run_dequantize(const es_quant_p_t *p, const es_view_t *x, const es_view_t *y) { run(dequantize_entry, p, x, 0, y, 0, 0); }

int es_run_npu_conv(const es_conv_p_t *p, const es_npu_geom_t *g, int32_t r0, int32_t skip, const es_view_t *x,
                    const es_view_t *w, const es_view_t *y, int8_t *scratch) {
  const int32_t nc = y->shape[1];
  if (es_npu_decode(g, (const uint8_t *)w->p, r0, w->shape[0], skip, nc, scratch) != 0) return -1;
  es_view_t wd;
  wd.p = scratch;
  wd.dtype = ES_I8;
  wd.rank = 4;
  wd.shape[0] = nc;
  wd.shape[1] = g->ki;
  wd.shape[2] = wd.shape[3] = g->k;
  wd.stride[3] = 1;
  wd.stride[2] = g->k;
  wd.stride[1] = g->k * g->k;
  wd.stride[0] = g->ki * g->k * g->k;
  es_run_conv(p, x, &wd, y);
  return 0;
}

int es_run_npu_gemm(const es_gemm_p_t *p, const es_npu_geom_t *g, int32_t r0, int32_t skip, const es_view_t *a,
                    const es_view_t *w, const es_view_t *y, int8_t *scratch) {
  const int32_t r = y->rank, nc = y->shape[r - 1];
  if (es_npu_decode(g, (const uint8_t *)w->p, r0, w->shape[0], skip, nc, scratch) != 0) return -1;
  es_view_t b; /* the decoded rows: B as [nc, K], K-last, broadcast over y's batch axes */
  b.p = scratch;
  b.dtype = ES_I8;
  b.rank = r;
  for (int32_t d = 0; d < r - 2; ++d) b.shape[d] = y->shape[d], b.stride[d] = 0;
  b.shape[r - 2] = nc;
  b.shape[r - 1] = g->ki;
  b.stride[r - 2] = g->ki;
  b.stride[r - 1] = 1;
  es_run_gemm(p, a, &b, y);
  return 0;
}
