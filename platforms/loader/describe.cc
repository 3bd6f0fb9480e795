// Text and hash views of a resolved PlatformSpec: `edgesim describe` output (every key in
// effect with unit and origin, then the usable budgets and the implementations), the stable
// platform hash used in cache keys, and single-value lookup.
#include <fmt/format.h>

#include <filesystem>

#include "platforms/loader/budgets.h"
#include "platforms/loader/loader.h"
#include "platforms/loader/schema.h"
#include "platforms/loader/units.h"
#include "platforms/util/hash.h"

namespace edgesim {
namespace {

std::string thousands(int64_t v) {
  std::string digits = std::to_string(v < 0 ? -v : v), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (v < 0 ? "-" : "") + out;
}

std::string budget_line(const char* level, int64_t v, const std::string& how) {
  return fmt::format("  {:<4} {:>13} B   {}\n", level, thousands(v), how);
}

std::string auto_or(int64_t v, const char* size_key) {
  return v == kAutoBudget ? fmt::format("auto = {}", size_key) : "as given";
}

std::string budgets_text(const PlatformSpec& s) {
  std::string out;
  if (s.budgets.dory.present) {
    const auto& d = s.budgets.dory;
    const DoryBudgets b = dory_budgets(s);
    out += fmt::format("dory (db {}{}{}):\n", d.db, d.blocking_dma ? ", blocking DMA" : "",
                       d.single_core_dma ? ", single-core DMA" : "");
    out += budget_line("L1", b.l1,
                       d.l1 != kAutoBudget ? std::string("as given (budgets.dory.l1)")
                                           : fmt::format("= l1.size {} - reserved {} - stack {} - {} x stack {}",
                                                         s.l1.size, d.l1_reserved, d.l1_stack_core0, d.n_cores - 1,
                                                         d.l1_stack_other));
    out += budget_line("L2", b.l2,
                       d.l2 != kAutoBudget ? std::string("as given (budgets.dory.l2)")
                                           : fmt::format("= l2.size {} - reserved {} - code {}", s.l2.size,
                                                         d.l2_reserved, d.l2_code_reserved));
    out += budget_line("L3", b.l3,
                       fmt::format("= l3.size {} - reserved {}", s.l3.size, d.l3_reserved));
  } else {
    out += "dory: not configured (no budgets.dory)\n";
  }
  if (s.budgets.deeploy.present) {
    const auto& d = s.budgets.deeploy;
    const DeeployBudgets b = deeploy_budgets(s);
    out += fmt::format("deeploy ({} cores):\n", d.n_cores);
    out += budget_line("L1", b.l1, auto_or(d.l1, "l1.size"));
    out += budget_line("L2", b.l2, auto_or(d.l2, "l2.size"));
    out += budget_line("L3", b.l3, auto_or(d.l3, "l3.size"));
    if (b.wmem > 0) out += budget_line("WMEM", b.wmem, auto_or(d.wmem, "wmem.size"));
  } else {
    out += "deeploy: not configured (no budgets.deeploy)\n";
  }
  return out;
}

}  // namespace

std::string describe_platform(const PlatformSpec& s) {
  std::string out = fmt::format("platform {}", s.name);
  if (!s.description.empty()) out += " - " + s.description;
  out += "\n";
  for (size_t i = 0; i < s.files.size(); ++i)
    out += fmt::format("  {} {}\n", i + 1 == s.files.size() ? "file:  " : "preset:", s.files[i]);
  out += fmt::format("  hash:   {:016x}\n", platform_hash(s));

  std::string section = "\x01";
  for (const auto& d : schema::keys()) {
    if (!schema::key_applies(d, s)) continue;
    const std::string& prefix = schema::section_of(d.key).prefix;
    if (prefix != section) {
      section = prefix;
      out += fmt::format("\n[{}]\n", prefix.empty() ? "platform" : prefix);
    }
    auto it = s.origin.find(d.key);
    std::string value = schema::format_value(d, s);
    if (auto f = s.follows.find(d.key); f != s.follows.end()) value += " (auto = " + f->second + ")";
    out += fmt::format("  {:<34} {:<28} {}\n", d.key, value, it == s.origin.end() ? "" : it->second);
  }

  out += "\nUsable budgets\n" + budgets_text(s);
  out += "\nImplementations\n";
  for (const auto& d : schema::keys()) {
    const auto n = d.key.size();
    if (n > 5 && d.key.compare(n - 5, 5, ".impl") == 0 && schema::key_applies(d, s)) {
      std::string known;
      for (const auto& c : d.allowed()) known += (known.empty() ? "" : ", ") + c;
      out += fmt::format("  {:<20} {:<18} (known: {})\n", d.key.substr(0, n - 5),
                         *std::get<std::string*>(d.field(const_cast<PlatformSpec&>(s))), known);
    }
  }
  return out;
}

uint64_t platform_hash(const PlatformSpec& s) {
  Fnv1a h;
  auto feed = [&](const std::string& text) { h.text(text); };
  for (const auto& d : schema::keys()) {
    if (d.key == "description" || !schema::key_applies(d, s)) continue;
    feed(d.key);
    feed("=");
    feed(schema::format_value(d, s, true));
    feed("\n");
  }
  return h.value();
}

std::string platform_value(const PlatformSpec& s, const std::string& key) {
  const auto* d = schema::find_key(key);
  if (!d) throw PlatformError(fmt::format("unknown platform key '{}'", key));
  if (!schema::key_applies(*d, s))
    throw PlatformError(fmt::format("platform key '{}' is not in effect for platform '{}'", key, s.name));
  return schema::format_value(*d, s);
}

}  // namespace edgesim
