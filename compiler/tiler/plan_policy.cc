// A plan's tilings as a tiling policy (plan_policy.h).
#include "compiler/tiler/plan_policy.h"

#include <string>
#include <utility>

namespace edgesim {
namespace {

class PlanPolicy : public TilingPolicy {
 public:
  PlanPolicy(std::string name, std::vector<LayerTiling> tilings) : name_(std::move(name)), tilings_(std::move(tilings)) {}
  std::string name() const override { return name_; }
  LayerTiling tile(const LayerGeom& geom, const TilingContext&) const override {
    for (const LayerTiling& t : tilings_)
      if (t.node == geom.node) return t;
    throw TilingError("layer " + std::to_string(geom.node) + ": not in the " + name_ + " network plan", geom.node);
  }

 private:
  std::string name_;
  std::vector<LayerTiling> tilings_;
};

}  // namespace

std::unique_ptr<TilingPolicy> make_plan_policy(std::string name, std::vector<LayerTiling> tilings) {
  return std::make_unique<PlanPolicy>(std::move(name), std::move(tilings));
}

}  // namespace edgesim
