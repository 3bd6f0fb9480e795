// The analytic cost's layer model (analytic_layer.h): reads a layer node the way
// compiler/schedule/build_layer.cc and build_params.cc do — kernel coordinates (4-D for conv /
// pool / add, own ranks for gemm), homes (L3 when the tiling, the constants placement or the L2
// budget say so, docs/schedule.md §2), tile boxes of every operand and tile params.
#include <algorithm>

#include <fmt/format.h>

#include "compiler/ir/layout_domain.h"
#include "compiler/schedule/build_internal.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "compiler/tune/analytic_layer.h"

namespace edgesim::tune_detail {

namespace {

Operand operand(const Graph& g, int tensor, bool as4d) {
  Operand o;
  const TensorDesc& d = g.tensor(tensor);
  o.shape = as4d ? sched::to4d_shape(d.shape) : d.shape;
  o.home = home_strides(g, tensor, as4d);
  o.esize = static_cast<int64_t>(dtype_size(d.dtype));
  return o;
}

int64_t bytes_of(const Graph& g, int tensor) {
  const TensorDesc& d = g.tensor(tensor);
  return shape_numel(d.shape) * static_cast<int64_t>(dtype_size(d.dtype));
}

template <class P>
void strip_rq(P& p) {
  p.rq.k.clear(), p.rq.lambda.clear(), p.rq.scale.clear();
}

// The analytic model follows the conv / pool / add / gemm tiles only; the row-wise and other
// element-wise layers are costed as one whole kernel (their candidates are told apart by the
// simulating evaluator).
bool modelled_layer(const Graph& g, int node, const Layer& L, const Shape& os) {
  const Node& n = g.nodes.at(static_cast<size_t>(node));
  const bool modelled = L.kind == OpKind::Conv || L.kind == OpKind::Pool || L.kind == OpKind::Add || L.gemm;
  return !(!modelled || is_rows_layer(g, node) ||
           n.outputs.size() != 1 || (L.gemm && (n.inputs.size() != 2 || g.tensor(n.inputs[0]).shape.size() < 2 ||
                                                g.tensor(n.inputs[1]).shape.size() < 2 || os.size() < 2)) ||
           (!L.gemm && (os.size() > 4 || os.empty())));
}

// The operands in kernel coordinates with their homes: L3 when the tiling, the constants
// placement or the L2 budget say so (docs/schedule.md §2).
void read_operands(Layer& L, const Graph& g, const Node& n, const Shape& os, const LayerTiling& t,
                   const PlatformSpec& spec, const AnalyticContext& ctx, const std::string& l2_policy) {
  int64_t l2_budget = spec.l2.size;
  try {
    l2_budget = policy_budgets(spec, l2_policy).l2;
  } catch (const std::exception&) {
  }
  const bool has_l3 = spec.l3.size > 0;
  L.y = operand(g, n.outputs[0], !L.gemm);
  L.y.l3 = t.l3.output_in_l3 || bytes_of(g, n.outputs[0]) > l2_budget;
  L.y.slab_db = t.l3.db_o;
  const size_t R = os.size();
  for (size_t k = 0; k < n.inputs.size(); ++k) {
    const int id = n.inputs[k];
    Operand o;
    if (L.kind == OpKind::Add) {   // right-aligned to the output's rank, then 4-D
      Shape s = g.tensor(id).shape;
      while (s.size() < R) s.insert(s.begin(), 1);
      o = operand(g, id, false);
      o.shape = sched::to4d_shape(s);
      o.home = packed_like(o.shape, Shape{3, 0, 2, 1});   // HWC (only dims > 1 matter)
      const Shape o4 = sched::to4d_shape(os);
      for (int d = 0; d < 4; ++d) o.dep[d] = !(o.shape[static_cast<size_t>(d)] == 1 && o4[static_cast<size_t>(d)] != 1);
    } else {
      o = operand(g, id, !L.gemm);
    }
    const bool w_like = k == 1 && (L.kind == OpKind::Conv || L.gemm);
    o.reuse = w_like;
    const bool is_const = g.tensor(id).is_const();
    o.l3 = bytes_of(g, id) > l2_budget || (is_const && ctx.consts_in_l3 && has_l3) ||
           (w_like && t.l3.weights_in_l3) ||
           (t.l3.input_in_l3 && (k == 0 || (L.kind == OpKind::Add && k == 1)));
    o.slab_db = w_like ? t.l3.db_w : t.l3.db_x;
    L.in.push_back(std::move(o));
  }
}

// Kernel dims of Cout, H and W in the output and their extents; the batch elements.
void kernel_dims(Layer& L) {
  L.KR = L.y.shape.size();
  L.cd = L.gemm ? static_cast<int>(L.KR) - 1 : 1;
  L.hd = L.gemm ? static_cast<int>(L.KR) - 2 : 2;
  L.wd = L.gemm ? -1 : 3;
  L.C = L.y.shape[static_cast<size_t>(L.cd)];
  L.H = L.y.shape[static_cast<size_t>(L.hd)];
  L.W = L.wd >= 0 ? L.y.shape[3] : 1;
  for (size_t d = 0; d < L.KR; ++d)
    if (static_cast<int>(d) != L.cd && static_cast<int>(d) != L.hd && static_cast<int>(d) != L.wd) L.nbatch *= L.y.shape[d];
}

// A constant vector of `size` entries (scalars travel as immediates); bits: along Cout (1), H (2).
void add_vec(Layer& L, size_t size, int bits) {
  if (size > 1) L.cvec.push_back(bits), L.cvec_full.push_back(static_cast<int64_t>(size));
}

void add_rq_vecs(Layer& L, const Requant& rq, int bits) {
  if (rq.kind == Requant::Kind::Integer) add_vec(L, rq.k.size(), bits), add_vec(L, rq.lambda.size(), bits);
  else if (rq.kind == Requant::Kind::Float) add_vec(L, rq.scale.size(), bits);
}

// Conv: the window geometry, grouped input channels, the weights' box (Cout only), the
// constant vectors; throws on tilings the builder rejects.
void conv_layer(Layer& L, const Node& n, const LayerTiling& t, const std::string& who, int node) {
  ConvParams p = n.as<ConvParams>();
  const Shape& xs = L.in[0].shape;
  L.cin = xs[1];
  L.windows = true;
  L.kh = p.kh, L.sh = p.sh, L.dh = p.dh, L.pt = p.pad_t, L.hin = xs[2];
  L.kw = p.kw, L.sw = p.sw, L.dw = p.dw, L.pl = p.pad_l, L.win = xs[3];
  L.grouped = p.groups > 1;
  L.cout_g = L.C / std::max<int64_t>(p.groups, 1);
  L.cin_g = L.cin / std::max<int64_t>(p.groups, 1);
  L.in[0].dep[kC] = L.grouped;
  L.in[0].gather = p.depthwise(L.cin, L.C) && n.engine == "cluster";   // NPUs read HWC
  L.in[1].dep[kN] = L.in[1].dep[kH] = L.in[1].dep[kW] = false;
  if (t.l1.n_in > 0 && t.l1.n_in < L.cin && p.groups == 1)
    throw TilingError(who + ": partial-sum tilings (n_in < Cin) are not supported", node);
  const int64_t tc = t.l1.n_out > 0 ? std::min(t.l1.n_out, L.C) : L.C;
  const int64_t sc = t.l3.n_out > 0 ? std::min(t.l3.n_out, L.C) : L.C;
  if (L.grouped && L.cout_g > 1 && (tc % L.cout_g != 0 || sc % L.cout_g != 0) && !t.l1.whole)
    throw TilingError(who + ": a Cout tile of a grouped conv must cover whole groups", node);
  add_vec(L, p.bias.size(), 1);
  add_vec(L, p.w_zp.size(), 1);
  add_rq_vecs(L, p.rq, 1);
  p.bias.clear(), p.w_zp.clear();
  strip_rq(p);
  L.lean = p;
}

void pool_layer(Layer& L, const Node& n) {
  PoolParams p = n.as<PoolParams>();
  const Shape& xs = L.in[0].shape;
  L.windows = true;
  L.kh = p.global ? xs[2] : p.kh, L.sh = p.global ? 1 : p.sh, L.pt = p.global ? 0 : p.pad_t, L.hin = xs[2];
  L.kw = p.global ? xs[3] : p.kw, L.sw = p.global ? 1 : p.sw, L.pl = p.global ? 0 : p.pad_l, L.win = xs[3];
  add_rq_vecs(L, p.rq, 1);
  strip_rq(p);
  L.lean = p;
}

void add_layer(Layer& L, const Node& n) {
  AddParams p = n.as<AddParams>();
  add_rq_vecs(L, p.rq, 1);
  strip_rq(p);
  L.lean = p;
}

// Gemm: A's box follows the rows (H), B's the columns (Cout), batched operands the batch;
// the constant vectors by columns or rows (a requant along the rows' axis R - 2).
void gemm_layer(Layer& L, const Node& n, size_t R) {
  GemmParams p = n.as<GemmParams>();
  for (size_t k = 0; k < 2; ++k) {
    Operand& o = L.in[k];
    const size_t r = o.shape.size();
    bool batched = false;
    for (size_t d = 0; d + 2 < r; ++d) batched = batched || o.shape[d] > 1;
    o.dep[kN] = batched;
    o.dep[kC] = k == 1;
    o.dep[kH] = k == 0;
    o.dep[kW] = false;
  }
  if (p.bias.size() > 1) {
    Shape full = p.bias_shape;
    while (full.size() < 2) full.insert(full.begin(), 1);
    L.cvec.push_back((full[1] > 1 ? 1 : 0) | (full[0] > 1 ? 2 : 0));
    L.cvec_full.push_back(static_cast<int64_t>(p.bias.size()));
  }
  add_vec(L, p.a_zp.size(), 2);
  add_vec(L, p.b_zp.size(), 1);
  add_rq_vecs(L, p.rq, p.rq.axis == static_cast<int>(R) - 2 ? 2 : 1);
  p.bias.clear(), p.a_zp.clear(), p.b_zp.clear();
  strip_rq(p);
  L.lean = p;
}

}  // namespace

Layer make_layer(const Graph& g, int node, const LayerTiling& t, const PlatformSpec& spec,
                 const AnalyticContext& ctx, const std::string& l2_policy) {
  (void)layer_geom(g, node);   // throws TilingError for nodes the tiler does not handle
  const Node& n = g.nodes.at(static_cast<size_t>(node));
  const std::string who = fmt::format("node {} '{}'", node, n.name);
  Layer L;
  L.kind = n.kind();
  L.gemm = L.kind == OpKind::Gemm;
  const Shape& os = g.tensor(n.outputs.at(0)).shape;
  for (int id : n.inputs) L.whole_in.push_back(g.tensor(id).shape);
  if (!modelled_layer(g, node, L, os)) {
    L.tileable = false;
    L.lean = n.params;
    return L;
  }
  read_operands(L, g, n, os, t, spec, ctx, l2_policy);
  kernel_dims(L);
  L.lean = n.params;
  switch (L.kind) {
    case OpKind::Conv: conv_layer(L, n, t, who, node); break;
    case OpKind::Pool: pool_layer(L, n); break;
    case OpKind::Add: add_layer(L, n); break;
    case OpKind::Gemm: gemm_layer(L, n, os.size()); break;
    default: break;
  }
  return L;
}

Shape tile_ext(const Layer& L, size_t k, int64_t nc, const Kind& h, const Kind& w) {
  if (k == L.in.size() || L.kind == OpKind::Add) {
    Shape e(L.KR, 1);
    e[static_cast<size_t>(L.cd)] = nc;
    e[static_cast<size_t>(L.hd)] = h.n;
    if (L.wd >= 0) e[3] = w.n;
    if (k < L.in.size())
      for (size_t d = 0; d < 4; ++d)
        if (!L.in[k].dep[d]) e[d] = 1;
    return e;
  }
  const Operand& o = L.in[k];
  switch (L.kind) {
    case OpKind::Conv:
      if (k == 0) return {1, L.grouped ? nc / std::max<int64_t>(L.cout_g, 1) * L.cin_g : L.cin, h.in_n, w.in_n};
      return {nc, o.shape[1], o.shape[2], o.shape[3]};
    case OpKind::Pool: return {1, nc, h.in_n, w.in_n};
    default: {   // Gemm: A rows M (h), B cols N (c); K whole
      const auto& gp = std::get<GemmParams>(L.lean);
      const size_t r = o.shape.size();
      Shape e(r, 1);
      const bool tiled_last = (k == 0) == (k == 0 ? gp.trans_a : gp.trans_b);
      const int64_t tn = k == 0 ? h.n : nc;
      e[r - 2] = tiled_last ? o.shape[r - 2] : tn;
      e[r - 1] = tiled_last ? tn : o.shape[r - 1];
      return e;
    }
  }
}

Shape slab_ext(const Layer& L, size_t k, int64_t nc_s, const DimTiles& h, const DimTiles& w) {
  Kind hk{h.last_o0 + h.last_n - h.first_o0, h.last.start + h.last.n - h.first.start, 0, 0, 1};
  Kind wk{w.last_o0 + w.last_n - w.first_o0, w.last.start + w.last.n - w.first.start, 0, 0, 1};
  return tile_ext(L, k, nc_s, hk, wk);
}

OpParams tile_params(const Layer& L, int64_t nc, const Kind& h, const Kind& w) {
  OpParams p = L.lean;
  if (auto* c = std::get_if<ConvParams>(&p)) {
    c->pad_t = h.pad_lo, c->pad_b = h.pad_hi, c->pad_l = w.pad_lo, c->pad_r = w.pad_hi;
    if (L.grouped) c->groups = nc / std::max<int64_t>(L.cout_g, 1);
  } else if (auto* q = std::get_if<PoolParams>(&p)) {
    if (!q->global) {
      q->pad_t = h.pad_lo, q->pad_b = h.pad_hi, q->pad_l = w.pad_lo, q->pad_r = w.pad_hi;
      q->ceil_mode = false;
    }
  }
  return p;
}

}  // namespace edgesim::tune_detail
