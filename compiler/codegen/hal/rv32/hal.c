/* rv32 HAL: bare-metal RV32IMC on QEMU's `virt` machine with picolibc (sw_hal.h: memcpy DMA,
 * the cluster's cores one after another on the one hart; stdio and exit through picolibc's
 * semihosting OS library, so data files are read from QEMU's working directory). es_cycles
 * reads the mcycle CSR; under QEMU's TCG it follows the host clock unless QEMU runs with
 * -icount, so the figures are indicative only. */
#include "sw_hal.h"

uint32_t es_cycles(void) {
  uint32_t c;
  __asm__ volatile("csrr %0, mcycle" : "=r"(c));
  return c;
}
