/* pulp HAL types: a cluster DMA handle is the PMSIS command of the copy's last transfer (a
 * copy with strided rows on both sides is issued as several 2-D / 1-D transfers; the cluster
 * DMA completes one core's transfers in order, so waiting for the last one waits for all). */
#ifndef ES_HAL_IMPL_H
#define ES_HAL_IMPL_H
#include "pmsis.h"
typedef struct {
  pi_cl_dma_cmd_t cmd;
  int pending;
} es_dma_t;
#endif
