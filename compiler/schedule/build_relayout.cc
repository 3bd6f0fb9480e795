// Graph I/O layout conversions (compiler/passes/io_layout.h) as tiled cluster steps, the way
// Deeploy runs its Transpose nodes (docs/schedule.md "Graph I/O layout"). Deeploy's tiler
// ([30] TransposeTileConstraint.py, TilerModel.py, TilerExtension.py at cdb39fc9) gives a
// Transpose no hints: its constraint solver assigns the dimensions of the Transpose's input in
// declaration order, each its largest value for which the input and output tiles (each times the
// buffering) still fit the L1 budget; only the network's first pattern has an objective (its
// memory, maximised), so for the first node the tile is the first, in that order, of the largest
// feasible tiles. Per tile: one copy L2 -> L1 in the input's storage order, one cluster kernel that
// rewrites the tile in the output's order, one copy L1 -> L2. Deeploy's generated code keeps a
// tile extent that is the same in every tile as a constant and reads the others from per-tile
// tables ([30] TilingCodegen.py minimizeVariableReplacement); the kernel's cost follows
// (TransposeParams::par_axis, runtime_index; kernels/layout/cost_cluster.h).
#include <algorithm>

#include "compiler/schedule/build_internal.h"
#include "kernels/layout/cost_cluster.h"

