// The tiled layer step (docs/schedule.md §4 "Tiled layer steps": §4.2 for the loads of single
// and double buffering, §4.3 for the L3 slabs and their prefetch).
//
// The output is cut into L2 slabs (L3Tiling: Cout slab outer, row slab inner; one slab when the
// layer is not L3-tiled) and each slab into L1 tiles (L1Tiling: Cout → H → W, last tiles take
// the remainder). Batch elements (images, Gemm batches) are the outermost loop. Per tile:
//   load x (every tile when double-buffered; single: only when the window changed),
//   load w and the constant vectors only when their box changes (a new Cout tile),
//   compute (tile params from build_params.cc), store y to its home (or L2 slab).
// Operands whose home is in L3 are staged through L2 slab buffers with "l3_dma" copies: the
// slab an operand needs is the bounding box of what the slab's tiles read; the next slab is
// prefetched at the start of the current one when two slab buffers exist. An output in L3 is
// written to an L2 slab buffer and copied out after the slab's last tile.
// A depthwise layer of a policy whose template blocks on its transfers (Budgets::dw_blocking,
// dory-2021) is one chain of commands even with double buffers: load, compute, store, next tile.
#include <algorithm>
#include <stdexcept>

#include "compiler/passes/assign_engine.h"
#include "compiler/passes/diana_rules.h"
#include "compiler/schedule/build_internal.h"
#include "compiler/passes/ne16_pw_reshape.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "kernels/conv/cost_dw3x3_s1.h"

namespace edgesim::sched {

namespace {

struct TileInfo {
  Box out;
  TileParams tp;
  std::vector<ConstVec> cv;
  int64_t npu_skip = 0;          // NPU: channels of the first weight row before the tile's first
};

struct Slab {
  std::vector<TileInfo> tiles;
};

// Region of a tensor right-aligned to `rank` dims (unit dims prepended), then 4-D if asked.
Region aligned_home(const BuildContext& ctx, int tensor, size_t rank, bool as4d) {
  Region r = home_region(ctx, tensor, false);
  int64_t outer = 1;
  for (size_t d = 0; d < r.shape.size(); ++d) outer = std::max(outer, r.shape[d] * r.strides[d]);
  while (r.shape.size() < rank) {
    r.shape.insert(r.shape.begin(), 1);
    r.strides.insert(r.strides.begin(), outer);
  }
  if (as4d && r.shape.size() < 4) {
    r.strides = to4d_strides(r.shape, r.strides);
    r.shape = to4d_shape(r.shape);
  }
  r.origin.assign(r.shape.size(), 0);
  return r;
}

// Single-buffered steps of the flow reload weights and constants for every tile (Flow::reloads_every_tile).
bool reloads_every_tile(const LayerTiling& t) {
  const Flow* f = find_flow(t.policy);
  return f && f->reloads_every_tile();
}

// An NE16 pointwise layer's output tiles in Deeploy's order (Flow::ne16_pointwise).
bool deeploy_ne16_order(const LayerTiling& t, bool reshaped) {
  const Flow* f = find_flow(t.policy);
  const Ne16Pointwise o = f ? f->ne16_pointwise() : Ne16Pointwise::own;
  return o == Ne16Pointwise::deeploy || (o == Ne16Pointwise::deeploy_unless_reshaped && !reshaped);
}

// Budgets::dw_blocking of a named policy; tilings made outside one (tests) overlap as requested.
bool blocks_depthwise(const PlatformSpec& spec, const std::string& policy) {
  const Flow* f = find_flow(policy);
  return f && f->selectable() && f->budgets(spec).dw_blocking;
}

// Whether the tiled step handles the shapes of a one-output layer: a Gemm of two operands of
// rank >= 2; a rows layer; else an output of rank 1 to 4 (softmax and norms only as rows layers).
bool tiled_shapes(const Graph& g, const Node& n, bool rows) {
  const OpKind kind = n.kind();
  const Shape& oshape = g.tensor(n.outputs[0]).shape;
  if (kind == OpKind::Gemm)
    return n.inputs.size() == 2 && g.tensor(n.inputs[0]).shape.size() >= 2 &&
           g.tensor(n.inputs[1]).shape.size() >= 2 && oshape.size() >= 2;
  return rows || !(oshape.size() > 4 || oshape.empty() || kind == OpKind::Softmax || kind == OpKind::Norm);
}

// One tiled layer step under construction, shared by the stages of build_layer_step: the node's
// engines and operands in kernel coordinates, its tiles per L2 slab, the slab plans and L1
// buffers, and what the walk over the tiles has loaded so far.
struct TiledStep {
  TiledStep(BuildContext& c, int nd, const LayerTiling& tl, bool r)
      : ctx(c), node(nd), t(tl), g(*c.g), n(g.nodes.at(nd)), s(*c.s), kind(n.kind()), gemm(kind == OpKind::Gemm),
        rows(r), who(node_label(g, nd)) {}

