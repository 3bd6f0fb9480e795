// DORY's flows (flow.h): `dory`, DORY's current formulation, and `dory-2021`, the 2021 code line
// behind DORY's published GAP8 results (docs/tiling.md §1). Budgets derived from the memory
// sizes (budgets.dory), DORY's tiler, PULP-NN as DORY links it (kernel_library.h), one team fork
// per layer and 3 barriers per tile (docs/timing.md), the network loop of DORY's network.c
// (dory-2021: the paper-era loop, one fork for the whole network).
#include <memory>

#include "compiler/flows/flow.h"
#include "compiler/flows/kernel_library.h"
#include "compiler/flows/registry.h"
#include "compiler/tiler/internal.h"

namespace edgesim {
namespace {

class DoryFlow : public Flow {
 public:
  explicit DoryFlow(bool v2021) : v2021_(v2021) {}
  std::string name() const override { return v2021_ ? "dory-2021" : "dory"; }
  Budgets budgets(const PlatformSpec& spec, int) const override {
    // dory-2021's per-layer L2 deduction for the next layer's prefetched weights is applied by
    // its tiler (dory2021_policy_budgets with the graph).
    return v2021_ ? dory2021_policy_budgets(spec, nullptr, -1) : dory_policy_budgets(spec);
  }
  std::unique_ptr<TilingPolicy> tiler() const override { return make_dory_policy(v2021_); }
  PlatformSpec kernel_platform(const PlatformSpec& spec) const override { return dory_kernel_library(spec); }
  std::string network_loop() const override { return v2021_ ? "dory-2020" : "dory"; }
  RuntimeConventions conventions(const PlatformSpec&) const override { return {}; }
  bool counts_own_l1() const override { return true; }
  // DORY's L1 budget is l1.size less the reservation and the stacks (platforms/loader/budgets.h).
  bool l1_budget_follows_l1_size(const PlatformSpec& spec) const override {
    return !v2021_ && spec.budgets.dory.present;
  }
  bool reports_l1_per_layer() const override { return v2021_; }

 private:
  bool v2021_;
};

}  // namespace

std::unique_ptr<Flow> make_dory_flow() { return std::make_unique<DoryFlow>(false); }
std::unique_ptr<Flow> make_dory2021_flow() { return std::make_unique<DoryFlow>(true); }

}  // namespace edgesim
