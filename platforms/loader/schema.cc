// Schema lookup: the assembled key table, the section list, and the per-key helpers shared by
// the loader, `describe` and the hash (applicability of a key, formatting of its value).
#include "platforms/loader/schema.h"

#include <fmt/format.h>

#include <algorithm>

#include "platforms/loader/units.h"

namespace edgesim::schema {
namespace {

#define SECTION(prefix, flag) \
  SectionDef{prefix, [](PlatformSpec& s) -> bool* { return &s.flag; }}

std::vector<SectionDef> build_sections() {
  return {
      SectionDef{"", nullptr},
      SECTION("cluster", cluster.present),
      SECTION("cluster.event_unit", cluster.event_unit.present),
      SECTION("cluster.icache", cluster.icache.present),
      SECTION("cluster.cost", cluster.cost.present),
      SECTION("cluster.host_cost", cluster.host_cost.present),
      SECTION("cluster.dma", cluster.dma.present),
      SECTION("fc", fc.present),
      SectionDef{"l1", nullptr},
      SectionDef{"l2", nullptr},
      SectionDef{"l3", nullptr},
      SECTION("wmem", wmem.present),
      SECTION("l1_wdig", l1_wdig.present),
      SECTION("l1_wana", l1_wana.present),
      SECTION("memmap", memmap.present),
      SECTION("npu", npu.present),
      SECTION("aimc", aimc.present),
      SECTION("mvu", mvu.present),
      SECTION("ctrl", ctrl.present),
      SECTION("budgets.dory", budgets.dory.present),
      SECTION("budgets.deeploy", budgets.deeploy.present),
      SECTION("budgets.deeploy.cost", budgets.deeploy.cost.present),
      SectionDef{"fidelity", nullptr},
      SECTION("energy", energy.present),
  };
}

bool has_prefix(const std::string& key, const std::string& prefix) {
  return prefix.empty() ||
         (key.size() > prefix.size() && key.compare(0, prefix.size(), prefix) == 0 &&
          key[prefix.size()] == '.');
}

std::string join(const std::vector<std::string>& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + v[i];
  return out + "]";
}

}  // namespace

const std::vector<KeyDef>& keys() {
  static const std::vector<KeyDef> table = [] {
    std::vector<KeyDef> k;
    add_soc_keys(k);
    add_engine_keys(k);
    add_budget_keys(k);
    add_energy_keys(k);
    return k;
  }();
  return table;
}

const std::vector<SectionDef>& sections() {
  static const std::vector<SectionDef> table = build_sections();
  return table;
}

const KeyDef* find_key(const std::string& key) {
  for (const auto& d : keys())
    if (d.key == key) return &d;
  return nullptr;
}

const SectionDef& section_of(const std::string& key) {
  const SectionDef* best = &sections().front();
  for (const auto& s : sections())
    if (has_prefix(key, s.prefix) && s.prefix.size() >= best->prefix.size()) best = &s;
  return *best;
}

bool is_map_prefix(const std::string& prefix) {
  return std::any_of(keys().begin(), keys().end(),
                     [&](const KeyDef& d) { return !prefix.empty() && has_prefix(d.key, prefix); });
}

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::Int: return "integer";
    case Kind::Cycles: return "cycles";
    case Kind::Size: return "size";
    case Kind::SizeOrAuto: return "size or auto";
    case Kind::Freq: return "frequency";
    case Kind::Bandwidth: return "bandwidth";
    case Kind::Real: return "number";
    case Kind::Bool: return "boolean";
    case Kind::String: return "string";
    case Kind::Enum: return "choice";
    case Kind::StrList: return "list of names";
    case Kind::IntList: return "list of integers";
    case Kind::Address: return "address";
    case Kind::Energy: return "energy";
    case Kind::Power: return "power";
  }
  return "value";
}

bool key_applies(const KeyDef& d, const PlatformSpec& cs) {
  auto& s = const_cast<PlatformSpec&>(cs);   // accessors only hand out addresses
  const SectionDef& sec = section_of(d.key);
  if (sec.present && !*sec.present(s)) return false;
  if (d.only_impl_key.empty()) return true;
  const KeyDef* impl = find_key(d.only_impl_key);
  const std::string& v = *std::get<std::string*>(impl->field(s));
  return std::find(d.only_impls.begin(), d.only_impls.end(), v) != d.only_impls.end();
}

std::string format_value(const KeyDef& d, const PlatformSpec& cs, bool canonical) {
  auto& s = const_cast<PlatformSpec&>(cs);
  FieldRef f = d.field(s);
  switch (d.kind) {
    case Kind::Int:
      if (!d.auto_from.empty() && *std::get<int64_t*>(f) == kAutoBudget) return "auto";
      return std::to_string(*std::get<int64_t*>(f));
    case Kind::Cycles: {
      int64_t v = *std::get<int64_t*>(f);
      if (!d.auto_from.empty() && v == kAutoBudget) return "auto";
      return canonical ? std::to_string(v) : fmt::format("{} cycle{}", v, v == 1 ? "" : "s");
    }
    case Kind::SizeOrAuto:
      if (*std::get<int64_t*>(f) == kAutoBudget) return "auto";
      [[fallthrough]];
    case Kind::Size: {
      int64_t v = *std::get<int64_t*>(f);
      return canonical ? std::to_string(v) : format_size(v);
    }
    case Kind::Freq: {
      int64_t v = *std::get<int64_t*>(f);
      return canonical ? std::to_string(v) : format_frequency(v);
    }
    case Kind::Bandwidth: {
      double v = *std::get<double*>(f);
      return canonical ? format_number(v) : format_bandwidth(v);
    }
    case Kind::Real: return format_number(*std::get<double*>(f));
    case Kind::Bool: return *std::get<bool*>(f) ? "true" : "false";
    case Kind::String:
    case Kind::Enum: return *std::get<std::string*>(f);
    case Kind::StrList: return join(*std::get<std::vector<std::string>*>(f));
    case Kind::IntList: {
      std::vector<std::string> items;
      for (int64_t v : *std::get<std::vector<int64_t>*>(f)) items.push_back(std::to_string(v));
      return join(items);
    }
    case Kind::Address: return format_address(*std::get<int64_t*>(f));
    case Kind::Energy: {
      double v = *std::get<double*>(f);
      return canonical ? format_number(v) : format_energy_pj(v);
    }
    case Kind::Power: {
      double v = *std::get<double*>(f);
      return canonical ? format_number(v) : format_power_w(v);
    }
  }
  return "";
}

}  // namespace edgesim::schema