  BuildContext& ctx;
  const int node;
  const LayerTiling& t;
  const Graph& g;
  const Node& n;
  Schedule& s;
  const OpKind kind;
  const bool gemm;
  const bool rows;               // a rows layer: tiled as [rows, last axis]
  const std::string who;
  // Engines (read_engines).
  bool npu = false, soma = false, aimc = false, w_in_wmem = false;
  const Placement* wpl = nullptr;   // NPU: the placement of the encoded weights
  Node dn;                          // DIANA: the node with the params its engine computes with
  // Operands in kernel coordinates (read_operands).
  bool eltwise = false;          // Add-like operands
  std::vector<Region> in_home;
  Region y_home;
  std::vector<Shape> in_shapes;
  Shape ys;
  size_t KR = 0, nin = 0;
  int cdim = 1, hdim = 2, wdim = 3;
  std::vector<Slab> slabs;       // cut_tiles
  // The step (open_step) and its L2 slab plans (plan_l3_slabs).
  Step* step = nullptr;
  int requested = 1, l1db = 1;
  ConstHome consts;
  std::vector<SlabPlan> plan;
  // L1 sizes (size_l1) and buffers (add_l1_buffers).
  bool dbl = false, every_tile = false, dw3x3_s1 = false, w_like = false;
  int64_t ntiles = 0;
  std::vector<int64_t> in_max;
  int64_t y_max = 0, c_max = 0, w_loads = 0, c_loads = 0;
  std::vector<std::vector<int>> in_l1;
  std::vector<int> y_l1, c_l1;
  // Emission (emit): what earlier tiles loaded.
  std::vector<bool> slab_done_load;
  std::vector<int> in_loads;
  std::vector<Box> in_prev;
  std::vector<int> in_prev_src;
  int c_count = 0, y_count = 0;
  std::vector<Box> c_prev;
  bool c_first = true;
  int64_t tile_no = 0;

  const Node& pn() const { return soma || aimc ? dn : n; }   // the params the engine computes with

  // NPU layers read their weights encoded (rows of bytes, placement npu_weights); from the
  // weight memory they are read in place, without L1 buffers or DMA.
  // DIANA (docs/diana.md): the digital accelerator (SOMA) gets its weights and bias DMA'd into its
  // weight memory (level WMEM) per output-channel tile; the analog core reads its weights in place
  // from L2 when it programs them into the array (Command::aimc_program), its constants with them.
  // Both compute their output stage as clamp((acc + offset) >> shift) (diana_params).
  void read_engines() {
    npu = n.engine == "npu" && npu_encoded(*ctx.spec);
    wpl = npu && n.inputs.size() > 1 ? s.placement_of(n.inputs[1]) : nullptr;
    if (npu && (!wpl || !wpl->npu_weights)) throw std::runtime_error(who + ": NPU layer without encoded weights");
    soma = n.engine == "npu" && !npu, aimc = n.engine == "aimc";
    w_in_wmem = (npu && s.buffers.at(wpl->buffer).level == Level::WMEM) || aimc;
    if (soma || aimc) {
      dn = n;
      try {
        dn.params = diana_params(g, n);
      } catch (const std::exception& e) {
        throw std::runtime_error(who + ": " + e.what());
      }
    }
  }

