/* pulp HAL: the generated program on a PULP / GAP chip through the PMSIS API (GAP SDK, PULP
 * SDK). main() runs on the fabric controller: it opens the cluster (L1 from pi_cl_l1_malloc),
 * allocates L2 (pi_l2_malloc) and the L3 image in HyperRAM (pi_ram_alloc), reads the data files
 * through the PMSIS file system and sends the step loop to the cluster's master core. There, L2
 * <-> L1 copies are cluster DMA transfers (pi_cl_dma_cmd / pi_cl_dma_cmd_2d: a contiguous
 * local side and a 2-D external side; other shapes are split into such transfers), L3 <-> L2
 * copies are pi_cl_ram_read / pi_cl_ram_write per contiguous run, waited at once (so their
 * handles need no wait), kernels are forked on the team with pi_cl_team_fork, and es_cycles reads
 * the cluster's cycle counter (pi_perf_read(PI_PERF_CYCLES), 32 bits, widened to 64 below).
 * WMEM is an L2 buffer (no weight memory on GAP8 / GAP9). The PMSIS functions used are
 * declared, with their sources, in hal/pmsis_api/pmsis.h (the compile check); a real build
 * includes the SDK's pmsis.h. */
#include <stdio.h>
#include <string.h>

#include "es_hal.h"

#ifndef ES_PULP_CORES
#define ES_PULP_CORES 8
#endif

uint8_t *es_l1, *es_l2, *es_wmem;
static uint32_t es_l3_base;
static struct pi_device cluster_dev, ram_dev, fs_dev;
static int ncores = 1;

static void die(const char *what) {
  printf("edgesim-verdict: ERROR %s\n", what);
  pmsis_exit(2);
}

void es_hal_init(uint32_t l1_bytes, uint32_t l2_bytes, uint32_t l3_bytes, uint32_t wmem_bytes, int n) {
  struct pi_cluster_conf cl_conf;
  pi_cluster_conf_init(&cl_conf);
  pi_open_from_conf(&cluster_dev, &cl_conf);
  if (pi_cluster_open(&cluster_dev)) die("cannot open the cluster");
  struct pi_hyperram_conf ram_conf;
  pi_hyperram_conf_init(&ram_conf);
  pi_open_from_conf(&ram_dev, &ram_conf);
  if (l3_bytes && (pi_ram_open(&ram_dev) || pi_ram_alloc(&ram_dev, &es_l3_base, l3_bytes))) die("cannot allocate L3");
  struct pi_fs_conf fs_conf;
  pi_fs_conf_init(&fs_conf);
  fs_conf.type = PI_FS_HOST;
  pi_open_from_conf(&fs_dev, &fs_conf);
  if (pi_fs_mount(&fs_dev)) die("cannot mount the file system");
  es_l1 = (uint8_t *)pi_cl_l1_malloc(&cluster_dev, l1_bytes + 4);
  es_l2 = (uint8_t *)pi_l2_malloc(l2_bytes + 4);
  es_wmem = (uint8_t *)pi_l2_malloc(wmem_bytes + 4);
  if (!es_l1 || !es_l2 || !es_wmem) die("cannot allocate L1 / L2");
  memset(es_l2, 0, l2_bytes);
  memset(es_wmem, 0, wmem_bytes);
  ncores = n < ES_PULP_CORES ? n : ES_PULP_CORES;
}

void es_hal_exit(int status) { pmsis_exit(status); }

/* Bytes per cluster DMA transfer at most: MCHAN's length field is 17 bits, at most 128 KiB per
 * command (cluster.dma.max_cmd_bytes of platforms/presets/pulp_cluster.yaml, docs/sources.md
 * [9]); transfers are cut at 64 KiB, below it on every platform. */
#define ES_DMA_MAX 65536u

/* A contiguous run as 1-D transfers of at most ES_DMA_MAX bytes. */
static void dma_1d(es_dma_t *h, uint8_t *ext, uint8_t *loc, uint32_t size, pi_cl_dma_dir_e dir) {
  for (uint32_t o = 0; o < size; o += ES_DMA_MAX)
    pi_cl_dma_cmd((uint32_t)(ext + o), (uint32_t)(loc + o), size - o < ES_DMA_MAX ? size - o : ES_DMA_MAX, dir, &h->cmd);
}

/* One copy as transfers with a contiguous local side: rows of c2 bytes; rows contiguous in L1
 * and evenly strided outside go as 2-D transfers of as many whole rows as ES_DMA_MAX allows. */
static void dma(es_dma_t *h, uint8_t *ext, uint8_t *loc, int32_t c0, int32_t c1, int32_t c2, int32_t es0, int32_t es1,
                int32_t ls0, int32_t ls1, pi_cl_dma_dir_e dir) {
  const int rows_packed = c1 == 1 || ls1 == c2;
  const int32_t per = c2 > 0 && (uint32_t)c2 <= ES_DMA_MAX ? (int32_t)(ES_DMA_MAX / (uint32_t)c2) : 1;
  for (int32_t i = 0; i < c0; ++i) {
    uint8_t *e = ext + i * es0, *l = loc + i * ls0;
    if (rows_packed && (c1 == 1 || es1 == c2)) {
      dma_1d(h, e, l, (uint32_t)(c1 * c2), dir);
    } else if (rows_packed && (uint32_t)c2 <= ES_DMA_MAX) {
      for (int32_t j = 0; j < c1; j += per) {
        const int32_t n = c1 - j < per ? c1 - j : per;
        pi_cl_dma_cmd_2d((uint32_t)(e + j * es1), (uint32_t)(l + j * c2), (uint32_t)(n * c2), (uint32_t)es1, (uint32_t)c2,
                         dir, &h->cmd);
      }
    } else {
      for (int32_t j = 0; j < c1; ++j) dma_1d(h, e + j * es1, l + j * ls1, (uint32_t)c2, dir);
    }
  }
  h->pending = 1;
}

