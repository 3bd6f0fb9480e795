/* The HAL of targets without a DMA engine or a cluster (host, rv32; their hal.c adds the
 * clock): DMA is memcpy, so a copy completes when it is started and es_dma_wait has nothing to
 * do; L3 is a byte array like the other levels; the cores of a fork run one after another;
 * files through stdio (on rv32, picolibc's semihosting turns them into host calls). */
#ifndef ES_SW_HAL_H
#define ES_SW_HAL_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "es_hal.h"

static void sw_copy(uint8_t *dst, const uint8_t *src, int32_t c0, int32_t c1, int32_t c2, int32_t ss0, int32_t ss1,
                    int32_t ds0, int32_t ds1) {
  for (int32_t i = 0; i < c0; ++i)
    for (int32_t j = 0; j < c1; ++j)
      memmove(dst + (int64_t)i * ds0 + (int64_t)j * ds1, src + (int64_t)i * ss0 + (int64_t)j * ss1, (size_t)c2);
}

static uint8_t *sw_l3;

void es_dma_in(es_dma_t *h, uint8_t *l1, const uint8_t *l2, int32_t c0, int32_t c1, int32_t c2, int32_t ss0,
               int32_t ss1, int32_t ds0, int32_t ds1) {
  (void)h;
  sw_copy(l1, l2, c0, c1, c2, ss0, ss1, ds0, ds1);
}
void es_dma_out(es_dma_t *h, uint8_t *l2, const uint8_t *l1, int32_t c0, int32_t c1, int32_t c2, int32_t ss0,
                int32_t ss1, int32_t ds0, int32_t ds1) {
  (void)h;
  sw_copy(l2, l1, c0, c1, c2, ss0, ss1, ds0, ds1);
}
void es_l3_read(es_dma_t *h, uint8_t *l2, uint32_t l3, int32_t c0, int32_t c1, int32_t c2, int32_t ss0, int32_t ss1,
                int32_t ds0, int32_t ds1) {
  (void)h;
  sw_copy(l2, sw_l3 + l3, c0, c1, c2, ss0, ss1, ds0, ds1);
}
void es_l3_write(es_dma_t *h, uint32_t l3, const uint8_t *l2, int32_t c0, int32_t c1, int32_t c2, int32_t ss0,
                 int32_t ss1, int32_t ds0, int32_t ds1) {
  (void)h;
  sw_copy(sw_l3 + l3, l2, c0, c1, c2, ss0, ss1, ds0, ds1);
}
void es_dma_wait(es_dma_t *h) { (void)h; }
void es_l3_store(uint32_t l3, const uint8_t *src, uint32_t bytes) { memcpy(sw_l3 + l3, src, bytes); }
void es_l3_load(uint8_t *dst, uint32_t l3, uint32_t bytes) { memcpy(dst, sw_l3 + l3, bytes); }

void es_cluster_run(void (*fn)(void *), void *arg) { fn(arg); }

/* Cores one after another: fn runs for core 0, 1, ..., n-1 in turn. */
static int sw_ncores = 1, sw_core = 0;
void es_fork(void (*fn)(void *), void *arg) {
  for (sw_core = 0; sw_core < sw_ncores; ++sw_core) fn(arg);
  sw_core = 0;
}
int es_core_id(void) { return sw_core; }
int es_num_cores(void) { return sw_ncores; }

uint8_t *es_l1, *es_l2, *es_wmem;

/* Levels from calloc (zero-filled); at least one byte each so the pointers are distinct. */
void es_hal_init(uint32_t l1_bytes, uint32_t l2_bytes, uint32_t l3_bytes, uint32_t wmem_bytes, int ncores) {
  es_l1 = (uint8_t *)calloc(l1_bytes + 1, 1);
  es_l2 = (uint8_t *)calloc(l2_bytes + 1, 1);
  sw_l3 = (uint8_t *)calloc(l3_bytes + 1, 1);
  es_wmem = (uint8_t *)calloc(wmem_bytes + 1, 1);
  sw_ncores = ncores > 0 ? ncores : 1;
  if (!es_l1 || !es_l2 || !sw_l3 || !es_wmem) {
    printf("edgesim-verdict: ERROR cannot allocate the memory levels\n");
    exit(2);
  }
}

void es_hal_exit(int status) {
  fflush(stdout);
  exit(status);
}

int es_file_read(const char *name, uint32_t offset, uint8_t *dst, uint32_t bytes) {
  FILE *f = fopen(name, "rb");
  if (!f) return -1;
  int ok = fseek(f, (long)offset, SEEK_SET) == 0 && fread(dst, 1, bytes, f) == bytes;
  fclose(f);
  return ok ? 0 : -1;
}

#endif