  // Operands in kernel coordinates: 0 = x, 1 = w (conv, gemm) or x2 (add, mul); then y.
  // False when a rows layer's operand has no [rows, last axis] view.
  bool read_operands() {
    const size_t R = g.tensor(n.outputs[0]).shape.size();
    eltwise = !gemm && kind != OpKind::Conv && kind != OpKind::Pool;
    if (rows) {
      for (int tensor : n.inputs) {
        in_home.emplace_back();
        if (!rows_region(ctx, tensor, in_home.back())) return false;
      }
      if (!rows_region(ctx, n.outputs[0], y_home)) return false;
    } else {
      for (size_t k = 0; k < n.inputs.size(); ++k)
        in_home.push_back(eltwise ? aligned_home(ctx, n.inputs[k], R, true) : home_region(ctx, n.inputs[k], !gemm));
      y_home = home_region(ctx, n.outputs[0], !gemm);
    }
    // Weights the network loop has copied whole into L2 (build_loop.cc) are read from there.
    if (in_home.size() > 1) in_home[1] = loop_weights_home(ctx, node, in_home[1]);
    for (const Region& r : in_home) in_shapes.push_back(r.shape);
    ys = y_home.shape;
    KR = ys.size();
    nin = n.inputs.size();
    const bool last_two = gemm || rows;   // [.., rows, cols] kernel coordinates
    cdim = last_two ? static_cast<int>(KR) - 1 : 1;
    hdim = last_two ? static_cast<int>(KR) - 2 : 2;
    wdim = last_two ? -1 : 3;
    if (kind == OpKind::Conv && n.as<ConvParams>().groups == 1 && t.l1.n_in > 0 && t.l1.n_in < in_shapes[0][1])
      throw std::runtime_error(who + ": partial-sum tilings (n_in " + std::to_string(t.l1.n_in) + " < Cin " +
                               std::to_string(in_shapes[0][1]) + ") are not supported by the schedule builder");
    return true;
  }

  // The L2 slabs in loop order (batch element, Cout slab, row slab), each with its L1 tiles.
  void cut_tiles() {
    const int64_t C = ys[cdim], H = ys[hdim];
    const int64_t slab_c = tile_extent(t.l3.n_out, C), slab_h = tile_extent(t.l3.h_out, H);
    std::vector<size_t> batch_dims;
    for (size_t d = 0; d < KR; ++d)
      if (static_cast<int>(d) != cdim && static_cast<int>(d) != hdim && static_cast<int>(d) != wdim) batch_dims.push_back(d);
    int64_t nbatch = 1;
    for (size_t d : batch_dims) nbatch *= ys[d];
    for (int64_t b = 0; b < nbatch; ++b) {
      Box base{Shape(KR, 0), Shape(KR, 1)};
      int64_t rest = b;
      for (size_t i = batch_dims.size(); i-- > 0;) {
        base.start[batch_dims[i]] = rest % ys[batch_dims[i]];
        rest /= ys[batch_dims[i]];
      }
      for (int64_t sc = 0; sc < C; sc += slab_c)
        for (int64_t sh = 0; sh < H; sh += slab_h)
          slabs.push_back(cut_slab(base, sc, std::min(slab_c, C - sc), sh, std::min(slab_h, H - sh)));
    }
  }

  // The L1 tiles of the slab of nc_s channels from sc and nh_s rows from sh: Cout → H → W,
  // the last tiles of a dimension take the remainder.
  Slab cut_slab(const Box& base, int64_t sc, int64_t nc_s, int64_t sh, int64_t nh_s) const {
    const int64_t W = wdim >= 0 ? ys[wdim] : 1;
    const int64_t tc = t.l1.whole ? nc_s : tile_extent(t.l1.n_out, nc_s);
    const int64_t th = t.l1.whole ? nh_s : tile_extent(t.l1.h_out, nh_s);
    const int64_t tw = t.l1.whole ? W : tile_extent(t.l1.w_out, W);
    Slab slab;
    for (int64_t c = sc; c < sc + nc_s; c += tc)
      for (int64_t h = sh; h < sh + nh_s; h += th)
        for (int64_t w = 0; w < W; w += tw) {
          Box out = base;
          out.start[cdim] = c, out.ext[cdim] = std::min(tc, sc + nc_s - c);
          out.start[hdim] = h, out.ext[hdim] = std::min(th, sh + nh_s - h);
          if (wdim >= 0) out.start[wdim] = w, out.ext[wdim] = std::min(tw, W - w);
          slab.tiles.push_back(tile_of(out));
        }
    return slab;
  }

