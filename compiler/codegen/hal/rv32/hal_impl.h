/* rv32 HAL types: DMA copies are synchronous memcpy, a handle carries nothing. */
#ifndef ES_HAL_IMPL_H
#define ES_HAL_IMPL_H
typedef struct { int unused; } es_dma_t;
#endif
