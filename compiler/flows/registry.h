// The flows' factories, one per file (registry.cc lists them): internal to compiler/flows.
#pragma once
#include <memory>

#include "compiler/flows/flow.h"

namespace edgesim {

std::unique_ptr<Flow> make_dory_flow();
std::unique_ptr<Flow> make_dory2021_flow();
std::unique_ptr<Flow> make_deeploy_flow();
std::unique_ptr<Flow> make_tuned_flow();
std::unique_ptr<Flow> make_tuned_deeploy_flow();
std::unique_ptr<Flow> make_untiled_flow();

}  // namespace edgesim
