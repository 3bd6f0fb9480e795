// MVU steps (BARVINN, docs/npu.md "The MVU array"): a conv assigned to the MVU array runs as one
// Compute per MVU, each computing a contiguous range of output rows with the whole (replicated)
// weights, as BARVINN's own example code splits a layer. The commands read and write the home
// buffers in L2 in place (the staging buffer that feeds the MVUs over the crossbar); they have no
// dependencies on each other, so the MVUs run in parallel.
//
// Capacities per MVU are checked here (docs/npu.md "The MVU array"): weights fC·iC·Fh·Fw·w ≤ the
// weight RAM's words (mvu.w_ram_size / (mvu.w_ram_word_bits/8), 512 on barvinn.yaml); the input
// rows of the MVU's slice plus its outputs, H·W·iC·a + Ho·Wo·fC·oprec bits, ≤ the activation RAM's
// 64-bit words (l1.size / l1.bank_width_bytes, 32768). iC, fC: channel blocks of mvu.n (64); a, w,
// oprec: storage bits of input, weights, output. A violation is a TilingError naming the layer.
#include <algorithm>

#include <fmt/format.h>

#include "compiler/schedule/build_internal.h"
#include "compiler/tiler/tiling.h"

namespace edgesim::sched {

namespace {

int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

void build_mvu_step(BuildContext& ctx, int node) {
  const Graph& g = *ctx.g;
  const Node& n = g.nodes.at(node);
  const PlatformSpec& spec = *ctx.spec;
  Schedule& s = *ctx.s;
  const std::string who = node_label(g, node);
  if (n.kind() != OpKind::Conv || n.inputs.size() != 2 || n.outputs.size() != 1)
    throw std::runtime_error(who + ": only convolutions run on the MVU array");
  Step& step = s.steps.at(node);
  step.tiled = false;
  step.buffering = 1;
  const Region x = home_region(ctx, n.inputs[0], true), w = home_region(ctx, n.inputs[1], true);
  const Region y = home_region(ctx, n.outputs[0], true);
  for (const Region* r : {&x, &w, &y})
    if (s.buffers.at(static_cast<size_t>(r->buffer)).level != Level::L2)
      throw TilingError(who + ": the MVU array reads and writes the L2 staging buffer; a tensor of this layer "
                              "does not fit it (" + std::to_string(ctx.l2_budget) + " B)",
                        node, "L2", -1);
  const int64_t lanes = spec.mvu.n > 0 ? spec.mvu.n : 64;
  const int64_t cin = x.shape[1], cout = y.shape[1], ho = y.shape[2], wo = y.shape[3], wi = x.shape[3];
  const ConvParams& p = n.as<ConvParams>();
  const int64_t ic = cdiv(cin, lanes), fc = cdiv(cout, lanes);
  const int64_t a_bits = 8 * static_cast<int64_t>(dtype_size(x.dtype)), w_bits = 8 * static_cast<int64_t>(dtype_size(w.dtype));
  const int64_t o_bits = 8 * static_cast<int64_t>(dtype_size(y.dtype));
  const int64_t w_words = spec.mvu.w_ram_word_bits > 0 ? spec.mvu.w_ram_size * 8 / spec.mvu.w_ram_word_bits : 0;
  const int64_t w_need = fc * ic * p.kh * p.kw * w_bits;
  if (w_need > w_words)
    throw TilingError(fmt::format("{}: the weights need {} words of an MVU's weight RAM, which has {}", who, w_need, w_words),
                      node, "WRAM", w_need);
  const int64_t a_words = spec.l1.bank_width_bytes > 0 ? spec.l1.size / spec.l1.bank_width_bytes : spec.l1.size / 8;
  const int64_t units = std::max<int64_t>(1, std::min(spec.mvu.count, ho));

  StepEmitter em(ctx, step, false);
  const std::vector<Shape> in_shapes{x.shape, w.shape};
  for (int64_t u = 0; u < units; ++u) {
    const int64_t r0 = ho * u / units, r1 = ho * (u + 1) / units;
    if (r1 <= r0) continue;
    const Box ob{{0, 0, r0, 0}, {y.shape[0], cout, r1 - r0, wo}};
    TileParams tp;
    try {
      tp = tile_params(g, n, in_shapes, y.shape, ob);
    } catch (const std::exception& e) {
      throw std::runtime_error(who + ": " + e.what());
    }
    const int64_t rows_in = tp.in_boxes[0].ext[2];
    const int64_t act_need = cdiv(rows_in * wi * ic * lanes * a_bits, 64) + cdiv((r1 - r0) * wo * fc * lanes * o_bits, 64);
    if (act_need > a_words)
      throw TilingError(fmt::format("{}: MVU {} needs {} words of activation RAM for its {} output rows, which has {}",
                                    who, u, act_need, r1 - r0, a_words),
                        node, "L1", act_need);
    Command c;
    c.kind = Command::Kind::Compute;
    c.engine = "mvu";
    c.unit = static_cast<int>(u);
    c.node = node;
    c.params = tp.params;
    c.note = fmt::format("mvu {} rows {}..{}", u, r0, r1 - 1);
    c.inputs = {view_of(sub_region(x, tp.in_boxes[0])), view_of(w)};
    c.outputs = {view_of(sub_region(y, ob))};
    c.macs = ob.numel() * cin * p.kh * p.kw;
    // Disjoint output rows: no write-after-write order between the MVUs.
    em.emit(std::move(c), {x.buffer, w.buffer}, {});
  }
  em.finish();
}

}  // namespace edgesim::sched
