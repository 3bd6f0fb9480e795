/* The HAL of edgesim's generated programs: everything the generated network.c, layer files and
 * kernel glue call that depends on the target. One implementation per target (hal/hal.c with
 * its types in hal/hal_impl.h): host (memcpy DMA, cores one after another, host clock), rv32
 * (bare-metal RV32IMC under QEMU, semihosting files, mcycle), pulp (PMSIS cluster DMA, team
 * fork, HyperRAM through the PMSIS RAM API).
 *
 * Contract:
 *  - es_hal_init allocates the memory levels (L1, L2, WMEM: addressable, zero-filled; L3: only
 *    through es_l3_* and the L3 DMA) and must run before anything else; es_hal_exit ends the
 *    program with a status (0 bit-exact, 1 mismatch, 2 error).
 *  - A DMA moves c0 x c1 rows of c2 contiguous bytes; row (i, j) starts at i*s0 + j*s1 bytes
 *    from the side's start (source and destination alike). es_dma_* start a copy and return;
 *    the bytes are only guaranteed after es_dma_wait on the same handle. A handle is reused
 *    only after it was waited.
 *  - es_fork runs fn(arg) on every core of the cluster team and returns when all have
 *    finished; es_core_id / es_num_cores are valid inside fn.
 *  - es_cycles is a free-running 64-bit counter (target cycles on rv32 and pulp, nanoseconds of
 *    the host's monotonic clock on host); the profiling lines print differences of it, summed
 *    in 64 bits (docs/codegen.md "Profiling and verdict lines"). */
#ifndef ES_HAL_H
#define ES_HAL_H
#include <stdint.h>

#include "hal_impl.h"

extern uint8_t *es_l1, *es_l2, *es_wmem;

void es_hal_init(uint32_t l1_bytes, uint32_t l2_bytes, uint32_t l3_bytes, uint32_t wmem_bytes, int ncores);
void es_hal_exit(int status);

/* Cluster DMA between L2 (or WMEM) and L1, and L3 <-> L2 (L3 side as a byte offset). */
void es_dma_in(es_dma_t *h, uint8_t *l1, const uint8_t *l2, int32_t c0, int32_t c1, int32_t c2, int32_t ss0,
               int32_t ss1, int32_t ds0, int32_t ds1);
void es_dma_out(es_dma_t *h, uint8_t *l2, const uint8_t *l1, int32_t c0, int32_t c1, int32_t c2, int32_t ss0,
                int32_t ss1, int32_t ds0, int32_t ds1);
void es_l3_read(es_dma_t *h, uint8_t *l2, uint32_t l3, int32_t c0, int32_t c1, int32_t c2, int32_t ss0, int32_t ss1,
                int32_t ds0, int32_t ds1);
void es_l3_write(es_dma_t *h, uint32_t l3, const uint8_t *l2, int32_t c0, int32_t c1, int32_t c2, int32_t ss0,
                 int32_t ss1, int32_t ds0, int32_t ds1);
void es_dma_wait(es_dma_t *h);

/* Blocking contiguous L3 accesses (setup and output check only). */
void es_l3_store(uint32_t l3, const uint8_t *src, uint32_t bytes);
void es_l3_load(uint8_t *dst, uint32_t l3, uint32_t bytes);

/* Runs fn(arg) on the cluster's master core (the whole step loop runs there) and returns when
 * it has finished. */
void es_cluster_run(void (*fn)(void *), void *arg);
void es_fork(void (*fn)(void *), void *arg);
int es_core_id(void);
int es_num_cores(void);

uint64_t es_cycles(void);

/* Reads `bytes` bytes at `offset` of the data file `name` (next to the program) into dst;
 * returns 0, or -1 when the file is missing or short. */
int es_file_read(const char *name, uint32_t offset, uint8_t *dst, uint32_t bytes);

#endif