namespace edgesim::sched {

namespace {

// Extents of the Transpose input's dimensions (declaration order) for Deeploy's solver: at most
// cap elements per tile; `maximise` for the network's first pattern.
Shape deeploy_transpose_tile(const Shape& full, int64_t cap, bool maximise) {
  const size_t r = full.size();
  Shape e(r, 1);
  if (!maximise) {
    int64_t used = 1;
    for (size_t d = 0; d < r; ++d) {
      e[d] = std::max<int64_t>(1, std::min(full[d], cap / used));
      used *= e[d];
    }
    return e;
  }
  // Depth-first over the leading dimensions from the largest value down, the last one as large
  // as fits; keep the first tile with the largest product (later equal ones do not improve).
  int64_t best = 0;
  Shape cur(r, 1);
  auto search = [&](auto&& self, size_t d, int64_t used) -> void {
    if (best == cap) return;
    if (d + 1 == r) {
      const int64_t last = std::min(full[d], cap / used);
      if (last < 1) return;
      cur[d] = last;
      if (used * last > best) best = used * last, e = cur;
      return;
    }
    // The remaining dimensions can at most fill full[d+1..] and the cap; skip values that cannot
    // beat best (not monotone in v: a smaller v leaves the later dimensions more room).
    int64_t rest = 1;
    for (size_t k = d + 1; k < r && rest <= cap; ++k) rest *= full[k];
    for (int64_t v = std::min(full[d], cap / used); v >= 1; --v) {
      if (used * v * std::min(rest, cap / (used * v)) <= best) continue;
      cur[d] = v;
      self(self, d + 1, used * v);
      if (best == cap) return;
    }
  };
  search(search, 0, 1);
  return e;
}

}  // namespace

bool build_relayout_step(BuildContext& ctx, int node) {
  const Graph& g = *ctx.g;
  const Node& n = g.nodes.at(node);
  Schedule& s = *ctx.s;
  const Region x = home_region(ctx, n.inputs.at(0), false);
  const Region y = home_region(ctx, n.outputs.at(0), false);
  if (x.shape.size() != 4 || x.shape != y.shape) return false;
  if (s.buffers.at(x.buffer).level != Level::L2 || s.buffers.at(y.buffer).level != Level::L2) return false;
  const auto& tp = n.as<TransposeParams>();
  const bool to_hwc = tp.relayout == "nchw_to_hwc";
  // The Transpose input's dimensions as logical [N, C, H, W] axes: NCHW towards HWC, NHWC back.
  const std::vector<size_t> in_axes = to_hwc ? std::vector<size_t>{0, 1, 2, 3} : std::vector<size_t>{0, 2, 3, 1};
  const int64_t esize = static_cast<int64_t>(dtype_size(x.dtype));
  const int nb = ctx.buffering == 2 ? 2 : 1;
  // Elements per tile: input and output tile, each nb times, fit the budget; each buffer within a
  // slot that keeps the next one at edgesim's L1 alignment of 8 bytes (compiler/schedule/build.cc).
  const int64_t cap = ctx.l1_budget / (2 * nb) / 8 * 8 / std::max<int64_t>(1, esize);
  if (cap < 1) return false;   // not even one element: the whole-tensor step in L2 instead
  Shape full(4), ext_in;
  for (size_t k = 0; k < 4; ++k) full[k] = x.shape[in_axes[k]];
  ext_in = deeploy_transpose_tile(full, cap, node == 0);
  Shape ext(4);   // tile extents on the logical axes
  for (size_t k = 0; k < 4; ++k) ext[in_axes[k]] = ext_in[k];
  int64_t tiles = 1;
  for (size_t a = 0; a < 4; ++a) tiles *= (x.shape[a] + ext[a] - 1) / ext[a];
  const int db = tiles > 1 ? nb : 1;
  const int64_t tile_bytes = (ext[0] * ext[1] * ext[2] * ext[3]) * esize;

  // What the generated kernel sees: the split axis from the whole tensor; the strided index is
  // a runtime value when an extent it is made of differs between tiles (H and W of the NCHW
  // input towards HWC, C of the NHWC input back).
  auto varies = [&](size_t a) { return x.shape[a] % ext[a] != 0; };
  TransposeParams kp = tp;
  kp.par_axis = transpose_parallel_axis(transpose_loop_shape(tp, x.shape));
  kp.runtime_index = to_hwc ? (varies(2) || varies(3)) : varies(1);

  Step& step = s.steps.at(node);
  step.tiled = false;   // no LayerTiling: a layout conversion, not a layer
  step.buffering = db;
  StepEmitter em(ctx, step, false);
  std::vector<int> xin, yout;
  for (int i = 0; i < db; ++i) {
    xin.push_back(add_buffer(s, Level::L1, tile_bytes, "x[" + std::to_string(i) + "] L1 " + n.name, node, node));
    yout.push_back(add_buffer(s, Level::L1, tile_bytes, "y[" + std::to_string(i) + "] L1 " + n.name, node, node));
  }
  // Tiles in the Transpose input's dimension order, the last dimension fastest.
  int64_t t = 0;
  Shape at(4, 0);
  auto visit = [&](auto&& self, size_t k) -> void {
    const size_t a = in_axes[k];
    for (int64_t o = 0; o < x.shape[a]; o += ext[a]) {
      at[a] = o;
      if (k + 1 < 4) {
        self(self, k + 1);
        continue;
      }
      Box box{at, ext};
      for (size_t b = 0; b < 4; ++b) box.ext[b] = std::min(ext[b], x.shape[b] - at[b]);
      const std::string ts = std::to_string(t) + "/" + std::to_string(tiles);
      const Region xl1 = packed(xin[static_cast<size_t>(t % db)], 0, x, box);
      const Region yl1 = packed(yout[static_cast<size_t>(t % db)], 0, y, box);
      em.copy(sub_region(x, box), xl1, box, "cluster_dma", "load x tile " + ts);
      Command c;
      c.kind = Command::Kind::Compute;
      c.engine = "cluster";
      c.node = node;
      c.params = kp;
      c.note = "compute tile " + ts;
      c.inputs.push_back(view_of(xl1));
      c.outputs.push_back(view_of(yl1));
      em.emit(std::move(c), {xl1.buffer}, {yl1.buffer});
      em.copy(yl1, sub_region(y, box), box, "cluster_dma", "store y tile " + ts);
      ++t;
    }
  };
  visit(visit, 0);
  em.finish();
  return true;
}

}  // namespace edgesim::sched
