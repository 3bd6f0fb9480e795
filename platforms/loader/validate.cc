// Consistency rules checked once every key is parsed: counts and sizes that must be positive,
// bank geometry, and the deployment budgets (which must be positive and fit their memories).
// Each error points at the key most likely to be wrong; when one of the keys involved came from
// --set, that one is blamed, so sweeps see "(from --set)".
#include <fmt/format.h>

#include <initializer_list>

#include "platforms/loader/budgets.h"
#include "platforms/loader/loader_internal.h"
#include "platforms/loader/schema.h"
#include "platforms/loader/units.h"

namespace edgesim::detail {
namespace {

const char* const kPositive[] = {
    "cluster.n_cores", "cluster.dma.bytes_per_cycle", "cluster.dma.burst_bytes",
    "cluster.dma.max_outstanding", "cluster.dma.n_channels", "cluster.dma.core_queue_depth",
    "cluster.dma.global_queue_depth", "cluster.dma.n_counters", "cluster.dma.max_cmd_bytes",
    "cluster.event_unit.barriers", "cluster.icache.banks",
    "l1.size", "l1.banks", "l1.bank_width_bytes", "l1.interleave_bytes", "l1.ports", "l2.size",
    "l3.cmd_bytes", "l3.bus_bytes_per_cycle", "l3.bw_bytes_per_cycle",
    "wmem.size", "wmem.banks", "l1_wdig.size", "l1_wana.size",
    "npu.act_bits", "npu.pe_h", "npu.pe_w", "npu.tp_in", "npu.tp_out", "npu.col_size",
    "npu.in_buf_h", "npu.in_buf_w", "npu.port_bits", "npu.tp_in_3x3", "npu.act_bw", "npu.w_bw",
    "npu.scale_bits", "npu.pe_k", "npu.pe_ox", "npu.peak_mac_per_cycle",
    "npu.add_elems_per_cycle",
    "aimc.rows", "aimc.cols", "aimc.act_bits", "aimc.w_levels", "aimc.out_bits",
    "aimc.max_cin_3x3",
    "mvu.count", "mvu.n", "mvu.prec_min", "mvu.prec_max", "mvu.acc_bits", "mvu.w_ram_size",
    "mvu.w_ram_word_bits", "mvu.countdown_bits",
    "ctrl.harts", "ctrl.cpi", "ctrl.imem_size", "ctrl.dmem_size",
    "budgets.dory.n_cores", "budgets.dory.db", "budgets.deeploy.n_cores",
};

const char* const kPowerOfTwo[] = {"l1.banks", "l1.bank_width_bytes", "l1.interleave_bytes",
                                   "wmem.banks"};

bool pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

class Checker {
 public:
  Checker(const PlatformSpec& s, const Locator& where) : s_(s), where_(where) {}

  // The origin to report for a rule involving `keys`: the first one given by --set, else the
  // first key.
  Origin blame(std::initializer_list<const char*> keys) const {
    for (const char* k : keys)
      if (Origin o = where_(k); o.from_set) return o;
    return where_(*keys.begin());
  }
  void require(bool ok, std::initializer_list<const char*> keys, const std::string& msg) const {
    if (!ok) fail_at(blame(keys), msg);
  }
  std::string val(const char* key) const {
    return schema::format_value(*schema::find_key(key), s_, false);
  }

  void generic() const {
    for (const char* k : kPositive) {
      const auto* d = schema::find_key(k);
      if (!schema::key_applies(*d, s_)) continue;
      auto f = d->field(const_cast<PlatformSpec&>(s_));
      const bool ok = std::holds_alternative<int64_t*>(f) ? *std::get<int64_t*>(f) > 0
                                                          : *std::get<double*>(f) > 0;
      require(ok, {k}, fmt::format("{} must be greater than 0 (got {})", k, val(k)));
    }
    for (const char* k : kPowerOfTwo) {
      const auto* d = schema::find_key(k);
      if (!schema::key_applies(*d, s_)) continue;
      require(pow2(*std::get<int64_t*>(d->field(const_cast<PlatformSpec&>(s_)))), {k},
              fmt::format("{} must be a power of two (got {})", k, val(k)));
    }
  }

  void memories() const {
    require(s_.l1.interleave_bytes >= s_.l1.bank_width_bytes, {"l1.interleave_bytes"},
            "l1.interleave_bytes must be at least l1.bank_width_bytes");
    const bool none = s_.l3.impl == "none";
    require(!none || s_.l3.size == 0, {"l3.size"}, "l3.size must be 0 when l3.impl is none");
    require(none || s_.l3.size > 0, {"l3.size"},
            fmt::format("l3.size must be greater than 0 for l3.impl {} (use l3.impl: none for no L3)",
                        s_.l3.impl));
    if (s_.wmem.present && s_.wmem.window > 0)
      require(s_.wmem.window >= s_.wmem.size, {"wmem.window", "wmem.size"},
              "wmem.window must be at least wmem.size");
    if (s_.cluster.dma.present && s_.cluster.dma.impl == "mchan_v7")
      require(s_.cluster.dma.dims == 1 || s_.cluster.dma.dims == 2, {"cluster.dma.dims"},
              "cluster.dma.dims must be 1 or 2");
    if (s_.npu.present && s_.npu.impl == "neureka")
      require(s_.npu.tp_in_3x3 <= s_.npu.tp_in, {"npu.tp_in_3x3"},
              "npu.tp_in_3x3 must not exceed npu.tp_in");
    if (s_.mvu.present)
      require(s_.mvu.prec_min <= s_.mvu.prec_max, {"mvu.prec_min", "mvu.prec_max"},
              "mvu.prec_min must not exceed mvu.prec_max");
    if (s_.fidelity.l2_bw_cap)
      require(s_.l2.bw_bytes_per_cycle > 0, {"l2.bw_bytes_per_cycle", "fidelity.l2_bw_cap"},
              "fidelity.l2_bw_cap needs l2.bw_bytes_per_cycle > 0");
  }

