// Report wording of a tiling (tiling_label.h).
#include "compiler/tiler/tiling_label.h"

#include <fmt/format.h>

namespace edgesim {

std::string l3_streams(const L3Tiling& t) {
  std::string where;
  auto add = [&where](bool on, const char* what) {
    if (!on) return;
    if (!where.empty()) where += ',';
    where += what;
  };
  add(t.input_in_l3, "x");
  add(t.weights_in_l3, "w");
  add(t.output_in_l3, "y");
  return where;
}

std::string l3_slab_label(const LayerGeom& g, const L3Tiling& t) {
  if (!t.tiled()) return "-";
  return fmt::format("{}x{}x{} ({} in rows) L3:{}", t.n_out, t.h_out, g.w_out, t.h_in, l3_streams(t));
}

std::string l1_tile_label(const L1Tiling& t) {
  return fmt::format("{}x{}x{} / {}x{}x{}{}", t.n_out, t.h_out, t.w_out, t.n_in, t.h_in, t.w_in, t.db > 1 ? " db" : "");
}

}  // namespace edgesim
