// Deeploy's tiled flow (flow.h), `deeploy`: budgets as Deeploy's command line gives them
// (budgets.deeploy), Deeploy's tiler with its buffer coefficients (docs/tiling.md §2), the kernel
// library Deeploy links (budgets.deeploy.cost), its tiling loop (a fork per kernel call, DMA from
// core 0; docs/timing.md), layout ops through L1 ([60] Targets/PULPOpen/Tiler.py), weights
// reloaded per tile when single-buffered, and on an NE16 its pointwise reshape and tile order.
#include <memory>

#include "compiler/flows/flow.h"
#include "compiler/flows/kernel_library.h"
#include "compiler/flows/registry.h"
#include "compiler/tiler/internal.h"

namespace edgesim {
namespace {

class DeeployFlow : public Flow {
 public:
  std::string name() const override { return "deeploy"; }
  Budgets budgets(const PlatformSpec& spec, int buffering) const override {
    Budgets b = deeploy_tiler_budgets(spec, buffering);
    b.ne16_deeploy_rules = true;
    return b;
  }
  std::unique_ptr<TilingPolicy> tiler() const override { return make_deeploy_policy(); }
  PlatformSpec kernel_platform(const PlatformSpec& spec) const override { return deeploy_kernel_library(spec); }
  std::string network_loop() const override { return "deeploy"; }
  RuntimeConventions conventions(const PlatformSpec&) const override { return {true, false}; }
  bool reloads_every_tile() const override { return true; }
  Ne16Pointwise ne16_pointwise() const override { return Ne16Pointwise::deeploy_unless_reshaped; }
  bool reshapes_ne16_pointwise() const override { return true; }
  bool counts_own_l1() const override { return true; }
  bool analytic_deeploy_loop() const override { return true; }
};

}  // namespace

std::unique_ptr<Flow> make_deeploy_flow() { return std::make_unique<DeeployFlow>(); }

}  // namespace edgesim
