// Usable deployment budgets (formulas in budgets.h).
#include "platforms/loader/budgets.h"

#include <fmt/format.h>

#include "platforms/loader/loader.h"

namespace edgesim {

DoryBudgets dory_budgets(const PlatformSpec& s) {
  const auto& d = s.budgets.dory;
  if (!d.present)
    throw PlatformError(fmt::format("platform '{}' has no budgets.dory section", s.name));
  DoryBudgets b;
  b.l1 = d.l1 != kAutoBudget ? d.l1
                              : s.l1.size - d.l1_reserved - d.l1_stack_core0 - (d.n_cores - 1) * d.l1_stack_other;
  b.l2 = d.l2 != kAutoBudget ? d.l2 : s.l2.size - d.l2_reserved - d.l2_code_reserved;
  b.l3 = s.l3.size - d.l3_reserved;
  return b;
}

DeeployBudgets deeploy_budgets(const PlatformSpec& s) {
  const auto& d = s.budgets.deeploy;
  if (!d.present)
    throw PlatformError(fmt::format("platform '{}' has no budgets.deeploy section", s.name));
  auto pick = [](int64_t v, int64_t size) { return v == kAutoBudget ? size : v; };
  DeeployBudgets b;
  b.l1 = pick(d.l1, s.l1.size);
  b.l2 = pick(d.l2, s.l2.size);
  b.l3 = pick(d.l3, s.l3.size);
  b.wmem = pick(d.wmem, s.wmem.present ? s.wmem.size : 0);
  return b;
}

}  // namespace edgesim
