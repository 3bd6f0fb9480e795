// The platform schema: every YAML key the loader accepts, its unit kind, whether it is required,
// its default, and where its value lands in PlatformSpec. The table is the single definition of
// the file format: the loader applies it, `describe` and `platform_hash` walk it in order, and
// docs/platforms.md documents it.
//
// Rules encoded here:
//  * Keys are grouped in sections (the longest listed prefix). A required section (l1, l2, l3)
//    must appear; an optional one (cluster, npu, budgets.dory, ...) is present as soon as any
//    key below it is given, and then its required keys must be given too.
//  * A key may apply to some implementations only (`only_impl_key` / `only_impls`, e.g. npu.pe_k
//    only for npu.impl soma): given for another impl it is an error; required only for its impls.
//  * Defaults exist only where stated; the special default "@mode" (fidelity flags) means "true
//    when fidelity.mode is realistic, false for gvsoc".
// Internal to platforms/loader.
#pragma once
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "platforms/loader/spec.h"

namespace edgesim::schema {

enum class Kind { Int, Cycles, Size, SizeOrAuto, Freq, Bandwidth, Real, Bool, String, Enum,
                  StrList, IntList, Address, Energy, Power };

using FieldRef = std::variant<int64_t*, double*, bool*, std::string*, std::vector<std::string>*,
                              std::vector<int64_t>*>;

struct KeyDef {
  std::string key;
  Kind kind = Kind::Int;
  bool required = false;
  std::string def;                       // default text when optional (parsed like a YAML value)
  std::vector<std::string> choices;      // Enum: the allowed values; StrList: allowed elements
  std::string only_impl_key;             // "" = applies to every impl
  std::vector<std::string> only_impls;
  std::function<FieldRef(PlatformSpec&)> field;
  // Int/Cycles keys that accept `auto`: the key whose value they take (platforms/loader/derived.h).
  std::string auto_from;
  // StrList: the allowed elements asked when a value is read (they can grow: the engine names).
  std::function<std::vector<std::string>()> choices_now;

  KeyDef only(const char* impl_key, std::vector<std::string> impls) && {
    only_impl_key = impl_key;
    only_impls = std::move(impls);
    return std::move(*this);
  }
  KeyDef follows(const char* hardware_key) && {   // `auto` = the value of hardware_key
    auto_from = hardware_key;
    return std::move(*this);
  }
  KeyDef one_of(std::vector<std::string> c) && {   // String -> Enum; StrList keeps its kind
    choices = std::move(c);
    if (kind == Kind::String) kind = Kind::Enum;
    return std::move(*this);
  }
  // Allowed values that can grow at run time (the engine names, platforms/loader/engine_names.h).
  KeyDef one_of(std::function<std::vector<std::string>()> c) && {
    choices_now = std::move(c);
    if (kind == Kind::String) kind = Kind::Enum;
    return std::move(*this);
  }
  std::vector<std::string> allowed() const { return choices_now ? choices_now() : choices; }
};

struct SectionDef {
  std::string prefix;                         // "" = the top level
  std::function<bool*(PlatformSpec&)> present;  // null for required sections
};

const std::vector<KeyDef>& keys();
const std::vector<SectionDef>& sections();
const KeyDef* find_key(const std::string& key);
// The section a key belongs to (longest matching prefix).
const SectionDef& section_of(const std::string& key);
// True if `prefix` names a section or an intermediate map level ("cluster", "budgets").
bool is_map_prefix(const std::string& prefix);
// Human-readable unit of a kind, e.g. "size", "frequency" (for messages and docs).
const char* kind_name(Kind k);

// Whether a key is in effect for this spec: its section is present and, if it is bound to an
// implementation, that implementation is selected.
bool key_applies(const KeyDef& d, const PlatformSpec& s);
// The value of a key formatted with its unit ("262144 B (256 KiB)", "360 MHz", "[8, 32]");
// canonical=true gives the unit-free exact text used for hashing ("262144", "3.6e+08" never).
std::string format_value(const KeyDef& d, const PlatformSpec& s, bool canonical = false);

// Section tables, one function per file, appended in this order by keys().
void add_soc_keys(std::vector<KeyDef>& out);       // top level, cluster, fc, memories
void add_engine_keys(std::vector<KeyDef>& out);    // npu, aimc, mvu, ctrl
void add_budget_keys(std::vector<KeyDef>& out);    // budgets, fidelity
void add_energy_keys(std::vector<KeyDef>& out);    // energy (schema_energy.cc)

}  // namespace edgesim::schema

// Helpers for the table files: K_REQ(l1.size, Size) binds key "l1.size" to spec.l1.size.
#define EDGESIM_FIELD(path) [](::edgesim::PlatformSpec& s) -> ::edgesim::schema::FieldRef { return &s.path; }
#define K_REQ(path, kind) ::edgesim::schema::KeyDef{#path, ::edgesim::schema::Kind::kind, true, "", {}, "", {}, EDGESIM_FIELD(path), "", {}}
#define K_OPT(path, kind, def) ::edgesim::schema::KeyDef{#path, ::edgesim::schema::Kind::kind, false, def, {}, "", {}, EDGESIM_FIELD(path), "", {}}
