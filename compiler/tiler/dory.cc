// Policies `dory` and `dory-2021`: per layer, the L3->L2 decision and then the L2->L1
// tiling of the resulting slab (docs/tiling.md "DORY's rules in formulas"; "dory-2021's formulas").
// A failure becomes a TilingError naming the layer, the failing level and the smallest budget of
// that level under which the same rules succeed (docs/tiling.md "Failures and the minimal budget"):
// the L1 rules give an analytic minimum for the slab; it is confirmed by re-running the whole layer
// decision (the L3 choice depends on L1 through its [L1-fit] term) and, if needed, raised by a
// doubling + bisection search.
#include <fmt/format.h>

#include "compiler/tiler/internal.h"

namespace edgesim {

namespace {

struct Outcome {
  std::optional<LayerTiling> tiling;
  std::string level;          // failing level: "L1" or "L2"
  std::string why;
  int64_t l1_min = -1;        // analytic L1 minimum of the slab (L1 failures)
};

class DoryPolicy : public TilingPolicy {
 public:
  explicit DoryPolicy(bool v2021) : v2021_(v2021) {}
  std::string name() const override { return v2021_ ? "dory-2021" : "dory"; }

  LayerTiling tile(const LayerGeom& g, const TilingContext& ctx) const override {
    if (!ctx.spec) throw TilingError("tiling needs a platform", g.node);
    Budgets b = v2021_ ? dory2021_policy_budgets(*ctx.spec, ctx.graph, g.node) : dory_policy_budgets(*ctx.spec);
    b.l1 -= ctx.l1_slack;
    const Outcome o = run(g, ctx, b);
    if (o.tiling) return *o.tiling;
    const std::string label = layer_label(ctx.graph, g);
    if (o.level == "L2") {
      const int64_t need = min_feasible([&](int64_t v) {
        Budgets t = b; t.l2 = v;
        return run(g, ctx, t).tiling.has_value();
      }, 1);
      throw TilingError(fmt::format("{}: {} (L2 budget {} B under policy {}){}", label, o.why,
                                    b.l2, name(), need > 0 ? fmt::format("; needs at least {} B", need) : ""),
                        g.node, "L2", need);
    }
    const int64_t need = min_feasible([&](int64_t v) {
      Budgets t = b; t.l1 = v;
      return run(g, ctx, t).tiling.has_value();
    }, o.l1_min > 0 ? o.l1_min : b.l1 + 1);
    throw TilingError(fmt::format("{}: no L2->L1 tiling fits the L1 budget of {} B under policy {}{}", label,
                                  b.l1, name(), need > 0 ? fmt::format("; needs at least {} B", need) : ""),
                      g.node, "L1", need);
  }

 private:
  Outcome run(const LayerGeom& g, const TilingContext& ctx, const Budgets& b) const {
    Outcome o;
    std::string why;
    const std::optional<L3Tiling> l3 = dory_l3(g, b, ctx.input_in_l3, &why);
    if (!l3) { o.level = "L2"; o.why = why; return o; }
    const LayerGeom slab = slab_geom(g, *l3);
    const L1Result r = v2021_ ? dory2021_l1(slab, b, g.pt + g.pb) : dory_l1(slab, b, g.pt + g.pb);
    if (!r.tile) { o.level = "L1"; o.l1_min = r.min_budget; return o; }
    LayerTiling t;
    t.node = g.node;
    t.policy = name();
    t.l3 = *l3;
    t.l1 = *r.tile;
    t.reported_l1 = r.reported;
    o.tiling = t;
    return o;
  }

  bool v2021_;
};

}  // namespace

std::unique_ptr<TilingPolicy> make_dory_policy(bool v2021) { return std::make_unique<DoryPolicy>(v2021); }

}  // namespace edgesim
