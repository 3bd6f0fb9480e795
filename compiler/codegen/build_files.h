// The build file of a generated program, per HAL (docs/codegen.md "Building and running"):
//   host  Makefile: `make` builds ./network with the host compiler, `make run` runs it;
//   rv32  Makefile: riscv64-unknown-elf-gcc -march=rv32imc -mabi=ilp32 with picolibc's
//         semihosting, `make run` boots it on qemu-system-riscv32 -M virt -icount shift=0,sleep=off;
//   pulp  Makefile for the PULP / GAP SDK (PMSIS rules) plus `make -f Makefile.check`, which
//         compiles every source with -Wall -Werror against hal/pmsis_api/pmsis.h, the header
//         declaring exactly the PMSIS functions the HAL uses.
#pragma once
#include <vector>

#include "compiler/codegen/codegen.h"

namespace edgesim::codegen {

std::vector<ProgramFile> build_files(const ProgramRequest& req, size_t n_layers);

}  // namespace edgesim::codegen
