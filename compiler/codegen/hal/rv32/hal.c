/* rv32 HAL: bare-metal RV32IMC on QEMU's `virt` machine with picolibc (sw_hal.h: memcpy DMA,
 * the cluster's cores one after another on the one hart; stdio and exit through picolibc's
 * semihosting OS library, so data files are read from QEMU's working directory). es_cycles
 * reads the 64-bit cycle counter mcycleh:mcycle. Under QEMU's TCG it follows the host clock
 * unless QEMU runs with -icount; the generated Makefile (and the tests) run QEMU with
 * -icount shift=0,sleep=off, where it counts executed instructions (one per cycle) and two
 * runs print the same figures. */
#include "sw_hal.h"

/* csrrs rd, mcycle (0xB00) / mcycleh (0xB80), x0, spelled with .insn: -march=rv32imc without
 * Zicsr has no CSR mnemonics in binutils >= 2.38, and the counter is all this HAL needs of
 * Zicsr. The immediate is the CSR number as a signed 12-bit value. */
static uint32_t mcycle_lo(void) {
  uint32_t c;
  __asm__ volatile(".insn i 0x73, 2, %0, x0, -1280" : "=r"(c));
  return c;
}
static uint32_t mcycle_hi(void) {
  uint32_t c;
  __asm__ volatile(".insn i 0x73, 2, %0, x0, -1152" : "=r"(c));
  return c;
}

/* The two halves are read apart: read the high half again after the low one and retry when
 * it moved (the low half wrapped in between). */
uint64_t es_cycles(void) {
  uint32_t hi, lo;
  do {
    hi = mcycle_hi();
    lo = mcycle_lo();
  } while (mcycle_hi() != hi);
  return (uint64_t)hi << 32 | lo;
}
