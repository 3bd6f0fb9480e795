// Home placements of graph tensors (docs/schedule.md "Placements"). Every tensor a node reads
// or writes, and every graph input and output, gets one home buffer of its own in L2 — or in
// L3 when a layer's L3 tiling streams it or it alone exceeds the policy's L2 budget. The
// storage order is DORY's: activations HWC ([N,C,H,W] nested N,H,W,C; [N,C,L] as N,L,C), conv
// weights [Cout,kh,kw,Cin/g] so that a Cout tile is one contiguous run, Gemm B as [N,K] rows so
// that an N tile is contiguous; everything else row-major. Placement::strides are the element
// strides of the logical (ONNX) shape under that order. Weights of NPU layers are stored in the
// NPU's encoded layout (rows of bytes, kernels/npu/weights.h), in WMEM when the engine pass
// homed them there. The NCHW side of a graph I/O layout conversion (io_layout "nchw") is
// row-major.
#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "compiler/passes/assign_engine.h"
#include "compiler/schedule/build_internal.h"

namespace edgesim::sched {

int64_t Box::numel() const {
  int64_t n = 1;
  for (int64_t e : ext) n *= e;
  return n;
}

Shape packed_strides(const Shape& shape, const std::vector<int>& order) {
  Shape st(shape.size(), 1);
  int64_t acc = 1;
  for (size_t i = order.size(); i-- > 0;) {
    st[order[i]] = acc;
    acc *= std::max<int64_t>(shape[order[i]], 1);
  }
  return st;
}

std::vector<int> order_of(const Shape& strides) {
  std::vector<int> o(strides.size());
  std::iota(o.begin(), o.end(), 0);
  std::stable_sort(o.begin(), o.end(), [&](int a, int b) { return strides[a] > strides[b]; });
  return o;
}

std::vector<int> to4d_map(size_t rank) {
  switch (rank) {
    case 1: return {1};
    case 2: return {0, 1};
    case 3: return {0, 1, 3};
    default: {
      std::vector<int> m(rank);
      std::iota(m.begin(), m.end(), 0);
      return m;
    }
  }
}

Shape to4d_shape(const Shape& s) {
  if (s.size() >= 4) return s;
  Shape r{1, 1, 1, 1};
  const auto m = to4d_map(s.size());
  for (size_t d = 0; d < s.size(); ++d) r[m[d]] = s[d];
  return r;
}

Shape to4d_strides(const Shape& shape, const Shape& strides) {
  if (shape.size() >= 4) return strides;
  // Inserted unit axes take the stride of the next outer real axis times its extent, so the
  // storage order of the 4-D view is that of the tensor.
  const auto m = to4d_map(shape.size());
  const int64_t total = [&] {
    int64_t t = 1;
    for (size_t d = 0; d < shape.size(); ++d) t = std::max(t, strides[d] * shape[d]);
    return t;
  }();
  Shape r{total, total, total, total};
  for (size_t d = 0; d < shape.size(); ++d) r[m[d]] = strides[d];
  if (shape.size() == 3) r[2] = strides[2] * shape[2];   // [N,C,1,L]: H between N and L
  return r;
}

int add_buffer(Schedule& s, Level level, int64_t bytes, const std::string& name, int first, int last) {
  Buffer b;
  b.id = static_cast<int>(s.buffers.size());
  b.level = level;
  b.bytes = bytes;
  b.name = name;
  b.first_step = first;
  b.last_step = last;
  s.buffers.push_back(b);
  return b.id;
}

namespace {

std::vector<int> storage_order(const Graph& g, const std::vector<bool>& image, int t) {
  const Shape& sh = g.tensor(t).shape;
  const int r = static_cast<int>(sh.size());
  std::vector<int> rowmajor(r);
  std::iota(rowmajor.begin(), rowmajor.end(), 0);
  bool conv_w = false, gemm_b = false, gemm_b_trans = false;
  for (const Node& n : g.nodes) {
    // The NCHW side of a graph I/O layout conversion (compiler/passes/io_layout.h) is row-major.
    if (n.kind() == OpKind::Transpose) {
      const std::string& rl = n.as<TransposeParams>().relayout;
      if ((rl == "nchw_to_hwc" && n.inputs.at(0) == t) || (rl == "hwc_to_nchw" && n.outputs.at(0) == t))
        return rowmajor;
    }
    if (n.inputs.size() > 1 && n.inputs[1] == t) {
      if (n.kind() == OpKind::Conv) conv_w = true;
      if (n.kind() == OpKind::Gemm) {
        gemm_b = true;
        gemm_b_trans = n.as<GemmParams>().trans_b;
      }
    }
  }
  if (conv_w && (r == 3 || r == 4)) return r == 4 ? std::vector<int>{0, 2, 3, 1} : std::vector<int>{0, 2, 1};
  if (gemm_b && r >= 2) {
    if (gemm_b_trans) return rowmajor;   // [.., N, K] already has N tiles contiguous
    std::vector<int> o(rowmajor.begin(), rowmajor.end() - 2);
    o.push_back(r - 1);
    o.push_back(r - 2);
    return o;
  }
  if (!image.at(static_cast<size_t>(t))) return rowmajor;   // sequence tensors keep ONNX order
  if (r == 4) return {0, 2, 3, 1};
  if (r == 3) return {0, 2, 1};
  return rowmajor;
}

}  // namespace

Level home_level(const BuildContext& ctx, int tensor) {
  const Placement* p = ctx.s->placement_of(tensor);
  if (!p) throw std::runtime_error("schedule: tensor %" + std::to_string(tensor) + " has no placement");
  return ctx.s->buffers.at(p->buffer).level;
}

void place_tensors(BuildContext& ctx) {
  const Graph& g = *ctx.g;
  Schedule& s = *ctx.s;
  const size_t nt = g.tensors.size();
  std::vector<int> first(nt, -1), last(nt, -1);
  std::vector<bool> used(nt, false), l3(nt, false);
  for (int id : g.inputs) used[id] = true, first[id] = 0;
  for (size_t k = 0; k < g.nodes.size(); ++k) {
    const Node& n = g.nodes[k];
    const int step = ctx.run_step(static_cast<int>(k));   // a fused layer runs in its producer's step
    for (int id : n.inputs) {
      used[id] = true;
      last[id] = std::max(last[id], step);
    }
    for (int id : n.outputs) {
      used[id] = true;
      if (first[id] < 0) first[id] = step;
    }
    auto it = ctx.tiling_of.find(static_cast<int>(k));
    if (it == ctx.tiling_of.end()) continue;
    const L3Tiling& t3 = it->second->l3;
    if (t3.output_in_l3)
      for (int id : n.outputs) l3[id] = true;
    if (t3.input_in_l3 && !n.inputs.empty()) {
      l3[n.inputs[0]] = true;
      if ((n.kind() == OpKind::Add || n.kind() == OpKind::Mul) && n.inputs.size() > 1) l3[n.inputs[1]] = true;
    }
    if (t3.weights_in_l3 && n.inputs.size() > 1 &&
        (n.kind() == OpKind::Conv || n.kind() == OpKind::Gemm))
      l3[n.inputs[1]] = true;
    // A tuned layer's constants homed in L3 (NetTiling::consts_l3), staged per step.
    if (it->second->net.consts_l3 && ctx.spec->l3.size > 0 && n.inputs.size() > 1 && g.tensor(n.inputs[1]).is_const() &&
        (n.kind() == OpKind::Conv || n.kind() == OpKind::Gemm))
      l3[n.inputs[1]] = true;
  }
  for (int id : g.outputs) used[id] = true;
  // Weights of NPU layers are stored in the NPU's layout, in the weight memory when the engine
  // pass homed them there.
  std::map<int, std::pair<NpuWeightGeom, bool>> npu_w;
  for (size_t k = 0; k < g.nodes.size(); ++k)
    if (g.nodes[k].engine == "npu" && npu_encoded(*ctx.spec))
      npu_w[g.nodes[k].inputs.at(1)] = {npu_weight_geom_of(g, static_cast<int>(k), *ctx.spec), g.nodes[k].wmem_weights};

  // A Reshape between row-major tensors moves no byte: its output is its input's bytes under
  // another shape (Deeploy's ReshapeTemplate aliases the pointer, [60] PULPOpen/Bindings.py).
  std::vector<int> alias_of(nt, -1);
  for (size_t k = 0; k < g.nodes.size(); ++k)
    if (is_alias_reshape(ctx, static_cast<int>(k))) {
      const int in = g.nodes[k].inputs[0], out = g.nodes[k].outputs[0];
      alias_of[static_cast<size_t>(out)] = alias_of[static_cast<size_t>(in)] >= 0 ? alias_of[static_cast<size_t>(in)] : in;
    }
  for (size_t t = 0; t < nt; ++t) {
    if (!used[t] || ctx.unplaced.count(static_cast<int>(t)) || alias_of[t] >= 0) continue;
    const TensorDesc& d = g.tensors[t];
    const int id = static_cast<int>(t);
    const auto npu = npu_w.find(id);
    const bool whole_run = d.is_const() ||
                           std::find(g.outputs.begin(), g.outputs.end(), id) != g.outputs.end();
    int f = whole_run ? 0 : std::max(first[t], 0);
    int l = whole_run ? ctx.last_step : std::max(last[t], f);
    const int64_t bytes = npu != npu_w.end() ? npu->second.first.bytes()
                                             : shape_numel(d.shape) * static_cast<int64_t>(dtype_size(d.dtype));
    const bool l3_const = ctx.consts_in_l3 && d.is_const();
    // A platform without L3 (DIANA) keeps everything in L2: an overflow is then reported there.
    Level level = (l3[t] || l3_const || bytes > ctx.l2_budget) && ctx.spec->l3.size > 0 ? Level::L3 : Level::L2;
    if (npu != npu_w.end() && npu->second.second) level = Level::WMEM;
    std::string kind = d.is_const() ? (npu != npu_w.end() ? "npu w" : "const") : "act";
    if (std::find(g.inputs.begin(), g.inputs.end(), id) != g.inputs.end()) kind = "input";
    if (std::find(g.outputs.begin(), g.outputs.end(), id) != g.outputs.end()) kind = "output";
    Placement p;
    p.tensor = id;
    p.buffer = add_buffer(s, level, bytes, kind + " %" + std::to_string(t) + " '" + d.name + "'", f, l);
    p.offset = 0;
    if (npu != npu_w.end()) {
      p.strides = contiguous_strides(d.shape);   // unused: the bytes are encoded rows
      p.npu_weights = npu->second.first;
    } else {
      p.strides = packed_strides(d.shape, storage_order(g, ctx.domains.image, id));
    }
    s.placements.push_back(p);
  }
  for (size_t t = 0; t < nt; ++t) {
    if (!used[t] || alias_of[t] < 0) continue;
    const Placement* root = s.placement_of(alias_of[t]);
    Placement p = *root;
    p.tensor = static_cast<int>(t);
    p.strides = packed_strides(g.tensors[t].shape, storage_order(g, ctx.domains.image, static_cast<int>(t)));
    Buffer& b = s.buffers.at(static_cast<size_t>(root->buffer));
    const bool out = std::find(g.outputs.begin(), g.outputs.end(), static_cast<int>(t)) != g.outputs.end();
    b.first_step = std::min(b.first_step, std::max(first[t], 0));
    b.last_step = out ? ctx.last_step : std::max(b.last_step, last[t]);
    s.placements.push_back(p);
  }
}

bool is_alias_reshape(const BuildContext& ctx, int node) {
  const Graph& g = *ctx.g;
  const Node& n = g.nodes.at(static_cast<size_t>(node));
  if (n.kind() != OpKind::Reshape || n.inputs.size() != 1 || n.outputs.size() != 1) return false;
  const int in = n.inputs[0], out = n.outputs[0];
  if (g.tensor(in).is_const() || g.tensor(in).dtype != g.tensor(out).dtype) return false;
  const bool img_in = ctx.domains.image.at(static_cast<size_t>(in)), img_out = ctx.domains.image.at(static_cast<size_t>(out));
  const Shape& a = g.tensor(in).shape;
  const Shape& b = g.tensor(out).shape;
  const std::vector<int> hwc{0, 2, 3, 1};
  // An image tensor whose storage order moves only dimensions of size 1 (an HWC tensor of one
  // pixel or one channel) holds its bytes in row-major order: a flatten after a global pool
  // ([N, C, 1, 1] -> [N, C]) moves no byte, as in DORY's and Deeploy's code, where it is no layer.
  auto row_major = [&](int t) {
    const Shape& sh = g.tensor(t).shape;
    int last = -1;
    for (int d : storage_order(g, ctx.domains.image, t)) {
      if (sh.at(static_cast<size_t>(d)) == 1) continue;
      if (d < last) return false;
      last = d;
    }
    return true;
  };
  if ((img_in || img_out) && !(row_major(in) && row_major(out))) {
    // Between HWC tensors a reshape of the pixels alone (same N and C, H·W kept) keeps every byte
    // where it is: the NE16 pointwise reshape (compiler/passes/ne16_pw_reshape.h).
    return img_in && img_out && a.size() == 4 && b.size() == 4 && a[0] == b[0] && a[1] == b[1] &&
           a[2] * a[3] == b[2] * b[3] && storage_order(g, ctx.domains.image, in) == hwc &&
           storage_order(g, ctx.domains.image, out) == hwc;
  }
  // Both sides row-major: a rank-3/4 side is row-major only outside the image domain (above);
  // a Gemm's B operand is stored transposed.
  for (const Node& m : g.nodes)
    if (m.kind() == OpKind::Gemm && m.inputs.size() > 1 && (m.inputs[1] == in || m.inputs[1] == out)) return false;
  return true;
}

Region home_region(const BuildContext& ctx, int tensor, bool as4d) {
  const Placement* p = ctx.s->placement_of(tensor);
  if (!p) throw std::runtime_error("schedule: tensor %" + std::to_string(tensor) + " has no placement");
  const TensorDesc& d = ctx.g->tensor(tensor);
  Region r;
  r.buffer = p->buffer;
  r.offset = p->offset;
  if (p->npu_weights) {   // encoded rows: [rows, row_bytes] bytes
    r.dtype = DType::U8;
    r.shape = {p->npu_weights->rows, p->npu_weights->row_bytes};
    r.strides = {p->npu_weights->row_bytes, 1};
    r.origin = {0, 0};
    return r;
  }
  r.dtype = d.dtype;
  r.shape = d.shape;
  r.strides = p->strides;
  if (as4d && d.shape.size() < 4) {
    r.shape = to4d_shape(d.shape);
    r.strides = to4d_strides(d.shape, p->strides);
  }
  r.origin.assign(r.shape.size(), 0);
  return r;
}

bool rows_region(const BuildContext& ctx, int tensor, Region& out) {
  Region r = home_region(ctx, tensor, false);
  const size_t n = r.shape.size();
  if (n == 0) return false;
  for (size_t d = 0; d + 1 < n; ++d)
    if (r.shape[d] != 1 && r.strides[d] != r.strides[d + 1] * r.shape[d + 1]) return false;
  const int64_t len = r.shape.back();
  const int64_t s = r.strides.back();
  r.shape = {shape_numel(r.shape) / std::max<int64_t>(len, 1), len};
  r.strides = {len * s, s};
  r.origin = {0, 0};
  out = r;
  return true;
}

Region packed(int buffer, int64_t offset, const Region& like, const Box& box) {
  Region r;
  r.buffer = buffer;
  r.offset = offset;
  r.dtype = like.dtype;
  r.shape = box.ext;
  r.strides = packed_strides(box.ext, order_of(like.strides));
  r.origin = box.start;
  return r;
}

Region sub_region(const Region& r, const Box& box) {
  Region s = r;
  int64_t elems = 0;
  for (size_t d = 0; d < box.start.size(); ++d) elems += (box.start[d] - r.origin[d]) * r.strides[d];
  s.offset += elems * static_cast<int64_t>(dtype_size(r.dtype));
  s.shape = box.ext;
  s.origin = box.start;
  return s;
}

BufView view_of(const Region& r) {
  BufView v;
  v.buffer = r.buffer;
  v.offset = r.offset;
  v.dtype = r.dtype;
  v.shape = r.shape;
  v.strides = r.strides;
  return v;
}

std::string node_label(const Graph& g, int node) {
  const Node& n = g.nodes.at(node);
  return "node " + std::to_string(node) + " '" + n.name + "' (" + op_name(n.kind()) + ")";
}

}  // namespace edgesim::sched
