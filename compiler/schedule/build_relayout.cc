// Graph I/O layout conversions (compiler/passes/io_layout.h) as tiled cluster steps, the way
// Deeploy runs its Transpose nodes (docs/schedule.md "Graph I/O layout"): the [N, C, H, W]
// tensor is cut into row bands that fit the L1 budget (input and output tile, times the
// buffering); per band one copy L2 -> L1 in the input's storage order, one cluster kernel that
// rewrites the band in the output's order, one copy L1 -> L2; the band height is the largest that
// fits. Deeploy's tiler cuts a Transpose differently: its solver keeps the outer input dimensions
// whole and slices the innermost one ([30] TransposeTileConstraint.py, TilerModel.py; worked out,
// not modelled yet: docs/validation.md "NE16 single layers").
#include <algorithm>

#include "compiler/schedule/build_internal.h"

namespace edgesim::sched {

bool build_relayout_step(BuildContext& ctx, int node) {
  const Graph& g = *ctx.g;
  const Node& n = g.nodes.at(node);
  Schedule& s = *ctx.s;
  const Region x = home_region(ctx, n.inputs.at(0), false);
  const Region y = home_region(ctx, n.outputs.at(0), false);
  if (x.shape.size() != 4 || x.shape != y.shape) return false;
  if (s.buffers.at(x.buffer).level != Level::L2 || s.buffers.at(y.buffer).level != Level::L2) return false;
  const int64_t N = x.shape[0], C = x.shape[1], H = x.shape[2], W = x.shape[3];
  const int64_t row_bytes = N * C * W * static_cast<int64_t>(dtype_size(x.dtype));
  if (row_bytes <= 0 || H <= 0) return false;
  const int nb = ctx.buffering == 2 ? 2 : 1;
  const int64_t rows_fit = ctx.l1_budget / (2 * nb * row_bytes);
  if (rows_fit < 1) return false;   // not even one row: the whole-tensor step in L2 instead
  const int64_t rows = std::min(H, rows_fit);
  const int64_t tiles = (H + rows - 1) / rows;
  const int db = tiles > 1 ? nb : 1;

  Step& step = s.steps.at(node);
  step.tiled = false;   // no LayerTiling: a layout conversion, not a layer
  step.buffering = db;
  StepEmitter em(ctx, step, false);
  std::vector<int> xin, yout;
  for (int i = 0; i < db; ++i) {
    xin.push_back(add_buffer(s, Level::L1, rows * row_bytes, "x[" + std::to_string(i) + "] L1 " + n.name, node, node));
    yout.push_back(add_buffer(s, Level::L1, rows * row_bytes, "y[" + std::to_string(i) + "] L1 " + n.name, node, node));
  }
  for (int64_t t = 0; t < tiles; ++t) {
    const int64_t h0 = t * rows, r = std::min(rows, H - h0);
    const Box box{{0, 0, h0, 0}, {N, C, r, W}};
    const std::string ts = std::to_string(t) + "/" + std::to_string(tiles);
    const Region xl1 = packed(xin[static_cast<size_t>(t % db)], 0, x, box);
    const Region yl1 = packed(yout[static_cast<size_t>(t % db)], 0, y, box);
    em.copy(sub_region(x, box), xl1, box, "cluster_dma", "load x tile " + ts);
    Command c;
    c.kind = Command::Kind::Compute;
    c.engine = "cluster";
    c.node = node;
    c.params = n.params;
    c.note = "compute tile " + ts;
    c.inputs.push_back(view_of(xl1));
    c.outputs.push_back(view_of(yl1));
    em.emit(std::move(c), {xl1.buffer}, {yl1.buffer});
    em.copy(yl1, sub_region(y, box), box, "cluster_dma", "store y tile " + ts);
  }
  em.finish();
  return true;
}

}  // namespace edgesim::sched
