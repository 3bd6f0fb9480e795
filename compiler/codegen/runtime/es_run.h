/* The calls the generated layer files make for a Compute command: each runs one C kernel
 * (kernels/es_kernels.h) on every core of the cluster through es_fork, every core doing its
 * own share (the kernels split the work by core id). es_run_npu_conv is the C equivalent of an
 * NE16 / N-EUREKA job: core 0 decodes the tile's encoded weight rows into `scratch`, then the
 * cores run es_conv on them. */
#ifndef ES_RUN_H
#define ES_RUN_H
#include "es_hal.h"
#include "es_kernels.h"

void es_run_conv(const es_conv_p_t *p, const es_view_t *x, const es_view_t *w, const es_view_t *y);
void es_run_pool(const es_pool_p_t *p, const es_view_t *x, const es_view_t *y);
void es_run_gemm(const es_gemm_p_t *p, const es_view_t *a, const es_view_t *b, const es_view_t *y);
void es_run_add(const es_add_p_t *p, const es_view_t *a, const es_view_t *b, const es_view_t *y);
void es_run_mul(const es_rq_t *rq, const es_view_t *a, const es_view_t *b, const es_view_t *y);
void es_run_clip(int64_t lo, int64_t hi, const es_view_t *x, const es_view_t *y);
void es_run_requant(const es_rq_t *rq, const es_view_t *x, const es_view_t *y);
void es_run_copy(const es_view_t *x, const es_view_t *y);
void es_run_fill(int64_t value, const es_view_t *y);
void es_run_quantize(const es_quant_p_t *p, const es_view_t *x, const es_view_t *y);
void es_run_dequantize(const es_quant_p_t *p, const es_view_t *x, const es_view_t *y);
/* w: the encoded rows [n_rows, row_bytes] (u8); returns -1 when they lack the tile's channels. */
/* A Gemm on the NPU (1x1 lowering): decodes the tile's weight rows as B [N, K] and runs es_gemm. */
int es_run_npu_gemm(const es_gemm_p_t *p, const es_npu_geom_t *g, int32_t r0, int32_t skip, const es_view_t *a,
                    const es_view_t *w, const es_view_t *y, int8_t *scratch);
int es_run_npu_conv(const es_conv_p_t *p, const es_npu_geom_t *g, int32_t r0, int32_t skip, const es_view_t *x,
                    const es_view_t *w, const es_view_t *y, int8_t *scratch);

#endif
