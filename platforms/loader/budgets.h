// Usable memory budgets of the deployment policies, derived from a PlatformSpec.
//
// DORY (docs/tiling.md): budgets follow the memory sizes, so `--set l1.size=...` moves them:
//   L1 = l1.size − budgets.dory.l1_reserved − l1_stack_core0 − (budgets.dory.n_cores − 1)·l1_stack_other
//   L2 = l2.size − budgets.dory.l2_reserved − budgets.dory.l2_code_reserved
//   L3 = l3.size − budgets.dory.l3_reserved
// unless budgets.dory.l1 / budgets.dory.l2 give them directly, as DORY's --l1_buffer_size and
// --l2_buffer_size do (the buffers alone: stacks and code are outside them). An explicit budget
// only has to be positive and within its memory (less *_reserved): one too small for a layer is
// the tiler's error naming that layer.
// `*_reserved` is the part of the hardware memory DORY's own descriptor leaves out (e.g. GAP8:
// 64 KiB of TCDM, descriptor 64,000 B ⇒ 1,536 B), so the defaults reproduce DORY's budgets
// exactly (GAP8 L1 36,700 B).
// Deeploy (docs/tiling.md): budgets are absolute numbers as Deeploy's command line takes them;
// `auto` means the size of that memory level.
// The loader guarantees at load time that every budget is positive and fits its memory.
#pragma once
#include <cstdint>
#include <string>

#include "platforms/loader/spec.h"

namespace edgesim {

struct DoryBudgets {
  int64_t l1 = 0, l2 = 0, l3 = 0;
};

struct DeeployBudgets {
  int64_t l1 = 0, l2 = 0, l3 = 0, wmem = 0;
};

// Both throw PlatformError when the platform has no budgets.dory / budgets.deeploy section.
DoryBudgets dory_budgets(const PlatformSpec& spec);
DeeployBudgets deeploy_budgets(const PlatformSpec& spec);

// Which flow applies which kernel-library patch (budgets.dory.lto, bn_bits, budgets.deeploy.cost)
// is the flows' business: compiler/flows/kernel_library.h.

}  // namespace edgesim
