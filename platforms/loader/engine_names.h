// The names of the compute engines: what a platform's `engines:` list, `--engines` and a
// schedule's Compute commands may name. The built-in engines are listed here once
// (engine_names.cc); an engine registered with the compiler (compiler/passes/engine_registry.h,
// register_engine) adds its name. DIANA's reports name its engines by role (digital, analog,
// host), and engine lists accept those names too.
#pragma once
#include <string>
#include <vector>

namespace edgesim {

// The engines, in the order of their registration (the built-ins first).
std::vector<std::string> engine_names();
// The engine names and the role names engine lists accept.
std::vector<std::string> engine_list_names();
// Adds an engine name; false when it is known already.
bool add_engine_name(const std::string& name);
void remove_engine_name(const std::string& name);

}  // namespace edgesim
