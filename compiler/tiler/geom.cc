// Layer geometry: reads one Graph layer node (Conv, Gemm, Pool, Add) into DORY's view of a
// layer (tiling.h LayerGeom), plus the byte counts and tile counts every policy shares.
//
// Conventions (docs/tiling.md): element bits come from the storage dtypes of the tensors;
// n_c counts the per-channel requant vectors (k, λ, or the float scale) that have one entry per
// output channel; a 1-D conv/pool is H = 1; a Gemm is K -> N over M rows (h = M, w = 1, 1×1
// kernel) with the product of leading output dims as batch; an Add is C, H, W of its output
// (rank < 3 shapes are padded with leading 1s, rank > 3 folds into batch).
#include <fmt/format.h>

#include "compiler/ir/layout_domain.h"
#include "kernels/softmax/constraints.h"
#include "compiler/tiler/internal.h"

namespace edgesim {

namespace {

int bits_of(DType t) { return static_cast<int>(dtype_size(t) * 8); }

// Per-channel constants of a fused requant: vectors with more than one entry.
int count_constants(const Requant& rq) {
  if (!rq.enabled()) return 0;
  if (rq.kind == Requant::Kind::Float) return rq.scale.size() > 1 ? 1 : 0;
  return (rq.k.size() > 1 ? 1 : 0) + (rq.lambda.size() > 1 ? 1 : 0);
}

Shape as_4d(const Shape& s) {
  if (s.size() == 4) return s;
  if (s.size() == 3) return {s[0], s[1], 1, s[2]};
  throw TilingError(fmt::format("expected a rank-3 or rank-4 shape, got {}", shape_str(s)));
}

[[noreturn]] void unsupported(const Graph& g, int node, const std::string& why) {
  const Node& n = g.nodes.at(static_cast<size_t>(node));
  throw TilingError(fmt::format("node {} '{}' ({}): {}", node, n.name, op_name(n.kind()), why), node);
}

void fill_conv(const Graph& gr, int node, LayerGeom& g) {
  const Node& n = gr.nodes[static_cast<size_t>(node)];
  const auto& p = n.as<ConvParams>();
  const TensorDesc& x = gr.tensor(n.inputs.at(0));
  const TensorDesc& w = gr.tensor(n.inputs.at(1));
  const TensorDesc& y = gr.tensor(n.outputs.at(0));
  const Shape xs = as_4d(x.shape), ys = as_4d(y.shape);
  g.batch = xs[0];
  g.cin = xs[1]; g.h_in = xs[2]; g.w_in = xs[3];
  g.cout = ys[1]; g.h_out = ys[2]; g.w_out = ys[3];
  g.kh = p.kh; g.kw = p.kw; g.sh = p.sh; g.sw = p.sw; g.dh = p.dh; g.dw = p.dw;
  g.pt = p.pad_t; g.pl = p.pad_l; g.pb = p.pad_b; g.pr = p.pad_r;
  g.groups = p.groups;
  g.depthwise = p.depthwise(g.cin, g.cout);
  g.fc = !g.depthwise && g.h_in == 1 && g.w_in == 1 && g.h_out == 1 && g.w_out == 1;
  g.bx = bits_of(x.dtype); g.bw = bits_of(w.dtype); g.by = bits_of(y.dtype);
  g.has_bias = !p.bias.empty();
  g.n_c = count_constants(p.rq);
}

void fill_gemm(const Graph& gr, int node, LayerGeom& g) {
  const Node& n = gr.nodes[static_cast<size_t>(node)];
  const auto& p = n.as<GemmParams>();
  const TensorDesc& a = gr.tensor(n.inputs.at(0));
  const TensorDesc& b = gr.tensor(n.inputs.at(1));
  const TensorDesc& y = gr.tensor(n.outputs.at(0));
  const Shape& ys = y.shape;
  if (ys.empty() || a.shape.empty()) unsupported(gr, node, "gemm with a scalar operand");
  const size_t r = ys.size();
  g.cout = ys[r - 1];
  g.h_in = g.h_out = r >= 2 ? ys[r - 2] : 1;
  g.batch = 1;
  for (size_t i = 0; i + 2 < r; ++i) g.batch *= ys[i];
  const size_t ra = a.shape.size();
  g.cin = ra == 1 ? a.shape[0] : (p.trans_a ? a.shape[ra - 2] : a.shape[ra - 1]);
  g.w_in = g.w_out = 1;
  g.fc = true;
  g.bx = bits_of(a.dtype); g.bw = bits_of(b.dtype); g.by = bits_of(y.dtype);
  g.bx2 = g.bw;
  g.weights_const = b.is_const();
  g.has_bias = !p.bias.empty();
  g.n_c = count_constants(p.rq);
}

void fill_pool(const Graph& gr, int node, LayerGeom& g) {
  const Node& n = gr.nodes[static_cast<size_t>(node)];
  const auto& p = n.as<PoolParams>();
  const TensorDesc& x = gr.tensor(n.inputs.at(0));
  const TensorDesc& y = gr.tensor(n.outputs.at(0));
  const Shape xs = as_4d(x.shape), ys = as_4d(y.shape);
  g.batch = xs[0];
  g.cin = g.cout = xs[1]; g.h_in = xs[2]; g.w_in = xs[3];
  g.h_out = ys[2]; g.w_out = ys[3];
  g.kh = p.global ? xs[2] : p.kh; g.kw = p.global ? xs[3] : p.kw;
  g.sh = p.global ? 1 : p.sh; g.sw = p.global ? 1 : p.sw;
  g.pt = p.pad_t; g.pl = p.pad_l; g.pb = p.pad_b; g.pr = p.pad_r;
  g.groups = g.cin;
  g.depthwise = true;
  g.bx = bits_of(x.dtype); g.by = bits_of(y.dtype); g.bw = 8;
  g.n_c = count_constants(p.rq);
}

// The fused requant of an element-wise / rows node (None for softmax, norms, float chains).
const Requant* node_rq(const Node& n) {
  switch (n.kind()) {
    case OpKind::Add: return &n.as<AddParams>().rq;
    case OpKind::Mul: return &n.as<MulParams>().rq;
    case OpKind::Requant: return &n.as<RequantParams>().rq;
    case OpKind::Act: return &n.as<ActParams>().rq;
    default: return nullptr;
  }
}

void fill_rows(const Graph& gr, int node, LayerGeom& g) {
  const Node& n = gr.nodes[static_cast<size_t>(node)];
  const TensorDesc& y = gr.tensor(n.outputs.at(0));
  g.rows = true;
  g.cin = g.cout = y.shape.back();
  g.h_in = g.h_out = shape_numel(y.shape) / std::max<int64_t>(1, g.cout);
  g.depthwise = true;
  g.groups = g.cin;
  g.n_in = static_cast<int>(n.inputs.size());
  g.bx = bits_of(gr.tensor(n.inputs.at(0)).dtype);
  g.bx2 = n.inputs.size() > 1 ? bits_of(gr.tensor(n.inputs.at(1)).dtype) : g.bx;
  g.by = bits_of(y.dtype);
  g.bw = 8;
  if (n.kind() == OpKind::Softmax) g.transient = softmax_scratch_bytes(n.as<SoftmaxParams>(), g.cout);
  if (n.kind() == OpKind::Norm) g.n_c = n.as<NormParams>().bias.empty() ? 1 : 2;   // int32 weight (+ bias)
  else if (const Requant* rq = node_rq(n)) g.n_c = count_constants(*rq);
}

void fill_add(const Graph& gr, int node, LayerGeom& g) {
  const Node& n = gr.nodes[static_cast<size_t>(node)];
  const TensorDesc& y = gr.tensor(n.outputs.at(0));
  Shape s = y.shape;
  while (s.size() < 3) s.insert(s.begin(), 1);
  const size_t r = s.size();
  g.batch = 1;
  for (size_t i = 0; i + 3 < r; ++i) g.batch *= s[i];
  g.cin = g.cout = s[r - 3]; g.h_in = g.h_out = s[r - 2]; g.w_in = g.w_out = s[r - 1];
  g.depthwise = true;
  g.groups = g.cin;
  g.bx = bits_of(gr.tensor(n.inputs.at(0)).dtype);
  g.bx2 = n.inputs.size() > 1 ? bits_of(gr.tensor(n.inputs.at(1)).dtype) : g.bx;
  g.by = bits_of(y.dtype);
  g.n_in = static_cast<int>(n.inputs.size());
  if (const Requant* rq = node_rq(n)) g.n_c = count_constants(*rq);
}

}  // namespace

int64_t bits_to_bytes(int64_t elems, int64_t bits) { return (elems * bits + 7) / 8; }

int64_t LayerGeom::weight_bytes() const {
  if (kind != OpKind::Conv && kind != OpKind::Gemm) return 0;
  const int64_t per_out = (groups > 0 ? cin / groups : cin) * kh * kw;
  return bits_to_bytes(cout * per_out, bw);
}
int64_t LayerGeom::in_bytes() const { return bits_to_bytes(cin * h_in * w_in, bx); }
int64_t LayerGeom::out_bytes() const { return bits_to_bytes(cout * h_out * w_out, by); }
int64_t LayerGeom::const_bytes() const {
  return (has_bias ? bits_to_bytes(cout, bb) : 0) + bits_to_bytes(static_cast<int64_t>(n_c) * cout, cb);
}

LayerGeom layer_geom(const Graph& g, int node) {
  if (node < 0 || node >= static_cast<int>(g.nodes.size()))
    throw TilingError(fmt::format("node index {} out of range", node), node);
  const Node& n = g.nodes[static_cast<size_t>(node)];
  LayerGeom r;
  r.node = node;
  r.kind = n.kind();
  try {
    switch (n.kind()) {
      case OpKind::Conv: fill_conv(g, node, r); break;
      case OpKind::Gemm: fill_gemm(g, node, r); break;
      case OpKind::Pool: fill_pool(g, node, r); break;
      case OpKind::Add: case OpKind::Mul: case OpKind::Requant: case OpKind::Act: case OpKind::FloatChain:
      case OpKind::Softmax: case OpKind::Norm:
        if (is_rows_layer(g, node)) fill_rows(g, node, r);
        else if (n.kind() == OpKind::Softmax || n.kind() == OpKind::Norm)
          unsupported(g, node, "a row-wise op on an image (HWC) tensor is not tiled");
        else fill_add(g, node, r);
        break;
      default: unsupported(g, node, "not a layer the tiler handles");
    }
  } catch (const TilingError&) {
    throw;
  } catch (const std::exception& e) {
    unsupported(g, node, e.what());
  }
  if (r.cin < 1 || r.cout < 1 || r.h_in < 1 || r.w_in < 1 || r.h_out < 1 || r.w_out < 1)
    unsupported(g, node, "empty tensor");
  return r;
}

std::string layer_label(const Graph* g, const LayerGeom& geom) {
  int index = geom.node;
  std::string name = "?";
  if (g && geom.node >= 0 && geom.node < static_cast<int>(g->nodes.size())) {
    name = g->nodes[static_cast<size_t>(geom.node)].name;
    const auto layers = g->layer_nodes();
    for (size_t i = 0; i < layers.size(); ++i)
      if (layers[i] == geom.node) index = static_cast<int>(i);
  }
  std::string what;
  switch (geom.kind) {
    case OpKind::Conv:
      what = fmt::format("{} {}x{}, {}->{}, {}x{} -> {}x{}",
                         geom.depthwise ? "dwconv" : (geom.fc ? "fc" : "conv"), geom.kh, geom.kw,
                         geom.cin, geom.cout, geom.h_in, geom.w_in, geom.h_out, geom.w_out);
      break;
    case OpKind::Gemm:
      what = fmt::format("gemm [{}x{}]x[{}x{}]{}", geom.h_in, geom.cin, geom.cin, geom.cout,
                         geom.batch > 1 ? fmt::format(" batch {}", geom.batch) : "");
      break;
    case OpKind::Pool:
      what = fmt::format("pool {}x{}, {} ch, {}x{} -> {}x{}", geom.kh, geom.kw, geom.cin,
                         geom.h_in, geom.w_in, geom.h_out, geom.w_out);
      break;
    default:
      what = geom.rows ? fmt::format("{} {} rows x {}", op_name(geom.kind), geom.h_out, geom.cout)
                       : fmt::format("{} {}x{}x{}", op_name(geom.kind), geom.cout, geom.h_out, geom.w_out);
  }
  return fmt::format("layer {} '{}' ({})", index, name, what);
}

// Tiles of one L2 slab of nc channels × nh rows.
static int64_t slab_tiles(int64_t nc, int64_t nh, const LayerGeom& g, const L1Tiling& t) {
  auto cdiv = [](int64_t a, int64_t b) { return b > 0 ? (a + b - 1) / b : 1; };
  return cdiv(nc, t.n_out) * cdiv(nh, t.h_out) * cdiv(g.w_out, t.w_out);
}

int64_t tile_count(const LayerGeom& g, const LayerTiling& t) {
  if (t.l1.n_out <= 0 || t.l1.h_out <= 0 || t.l1.w_out <= 0) return 0;
  const int64_t sn = t.l3.n_out > 0 ? t.l3.n_out : g.cout;
  const int64_t sh = t.l3.h_out > 0 ? t.l3.h_out : g.h_out;
  int64_t total = 0;
  // Full slabs and the remainder slab along Cout and H.
  const int64_t fn = g.cout / sn, rn = g.cout % sn, fh = g.h_out / sh, rh = g.h_out % sh;
  const int64_t ns[2] = {sn, rn}, cn[2] = {fn, rn ? 1 : 0};
  const int64_t hs[2] = {sh, rh}, ch[2] = {fh, rh ? 1 : 0};
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      if (cn[i] && ch[j]) total += cn[i] * ch[j] * slab_tiles(ns[i], hs[j], g, t.l1);
  return total * g.batch;
}

}  // namespace edgesim