  // A tile's params, input boxes and constant vectors (NPU: its encoded weight rows).
  TileInfo tile_of(const Box& out) const {
    TileInfo ti;
    ti.out = out;
    try {
      ti.tp = rows ? rows_tile_params(n, in_shapes, ti.out) : tile_params(g, pn(), in_shapes, ys, ti.out);
    } catch (const std::exception& e) {
      throw std::runtime_error(who + ": " + e.what());
    }
    ti.cv = rows ? rows_const_vectors(n, ti.out)
            : aimc ? std::vector<ConstVec>{} : const_vectors(g, pn(), ys, ti.out);
    if (npu) {   // the tile's encoded weight rows
      const NpuWeightGeom& wg = *wpl->npu_weights;
      const int64_t c0 = ti.out.start[cdim], c1 = c0 + ti.out.ext[cdim];
      const int64_t r0 = c0 / wg.channels_per_row;
      const int64_t r1 = (c1 + wg.channels_per_row - 1) / wg.channels_per_row;
      ti.tp.in_boxes[1] = Box{{r0, 0}, {r1 - r0, wg.row_bytes}};
      ti.npu_skip = c0 - r0 * wg.channels_per_row;
    }
    return ti;
  }

  // L1 multi-buffering: as requested, except when every L2 slab is a single L1 tile (DORY's
  // early exit, `whole`): then there is nothing to overlap inside a slab and the tile was sized
  // without the double-buffer factor.
  // Constant vectors (build_consts.cc): resident in L2, or staged from L3 for this step
  // (rows layers' and DIANA's analog core's own vectors).
  void open_step() {
    size_t max_tiles = 0;
    for (const Slab& sl : slabs) max_tiles = std::max(max_tiles, sl.tiles.size());
    requested = ctx.buffering == 0 ? (t.l1.db >= 2 ? 2 : 1) : ctx.buffering;
    l1db = (t.l1.whole || max_tiles <= 1) ? 1 : requested;
    step = &s.steps.at(node);
    step->tiled = true;
    step->tiling = t;
    step->buffering = l1db;
    const auto full_cv = rows ? rows_const_vectors(n, Box{Shape(KR, 0), ys})
                         : aimc ? std::vector<ConstVec>{} : const_vectors(g, pn(), ys, Box{Shape(KR, 0), ys});
    consts = const_home(ctx, node, t, ys, node, &full_cv);
  }

  // L2 slab plans of operands homed in L3 (inputs 0..k, then the output).
  void plan_l3_slabs() {
    plan.resize(nin + 1);
    for (size_t k = 0; k <= nin; ++k) {
      const bool out = k == nin;
      const Region& home = out ? y_home : in_home[k];
      if (s.buffers[home.buffer].level != Level::L3) continue;
      std::vector<std::vector<Box>> boxes;
      for (const Slab& sl : slabs) {
        boxes.emplace_back();
        for (const TileInfo& ti : sl.tiles) boxes.back().push_back(out ? ti.out : ti.tp.in_boxes[k]);
      }
      const int db = out ? t.l3.db_o : (!eltwise && k == 1 ? t.l3.db_w : t.l3.db_x);
      const std::string tag = out ? "y" : (k == 0 ? "x" : (eltwise ? "x2" : "w"));
      plan[k] = plan_slabs(s, home, boxes, db, out, tag + " slab", n.name, node);
    }
  }

  // L1 buffers: x (and x2) per tile, w and constants per Cout tile change, y per tile. Sizes:
  // the largest tile of each; loads of w and the constants: how often their boxes change.
  void size_l1() {
    dbl = l1db == 2;
    // Deeploy's tiling loop transfers every input cube of every tile, changed or not ([30]
    // TilingCodeGeneration.py `_generateDmaTransferCalls`, SingleBufferingTilingCodeGeneration.py:
    // one transfer per tile from the tile's rectangle list, no reuse test); DORY's loop reloads
    // only what changed (docs/schedule.md §5). Modelled for single buffering: double-buffered
    // Deeploy tiles would need two weight and constant buffers, which the tilers do not size.
    every_tile = reloads_every_tile(t) && !dbl;
    // The tuned flow's pulp_nn_depthwise_3x3_s1 reads a tile's padded rows from its input buffer
    // (kernels/conv/cost_dw3x3_s1.h, zero rows written before the call), so the buffer holds
    // Hout + 2 rows of each channel; the views keep the packed rows (same bytes, same transfers).
    dw3x3_s1 = n.engine == "cluster" && policy_calls_dw3x3_s1(t.policy, *ctx.spec);
    in_max.assign(nin, 0);
    Box prev_w;
    std::vector<Box> prev_c;
    bool first = true;
    for (const Slab& sl : slabs)
      for (const TileInfo& ti : sl.tiles) {
        ++ntiles;
        for (size_t k = 0; k < nin; ++k) in_max[k] = std::max(in_max[k], region_bytes(in_home[k], ti.tp.in_boxes[k]));
        if (dw3x3_s1 && nin > 0 && std::holds_alternative<ConvParams>(ti.tp.params) &&
            depthwise_3x3_s1_applies(std::get<ConvParams>(ti.tp.params), ti.tp.in_boxes[0].ext, ti.out.ext)) {
          in_max[0] = std::max(in_max[0], depthwise_3x3_s1_input_elements(ti.tp.in_boxes[0].ext, ti.out.ext) *
                                              static_cast<int64_t>(dtype_size(in_home[0].dtype)));
        }
        y_max = std::max(y_max, region_bytes(y_home, ti.out));
        int64_t cb = 0;
        for (const ConstVec& v : ti.cv) cb += v.box.numel() * 4;
        c_max = std::max(c_max, cb);
        std::vector<Box> cboxes;
        for (const ConstVec& v : ti.cv) cboxes.push_back(v.box);
        if (nin > 1 && (every_tile || first || ti.tp.in_boxes[1] != prev_w)) ++w_loads;
        if (!cboxes.empty() && (every_tile || first || cboxes != prev_c)) ++c_loads;
        if (nin > 1) prev_w = ti.tp.in_boxes[1];
        prev_c = cboxes;
        first = false;
      }
  }

