// The registry of deployment flows (flow.h): one entry per flow in the list in flows(), in
// --policy order. A new flow is a file with its factory (registry.h) and its entry here
// (docs/extending.md "A flow").
#include "compiler/flows/registry.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "compiler/flows/kernel_library.h"
#include "compiler/passes/ne16_pw_reshape.h"

namespace edgesim {
namespace {

struct Registered {
  std::string name;   // the flow's name(), kept: lookups compare without building strings
  std::unique_ptr<Flow> flow;
};

std::vector<Registered>& flows() {
  static std::vector<Registered> all = [] {
    std::vector<Registered> v;
    for (auto make : {make_dory_flow, make_dory2021_flow, make_deeploy_flow, make_tuned_flow, make_untiled_flow,
                      make_tuned_deeploy_flow}) {
      std::unique_ptr<Flow> f = make();
      v.push_back({f->name(), std::move(f)});
    }
    return v;
  }();
  return all;
}

}  // namespace

const Flow* find_flow(const std::string& name) {
  for (const Registered& r : flows())
    if (r.name == name) return r.flow.get();
  return nullptr;
}

void register_flow(std::unique_ptr<Flow> flow) {
  if (!flow) throw std::invalid_argument("register_flow: no flow");
  std::string name = flow->name();
  if (find_flow(name)) throw std::invalid_argument("register_flow: a flow named '" + name + "' is registered already");
  flows().push_back({std::move(name), std::move(flow)});
}

void unregister_flow(const std::string& name) {
  std::vector<Registered>& all = flows();
  all.erase(std::remove_if(all.begin(), all.end(), [&](const Registered& r) { return r.name == name; }), all.end());
}

std::vector<std::string> policy_names() {
  std::vector<std::string> names;
  for (const Registered& r : flows())
    if (r.flow->selectable()) names.push_back(r.name);
  return names;
}

const Flow& flow_named(const std::string& name) {
  if (const Flow* f = find_flow(name)) return *f;
  throw std::invalid_argument(fmt::format("unknown tiling policy '{}' (known: {})", name, fmt::join(policy_names(), ", ")));
}

Budgets policy_budgets(const PlatformSpec& spec, const std::string& policy, int buffering) {
  return flow_named(policy).budgets(spec, buffering);
}

std::vector<std::string> policy_engines(const std::string& policy, const std::vector<std::string>& requested) {
  const Flow* f = find_flow(policy);
  return f ? f->engines(requested) : requested;
}

std::unique_ptr<TilingPolicy> make_policy(const std::string& name) { return flow_named(name).tiler(); }

bool policy_calls_dw3x3_s1(const std::string& policy, const PlatformSpec& spec) {
  const Flow* f = find_flow(policy);
  return f && f->conventions(spec).dw3x3_s1;
}

PlatformSpec flow_platform(const PlatformSpec& spec, const std::string& policy) {
  const Flow* f = find_flow(policy);
  return f ? f->kernel_platform(spec) : dory_kernel_library(spec);
}

bool tuned_on_deeploy_loop(const LayerTiling& t) {
  const Flow* f = find_flow(t.policy);
  return f && f->tuned_layer() && f->network_loop() == "deeploy";
}

int run_flow_graph_passes(Graph& g, const PlatformSpec& spec, const std::string& policy, EngineAssignment* ea) {
  const Flow* f = find_flow(policy);
  if (!f || !f->reshapes_ne16_pointwise() || !spec.npu.present || spec.npu.impl != "ne16") return 0;
  return apply_ne16_pw_reshape(g, ea);
}

}  // namespace edgesim
