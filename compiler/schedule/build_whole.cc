// Whole-tensor steps (docs/schedule.md "Whole-tensor steps"): reshape / flatten, concat, pad,
// clip, requant, transpose, quantize, dequantize, mul, and any layer node without a
// LayerTiling run as ONE Compute on engine "cluster" over views of the home buffers in L2, with
// the home strides (so a reshape reads its HWC input in logical order and writes its output in
// the output's own layout). Conv and pool views of rank-3 tensors are shown as 4-D with H = 1,
// as the reference kernels expect. Operands homed in L3 are staged through a temporary L2
// buffer with "l3_dma" copies before (inputs) and after (output) the Compute. Under a flow that
// runs its layout ops through L1 (Budgets::layout_ops_in_l1: Deeploy), a Concat or Transpose
// whose operands all live in L2 and fit the L1 budget together runs as one tile: each input
// copied L2 -> L1 by the cluster DMA, the kernel on L1, the output copied back. One that does not
// fit still runs over L2 (Deeploy would split it into tiles; not modelled).
#include "compiler/schedule/build_internal.h"

namespace edgesim::sched {

namespace {

int64_t l1_slot(int64_t bytes) { return (bytes + 7) / 8 * 8; }   // the allocator's 8-byte alignment

bool stage_in_l1(const BuildContext& ctx, int node) {
  const Node& n = ctx.g->nodes.at(node);
  if (!ctx.layout_ops_in_l1 || (n.kind() != OpKind::Concat && n.kind() != OpKind::Transpose)) return false;
  int64_t bytes = 0;
  std::vector<int> tensors = n.inputs;
  tensors.insert(tensors.end(), n.outputs.begin(), n.outputs.end());
  for (int t : tensors) {
    const Region r = home_region(ctx, t, false);
    if (ctx.s->buffers[r.buffer].level != Level::L2) return false;
    bytes += l1_slot(shape_numel(r.shape) * static_cast<int64_t>(dtype_size(r.dtype)));
  }
  return bytes <= ctx.l1_budget;
}

}  // namespace

void build_whole_step(BuildContext& ctx, int node) {
  const Graph& g = *ctx.g;
  const Node& n = g.nodes.at(node);
  Schedule& s = *ctx.s;
  Step& step = s.steps.at(node);
  step.tiled = false;
  step.buffering = 1;
  const bool as4d = n.kind() == OpKind::Conv || n.kind() == OpKind::Pool;
  StepEmitter em(ctx, step, true);

  const bool in_l1 = stage_in_l1(ctx, node);
  const Level stage_level = in_l1 ? Level::L1 : Level::L2;
  const char* stage_dma = in_l1 ? "cluster_dma" : "l3_dma";
  auto whole_box = [](const Region& r) { return Box{Shape(r.shape.size(), 0), r.shape}; };
  auto stage = [&](const Region& home, const std::string& tag) {
    const Box b = whole_box(home);
    const int64_t bytes = b.numel() * static_cast<int64_t>(dtype_size(home.dtype));
    const int buf = add_buffer(s, stage_level, bytes, tag + (in_l1 ? " L1 " : " stage L2 ") + n.name, node, node);
    return packed(buf, 0, home, b);
  };

  Command c;
  c.kind = Command::Kind::Compute;
  c.engine = "cluster";
  c.node = node;
  c.params = n.params;
  c.macs = g.macs(n);
  c.note = "compute " + std::string(op_name(n.kind())) + " (whole tensor)";
  std::vector<int> reads;
  for (size_t k = 0; k < n.inputs.size(); ++k) {
    Region r = home_region(ctx, n.inputs[k], as4d);
    if (in_l1 || s.buffers[r.buffer].level == Level::L3) {
      const Region staged = stage(r, "in" + std::to_string(k));
      em.copy(r, staged, whole_box(r), stage_dma,
              (in_l1 ? "load in" : "stage in") + std::to_string(k) + (in_l1 ? " to L1" : " to L2"));
      r = staged;
    }
    c.inputs.push_back(view_of(r));
    reads.push_back(r.buffer);
  }
  std::vector<Region> outs;
  std::vector<int> writes;
  for (int t : n.outputs) {
    const Region home = home_region(ctx, t, as4d);
    const Region r = in_l1 || s.buffers[home.buffer].level == Level::L3 ? stage(home, "out") : home;
    c.outputs.push_back(view_of(r));
    writes.push_back(r.buffer);
    outs.push_back(home);
  }
  const std::vector<BufView> out_views = c.outputs;
  em.emit(std::move(c), reads, writes);
  for (size_t k = 0; k < outs.size(); ++k) {
    const BufView& v = out_views[k];
    if (v.buffer == outs[k].buffer) continue;
    Region l2 = outs[k];
    l2.buffer = v.buffer;
    l2.offset = v.offset;
    l2.strides = v.strides;
    em.copy(l2, outs[k], whole_box(outs[k]), stage_dma, in_l1 ? "store out to L2" : "unstage out to L3");
  }
  em.finish();
}

}  // namespace edgesim::sched