  // `bytes` each; double-buffered: two unless used once.
  std::vector<int> l1_bufs(const std::string& tag, int64_t bytes, int64_t uses, Level lv = Level::L1) {
    std::vector<int> ids;
    const int64_t nb = dbl ? std::min<int64_t>(2, std::max<int64_t>(uses, 1)) : 1;
    for (int64_t i = 0; i < nb; ++i)
      ids.push_back(add_buffer(s, lv, bytes, tag + "[" + std::to_string(i) + "] " + level_name(lv) + " " + n.name, node, node));
    return ids;
  }

  void add_l1_buffers() {
    w_like = kind == OpKind::Conv || kind == OpKind::Gemm;   // input 1 reused across tiles
    const Level w_level = soma ? Level::WMEM : Level::L1;   // SOMA: its digital weight memory
    in_l1.resize(nin);
    for (size_t k = 0; k < nin; ++k) {
      const bool w = w_like && k == 1;
      if (w && w_in_wmem) continue;
      in_l1[k] = l1_bufs(k == 0 ? "x" : (w ? "w" : "x2"), in_max[k], w ? w_loads : ntiles, w ? w_level : Level::L1);
    }
    y_l1 = l1_bufs("y", y_max, ntiles);
    c_l1 = c_max > 0 ? l1_bufs("c", c_max, c_loads, w_level) : std::vector<int>{};
  }

  // Emission.
  // A policy whose depthwise template blocks on every transfer (Budgets::dw_blocking) runs the
  // tiles as one chain: the buffers stay those the tile was sized with, nothing overlaps.
  void emit() {
    const bool dw_blocking = !npu && kind == OpKind::Conv && n.as<ConvParams>().depthwise(in_shapes[0][1], ys[1]) &&
                             blocks_depthwise(*ctx.spec, t.policy);
    StepEmitter em(ctx, *step, requested == 1 || dw_blocking);
    slab_done_load.assign(slabs.size() * (nin + 1), false);
    emit_weights_ahead(em);
    emit_const_stage(ctx, em, consts, n.name);
    in_loads.assign(nin, 0);
    in_prev.assign(nin, Box{});
    in_prev_src.assign(nin, -1);
    for (size_t j = 0; j < slabs.size(); ++j) {
      load_slabs(em, j);
      for (const TileInfo& ti : slabs[j].tiles) emit_tile(em, ti, j);
      if (plan[nin].active)
        em.copy(slab_region(nin, j), y_home, plan[nin].box[j], "l3_dma", "store y slab " + std::to_string(j));
    }
    em.finish();
  }

  Region slab_region(size_t k, size_t j) const {
    const Region& home = k == nin ? y_home : in_home[k];
    return packed(plan[k].buf[j], 0, home, plan[k].box[j]);
  }

  void load_slab(StepEmitter& em, size_t k, size_t j) {
    if (slab_done_load[j * (nin + 1) + k]) return;
    slab_done_load[j * (nin + 1) + k] = true;
    em.copy(in_home[k], slab_region(k, j), plan[k].box[j], "l3_dma",
            "load " + std::string(k == 0 ? "x" : "in" + std::to_string(k)) + " slab " + std::to_string(j));
  }

