// Derived deployment values and override reports (derived.h).
#include "platforms/loader/derived.h"

#include <fmt/format.h>

#include <functional>
#include <string>

#include "platforms/loader/schema.h"

namespace edgesim::detail {
namespace {

std::string origin_of(const PlatformSpec& s, const std::string& key) {
  auto it = s.origin.find(key);
  return it == s.origin.end() ? "default" : it->second;
}

bool from_set(const PlatformSpec& s, const std::string& key) { return origin_of(s, key) == "--set"; }

int64_t& int_field(PlatformSpec& s, const schema::KeyDef& d) { return *std::get<int64_t*>(d.field(s)); }

// A key that a run does not read under the current settings, and what would make it count.
struct Condition {
  const char* key;
  std::function<bool(const PlatformSpec&)> read;
  const char* why;
};

constexpr const char* kIcacheWhy =
    "the instruction cache is not simulated (loops are taken to hit it); the cold fetch of code run "
    "once per inference is counted per layer: npu.layer_cycles, cluster.cost.c_layer / c_layer_tr "
    "(budgets.deeploy.cost under --policy deeploy)";

const std::vector<Condition>& conditions() {
  static const std::vector<Condition> table = {
      {"cluster.dma.l2_latency", [](const PlatformSpec& s) { return s.fidelity.dma_ext_latency; },
       "it is charged only with fidelity.dma_ext_latency=true (fidelity.mode=realistic sets it)"},
      {"l2.bw_bytes_per_cycle", [](const PlatformSpec& s) { return s.fidelity.l2_bw_cap; },
       "it caps DMA bandwidth only with fidelity.l2_bw_cap=true (fidelity.mode=realistic sets it)"},
      {"l3.bus_freq_hz", [](const PlatformSpec& s) { return s.fidelity.l3_ddr; },
       "the HyperBus clock times L3 copies only with fidelity.l3_ddr=true"},
      {"l3.bus_bytes_per_cycle", [](const PlatformSpec& s) { return s.fidelity.l3_ddr; },
       "it times L3 copies only with fidelity.l3_ddr=true"},
      {"l3.bus_latency", [](const PlatformSpec& s) { return s.fidelity.l3_ddr; },
       "it times L3 copies only with fidelity.l3_ddr=true"},
      // The memories' own access latencies enter only transfers timed through them (the L3 DMA's
      // L3 side); the cluster DMA is timed by its own model (cluster.dma.*) and the cores' L1
      // accesses by the kernels' cost models (cluster.cost.*).
      {"l1.latency", [](const PlatformSpec&) { return false; },
       "L1 accesses are timed by the kernels' cost models (cluster.cost.*) and the cluster DMA's model "
       "(cluster.dma.*), which do not read it"},
      {"fc.freq_hz", [](const PlatformSpec&) { return false; },
       "the fabric controller runs no layer (cycles and time are the cluster clock's)"},
      // The instruction cache is not simulated: the kernels' loops are taken to hit, and code that
      // runs once per inference is counted per layer (docs/timing.md "Cold code").
      {"cluster.icache.impl", [](const PlatformSpec&) { return false; }, kIcacheWhy},
      {"cluster.icache.banks", [](const PlatformSpec&) { return false; }, kIcacheWhy},
      {"cluster.icache.refill_latency", [](const PlatformSpec&) { return false; }, kIcacheWhy},
      {"fidelity.icache_misses", [](const PlatformSpec&) { return false; }, kIcacheWhy},
  };
  return table;
}

}  // namespace

void resolve_derived(PlatformSpec& s) {
  for (const auto& d : schema::keys()) {
    if (d.auto_from.empty() || !schema::key_applies(d, s)) continue;
    int64_t& v = int_field(s, d);
    if (v != kAutoBudget) continue;
    const schema::KeyDef* src = schema::find_key(d.auto_from);
    v = src && schema::key_applies(*src, s) ? int_field(s, *src) : 0;   // 0: validate.cc names the key
    s.follows[d.key] = d.auto_from;
  }
}

void report_contradictions(PlatformSpec& s) {
  auto warn = [&](const std::string& key, const std::string& msg) {
    s.warnings.push_back(fmt::format("{}: {}", from_set(s, key) ? "--set " + key : origin_of(s, key) + ": " + key, msg));
  };
  // Explicit derived values that differ from their hardware key.
  for (const auto& d : schema::keys()) {
    if (d.auto_from.empty() || !schema::key_applies(d, s) || s.follows.count(d.key)) continue;
    const schema::KeyDef* src = schema::find_key(d.auto_from);
    if (!src || !schema::key_applies(*src, s)) continue;
    const int64_t v = int_field(s, d), hw = int_field(s, *src);
    if (v == hw) continue;
    std::string what = fmt::format("is {} but {} is {}", v, d.auto_from, hw);
    if (d.key == "budgets.dory.n_cores")
      what += fmt::format(": DORY's code is generated for {} cores (stacks, im2col) and runs on {}", v, std::min(v, hw));
    else if (d.key == "budgets.deeploy.n_cores")
      what += fmt::format(": the generated code uses {} of the {} cores", v, hw);
    warn(d.key, what + " (write auto to follow the hardware)");
  }
  // Overrides of keys the run does not read under the current settings.
  for (const Condition& c : conditions())
    if (from_set(s, c.key) && !c.read(s)) warn(c.key, std::string("no effect on the run: ") + c.why);
  // Overrides that count only for some schedules (the loader does not know the flow's).
  if (from_set(s, "l2.latency_from_cluster") && !s.fidelity.dma_ext_latency)
    warn("l2.latency_from_cluster",
         "counts only for compute steps whose operands stay in L2 (policy untiled, layout ops run in L2): a "
         "tiled layer reads L1, and DMA bursts pay it (as cluster.dma.l2_latency=auto) only with "
         "fidelity.dma_ext_latency=true");
}

}  // namespace edgesim::detail
