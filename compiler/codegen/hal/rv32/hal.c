/* rv32 HAL: bare-metal RV32IMC on QEMU's `virt` machine with picolibc (sw_hal.h: memcpy DMA,
 * the cluster's cores one after another on the one hart; stdio and exit through picolibc's
 * semihosting OS library, so data files are read from QEMU's working directory). es_cycles
 * reads the mcycle CSR; under QEMU's TCG it follows the host clock unless QEMU runs with
 * -icount, so the figures are indicative only. */
#include "sw_hal.h"

/* csrrs rd, mcycle (0xB00), x0, spelled with .insn: -march=rv32imc without Zicsr has no CSR
 * mnemonics in binutils >= 2.38, and the counter is all this HAL needs of Zicsr. */
uint32_t es_cycles(void) {
  uint32_t c;
  __asm__ volatile(".insn i 0x73, 2, %0, x0, -1280" : "=r"(c));
  return c;
}
