// The autotuner's flow (flow.h), `tuned`: the network is planned by the autotuner
// (compiler/tune/tuned_plan.h; docs/tune.md) — branch order, engines, NPU weight homes and every
// layer's tiling, which may be DORY's loop ("tuned") or Deeploy's ("tuned-deeploy", a flow of
// layers only). Budgets: the larger of DORY's and Deeploy's per level, as either flow's tile may
// be chosen; each layer its own buffering; PULP-NN's pulp_nn_depthwise_3x3_s1 on a PULP cluster.
#include <algorithm>
#include <memory>
#include <stdexcept>

#include "compiler/flows/flow.h"
#include "compiler/flows/kernel_library.h"
#include "compiler/flows/registry.h"
#include "compiler/tiler/internal.h"

namespace edgesim {
namespace {

class TunedFlow : public Flow {
 public:
  explicit TunedFlow(bool deeploy_loop) : deeploy_loop_(deeploy_loop) {}
  std::string name() const override { return deeploy_loop_ ? "tuned-deeploy" : "tuned"; }
  bool selectable() const override { return !deeploy_loop_; }
  std::string network_flow() const override { return "tuned"; }
  Budgets budgets(const PlatformSpec& spec, int) const override {
    Budgets b = dory_policy_budgets(spec);
    const Budgets d = deeploy_policy_budgets(spec);
    b.l1 = std::max(b.l1, d.l1);
    b.l2 = std::max(b.l2, d.l2);
    b.l3 = std::max(b.l3, d.l3);
    return b;
  }
  std::unique_ptr<TilingPolicy> tiler() const override {
    throw std::invalid_argument("policy 'tuned' has no tiler of its own: its tilings are the autotuner's network "
                                "plan (compile through compile_network, compiler/pipeline/compile.h)");
  }
  // A tuned layer on Deeploy's loop keeps the platform's kernels (the plan's library, when it is
  // Deeploy's, is applied to the whole network: NetworkTuneResult::library).
  PlatformSpec kernel_platform(const PlatformSpec& spec) const override {
    return deeploy_loop_ ? spec : dory_kernel_library(spec);
  }
  std::string network_loop() const override { return deeploy_loop_ ? "deeploy" : "dory"; }
  int auto_buffering(const PlatformSpec&) const override { return 0; }
  RuntimeConventions conventions(const PlatformSpec& spec) const override {
    RuntimeConventions c;
    c.deeploy_loop = deeploy_loop_;
    c.dw3x3_s1 = !deeploy_loop_ && spec.cluster.present && spec.cluster.impl == "pulp_cluster";
    return c;
  }
  Ne16Pointwise ne16_pointwise() const override { return deeploy_loop_ ? Ne16Pointwise::deeploy : Ne16Pointwise::own; }
  bool tuned_layer() const override { return true; }
  bool tuned_accel_tiles() const override { return !deeploy_loop_; }
  bool plans_network() const override { return !deeploy_loop_; }

 private:
  bool deeploy_loop_;
};

}  // namespace

std::unique_ptr<Flow> make_tuned_flow() { return std::make_unique<TunedFlow>(false); }
std::unique_ptr<Flow> make_tuned_deeploy_flow() { return std::make_unique<TunedFlow>(true); }

}  // namespace edgesim
