// The tiler of flow `untiled` (compiler/flows/untiled.cc): no tiling.
#include "compiler/tiler/internal.h"

namespace edgesim {
namespace {

// Policy `untiled` (docs/tiling.md): every layer runs directly from L2, as Deeploy's untiled
// Siracusa flow does (deeployRunner_siracusa.py: "all data is in L2; there is no tiling, and
// cores read and write data directly to/from L2", [60] tutorial). The LayerTiling says so; the
// schedule builds a whole-tensor step for it and the cost models charge the L2 latency.
class UntiledPolicy : public TilingPolicy {
 public:
  std::string name() const override { return "untiled"; }
  LayerTiling tile(const LayerGeom& g, const TilingContext&) const override {
    LayerTiling t;
    t.node = g.node;
    t.policy = name();
    t.l3.n_out = g.cout, t.l3.h_out = g.h_out, t.l3.h_in = g.h_in;
    t.l1.n_out = t.l1.n_in = g.cout, t.l1.h_out = g.h_out, t.l1.h_in = g.h_in;
    t.l1.w_out = g.w_out, t.l1.w_in = g.w_in;
    t.l1.whole = true;
    t.l1.l1_bytes = 0;
    return t;
  }
};

}  // namespace

std::unique_ptr<TilingPolicy> make_untiled_policy() { return std::make_unique<UntiledPolicy>(); }

int tiling_buffering(const std::string& schedule_buffering) {
  if (schedule_buffering == "single") return 1;
  if (schedule_buffering == "double") return 2;
  return 0;
}

}  // namespace edgesim