  // Weight slabs read ahead (NetTiling::prefetch): the first load into each slab buffer is
  // issued at the start of an earlier step, whose start the buffers now live from. Staged
  // constant vectors are read whole with them (or at the step's start).
  void emit_weights_ahead(StepEmitter& em) {
    const auto ahead = ctx.ahead.find(node);
    if (ahead == ctx.ahead.end() || nin <= 1 || !w_like || !plan[1].active) return;
    for (int b : plan[1].bufs) s.buffers[static_cast<size_t>(b)].first_step = ahead->second;
    em.issue_ahead(ctx.sinks_at.at(static_cast<size_t>(ahead->second)));
    size_t issued = 0;
    for (size_t j = 0; j < slabs.size() && issued < plan[1].bufs.size(); ++j)
      if (plan[1].load[j]) load_slab(em, 1, j), ++issued;
    em.issue_here();
  }

  // At the start of slab j: its slab loads, and with n slab buffers the next n - 1 loads (in
  // flight, each waiting for its buffer).
  void load_slabs(StepEmitter& em, size_t j) {
    for (size_t k = 0; k < nin; ++k) {
      if (!plan[k].active) continue;
      if (plan[k].load[j]) load_slab(em, k, j);
      size_t ahead_loads = plan[k].bufs.size() - 1;
      for (size_t j2 = j + 1; j2 < slabs.size() && ahead_loads > 0; ++j2)
        if (plan[k].load[j2]) load_slab(em, k, j2), --ahead_loads;
    }
  }

  // One tile of slab j: its loads, the compute, the store of y.
  void emit_tile(StepEmitter& em, const TileInfo& ti, size_t j) {
    const std::string ts = std::to_string(tile_no) + "/" + std::to_string(ntiles);
    Command comp = compute_command(ti);
    comp.note = "compute tile " + ts;
    std::vector<int> reads;
    load_tile_inputs(em, ti, j, ts, comp, reads);
    if (!c_l1.empty()) reads.push_back(load_tile_consts(em, ti, ts));
    const int ybuf = y_l1[static_cast<size_t>(y_count++) % y_l1.size()];
    const Region ydst = packed(ybuf, 0, y_home, ti.out);
    comp.outputs.push_back(view_of(ydst));
    count_macs(comp, ti);
    em.emit(std::move(comp), reads, {ybuf});
    const Region yto = plan[nin].active ? slab_region(nin, j) : y_home;
    em.copy(ydst, yto, ti.out, "cluster_dma", "store y tile " + ts);
    ++tile_no;
  }

  // The tile's Compute command without its operands: engine, DIANA's array programming, the
  // NPU job's weight rows and output shape, the tile params.
  Command compute_command(const TileInfo& ti) {
    Command comp;
    comp.kind = Command::Kind::Compute;
    // The cluster, or an engine registered from elsewhere, whose layers are tiled as the cluster's
    // (compiler/passes/engine_registry.h).
    comp.engine = npu || soma ? "npu" : aimc ? "aimc" : n.engine.empty() ? "cluster" : n.engine;
    if (aimc) {   // the array holds one tile's weights at a time: program it when they change
      const Box& wb = ti.tp.in_boxes.at(1);
      comp.aimc_program = ctx.aimc_node != node || ctx.aimc_weights != wb;
      ctx.aimc_node = node;
      ctx.aimc_weights = wb;
    }
    comp.node = node;
    if (npu) {
      comp.npu_weights = wpl->npu_weights;
      comp.npu_row0 = ti.tp.in_boxes[1].start[0];
      comp.npu_skip = ti.npu_skip;
      // Deeploy re-shapes the spatial extent of NE16 pointwise convs (ne16_pw_reshape.h). The
      // flow's graph pass does it before tiling under policy deeploy; on a graph it did not
      // re-shape (the tuned flow's layers run with Deeploy's conventions, the Deeploy plan among
      // the tuner's candidates) the job takes the rule per tile.
      const Shape& out_shape = g.tensor(n.outputs.at(0)).shape;
      const bool reshaped = out_shape.size() == 4 && is_deeploy_ne16_pointwise_extent(out_shape[2], out_shape[3]);
      if (deeploy_ne16_order(t, reshaped) && ctx.spec->npu.impl == "ne16" &&
          wpl->npu_weights->op == NpuOp::Conv1x1 &&
          ti.out.ext.size() == 4) {
        const auto [r, c] = deeploy_ne16_pointwise_reshape(ti.out.ext[2] * ti.out.ext[3]);
        if (r != ti.out.ext[2] || c != ti.out.ext[3]) comp.npu_ho = r, comp.npu_wo = c;
      }
    }
    comp.params = ti.tp.params;
    return comp;
  }

