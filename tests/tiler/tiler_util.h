// Test helpers for the tiler: hand-made layer geometries and platform specs with round budgets
// (no stacks, no reserved space), so the budgets in the hand derivations are exactly l1.size
// and l2.size.
#pragma once
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "compiler/tiler/tiling.h"
#include "platforms/loader/spec.h"

namespace edgesim::test {

// 8-bit conv with both requant vectors (n_c = 2, cb = 32) and no bias.
inline LayerGeom conv_geom(int64_t cin, int64_t cout, int64_t h, int64_t w, int64_t k, int64_t s,
                           int64_t pad, bool depthwise) {
  LayerGeom g;
  g.node = 0;
  g.kind = OpKind::Conv;
  g.depthwise = depthwise;
  g.cin = cin; g.cout = cout; g.h_in = h; g.w_in = w;
  g.kh = g.kw = k; g.sh = g.sw = s;
  g.pt = g.pl = g.pb = g.pr = pad;
  g.h_out = (h + 2 * pad - k) / s + 1;
  g.w_out = (w + 2 * pad - k) / s + 1;
  g.groups = depthwise ? cin : 1;
  g.n_c = 2;
  return g;
}

// DORY constants: 8 cores, no stacks or reserved space; budgets = l1.size / l2.size.
inline PlatformSpec dory_spec(int64_t l1, int64_t l2, int db) {
  PlatformSpec s;
  s.name = "test";
  s.l1.size = l1;
  s.l2.size = l2;
  s.l3.size = 8000000;
  s.budgets.dory.present = true;
  s.budgets.dory.n_cores = 8;
  s.budgets.dory.db = db;
  return s;
}

inline PlatformSpec deeploy_spec(int64_t l1, int64_t l2) {
  PlatformSpec s;
  s.name = "test";
  s.l1.size = l1;
  s.l2.size = l2;
  s.l3.size = 8000000;
  s.budgets.deeploy.present = true;
  s.budgets.deeploy.l1 = l1;
  s.budgets.deeploy.l2 = l2;
  s.budgets.deeploy.l3 = 8000000;
  s.budgets.deeploy.n_cores = 8;
  return s;
}

inline LayerTiling tile_one(const std::string& policy, const LayerGeom& g, const PlatformSpec& spec,
                            bool input_in_l3 = false, int buffering = 0) {
  TilingContext ctx;
  ctx.spec = &spec;
  ctx.input_in_l3 = input_in_l3;
  ctx.buffering = buffering;
  return make_policy(policy)->tile(g, ctx);
}

}  // namespace edgesim::test
