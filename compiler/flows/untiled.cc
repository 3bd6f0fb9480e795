// Deeploy's untiled flow (flow.h), `untiled`: every layer runs on the cluster directly from L2,
// as Deeploy's untiled Siracusa runner does ("all data is in L2; there is no tiling, and cores read
// and write data directly to/from L2", [60] tutorial): whole-tensor steps, Deeploy's kernel calls,
// the cost models charging the L2 latency per core access (docs/tiling.md "untiled").
#include <memory>
#include <stdexcept>

#include "compiler/flows/flow.h"
#include "compiler/flows/kernel_library.h"
#include "compiler/flows/registry.h"
#include "compiler/tiler/internal.h"

namespace edgesim {
namespace {

class UntiledFlow : public Flow {
 public:
  std::string name() const override { return "untiled"; }
  Budgets budgets(const PlatformSpec& spec, int) const override { return deeploy_policy_budgets(spec); }
  std::unique_ptr<TilingPolicy> tiler() const override { return make_untiled_policy(); }
  PlatformSpec kernel_platform(const PlatformSpec& spec) const override { return dory_kernel_library(spec); }
  std::vector<std::string> engines(const std::vector<std::string>& requested) const override {
    for (const std::string& e : requested)
      if (e != "cluster")
        throw std::invalid_argument("policy untiled runs every layer on the cluster from L2 (Deeploy's untiled "
                                    "flow); engine '" + e + "' needs a tiled policy");
    return {"cluster"};
  }
  bool cluster_only() const override { return true; }
  RuntimeConventions conventions(const PlatformSpec&) const override { return {true, false}; }
  bool whole_tensor_steps() const override { return true; }
};

}  // namespace

std::unique_ptr<Flow> make_untiled_flow() { return std::make_unique<UntiledFlow>(); }

}  // namespace edgesim
