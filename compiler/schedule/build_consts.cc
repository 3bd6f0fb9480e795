// The constant vectors of a layer step (bias, zero points, requant k / λ / scale; 4 B per entry,
// docs/schedule.md §4.2): one L2 buffer per layer holding every vector whole, resident for the
// whole run; or, with NetTiling::consts_l3 on a platform with L3, homed in L3 and copied whole
// into an L2 staging buffer for the step that runs the layer (read by the network loop with the
// layer's weights: at that step's start, or ahead when the weights are prefetched).
#include "compiler/schedule/build_internal.h"

namespace edgesim::sched {

ConstHome const_home(BuildContext& ctx, int node, const LayerTiling& t, const Shape& out_shape, int run_step,
                     const std::vector<ConstVec>* full_in) {
  const Graph& g = *ctx.g;
  Schedule& s = *ctx.s;
  const Node& n = g.nodes.at(static_cast<size_t>(node));
  ConstHome h;
  const Box whole{Shape(out_shape.size(), 0), out_shape};
  const auto full = full_in ? *full_in : const_vectors(g, n, out_shape, whole);
  for (const ConstVec& v : full) h.bytes += shape_numel(v.shape) * 4;
  if (h.bytes == 0) return h;
  const bool staged = t.net.consts_l3 && ctx.spec->l3.size > 0 && (n.kind() == OpKind::Conv || n.kind() == OpKind::Gemm);
  int buf = -1;
  if (staged) {
    const auto a = ctx.ahead.find(node);
    h.issue = a != ctx.ahead.end() ? a->second : -1;
    h.run = run_step;
    h.l3 = add_buffer(s, Level::L3, h.bytes, "const " + n.name, 0, ctx.last_step);
    buf = add_buffer(s, Level::L2, h.bytes, "const L2 (network loop) " + n.name, h.issue >= 0 ? h.issue : run_step, run_step);
  } else {
    buf = add_buffer(s, Level::L2, h.bytes, "const " + n.name, 0, ctx.last_step);
  }
  int64_t off = 0;
  for (const ConstVec& v : full) {
    Region r;
    r.buffer = buf, r.offset = off, r.dtype = DType::I32, r.shape = v.shape;
    r.strides = packed_strides(v.shape, order_of(contiguous_strides(v.shape)));
    r.origin.assign(v.shape.size(), 0);
    h.regions.push_back(r);
    off += shape_numel(v.shape) * 4;
  }
  return h;
}

void emit_const_stage(BuildContext& ctx, StepEmitter& em, const ConstHome& h, const std::string& layer) {
  if (h.l3 < 0) return;
  Region from;
  from.buffer = h.l3, from.dtype = DType::U8, from.shape = {h.bytes}, from.strides = {1}, from.origin = {0};
  Region to = from;
  to.buffer = h.regions.front().buffer;
  // Issued with the layer's weights: at the start of the step that issues them (not after the
  // blocking weight read the step's commands wait for).
  em.issue_ahead(ctx.sinks_at.at(static_cast<size_t>(h.issue >= 0 ? h.issue : h.run)), h.issue >= 0);
  em.copy(from, to, Box{{0}, {h.bytes}}, "l3_dma", "network loop: read const of " + layer, true);
  em.issue_here();
}

}  // namespace edgesim::sched
