/* NPU weight decoding (the layouts of kernels/npu/weights.h, facts from pulp-nnx's weight
 * unroll): the C equivalent of an NE16 / N-EUREKA layer decodes the encoded weight rows the
 * schedule moved and runs es_conv on them, so a wrong row range or layout is a bit-exactness
 * failure of the generated program, as it is in the simulator. */
#include "es_kernels.h"

enum { NEUREKA_BLOCK_1X1 = 32, NEUREKA_BLOCK_3X3 = 28, NEUREKA_WORD_3X3 = 32, NE16_BLOCK = 16, NE16_WORD = 2 };
enum { OP_3X3 = 0, OP_1X1 = 1, OP_DW3X3 = 2 };

/* Bit position (from the row start) of bit b of weight (ci, tap t) of channel m of a row. */
static int32_t locate(const es_npu_geom_t *g, int32_t m, int32_t ci, int32_t t, int32_t b) {
  const int32_t qw = g->w_bits;
  if (g->impl == 0) {
    if (g->op == OP_1X1) {
      const int32_t j = ci / NEUREKA_BLOCK_1X1, cc = ci % NEUREKA_BLOCK_1X1;
      return (j * NEUREKA_BLOCK_1X1 + (cc / 4) * 4) * 8 + b * 4 + cc % 4;
    }
    if (g->op == OP_3X3) {
      const int32_t j = ci / NEUREKA_BLOCK_3X3, c = ci % NEUREKA_BLOCK_3X3;
      return (j * qw + b) * NEUREKA_WORD_3X3 * 8 + NEUREKA_BLOCK_3X3 * t + c;
    }
    return b * NEUREKA_WORD_3X3 * 8 + NEUREKA_BLOCK_3X3 * t + m;
  }
  const int32_t taps = g->k * g->k;
  if (g->op == OP_DW3X3) return (b * taps + t) * NE16_WORD * 8 + m;
  const int32_t j = ci / NE16_BLOCK, c = ci % NE16_BLOCK;
  return ((j * qw + b) * taps + t) * NE16_WORD * 8 + c;
}

int es_npu_decode(const es_npu_geom_t *g, const uint8_t *rows, int32_t r0, int32_t n_rows, int32_t skip, int32_t nc,
                  int8_t *out) {
  const int dw = g->op == OP_DW3X3;
  const int32_t c0 = r0 * g->channels_per_row;
  int32_t have = dw ? n_rows * g->channels_per_row : n_rows;
  if (dw && have > g->ko - c0) have = g->ko - c0;
  if (skip < 0 || skip + nc > have) return -1;
  const int32_t sign = 1 << (g->w_bits - 1), taps = g->k * g->k;
  int32_t flat = 0;
  for (int32_t ch = skip; ch < skip + nc; ++ch) {
    const int32_t row = dw ? ch / g->channels_per_row : ch;
    const int32_t m = dw ? (c0 + ch) % g->channels_per_row : 0;
    const uint8_t *rp = rows + (int64_t)row * g->row_bytes;
    for (int32_t ci = 0; ci < g->ki; ++ci)
      for (int32_t t = 0; t < taps; ++t) {
        int32_t pattern = 0;
        for (int32_t b = 0; b < g->w_bits; ++b) {
          const int32_t bit = locate(g, m, ci, t, b);
          if ((rp[bit / 8] >> (bit % 8)) & 1) pattern |= 1 << b;
        }
        out[flat++] = (int8_t)((pattern ^ sign) - sign);
      }
  }
  return 0;
}