  void dory() const {
    const auto& d = s_.budgets.dory;
    if (!d.present) return;
    require(s_.cluster.present, {"budgets.dory.n_cores"}, "budgets.dory needs a cluster section");
    require(d.bn_bits == 32 || d.bn_bits == 64, {"budgets.dory.bn_bits"},
            fmt::format("budgets.dory.bn_bits must be 32 or 64 (got {})", d.bn_bits));
    // DORY's buffering factor: its tiler's memory constraint counts each tile db times, and the
    // schedule runs single or double buffered; any other number reserves L1 nothing uses.
    require(d.db == 1 || d.db == 2, {"budgets.dory.db"},
            fmt::format("budgets.dory.db must be 1 (single buffering) or 2 (double) (got {})", d.db));
    // budgets.dory.n_cores may exceed cluster.n_cores: it is the core count DORY generated the
    // code for (stacks, im2col), and that code runs unchanged with fewer NUM_CORES ([26]).
    const DoryBudgets b = dory_budgets(s_);
    if (d.l1 == kAutoBudget)
      require(b.l1 > 0,
              {"l1.size", "budgets.dory.l1_reserved", "budgets.dory.l1_stack_core0",
               "budgets.dory.l1_stack_other", "budgets.dory.n_cores"},
              fmt::format("usable DORY L1 budget is {} B (l1.size {} - l1_reserved {} - stack {} - "
                          "{} x stack {}); it must be > 0 (or give it: budgets.dory.l1)",
                          b.l1, s_.l1.size, d.l1_reserved, d.l1_stack_core0, d.n_cores - 1,
                          d.l1_stack_other));
    else
      given("budgets.dory.l1", d.l1, "l1.size", s_.l1.size, "budgets.dory.l1_reserved", d.l1_reserved);
    if (d.l2 == kAutoBudget)
      require(b.l2 > 0, {"l2.size", "budgets.dory.l2_code_reserved", "budgets.dory.l2_reserved"},
              fmt::format("reserved L2 space (l2_reserved {} + l2_code_reserved {} B) is not "
                          "smaller than l2.size ({} B)",
                          d.l2_reserved, d.l2_code_reserved, s_.l2.size));
    else
      given("budgets.dory.l2", d.l2, "l2.size", s_.l2.size, "budgets.dory.l2_reserved", d.l2_reserved);
    require(b.l3 >= 0, {"l3.size", "budgets.dory.l3_reserved"},
            fmt::format("budgets.dory.l3_reserved ({} B) exceeds l3.size ({} B)", d.l3_reserved,
                        s_.l3.size));
  }

  void deeploy() const {
    const auto& d = s_.budgets.deeploy;
    if (!d.present) return;
    require(s_.cluster.present, {"budgets.deeploy.n_cores"},
            "budgets.deeploy needs a cluster section");
    require(d.n_cores <= s_.cluster.n_cores, {"budgets.deeploy.n_cores", "cluster.n_cores"},
            fmt::format("budgets.deeploy.n_cores ({}) exceeds cluster.n_cores ({})", d.n_cores,
                        s_.cluster.n_cores));
    level("budgets.deeploy.l1", d.l1, "l1.size", s_.l1.size, true);
    level("budgets.deeploy.l2", d.l2, "l2.size", s_.l2.size, true);
    level("budgets.deeploy.l3", d.l3, "l3.size", s_.l3.size, false);
    if (d.wmem != 0)
      require(s_.wmem.present, {"budgets.deeploy.wmem"},
              "budgets.deeploy.wmem needs a wmem section (use 0 for none)");
    if (s_.wmem.present) level("budgets.deeploy.wmem", d.wmem, "wmem.size", s_.wmem.size, false);
    require(d.ne16_pw_align >= 1, {"budgets.deeploy.ne16_pw_align"},
            fmt::format("budgets.deeploy.ne16_pw_align must be at least 1 (got {})", d.ne16_pw_align));
  }

 private:
  // An explicit DORY buffer size: positive and within its memory less the part DORY's descriptor
  // leaves out (stacks and code are the application's: DORY does not check them either).
  void given(const char* key, int64_t budget, const char* size_key, int64_t size, const char* reserved_key,
             int64_t reserved) const {
    require(budget > 0, {key}, fmt::format("{} must be greater than 0", key));
    require(budget <= size - reserved, {key, size_key, reserved_key},
            fmt::format("{} ({} B) exceeds {} ({} B) less {} ({} B); lower it or use auto", key, budget, size_key,
                        size, reserved_key, reserved));
  }

  void level(const char* key, int64_t budget, const char* size_key, int64_t size,
             bool positive) const {
    if (budget == kAutoBudget) {
      require(!positive || size > 0, {key}, fmt::format("{} is auto but {} is 0", key, size_key));
      return;
    }
    require(!positive || budget > 0, {key}, fmt::format("{} must be greater than 0", key));
    require(budget <= size, {key, size_key},
            fmt::format("{} ({} B) exceeds {} ({} B); lower it or use auto", key, budget,
                        size_key, size));
  }

  const PlatformSpec& s_;
  const Locator& where_;
};

}  // namespace

void validate_spec(const PlatformSpec& spec, const Locator& where) {
  Checker c(spec, where);
  c.generic();
  c.memories();
  c.dory();
  c.deeploy();
}

}  // namespace edgesim::detail
