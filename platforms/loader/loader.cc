// load_platform: preset chain -> file -> --set overrides, each layer replacing leaf values of the
// previous one; then every schema key is parsed into PlatformSpec (or reported missing), and the
// cross-key rules of validate.cc run. See loader.h for the error format.
// Presets are defaults: a preset key bound to an implementation the platform does not select is
// dropped silently; the same key written in the platform file or --set is an error.
#include "platforms/loader/loader.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "platforms/loader/derived.h"
#include "platforms/loader/loader_internal.h"
#include "platforms/loader/schema.h"
#include "platforms/loader/units.h"

namespace edgesim {
namespace {

namespace fs = std::filesystem;
using detail::fail_at;
using detail::FlatDoc;
using detail::Origin;
using detail::RawValue;
using schema::Kind;
using schema::KeyDef;

constexpr size_t kMaxPresetDepth = 8;

// Files of the preset chain, base first. `stack` holds the files being expanded (cycle check).
void load_chain(const std::string& path, std::vector<std::string>& stack,
                std::vector<FlatDoc>& out) {
  const std::string canon = fs::weakly_canonical(fs::path(path)).string();
  FlatDoc doc = detail::read_flat_yaml(path);
  const RawValue* base = nullptr;
  std::string base_key;
  for (const auto& [k, v] : doc.entries) {
    if (k != "preset" && k != "extends") continue;
    if (base) fail_at(v.at, "give either 'preset' or 'extends', not both and not twice");
    if (v.is_list) fail_at(v.at, fmt::format("'{}' takes a single name", k));
    base = &v;
    base_key = k;
  }
  if (base) {
    const fs::path dir = fs::path(path).parent_path();
    const std::string& name = base->items[0];
    std::vector<fs::path> tries;
    if (base_key == "preset") tries = {dir / "presets" / (name + ".yaml"), dir / (name + ".yaml")};
    else tries = {dir / name};
    auto found = std::find_if(tries.begin(), tries.end(),
                              [](const fs::path& p) { return fs::is_regular_file(p); });
    if (found == tries.end())
      fail_at(base->at, fmt::format("{} '{}' not found (looked for {})", base_key, name,
                                    tries.front().string()));
    const std::string parent = fs::weakly_canonical(*found).string();
    if (std::find(stack.begin(), stack.end(), parent) != stack.end() || parent == canon)
      fail_at(base->at, fmt::format("preset cycle: '{}' is already being loaded", found->string()));
    if (stack.size() >= kMaxPresetDepth)
      fail_at(base->at, fmt::format("presets nested deeper than {}", kMaxPresetDepth));
    stack.push_back(canon);
    load_chain(found->string(), stack, out);
    stack.pop_back();
  }
  std::erase_if(doc.entries, [](const auto& e) { return e.first == "preset" || e.first == "extends"; });
  out.push_back(std::move(doc));
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
  return s;
}

// Values that parse but are probably not what was meant (spec.warnings; the CLI prints them).
void plausibility(const KeyDef& d, const std::string& text, const RawValue& v, PlatformSpec& spec) {
  const std::string where = v.at.from_set ? "--set " + d.key + "=" + text
                                          : fmt::format("{}:{}: {}", fs::path(v.at.file).filename().string(), v.at.line, d.key);
  if (d.kind == Kind::Freq) {
    const int64_t hz = *std::get<int64_t*>(d.field(spec));
    if (hz > 0 && hz < 1'000'000)
      spec.warnings.push_back(fmt::format("{}: {} Hz is below 1 MHz (a missing unit? e.g. {}MHz)", where, hz, text));
  }
  // Memory sizes are binary (64KiB); DORY and Deeploy write budgets in decimal, so only *.size keys.
  const bool mem_size = (d.kind == Kind::Size || d.kind == Kind::SizeOrAuto) && d.key.size() > 5 &&
                        d.key.compare(d.key.size() - 5, 5, ".size") == 0;
  if (!mem_size || text == "auto") return;
  const size_t u = text.find_first_of("kKmMgG");
  if (u == std::string::npos) return;
  std::string unit = text.substr(u), number = text.substr(0, u);
  std::transform(unit.begin(), unit.end(), unit.begin(), [](unsigned char c) { return std::tolower(c); });
  while (!number.empty() && number.back() == ' ') number.pop_back();
  if (unit != "kb" && unit != "mb" && unit != "gb") return;
  const std::string binary = number + static_cast<char>(std::toupper(static_cast<unsigned char>(unit[0]))) + "iB";
  try {
    spec.warnings.push_back(fmt::format("{}: {} is {} B (SI units); memory sizes are usually binary: {} = {} B", where, text,
                                        *std::get<int64_t*>(d.field(spec)), binary, parse_size(binary)));
  } catch (const UnitError&) {
  }
}

// The physical range of each kind of value (docs/platforms.md §2): a value outside it is an
// error, not a number that wraps a product or a total further on (a cost of 2^63 cycles once
// gave a shorter run than the default).
struct Range {
  double max;
  const char* why;
};
std::optional<Range> physical_range(Kind k) {
  switch (k) {
    case Kind::Cycles: return Range{1e9, "at most 1,000,000,000 cycles for one cost or latency (1 s at 1 GHz)"};
    case Kind::Int: case Kind::IntList: return Range{1e6, "at most 1,000,000 for a count or a width"};
    case Kind::Size: case Kind::SizeOrAuto: return Range{1099511627776.0, "at most 1 TiB for a size"};
    case Kind::Freq: return Range{1e11, "at most 100 GHz for a clock"};
    case Kind::Bandwidth: case Kind::Real: return Range{1e6, "at most 1,000,000 per cycle for a rate"};
    case Kind::Energy: return Range{1e9, "at most 1 mJ for an energy per event"};
    case Kind::Power: return Range{1e3, "at most 1 kW for a power"};
    case Kind::Address: return Range{281474976710656.0, "at most 2^48 for an address"};
    default: return std::nullopt;
  }
}

void check_range(const KeyDef& d, const RawValue& v, PlatformSpec& spec) {
  const auto r = physical_range(d.kind);
  if (!r) return;
  schema::FieldRef f = d.field(spec);
  std::vector<double> values;
  if (auto* i = std::get_if<int64_t*>(&f)) {
    if (**i != kAutoBudget) values.push_back(static_cast<double>(**i));
  } else if (auto* x = std::get_if<double*>(&f)) {
    values.push_back(**x);
  } else if (auto* l = std::get_if<std::vector<int64_t>*>(&f)) {
    for (int64_t e : **l) values.push_back(static_cast<double>(e));
  }
  for (double x : values)
    if (!std::isfinite(x) || x > r->max) {
      const std::string what = fmt::format("{}out of range: {}", v.is_list ? "a list element is " : "", r->why);
      fail_at(v.at, v.at.from_set ? what : fmt::format("{}: {}", d.key, what));
    }
}

void assign(const KeyDef& d, const RawValue& v, PlatformSpec& spec) {
  schema::FieldRef f = d.field(spec);
  const bool list_kind = d.kind == Kind::StrList || d.kind == Kind::IntList;
  if (!list_kind && v.is_list)
    fail_at(v.at, fmt::format("'{}' takes a single {}, not a list", d.key, schema::kind_name(d.kind)));
  if (list_kind && v.items.empty()) fail_at(v.at, fmt::format("'{}' is an empty list", d.key));
  const std::string& t = v.items.front();
  const std::vector<std::string> choices = d.allowed();
  auto check_choice = [&](const std::string& x) {
    if (!choices.empty() && std::find(choices.begin(), choices.end(), x) == choices.end())
      throw UnitError(fmt::format("'{}' is not one of: {}", x, join(choices)));
  };
  try {
    if (!d.auto_from.empty() && t == "auto") {   // resolved by resolve_derived() once all keys are read
      *std::get<int64_t*>(f) = kAutoBudget;
      return;
    }
    switch (d.kind) {
      case Kind::Int: *std::get<int64_t*>(f) = parse_int(t); break;
      case Kind::Cycles: *std::get<int64_t*>(f) = parse_cycles(t); break;
      case Kind::Size: *std::get<int64_t*>(f) = parse_size(t); break;
      case Kind::SizeOrAuto: *std::get<int64_t*>(f) = t == "auto" ? kAutoBudget : parse_size(t); break;
      case Kind::Freq: *std::get<int64_t*>(f) = parse_frequency(t); break;
      case Kind::Address: *std::get<int64_t*>(f) = parse_address(t); break;
      case Kind::Bandwidth: *std::get<double*>(f) = parse_bandwidth(t); break;
      case Kind::Real: *std::get<double*>(f) = parse_bandwidth(t); break;
      case Kind::Energy: *std::get<double*>(f) = parse_energy_pj(t); break;
      case Kind::Power: *std::get<double*>(f) = parse_power_w(t); break;
      case Kind::Bool: *std::get<bool*>(f) = parse_bool(t); break;
      case Kind::String: *std::get<std::string*>(f) = t; break;
      case Kind::Enum: check_choice(t); *std::get<std::string*>(f) = t; break;
      case Kind::StrList:
        for (const auto& x : v.items) check_choice(x);
        *std::get<std::vector<std::string>*>(f) = v.items;
        break;
      case Kind::IntList: {
        auto& out = *std::get<std::vector<int64_t>*>(f);
        out.clear();
        for (const auto& x : v.items) out.push_back(parse_int(x));
        break;
      }
    }
  } catch (const UnitError& e) {
    // An override's message already starts with "key=value".
    fail_at(v.at, v.at.from_set ? std::string(e.what()) : fmt::format("{}: {}", d.key, e.what()));
  }
  check_range(d, v, spec);
  if (!list_kind) plausibility(d, t, v, spec);
}

std::string origin_label(const Origin& at) {
  if (at.from_set) return "--set";
  return fmt::format("{}:{}", fs::path(at.file).filename().string(), at.line);
}

bool under(const std::string& key, const std::string& prefix) {
  return prefix.empty() || key.rfind(prefix + ".", 0) == 0;
}

}  // namespace

PlatformSpec load_platform(const std::string& path, const std::vector<std::string>& overrides) {
  std::vector<FlatDoc> chain;
  std::vector<std::string> stack;
  load_chain(path, stack, chain);

  // Merge: later layers replace leaf values. std::map keeps the key order stable.
  std::map<std::string, RawValue> merged;
  for (const auto& doc : chain)
    for (const auto& [k, v] : doc.entries) {
      detail::check_known_key(k, v.at);
      merged[k] = v;
    }
  for (const auto& o : overrides) {
    auto [k, v] = detail::parse_override(o, path);
    detail::check_known_key(k, v.at);
    merged[k] = std::move(v);
  }

  // Where to point when something is missing or inconsistent: the value's own origin, else
  // the first line of its section in the platform file, else the platform file itself.
  auto where = [&](const std::string& key) -> Origin {
    if (auto it = merged.find(key); it != merged.end()) return it->second.at;
    const std::string prefix = schema::section_of(key).prefix;
    for (const auto& [k, v] : chain.back().entries)
      if (!prefix.empty() && under(k, prefix)) return v.at;
    for (const auto& [k, v] : merged)
      if (!prefix.empty() && under(k, prefix)) return v.at;
    return Origin{path, 1, false, {}};
  };

  PlatformSpec spec;
  for (const auto& doc : chain) spec.files.push_back(doc.file);
  for (const auto& sec : schema::sections()) {
    if (!sec.present) continue;
    *sec.present(spec) = std::any_of(merged.begin(), merged.end(),
                                      [&](const auto& e) { return under(e.first, sec.prefix); });
  }

  for (const auto& d : schema::keys()) {
    const auto& sec = schema::section_of(d.key);
    const bool present = !sec.present || *sec.present(spec);
    std::string impl;
    bool impl_ok = true;
    if (!d.only_impl_key.empty()) {
      impl = *std::get<std::string*>(schema::find_key(d.only_impl_key)->field(spec));
      impl_ok = std::find(d.only_impls.begin(), d.only_impls.end(), impl) != d.only_impls.end();
    }
    auto it = merged.find(d.key);
    // A preset may carry keys of an implementation the platform replaced (preset says
    // hyperram_udma, file says l3.impl: none): those are dropped. Given in the platform file
    // itself or by --set, such a key is an error.
    if (it != merged.end() && !impl_ok && !it->second.at.from_set && it->second.at.file != path)
      it = merged.end();
    if (it != merged.end()) {
      if (!impl_ok)
        fail_at(it->second.at, fmt::format("'{}' does not apply to {} '{}' (only to {})", d.key,
                                           d.only_impl_key, impl, join(d.only_impls)));
      assign(d, it->second, spec);
      spec.origin[d.key] = origin_label(it->second.at);
    } else if (present && impl_ok) {
      if (d.required) {
        std::string msg = fmt::format("missing required key '{}'", d.key);
        if (sec.present) msg += fmt::format(" (section '{}' is present)", sec.prefix);
        if (!d.only_impl_key.empty()) msg += fmt::format(" (required for {} '{}')", d.only_impl_key, impl);
        fail_at(where(d.key), msg);
      }
      std::string text = d.def;
      if (text == "@mode") text = spec.fidelity.mode == "realistic" ? "true" : "false";
      // A list key without a default stays empty (e.g. `engines`: the platform's default order).
      if (!text.empty() || (d.kind != Kind::StrList && d.kind != Kind::IntList))
        assign(d, RawValue{{text}, false, Origin{"<default of " + d.key + ">", 0, false, {}}}, spec);
      spec.origin[d.key] = "default";
    }
  }

  detail::resolve_derived(spec);
  detail::validate_spec(spec, where);
  detail::report_contradictions(spec);
  return spec;
}

std::vector<std::string> known_platform_keys() {
  std::vector<std::string> out;
  for (const auto& d : schema::keys()) out.push_back(d.key);
  return out;
}

}  // namespace edgesim
