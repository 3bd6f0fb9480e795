// Tile-specialised params of a layer tile (docs/schedule.md "Layer steps").
//
// Given the output box of one tile (kernel coordinates: [N,C,H,W] for conv / pool / add,
// [..batch, M, N] for gemm) this computes the box of every input the tile reads and the params
// the reference kernel needs to compute exactly that tile from exactly those inputs:
//   conv / pool  the input window is the rows/cols the tile's windows touch, clipped to the
//                tensor; pads become the part of the window outside it (non-zero only on
//                border tiles); pool ceil_mode becomes an explicit bottom/right pad.
//   grouped conv the Cout tile must cover whole groups; it reads those groups' input channels.
//   vectors      bias, zero points and requant k / λ / scale with one entry per index of an
//                output axis are sliced to the tile's range on that axis (rq.axis is kept, or
//                moved to the 4-D axis for tensors of rank < 4); scalars stay as they are.
#include <stdexcept>
#include <variant>

#include "compiler/schedule/build_internal.h"

namespace edgesim::sched {

namespace {

std::vector<int64_t> slice(const std::vector<int64_t>& v, int64_t start, int64_t n) {
  if (v.size() <= 1) return v;
  return std::vector<int64_t>(v.begin() + start, v.begin() + start + n);
}
std::vector<double> slice(const std::vector<double>& v, int64_t start, int64_t n) {
  if (v.size() <= 1) return v;
  return std::vector<double>(v.begin() + start, v.begin() + start + n);
}

// Requant of a tile: axis given in the output's kernel coordinates.
// Builds the sliced copy field by field, so the (possibly Cout-long) vectors are never copied
// whole for every tile. The static_assert catches a field added to Requant and not copied here.
static_assert(sizeof(Requant) == 136, "Requant changed: update slice_rq");   // LP64 layout
Requant slice_rq(const Requant& rq, int axis4, const Box& b) {
  if (rq.axis < 0) return rq;
  const int64_t s = b.start[axis4], n = b.ext[axis4];
  Requant r;
  r.kind = rq.kind;
  r.axis = axis4;
  r.k = slice(rq.k, s, n);
  r.lambda = slice(rq.lambda, s, n);
  r.mul = rq.mul;
  r.shift = rq.shift;
  r.round = rq.round;
  r.div = rq.div;
  r.scale = slice(rq.scale, s, n);
  r.zp = rq.zp;
  r.lo = rq.lo;
  r.hi = rq.hi;
  return r;
}

// ConvParams of a Cout tile [c0, c0 + nc) without copying the per-channel vectors whole.
static_assert(sizeof(ConvParams) == 288, "ConvParams changed: update conv_tile_params");   // LP64 layout
ConvParams conv_tile_params(const ConvParams& src, int64_t c0, int64_t nc, const Box& ob) {
  ConvParams p;
  p.kh = src.kh, p.kw = src.kw, p.sh = src.sh, p.sw = src.sw, p.dh = src.dh, p.dw = src.dw;
  p.pad_t = src.pad_t, p.pad_l = src.pad_l, p.pad_b = src.pad_b, p.pad_r = src.pad_r;
  p.groups = src.groups;
  p.is_1d = src.is_1d;
  p.bias = src.bias.size() > 1 ? slice(src.bias, c0, nc) : src.bias;
  p.x_zp = src.x_zp;
  p.w_zp = src.w_zp.size() > 1 ? slice(src.w_zp, c0, nc) : src.w_zp;
  p.rq = slice_rq(src.rq, 1, ob);
  return p;
}

int axis_in_kernel(const Graph& g, const Node& n, int axis) {
  if (axis < 0) return axis;
  const size_t r = g.tensor(n.outputs[0]).shape.size();
  if (n.kind() == OpKind::Gemm || r >= 4) return axis;
  return to4d_map(r).at(static_cast<size_t>(axis));
}

struct Window { int64_t start, n, pad_lo, pad_hi; };

// Input rows [start, start+n) that output rows [o0, o0+no) read, and the pads outside them.
Window window(int64_t o0, int64_t no, int64_t k, int64_t s, int64_t d, int64_t pad, int64_t in) {
  const int64_t is = o0 * s - pad;
  const int64_t ie = (o0 + no - 1) * s - pad + (k - 1) * d + 1;
  const int64_t lo = std::max<int64_t>(is, 0), hi = std::min(ie, in);
  return {lo, std::max<int64_t>(hi - lo, 0), std::max<int64_t>(-is, 0), std::max<int64_t>(ie - in, 0)};
}

// Gemm bias of shape bias_shape ([], [N], [1,N], [M,1], [M,N]) sliced to rows / cols.
std::vector<int64_t> slice_bias(const GemmParams& p, Shape& shape, int64_t m0, int64_t nm, int64_t n0, int64_t nn) {
  if (p.bias.size() <= 1) return p.bias;
  Shape full = p.bias_shape;
  while (full.size() < 2) full.insert(full.begin(), 1);
  const int64_t rows = full[0], cols = full[1];
  const int64_t r0 = rows > 1 ? m0 : 0, rn = rows > 1 ? nm : 1;
  const int64_t c0 = cols > 1 ? n0 : 0, cn = cols > 1 ? nn : 1;
  std::vector<int64_t> out;
  for (int64_t r = r0; r < r0 + rn; ++r)
    for (int64_t c = c0; c < c0 + cn; ++c) out.push_back(p.bias[static_cast<size_t>(r * cols + c)]);
  shape = p.bias_shape;
  if (shape.size() == 1) shape[0] = cn;
  if (shape.size() == 2) shape = {rn, cn};
  return out;
}

}  // namespace

Requant* fused_requant(OpParams& p) {
  return std::visit(
      [](auto& q) -> Requant* {
        if constexpr (requires { q.rq; }) return &q.rq;
        else return nullptr;
      },
      p);
}

TileParams tile_params(const Graph& g, const Node& n, const std::vector<Shape>& in_shapes,
                       const Shape& out_shape, const Box& ob) {
  TileParams t;
  switch (n.kind()) {
    case OpKind::Conv: {
      const Shape& xs = in_shapes.at(0);
      const int64_t cin = xs[1], cout = out_shape[1];
      ConvParams p = conv_tile_params(n.as<ConvParams>(), ob.start[1], ob.ext[1], ob);
      const int64_t cout_g = cout / p.groups, cin_g = cin / p.groups;
      const int64_t c0 = ob.start[1], nc = ob.ext[1];
      int64_t ci0 = 0, nci = cin;
      if (p.groups > 1) {
        if (c0 % cout_g != 0 || nc % cout_g != 0)
          throw std::runtime_error("Cout tile [" + std::to_string(c0) + ", " + std::to_string(c0 + nc) +
                                   ") of a grouped conv does not cover whole groups of " +
                                   std::to_string(cout_g) + " channels");
        p.groups = nc / cout_g;
        ci0 = c0 / cout_g * cin_g;
        nci = p.groups * cin_g;
      }
      const Window h = window(ob.start[2], ob.ext[2], p.kh, p.sh, p.dh, p.pad_t, xs[2]);
      const Window w = window(ob.start[3], ob.ext[3], p.kw, p.sw, p.dw, p.pad_l, xs[3]);
      p.pad_t = h.pad_lo, p.pad_b = h.pad_hi, p.pad_l = w.pad_lo, p.pad_r = w.pad_hi;
      t.in_boxes.push_back(Box{{ob.start[0], ci0, h.start, w.start}, {ob.ext[0], nci, h.n, w.n}});
      // Weights [Cout, Cin/g, kh, kw]: the tile's output channels. NPU-encoded weights are
      // [rows, row_bytes] (home_region) and the caller replaces this box with the tile's rows.
      const Shape& ws = in_shapes.at(1);
      t.in_boxes.push_back(ws.size() == 4 ? Box{{c0, 0, 0, 0}, {nc, ws[1], ws[2], ws[3]}}
                                          : Box{Shape(ws.size(), 0), ws});
      t.params = p;
      break;
    }
    case OpKind::Pool: {
      PoolParams p = n.as<PoolParams>();
      const Shape& xs = in_shapes.at(0);
      PoolParams q = p;
      if (p.global) {
        q.kh = xs[2], q.kw = xs[3], q.sh = q.sw = 1;
        q.pad_t = q.pad_l = q.pad_b = q.pad_r = 0;
      }
      const Window h = window(ob.start[2], ob.ext[2], q.kh, q.sh, 1, q.pad_t, xs[2]);
      const Window w = window(ob.start[3], ob.ext[3], q.kw, q.sw, 1, q.pad_l, xs[3]);
      if (!p.global) {
        p.pad_t = h.pad_lo, p.pad_b = h.pad_hi, p.pad_l = w.pad_lo, p.pad_r = w.pad_hi;
        p.ceil_mode = false;
      }
      p.rq = slice_rq(p.rq, axis_in_kernel(g, n, p.rq.axis), ob);
      t.in_boxes.push_back(Box{{ob.start[0], ob.start[1], h.start, w.start}, {ob.ext[0], ob.ext[1], h.n, w.n}});
      t.params = p;
      break;
    }
    case OpKind::Add: case OpKind::Mul: case OpKind::Requant: case OpKind::Act: case OpKind::FloatChain: {
      OpParams p = n.params;
      if (Requant* rq = fused_requant(p)) *rq = slice_rq(*rq, axis_in_kernel(g, n, rq->axis), ob);
      for (const Shape& s : in_shapes) {
        Box b = ob;
        for (size_t d = 0; d < s.size(); ++d)
          if (s[d] == 1 && out_shape[d] != 1) b.start[d] = 0, b.ext[d] = 1;
        t.in_boxes.push_back(b);
      }
      t.params = p;
      break;
    }
    case OpKind::Gemm: {
      GemmParams p = n.as<GemmParams>();
      const size_t R = out_shape.size();
      const int64_t m0 = ob.start[R - 2], nm = ob.ext[R - 2], n0 = ob.start[R - 1], nn = ob.ext[R - 1];
      for (size_t k = 0; k < 2; ++k) {
        const Shape& s = in_shapes.at(k);
        const size_t r = s.size();
        Box b;
        for (size_t d = 0; d + 2 < r; ++d) {
          const size_t od = d + (R - r);
          b.start.push_back(s[d] == 1 ? 0 : ob.start[od]);
          b.ext.push_back(s[d] == 1 ? 1 : ob.ext[od]);
        }
        const bool trans = k == 0 ? p.trans_a : p.trans_b;
        // A: rows M; B: cols N. The other axis is K, whole.
        const int64_t t0 = k == 0 ? m0 : n0, tn = k == 0 ? nm : nn;
        const bool tiled_last = (k == 0) == trans;   // the tiled axis is the last one
        b.start.push_back(tiled_last ? 0 : t0);
        b.ext.push_back(tiled_last ? s[r - 2] : tn);
        b.start.push_back(tiled_last ? t0 : 0);
        b.ext.push_back(tiled_last ? tn : s[r - 1]);
        t.in_boxes.push_back(b);
      }
      p.bias = slice_bias(p, p.bias_shape, m0, nm, n0, nn);
      if (p.a_zp.size() > 1) p.a_zp = slice(p.a_zp, m0, nm);
      if (p.b_zp.size() > 1) p.b_zp = slice(p.b_zp, n0, nn);
      p.rq = slice_rq(p.rq, p.rq.axis, ob);
      t.params = p;
      break;
    }
    default:
      throw std::runtime_error("tile_params: " + std::string(op_name(n.kind())) + " is not a layer");
  }
  return t;
}

std::vector<ConstVec> const_vectors(const Graph& g, const Node& n, const Shape& out_shape, const Box& ob) {
  std::vector<ConstVec> v;
  // A 1-D vector indexed by output axis `axis` (kernel coordinates); scalars move no bytes.
  auto along = [&](const std::string& name, size_t size, int axis) {
    if (size <= 1 || axis < 0) return;
    v.push_back({name, {static_cast<int64_t>(size)}, Box{{ob.start[axis]}, {ob.ext[axis]}}});
  };
  auto rq_vecs = [&](const Requant& rq, int axis) {
    if (rq.kind == Requant::Kind::Integer) {
      along("k", rq.k.size(), axis);
      along("lambda", rq.lambda.size(), axis);
    } else if (rq.kind == Requant::Kind::Float) {
      along("scale", rq.scale.size(), axis);
    }
  };
  const int R = static_cast<int>(out_shape.size());
  switch (n.kind()) {
    case OpKind::Conv: {
      const ConvParams& p = n.as<ConvParams>();
      along("bias", p.bias.size(), 1);
      along("w_zp", p.w_zp.size(), 1);
      rq_vecs(p.rq, 1);
      break;
    }
    case OpKind::Pool: rq_vecs(n.as<PoolParams>().rq, axis_in_kernel(g, n, n.as<PoolParams>().rq.axis)); break;
    case OpKind::Add: case OpKind::Mul: case OpKind::Requant: case OpKind::Act: {
      OpParams p = n.params;
      const Requant& rq = *fused_requant(p);
      rq_vecs(rq, axis_in_kernel(g, n, rq.axis));
      break;
    }
    case OpKind::Gemm: {
      const GemmParams& p = n.as<GemmParams>();
      if (p.bias.size() > 1) {
        Shape full = p.bias_shape;
        while (full.size() < 2) full.insert(full.begin(), 1);
        Box b{{full[0] > 1 ? ob.start[R - 2] : 0, full[1] > 1 ? ob.start[R - 1] : 0},
              {full[0] > 1 ? ob.ext[R - 2] : 1, full[1] > 1 ? ob.ext[R - 1] : 1}};
        v.push_back({"bias", full, b});
      }
      along("a_zp", p.a_zp.size(), R - 2);
      along("b_zp", p.b_zp.size(), R - 1);
      rq_vecs(p.rq, p.rq.axis);
      break;
    }
    default: break;
  }
  return v;
}

}  // namespace edgesim::sched
