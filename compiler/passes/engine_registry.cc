// The engine registry (engine_registry.h).
#include "compiler/passes/engine_registry.h"

#include <list>
#include <mutex>
#include <stdexcept>

#include "platforms/loader/engine_names.h"

namespace edgesim {

namespace {

struct Registry {
  std::mutex m;
  std::list<EngineDef> defs;   // a list: definitions keep their address as others come and go
  Registry() {
    for (EngineDef& d : builtin_engine_defs()) defs.push_back(std::move(d));
  }
};

Registry& registry() {
  static Registry r;
  return r;
}

}  // namespace

void register_engine(EngineDef d) {
  if (d.name.empty() || !d.missing || !d.rejects)
    throw std::invalid_argument("engine '" + d.name + "': a definition needs a name, `missing` and `rejects`");
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.m);
  for (const EngineDef& e : r.defs)
    if (e.name == d.name) throw std::invalid_argument("engine '" + d.name + "' is registered already");
  add_engine_name(d.name);
  r.defs.push_back(std::move(d));
}

void unregister_engine(const std::string& name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.m);
  for (auto it = r.defs.begin(); it != r.defs.end(); ++it)
    if (it->name == name) {
      r.defs.erase(it);
      remove_engine_name(name);
      return;
    }
}

const EngineDef* find_engine(const std::string& name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.m);
  for (const EngineDef& e : r.defs)
    if (e.name == name) return &e;
  return nullptr;
}

std::vector<const EngineDef*> engine_defs() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.m);
  std::vector<const EngineDef*> v;
  for (const EngineDef& e : r.defs) v.push_back(&e);
  return v;
}

}  // namespace edgesim
