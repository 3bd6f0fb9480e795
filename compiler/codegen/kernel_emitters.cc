// The kernel emitters of every op kind (kernel_emit.h): the C call of a Compute command.
#include <fmt/format.h>

#include "compiler/codegen/kernel_emit.h"

namespace edgesim::codegen {

namespace {

template <class P>
const P& params(const ComputeEmit& e) { return std::get<P>(e.command.params); }

// The params argument of a call: a table entry (its index a hole) or plain text.
struct Arg {
  LayerData::Entry entry;
  std::string text;
  Arg(LayerData::Entry e) : entry(std::move(e)) {}   // NOLINT: implicit on purpose
  Arg(std::string t) : text(std::move(t)) {}         // NOLINT
  Arg(const char* t) : text(t) {}                    // NOLINT
  void emit(StmtBuilder& b) const {
    if (entry.table.empty()) {
      b << text;
      return;
    }
    b << "&" << entry.table << "[";
    b.hole(entry.index) << "]";
  }
  bool empty() const { return entry.table.empty() && text.empty(); }
};

// "fn(p, v0, v1, ...);" with every view's integers as holes.
void call(ComputeEmit& e, const std::string& fn, const Arg& p, const std::vector<CView>& views) {
  e.out << fn << "(";
  p.emit(e.out);
  for (size_t k = 0; k < views.size(); ++k) {
    e.out << (p.empty() && k == 0 ? "" : ", ");
    e.emit_view(views[k]);
  }
  e.out << ");";
}

void conv(ComputeEmit& e) {
  const Command& c = e.command;
  const ConvParams& p = params<ConvParams>(e);
  const CView x = as_4d(e.view(c.inputs.at(0))), y = as_4d(e.view(c.outputs.at(0)));
  const LayerData::Entry pp = e.data.entry(
      "es_conv_p_t", "conv",
      fmt::format("{{{}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}}}", p.kh, p.kw, p.sh, p.sw, p.dh, p.dw,
                  p.pad_t, p.pad_l, p.groups, c_int(p.x_zp), p.bias.size(), e.data.ints(p.bias), p.w_zp.size(),
                  e.data.ints(p.w_zp), rq_init(p.rq, e.data, 1)));
  if (!c.npu_weights) return call(e, "es_run_conv", pp, {x, as_4d(e.view(c.inputs.at(1))), y});
  const NpuWeightGeom& g = *c.npu_weights;
  const std::string geom = e.data.named(
      "es_npu_geom_t", "npu",
      fmt::format("{{{}, {}, {}, {}, {}, {}, {}, {}, {}}}", g.impl == "ne16" ? 1 : 0, static_cast<int>(g.op), g.ko, g.ki,
                  g.k, g.w_bits, g.rows, g.row_bytes, g.channels_per_row));
  e.npu_scratch = std::max(e.npu_scratch, y.shape[1] * g.ki * g.k * g.k);
  e.out << "if (es_run_npu_conv(";
  Arg(pp).emit(e.out);
  e.out << ", &" << geom << ", ";
  e.out.hole(c.npu_row0) << ", ";
  e.out.hole(c.npu_skip) << ", ";
  e.emit_view(x);
  e.out << ", ";
  e.emit_view(e.view(c.inputs.at(1)));
  e.out << ", ";
  e.emit_view(y);
  e.out << fmt::format(", es_npu_scratch) != 0) es_fail(\"NPU weight rows of {} lack the tile's channels\");", e.who());
}

void pool(ComputeEmit& e) {
  const Command& c = e.command;
  const PoolParams& p = params<PoolParams>(e);
  const CView x = as_4d(e.view(c.inputs.at(0))), y = as_4d(e.view(c.outputs.at(0)));
  // A global pool's window is the whole (tile) input, as the reference kernel sets it.
  const int64_t kh = p.global ? x.shape[2] : p.kh, kw = p.global ? x.shape[3] : p.kw;
  const int64_t sh = p.global ? 1 : p.sh, sw = p.global ? 1 : p.sw;
  const int64_t pt = p.global ? 0 : p.pad_t, pl = p.global ? 0 : p.pad_l;
  const LayerData::Entry pp = e.data.entry(
      "es_pool_p_t", "pool",
      fmt::format("{{{}, {}, {}, {}, {}, {}, {}, {}, {}}}", p.kind == PoolParams::Kind::Sum ? 1 : 0, kh, kw, sh, sw, pt,
                  pl, c_int(p.x_zp), rq_init(p.rq, e.data, 1)));
  call(e, "es_run_pool", pp, {x, y});
}

// A Gemm operand with K as its last axis: a vector is one row [1, K]; otherwise the last two
// axes are swapped unless K is already last.
CView k_last(CView v, bool already) {
  if (v.shape.size() == 1) {
    v.shape = {1, v.shape[0]};
    v.strides = {0, v.strides[0]};
  } else if (!already) {
    std::swap(v.shape[v.shape.size() - 1], v.shape[v.shape.size() - 2]);
    std::swap(v.strides[v.strides.size() - 1], v.strides[v.strides.size() - 2]);
  }
  return v;
}

// v [.., R, K] with its batch axes right-aligned to `batch` (stride 0 where it broadcasts).
CView align_batch(const CView& v, const Shape& batch) {
  const size_t r = v.shape.size(), nb = batch.size(), vb = r - 2;
  CView o = v;
  o.shape = batch;
  o.strides.assign(nb, 0);
  for (size_t d = 0; d < nb; ++d) {
    if (d + vb < nb) continue;
    const size_t s = d + vb - nb;
    o.strides[d] = v.shape[s] == 1 && batch[d] != 1 ? 0 : v.strides[s];
  }
  o.shape.insert(o.shape.end(), v.shape.end() - 2, v.shape.end());
  o.strides.insert(o.strides.end(), v.strides.end() - 2, v.strides.end());
  return o;
}

void gemm(ComputeEmit& e) {
  const Command& c = e.command;
  const GemmParams& p = params<GemmParams>(e);
  const CView a0 = e.view(c.inputs.at(0)), b0 = e.view(c.inputs.at(1)), y0 = e.view(c.outputs.at(0));
  const bool a1 = a0.shape.size() == 1, b1 = b0.shape.size() == 1;
  const CView A = k_last(a0, !p.trans_a), B = k_last(b0, p.trans_b);
  // On the NPU, input 1 holds encoded weight rows: the tile's columns are the output's.
  const int64_t M = A.shape[A.shape.size() - 2], N = c.npu_weights ? y0.shape.back() : B.shape[B.shape.size() - 2];
  // y with the axes a vector operand dropped put back (extent 1, stride 0): [batch.., M, N].
  const size_t nb = y0.shape.size() - (a1 ? 0 : 1) - (b1 ? 0 : 1);
  CView Y = y0;
  Y.shape.assign(y0.shape.begin(), y0.shape.begin() + static_cast<std::ptrdiff_t>(nb));
  Y.strides.assign(y0.strides.begin(), y0.strides.begin() + static_cast<std::ptrdiff_t>(nb));
  const Shape batch = Y.shape;
  Y.shape.push_back(M);
  Y.strides.push_back(a1 ? 0 : y0.strides[nb]);
  Y.shape.push_back(N);
  Y.strides.push_back(b1 ? 0 : y0.strides.back());
  int axis = p.rq.axis;
  if (axis >= static_cast<int>(nb)) axis = axis == static_cast<int>(nb) && a1 ? axis + 1 : axis;
  // Bias broadcast onto [M, N] (bias_shape right-aligned, as the reference kernel reads it).
  Shape bs = p.bias_shape.empty() && p.bias.size() > 1 ? Shape{static_cast<int64_t>(p.bias.size())} : p.bias_shape;
  int64_t sm = 0, sn = 0;
  if (bs.size() == 1) sn = bs[0] == 1 ? 0 : 1;
  if (bs.size() == 2) {
    sm = bs[0] == 1 ? 0 : bs[1];
    sn = bs[1] == 1 ? 0 : 1;
  }
  if (bs.size() > 2) throw CodegenError(fmt::format("codegen: {}: bias of rank {} is not supported", e.who(), bs.size()));
  const LayerData::Entry pp = e.data.entry(
      "es_gemm_p_t", "gemm",
      fmt::format("{{{}, {}, {}, {}, {}, {}, {}, {}, {}}}", p.bias.size(), e.data.ints(p.bias), sm, sn, p.a_zp.size(),
                  e.data.ints(p.a_zp), p.b_zp.size(), e.data.ints(p.b_zp), rq_init(p.rq, e.data, axis)));
  if (!c.npu_weights) return call(e, "es_run_gemm", pp, {align_batch(A, batch), align_batch(B, batch), Y});
  // NPU (1x1 lowering of a constant-weight Gemm): the tile's encoded rows decode into B [N, K].
  const NpuWeightGeom& g = *c.npu_weights;
  const std::string geom = e.data.named(
      "es_npu_geom_t", "npu",
      fmt::format("{{{}, {}, {}, {}, {}, {}, {}, {}, {}}}", 0, static_cast<int>(g.op), g.ko, g.ki, g.k, g.w_bits,
                  g.rows, g.row_bytes, g.channels_per_row));
  e.npu_scratch = std::max(e.npu_scratch, N * g.ki);
  e.out << "if (es_run_npu_gemm(";
  Arg(pp).emit(e.out);
  e.out << ", &" << geom << ", ";
  e.out.hole(c.npu_row0) << ", ";
  e.out.hole(c.npu_skip) << ", ";
  e.emit_view(align_batch(A, batch));
  e.out << ", ";
  e.emit_view(e.view(c.inputs.at(1)));
  e.out << ", ";
  e.emit_view(Y);
  e.out << fmt::format(", es_npu_scratch) != 0) es_fail(\"NPU weight rows of {} lack the tile's channels\");", e.who());
}

void add(ComputeEmit& e) {
  const Command& c = e.command;
  const AddParams& p = params<AddParams>(e);
  const CView y = e.view(c.outputs.at(0));
  const LayerData::Entry pp = e.data.entry(
      "es_add_p_t", "add",
      fmt::format("{{{}, {}, {}, {}, {}, {}, {}, {}}}", c_int(p.mul1), c_int(p.add1), p.shift1, c_int(p.mul2),
                  c_int(p.add2), p.shift2, p.shift_sum, rq_init(p.rq, e.data, p.rq.axis)));
  call(e, "es_run_add", pp,
       {broadcast_to(e.view(c.inputs.at(0)), y.shape), broadcast_to(e.view(c.inputs.at(1)), y.shape), y});
}

void mul(ComputeEmit& e) {
  const Command& c = e.command;
  const MulParams& p = params<MulParams>(e);
  const CView y = e.view(c.outputs.at(0));
  const LayerData::Entry pp = e.data.entry("es_rq_t", "rq", rq_init(p.rq, e.data, p.rq.axis));
  call(e, "es_run_mul", pp,
       {broadcast_to(e.view(c.inputs.at(0)), y.shape), broadcast_to(e.view(c.inputs.at(1)), y.shape), y});
}

void clip(ComputeEmit& e) {
  const ClipParams& p = params<ClipParams>(e);
  call(e, "es_run_clip", c_int(p.lo) + ", " + c_int(p.hi),
       {e.view(e.command.inputs.at(0)), e.view(e.command.outputs.at(0))});
}

void requant(ComputeEmit& e) {
  const RequantParams& p = params<RequantParams>(e);
  const LayerData::Entry pp = e.data.entry("es_rq_t", "rq", rq_init(p.rq, e.data, p.rq.axis));
  call(e, "es_run_requant", pp, {e.view(e.command.inputs.at(0)), e.view(e.command.outputs.at(0))});
}

void reshape(ComputeEmit& e) {
  call(e, "es_run_copy", "", {e.view(e.command.inputs.at(0)), e.view(e.command.outputs.at(0))});
}

void transpose(ComputeEmit& e) {
  const TransposeParams& p = params<TransposeParams>(e);
  const CView x = e.view(e.command.inputs.at(0));
  if (p.perm.size() != x.shape.size())
    throw CodegenError(fmt::format("codegen: {}: perm of {} axes for a rank-{} input", e.who(), p.perm.size(), x.shape.size()));
  CView t = x;
  for (size_t d = 0; d < p.perm.size(); ++d) {
    t.shape[d] = x.shape.at(static_cast<size_t>(p.perm[d]));
    t.strides[d] = x.strides.at(static_cast<size_t>(p.perm[d]));
  }
  call(e, "es_run_copy", "", {t, e.view(e.command.outputs.at(0))});
}

// y[.., off:off+n, ..] along `axis`.
CView sub_view(CView v, size_t axis, int64_t off, int64_t n) {
  v.offset += off * v.strides[axis] * static_cast<int64_t>(dtype_size(v.dtype));
  v.shape[axis] = n;
  return v;
}

void concat(ComputeEmit& e) {
  const ConcatParams& p = params<ConcatParams>(e);
  const CView y = e.view(e.command.outputs.at(0));
  const auto axis = static_cast<size_t>(p.axis);
  int64_t off = 0;
  e.out << "{ ";
  for (const BufView& in : e.command.inputs) {
    const CView x = e.view(in);
    call(e, "es_run_copy", "", {x, sub_view(y, axis, off, x.shape.at(axis))});
    e.out << " ";
    off += x.shape.at(axis);
  }
  e.out << "}";
}

void pad(ComputeEmit& e) {
  const PadParams& p = params<PadParams>(e);
  const CView x = e.view(e.command.inputs.at(0)), y = e.view(e.command.outputs.at(0));
  const size_t r = x.shape.size();
  if (p.pads.size() != 2 * r) throw CodegenError(fmt::format("codegen: {}: {} pads for rank {}", e.who(), p.pads.size(), r));
  e.out << "{ ";
  call(e, "es_run_fill", c_int(p.value), {y});
  // The input part that survives the (possibly negative) pads, copied into its place in y.
  CView xs = x, ys = y;
  bool empty = false;
  for (size_t d = 0; d < r; ++d) {
    const int64_t b = p.pads[d], lo = std::max<int64_t>(0, -b), hi = std::min(x.shape[d], y.shape[d] - b);
    empty = empty || hi <= lo;
    if (hi <= lo) break;
    xs = sub_view(xs, d, lo, hi - lo);
    ys = sub_view(ys, d, lo + b, hi - lo);
  }
  if (!empty) {
    e.out << " ";
    call(e, "es_run_copy", "", {xs, ys});
  }
  e.out << " }";
}

LayerData::Entry quant_init(ComputeEmit& e, int axis, const std::vector<float>& scale, const std::vector<int64_t>& zp) {
  return e.data.entry("es_quant_p_t", "q",
                      fmt::format("{{{}, {}, {}, {}, {}}}", axis, scale.size(), e.data.floats(scale), zp.size(),
                                  e.data.ints(zp)));
}

void quantize(ComputeEmit& e) {
  const QuantizeParams& p = params<QuantizeParams>(e);
  call(e, "es_run_quantize", quant_init(e, p.axis, p.scale, p.zp),
       {e.view(e.command.inputs.at(0)), e.view(e.command.outputs.at(0))});
}

void dequantize(ComputeEmit& e) {
  const DequantizeParams& p = params<DequantizeParams>(e);
  call(e, "es_run_dequantize", quant_init(e, p.axis, p.scale, p.zp),
       {e.view(e.command.inputs.at(0)), e.view(e.command.outputs.at(0))});
}

}  // namespace

const std::vector<KernelEntry>& kernel_emitters() {
  static const std::vector<KernelEntry> table = {
      {OpKind::Conv, conv},       {OpKind::Gemm, gemm},         {OpKind::Add, add},
      {OpKind::Mul, mul},         {OpKind::Pool, pool},         {OpKind::Clip, clip},
      {OpKind::Requant, requant}, {OpKind::Pad, pad},           {OpKind::Concat, concat},
      {OpKind::Reshape, reshape}, {OpKind::Transpose, transpose}, {OpKind::Quantize, quantize},
      {OpKind::Dequantize, dequantize},
  };
  return table;
}

}  // namespace edgesim::codegen