  // The tile's inputs into L1 (or read in place from the weight memory), as the compute's
  // operands: w only when its box or source changed, x and x2 every tile when double-buffered.
  void load_tile_inputs(StepEmitter& em, const TileInfo& ti, size_t j, const std::string& ts, Command& comp,
                        std::vector<int>& reads) {
    for (size_t k = 0; k < nin; ++k) {
      const Region src = plan[k].active ? slab_region(k, j) : in_home[k];
      const Box& box = ti.tp.in_boxes[k];
      if (w_in_wmem && k == 1) {   // read in place from the weight memory
        comp.inputs.push_back(view_of(sub_region(src, box)));
        reads.push_back(src.buffer);
        continue;
      }
      const bool reuse_kind = w_like && k == 1;
      const bool changed = in_loads[k] == 0 || box != in_prev[k] || src.buffer != in_prev_src[k];
      const bool load = every_tile || (reuse_kind ? changed : (dbl || changed));
      if (load) ++in_loads[k];
      const int buf = in_l1[k][static_cast<size_t>(in_loads[k] - 1) % in_l1[k].size()];
      const Region dst = packed(buf, 0, in_home[k], box);
      if (load)
        em.copy(src, dst, box, "cluster_dma",
                "load " + std::string(k == 0 ? "x" : (reuse_kind ? "w" : "x2")) + " tile " + ts);
      in_prev[k] = box;
      in_prev_src[k] = src.buffer;
      comp.inputs.push_back(view_of(dst));
      reads.push_back(buf);
    }
  }

  // The tile's constant vectors into their L1 buffer when their boxes changed; returns the buffer.
  int load_tile_consts(StepEmitter& em, const TileInfo& ti, const std::string& ts) {
    std::vector<Box> cboxes;
    for (const ConstVec& v : ti.cv) cboxes.push_back(v.box);
    const bool load = every_tile || c_first || cboxes != c_prev;
    if (load) ++c_count;
    const int buf = c_l1[static_cast<size_t>(c_count - 1) % c_l1.size()];
    if (load) {
      int64_t off = 0;
      for (size_t v = 0; v < ti.cv.size(); ++v) {
        Region dst;
        dst.buffer = buf, dst.offset = off, dst.dtype = DType::I32, dst.shape = ti.cv[v].box.ext;
        dst.strides = contiguous_strides(dst.shape);
        dst.origin = ti.cv[v].box.start;
        em.copy(consts.regions[v], dst, ti.cv[v].box, "cluster_dma", "load " + ti.cv[v].name + " tile " + ts);
        off += ti.cv[v].box.numel() * 4;
      }
    }
    c_first = false;
    c_prev = cboxes;
    return buf;
  }

  void count_macs(Command& comp, const TileInfo& ti) const {
    if (kind == OpKind::Conv) {
      const ConvParams& p = std::get<ConvParams>(ti.tp.params);
      comp.macs = ti.out.numel() * (in_shapes[0][1] / n.as<ConvParams>().groups) * p.kh * p.kw;
    } else if (gemm) {
      const GemmParams& p = n.as<GemmParams>();
      const Shape& as = in_shapes[0];
      comp.macs = ti.out.numel() * (p.trans_a ? as[as.size() - 2] : as[as.size() - 1]);
    }
  }
};

}  // namespace

bool build_layer_step(BuildContext& ctx, int node, const LayerTiling& t) {
  const Graph& g = *ctx.g;
  const Node& n = g.nodes.at(node);
  if (!Graph::is_layer(n) || n.outputs.size() != 1) return false;
  // A rows layer (softmax, norms, element-wise ops on sequences) is tiled as [rows, last axis].
  const bool rows = is_rows_layer(g, node, ctx.domains);
  if (!tiled_shapes(g, n, rows)) return false;
  TiledStep ts(ctx, node, t, rows);
  ts.read_engines();
  if (!ts.read_operands()) return false;
  ts.cut_tiles();
  ts.open_step();
  ts.plan_l3_slabs();
  ts.size_l1();
  ts.add_l1_buffers();
  ts.emit();
  return true;
}

}  // namespace edgesim::sched
