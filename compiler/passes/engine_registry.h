// The compute engines as the compiler sees them (docs/extending.md "An engine"): one EngineDef
// per engine says whether a platform has it, which nodes it runs exactly, how reports name it
// and where it stands in the default preference. Engine assignment (assign_engine.h) asks these
// definitions only. The built-in ones (cluster, npu, aimc, mvu) are defined in
// assign_engine.cc; register_engine adds one from elsewhere (a test, a plug-in), whose layers are
// then tiled as the cluster's and whose Compute commands name it, for the simulator's model of
// the same name (sim/engines/compute_model.h, register_compute_model).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "kernels/ir/graph.h"
#include "platforms/loader/spec.h"

namespace edgesim {

struct EngineDef {
  std::string name;
  // "" when the platform has this engine, else why not ("the platform has no npu section").
  std::function<std::string(const PlatformSpec&)> missing;
  // Why the engine cannot run node `node` of g exactly; "" when it can.
  std::function<std::string(const Graph& g, int node, const PlatformSpec&)> rejects;
  // The name reports show (DIANA's "digital", "analog", "host"); null: the engine's name.
  std::function<std::string(const PlatformSpec&)> role;
  // Whether its refusal of a node of this kind is an offload warning (DIANA's HTVM patterns).
  std::function<bool(const PlatformSpec&, OpKind)> warns;
  // Its place in the default preference when the platform has it (lower first); -1: used only
  // when an engine list names it.
  int default_rank = -1;
};

// Adds an engine (and its name, platforms/loader/engine_names.h). Throws std::invalid_argument
// when the name is taken or the definition lacks `missing` or `rejects`.
void register_engine(EngineDef d);
void unregister_engine(const std::string& name);
// The definition of an engine; nullptr for an unknown name.
const EngineDef* find_engine(const std::string& name);
// Every engine, built-ins first, in registration order.
std::vector<const EngineDef*> engine_defs();

// The built-in definitions (assign_engine.cc).
std::vector<EngineDef> builtin_engine_defs();

}  // namespace edgesim
