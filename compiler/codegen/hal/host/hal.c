/* host HAL: the generated program runs as an ordinary process (sw_hal.h: memcpy DMA, cores one
 * after another, data files from the working directory). es_cycles reads the monotonic clock in
 * nanoseconds, not target cycles: host figures show that the profiling path works, not a
 * chip's timing. */
#define _POSIX_C_SOURCE 199309L
#include <time.h>

#include "sw_hal.h"

uint64_t es_cycles(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}
