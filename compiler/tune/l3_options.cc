// l3_options (l3_options.h).
#include "compiler/tune/l3_options.h"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "compiler/tiler/internal.h"

namespace edgesim {

const std::vector<int64_t>& stream_slab_sizes() {
  static const std::vector<int64_t> s{8192, 16384, 32768, 65536, 131072};
  return s;
}

namespace {

// The layer's own L2 bytes under an L3 decision: input and output whole or as their slab
// buffers, the weights whole (homed in L2 or read there whole by the network loop) or as
// db_w Cout slabs (none when they live elsewhere).
int64_t l2_bytes(const LayerGeom& g, const L3Tiling& t, bool weights_elsewhere) {
  const int64_t in = g.batch * g.in_bytes() + (g.kind == OpKind::Add ? g.batch * bits_to_bytes(g.cin * g.h_in * g.w_in, g.bx2) : 0);
  const int64_t out = g.batch * g.out_bytes();
  const LayerGeom s = slab_geom(g, t);
  const int64_t x = t.input_in_l3 ? t.db_x * s.in_bytes() : in;
  const int64_t y = t.output_in_l3 ? t.db_o * s.out_bytes() : out;
  const int64_t w = weights_elsewhere ? 0 : t.weights_in_l3 ? t.db_w * s.weight_bytes() : g.weight_bytes();
  return x + y + w;
}

}  // namespace

std::vector<L3Option> l3_options(const LayerGeom& g, const L3Tiling& base, bool input_in_l3, int64_t l2_budget,
                                 bool weights_elsewhere) {
  std::vector<L3Option> out;
  auto add = [&](const std::string& kind, const L3Tiling& t, int64_t slab) {
    const int64_t bytes = l2_bytes(g, t, weights_elsewhere);
    if (kind != "base" && bytes > l2_budget) return;
    for (const L3Option& o : out)
      if (o.l3.input_in_l3 == t.input_in_l3 && o.l3.output_in_l3 == t.output_in_l3 &&
          o.l3.weights_in_l3 == t.weights_in_l3 && o.l3.n_out == t.n_out && o.l3.h_out == t.h_out &&
          o.l3.db_w == t.db_w)
        return;
    out.push_back({kind, t, slab, bytes});
  };
  add("base", base, 0);
  if (input_in_l3) return out;   // the previous layer left its output in L3: keep the base's slabs
  L3Tiling whole;
  whole.n_out = g.cout, whole.h_out = g.h_out, whole.h_in = g.h_in;
  add("l2", whole, 0);
  // Weight streaming: dense convs and Gemms with constant weights.
  const bool streams = (g.kind == OpKind::Conv && !g.depthwise) || (g.kind == OpKind::Gemm && g.weights_const);
  if (!streams || g.cout < 8) return out;
  const int64_t unit = g.kind == OpKind::Conv && g.groups > 1 ? std::lcm<int64_t>(4, g.cout / g.groups) : 4;
  const int64_t per_out = std::max<int64_t>(1, g.weight_bytes() / g.cout);
  for (int64_t bytes : stream_slab_sizes()) {
    int64_t n = bytes / per_out / unit * unit;
    if (n < unit) n = unit;
    if (n * 2 > g.cout) break;   // at least two slabs
    L3Tiling t = whole;
    t.weights_in_l3 = true;
    t.n_out = n;
    t.db_w = 2;
    add("stream", t, n * per_out);
  }
  return out;
}

std::string l3_label(const LayerGeom& g, const L3Tiling& t) {
  if (!t.tiled()) return "-";
  std::string s;
  if (t.input_in_l3) s += "L3:x ";
  if (t.output_in_l3) s += "L3:y ";
  if (t.weights_in_l3) {
    const int64_t per_out = std::max<int64_t>(1, g.weight_bytes() / std::max<int64_t>(1, g.cout));
    s += fmt::format("w {}x{}B ", (g.cout + t.n_out - 1) / t.n_out, t.n_out * per_out);
  }
  if (!s.empty()) s.pop_back();
  return s;
}

}  // namespace edgesim
