/* edgesim portable C99 int8 kernels: the C counterparts of the reference kernels
 * (kernels/reference.h), same semantics, written for deployment: PULP-NN-shaped loops (HWC
 * activations, 4x2 output blocking: four output channels by two output pixels per inner
 * iteration, the work of a call split by core id), no allocation, no libc beyond <math.h>.
 *
 * Every kernel takes views (es_view_t: base pointer, dtype, logical shape, element strides) and
 * runs the part of the work of core `core` of `ncores` (0 <= core < ncores): calling it once for
 * every core id, in any order or in parallel, computes the whole output. The code generator
 * (compiler/codegen) normalises the Schedule's views before the call: broadcast operands get
 * stride 0, a Gemm operand is presented K-last, Transpose / Reshape / Concat become strided
 * copies. Accumulation is exact (int64), as in the reference; the requantisation is
 * kernels/core/requant.h's, evaluated in int64 (integer forms) or double (float form). */
#ifndef ES_KERNELS_H
#define ES_KERNELS_H
#include <stdint.h>

#define ES_MAX_RANK 8

/* Element types, in the order of edgesim's DType. */
enum { ES_U8 = 0, ES_I8 = 1, ES_I16 = 2, ES_I32 = 3, ES_I64 = 4, ES_F32 = 5 };

typedef struct {
  void *p;                       /* element (0, ..., 0) */
  int32_t dtype;                 /* ES_U8 ... ES_F32 */
  int32_t rank;
  int32_t shape[ES_MAX_RANK];
  int32_t stride[ES_MAX_RANK];   /* in elements; 0 on a broadcast axis */
} es_view_t;

/* Requant (kernels/core/requant.h): kind 0 none (clamp only), 1 integer, 2 float. `axis` is the
 * output axis that indexes k / lambda / scale (-1: per tensor); conv and pool use the channel. */
typedef struct {
  int32_t kind, axis;
  int32_t nk; const int64_t *k;
  int32_t nl; const int64_t *lambda;
  int64_t mul; int32_t shift; int64_t round; int64_t div;
  int32_t ns; const double *scale;
  int64_t zp, lo, hi;
} es_rq_t;

typedef struct {
  int32_t kh, kw, sh, sw, dh, dw, pad_t, pad_l, groups;
  int64_t x_zp;
  int32_t nbias; const int64_t *bias;   /* 0 or Cout entries */
  int32_t nwzp; const int64_t *w_zp;    /* 0, 1 or Cout entries */
  es_rq_t rq;
} es_conv_p_t;

typedef struct {
  int32_t sum;                          /* 0 max, 1 sum */
  int32_t kh, kw, sh, sw, pad_t, pad_l;
  int64_t x_zp;
  es_rq_t rq;
} es_pool_p_t;

/* a [.., M, K], b [.., N, K] (both K-last), y [.., M, N], batch axes aligned (stride 0 where
 * an operand broadcasts); rq.axis indexes y's axes. bias element (m, n) at bias[m*bias_sm +
 * n*bias_sn] when nbias > 0. */
typedef struct {
  int32_t nbias; const int64_t *bias; int32_t bias_sm, bias_sn;
  int32_t nazp; const int64_t *a_zp;    /* 0, 1 or M entries */
  int32_t nbzp; const int64_t *b_zp;    /* 0, 1 or N entries */
  es_rq_t rq;
} es_gemm_p_t;

typedef struct {
  int64_t mul1, add1, shift1, mul2, add2, shift2, shift_sum;
  es_rq_t rq;
} es_add_p_t;

typedef struct {
  int32_t axis;                         /* -1 per tensor */
  int32_t nscale; const float *scale;
  int32_t nzp; const int64_t *zp;
} es_quant_p_t;

int64_t es_rq_apply(const es_rq_t *rq, int64_t acc, int32_t c);
int64_t es_load(const es_view_t *v, int64_t elem);          /* element at an element offset */
void es_store(const es_view_t *v, int64_t elem, int64_t x);  /* truncates to the dtype */
int64_t es_numel(const es_view_t *v);

/* x [N,C,H,W], w [Cout,C/groups,kh,kw], y [N,Cout,Ho,Wo] (strided; HWC tiles are the fast case). */
void es_conv(const es_conv_p_t *p, const es_view_t *x, const es_view_t *w, const es_view_t *y, int core, int ncores);
void es_pool(const es_pool_p_t *p, const es_view_t *x, const es_view_t *y, int core, int ncores);
void es_gemm(const es_gemm_p_t *p, const es_view_t *a, const es_view_t *b, const es_view_t *y, int core, int ncores);
/* Element-wise on views of y's rank (broadcast operands with stride 0). */
void es_add(const es_add_p_t *p, const es_view_t *a, const es_view_t *b, const es_view_t *y, int core, int ncores);
void es_mul(const es_rq_t *rq, const es_view_t *a, const es_view_t *b, const es_view_t *y, int core, int ncores);
void es_clip(int64_t lo, int64_t hi, const es_view_t *x, const es_view_t *y, int core, int ncores);
void es_requant(const es_rq_t *rq, const es_view_t *x, const es_view_t *y, int core, int ncores);
/* y = x element by element, both walked in row-major order of their own shapes (equal numel). */
void es_copy(const es_view_t *x, const es_view_t *y, int core, int ncores);
void es_fill(int64_t value, const es_view_t *y, int core, int ncores);
void es_quantize(const es_quant_p_t *p, const es_view_t *x, const es_view_t *y, int core, int ncores);
void es_dequantize(const es_quant_p_t *p, const es_view_t *x, const es_view_t *y, int core, int ncores);

/* NPU weight layouts (kernels/npu/weights.h): decodes n_rows encoded rows starting at `rows`
 * (row r0 of the layer's encoding) into logical int8 weights [channels, ki, k, k], row-major,
 * skipping the first `skip` channels and keeping `nc`. impl 0 neureka, 1 ne16; op 0 3x3,
 * 1 1x1, 2 dw3x3. Returns 0, or -1 when the rows hold fewer than skip + nc channels. */
typedef struct {
  int32_t impl, op, ko, ki, k, w_bits, rows, row_bytes, channels_per_row;
} es_npu_geom_t;
int es_npu_decode(const es_npu_geom_t *g, const uint8_t *rows, int32_t r0, int32_t n_rows, int32_t skip,
                  int32_t nc, int8_t *out);

#endif