void es_dma_in(es_dma_t *h, uint8_t *l1, const uint8_t *l2, int32_t c0, int32_t c1, int32_t c2, int32_t ss0,
               int32_t ss1, int32_t ds0, int32_t ds1) {
  dma(h, (uint8_t *)l2, l1, c0, c1, c2, ss0, ss1, ds0, ds1, PI_CL_DMA_DIR_EXT2LOC);
}

void es_dma_out(es_dma_t *h, uint8_t *l2, const uint8_t *l1, int32_t c0, int32_t c1, int32_t c2, int32_t ss0,
                int32_t ss1, int32_t ds0, int32_t ds1) {
  dma(h, l2, (uint8_t *)l1, c0, c1, c2, ds0, ds1, ss0, ss1, PI_CL_DMA_DIR_LOC2EXT);
}

void es_dma_wait(es_dma_t *h) {
  if (h->pending) pi_cl_dma_cmd_wait(&h->cmd);
  h->pending = 0;
}

void es_l3_read(es_dma_t *h, uint8_t *l2, uint32_t l3, int32_t c0, int32_t c1, int32_t c2, int32_t ss0, int32_t ss1,
                int32_t ds0, int32_t ds1) {
  pi_cl_ram_req_t req;
  (void)h;
  for (int32_t i = 0; i < c0; ++i)
    for (int32_t j = 0; j < c1; ++j) {
      pi_cl_ram_read(&ram_dev, es_l3_base + l3 + (uint32_t)(i * ss0 + j * ss1), l2 + i * ds0 + j * ds1, (uint32_t)c2, &req);
      pi_cl_ram_read_wait(&req);
    }
}

void es_l3_write(es_dma_t *h, uint32_t l3, const uint8_t *l2, int32_t c0, int32_t c1, int32_t c2, int32_t ss0,
                 int32_t ss1, int32_t ds0, int32_t ds1) {
  pi_cl_ram_req_t req;
  (void)h;
  for (int32_t i = 0; i < c0; ++i)
    for (int32_t j = 0; j < c1; ++j) {
      pi_cl_ram_write(&ram_dev, es_l3_base + l3 + (uint32_t)(i * ds0 + j * ds1), (void *)(l2 + i * ss0 + j * ss1),
                      (uint32_t)c2, &req);
      pi_cl_ram_write_wait(&req);
    }
}

void es_l3_store(uint32_t l3, const uint8_t *src, uint32_t bytes) {
  pi_ram_write(&ram_dev, es_l3_base + l3, (void *)src, bytes);
}

void es_l3_load(uint8_t *dst, uint32_t l3, uint32_t bytes) { pi_ram_read(&ram_dev, es_l3_base + l3, dst, bytes); }

void es_cluster_run(void (*fn)(void *), void *arg) {
  struct pi_cluster_task task;
  pi_cluster_task(&task, fn, arg);
  pi_cluster_send_task_to_cl(&cluster_dev, &task);
}

void es_fork(void (*fn)(void *), void *arg) { pi_cl_team_fork(ncores, fn, arg); }
int es_core_id(void) { return (int)pi_core_id(); }
int es_num_cores(void) { return ncores; }

/* Started at the first read on the cluster (the step loop runs there, on the master core only).
 * PMSIS's cycle counter is 32 bits (pi_perf_read returns an unsigned int); it is widened to 64
 * bits by adding the 32-bit difference to the previous read, which is exact as long as two
 * reads are less than 2^32 cycles apart: the step loop reads it around every step, so only a
 * single step of 2^32 cycles or more (over 24 s at GAP8's 175 MHz) would still wrap. */
uint64_t es_cycles(void) {
  static int started;
  static uint32_t last;
  static uint64_t wide;
  if (!started) {
    pi_perf_conf(1 << PI_PERF_CYCLES);
    pi_perf_reset();
    pi_perf_start();
    started = 1;
    last = (uint32_t)pi_perf_read(PI_PERF_CYCLES);
  }
  const uint32_t now = (uint32_t)pi_perf_read(PI_PERF_CYCLES);
  wide += (uint32_t)(now - last);
  last = now;
  return wide;
}

int es_file_read(const char *name, uint32_t offset, uint8_t *dst, uint32_t bytes) {
  pi_fs_file_t *f = pi_fs_open(&fs_dev, name, PI_FS_FLAGS_READ);
  if (!f) return -1;
  pi_fs_seek(f, offset);
  const int32_t got = pi_fs_read(f, dst, bytes);
  pi_fs_close(f);
  return got == (int32_t)bytes ? 0 : -1;
}
