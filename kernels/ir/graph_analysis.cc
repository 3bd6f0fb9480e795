// Graph analysis: MAC counts and the structural validator. validate() is the one place that
// states what a well-formed Graph is: tensor ids in range, nodes in topological order, every
// computed tensor produced exactly once, and each node's output shape equal to what its
// params and input shapes imply (the same shape rules the reference kernels check, from
// kernels/core/shape_rules.h and ConvParams::out_size).
#include <stdexcept>
#include <string>

#include "kernels/ir/graph.h"
#include "kernels/core/shape_rules.h"
#include "kernels/reference.h"

namespace edgesim {

namespace {

// A rank-3 [N, C, L] shape of a 1-D conv/pool as the 4-D [N, C, 1, L] the kernels see.
Shape as_4d(const Shape& s) { return s.size() == 3 ? Shape{s[0], s[1], 1, s[2]} : s; }

[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument(what); }

void expect_shape(const Shape& got, const Shape& want, const std::string& what) {
  if (got != want) bad("output shape " + shape_str(got) + " but " + what + " gives " + shape_str(want));
}

void check_conv(const ConvParams& p, const Shape& x0, const Shape& w0, const Shape& y0) {
  if (x0.size() != w0.size() || x0.size() != y0.size() || (x0.size() != 3 && x0.size() != 4))
    bad("conv needs x, w and y of equal rank 3 or 4, got " + shape_str(x0) + ", " + shape_str(w0) + ", " + shape_str(y0));
  if (x0.size() == 3 && (p.kh != 1 || p.sh != 1 || p.dh != 1 || p.pad_t != 0 || p.pad_b != 0))
    bad("1-D conv needs kh = sh = dh = 1 and no top/bottom pad");
  const Shape x = as_4d(x0), w = as_4d(w0), y = as_4d(y0);
  if (p.groups < 1 || x[1] % p.groups != 0 || w[0] % p.groups != 0)
    bad("groups " + std::to_string(p.groups) + " do not divide Cin " + std::to_string(x[1]) + " / Cout " + std::to_string(w[0]));
  if (w[1] != x[1] / p.groups) bad("weight " + shape_str(w0) + " needs Cin/groups = " + std::to_string(x[1] / p.groups));
  if (w[2] != p.kh || w[3] != p.kw) bad("weight " + shape_str(w0) + " does not match kernel size " + std::to_string(p.kh) + "x" + std::to_string(p.kw));
  if (p.sh < 1 || p.sw < 1 || p.dh < 1 || p.dw < 1) bad("strides and dilations must be >= 1");
  if (p.pad_t < 0 || p.pad_l < 0 || p.pad_b < 0 || p.pad_r < 0) bad("negative conv pads");
  const int64_t ho = ConvParams::out_size(x[2], p.kh, p.sh, p.dh, p.pad_t, p.pad_b);
  const int64_t wo = ConvParams::out_size(x[3], p.kw, p.sw, p.dw, p.pad_l, p.pad_r);
  if (ho < 1 || wo < 1) bad("conv output would be empty");
  expect_shape(y, {x[0], w[0], ho, wo}, "conv");
  if (!p.bias.empty() && static_cast<int64_t>(p.bias.size()) != w[0]) bad("bias has " + std::to_string(p.bias.size()) + " entries for " + std::to_string(w[0]) + " channels");
  if (p.w_zp.size() > 1 && static_cast<int64_t>(p.w_zp.size()) != w[0]) bad("w_zp has " + std::to_string(p.w_zp.size()) + " entries");
  p.rq.validate(w[0]);
}

void check_pool(const PoolParams& p, const Shape& x0, const Shape& y0) {
  if (x0.size() != y0.size() || (x0.size() != 3 && x0.size() != 4))
    bad("pool needs x and y of equal rank 3 or 4, got " + shape_str(x0) + ", " + shape_str(y0));
  const Shape x = as_4d(x0), y = as_4d(y0);
  if (p.global) {
    expect_shape(y, {x[0], x[1], 1, 1}, "global pool");
  } else {
    if (p.kh < 1 || p.kw < 1 || p.sh < 1 || p.sw < 1) bad("pool kernel and strides must be >= 1");
    expect_shape(y, {x[0], x[1], pool_out_size(x[2], p.kh, p.sh, p.pad_t, p.pad_b, p.ceil_mode),
                     pool_out_size(x[3], p.kw, p.sw, p.pad_l, p.pad_r, p.ceil_mode)}, "pool");
  }
  p.rq.validate(x[1]);
}

void check_rq_axis(const Requant& rq, const Shape& y) { rq.validate(AxisIndex(y, rq.axis).dim); }

void check_quant_vectors(size_t nscale, size_t nzp, int axis, const Shape& x) {
  const int64_t dim = AxisIndex(x, axis).dim;
  auto ok = [&](size_t n) { return n == 1 || static_cast<int64_t>(n) == dim; };
  if (nscale == 0 || !ok(nscale) || (nzp != 0 && !ok(nzp)))
    bad(std::to_string(nscale) + " scales / " + std::to_string(nzp) + " zero points for axis " + std::to_string(axis));
}

void check_node(const Graph& g, const Node& n) {
  std::vector<Shape> in;
  for (int id : n.inputs) in.push_back(g.tensor(id).shape);
  const TensorDesc& out = g.tensor(n.outputs[0]);
  const Shape& y = out.shape;
  auto arity = [&](size_t k) {
    if (in.size() != k) bad("expects " + std::to_string(k) + " inputs, has " + std::to_string(in.size()));
  };
  const bool int_out = dtype_is_int(out.dtype);
  if (n.kind() != OpKind::Dequantize && n.kind() != OpKind::FloatChain && !int_out)
    bad("output must have an integer dtype");
  switch (n.kind()) {
    case OpKind::Conv: arity(2); check_conv(n.as<ConvParams>(), in[0], in[1], y); break;
    case OpKind::Gemm: {
      arity(2);
      const auto& p = n.as<GemmParams>();
      expect_shape(y, matmul_output_shape(in[0], in[1], p.trans_a, p.trans_b), "matmul");
      check_rq_axis(p.rq, y);
      break;
    }
    case OpKind::Add: arity(2); expect_shape(y, broadcast_shapes(in[0], in[1]), "broadcast"); check_rq_axis(n.as<AddParams>().rq, y); break;
    case OpKind::Mul: arity(2); expect_shape(y, broadcast_shapes(in[0], in[1]), "broadcast"); check_rq_axis(n.as<MulParams>().rq, y); break;
    case OpKind::Pool: arity(1); check_pool(n.as<PoolParams>(), in[0], y); break;
    case OpKind::Clip: arity(1); expect_shape(y, in[0], "clip"); break;
    case OpKind::Requant: arity(1); expect_shape(y, in[0], "requant"); check_rq_axis(n.as<RequantParams>().rq, y); break;
    case OpKind::Pad: {
      arity(1);
      const auto& p = n.as<PadParams>();
      if (p.pads.size() != 2 * in[0].size()) bad(std::to_string(p.pads.size()) + " pads for rank " + std::to_string(in[0].size()));
      Shape s = in[0];
      for (size_t d = 0; d < s.size(); ++d) s[d] += p.pads[d] + p.pads[d + s.size()];
      expect_shape(y, s, "pad");
      break;
    }
    case OpKind::Concat: {
      if (in.empty()) bad("concat without inputs");
      const int64_t ax = n.as<ConcatParams>().axis;
      if (ax < 0 || ax >= static_cast<int64_t>(in[0].size())) bad("concat axis " + std::to_string(ax) + " out of range");
      Shape s = in[0];
      s[ax] = 0;
      for (const Shape& t : in) {
        if (t.size() != s.size()) bad("concat inputs differ in rank");
        for (size_t d = 0; d < t.size(); ++d)
          if (static_cast<int64_t>(d) != ax && t[d] != s[d]) bad("concat input " + shape_str(t) + " differs off the axis");
        s[ax] += t[ax];
      }
      expect_shape(y, s, "concat");
      break;
    }
    case OpKind::Reshape:
      arity(1);
      if (shape_numel(in[0]) != shape_numel(y)) bad("reshape " + shape_str(in[0]) + " -> " + shape_str(y) + " changes the element count");
      break;
    case OpKind::Transpose: {
      arity(1);
      const auto& perm = n.as<TransposeParams>().perm;
      if (perm.size() != in[0].size()) bad("perm has " + std::to_string(perm.size()) + " entries for rank " + std::to_string(in[0].size()));
      Shape s(perm.size());
      std::vector<bool> seen(perm.size(), false);
      for (size_t d = 0; d < perm.size(); ++d) {
        if (perm[d] < 0 || perm[d] >= static_cast<int64_t>(perm.size()) || seen[perm[d]]) bad("perm is not a permutation");
        seen[perm[d]] = true;
        s[d] = in[0][perm[d]];
      }
      expect_shape(y, s, "transpose");
      break;
    }
    case OpKind::Quantize: {
      arity(1);
      const auto& p = n.as<QuantizeParams>();
      expect_shape(y, in[0], "quantize");
      check_quant_vectors(p.scale.size(), p.zp.size(), p.axis, in[0]);
      break;
    }
    case OpKind::Dequantize: {
      arity(1);
      const auto& p = n.as<DequantizeParams>();
      if (out.dtype != DType::F32) bad("dequantize output must be f32");
      expect_shape(y, in[0], "dequantize");
      check_quant_vectors(p.scale.size(), p.zp.size(), p.axis, in[0]);
      break;
    }
    case OpKind::Softmax: case OpKind::Norm:
      arity(1);
      if (in[0].empty()) bad("needs a rank >= 1 input");
      expect_shape(y, in[0], op_name(n.kind()));
      if (n.kind() == OpKind::Norm) {
        const auto& p = n.as<NormParams>();
        const auto len = static_cast<size_t>(in[0].back());
        if (p.weight.size() != len || (p.kind == NormParams::Kind::Layer && p.bias.size() != len))
          bad("norm weight / bias do not match the row length " + std::to_string(len));
      }
      break;
    case OpKind::Act: arity(1); expect_shape(y, in[0], "act"); check_rq_axis(n.as<ActParams>().rq, y); break;
    case OpKind::FloatChain: arity(1); expect_shape(y, in[0], "fquant"); break;
    case OpKind::Mean: arity(1); expect_shape(y, mean_output_shape(n.as<MeanParams>(), in[0]), "mean"); break;
    case OpKind::Gather: {
      arity(1);
      const auto& p = n.as<GatherParams>();
      if (p.axis < 0 || p.axis >= static_cast<int64_t>(in[0].size()) || p.index < 0 || p.index >= in[0][p.axis])
        bad("gather axis / index out of range");
      Shape s = in[0];
      s.erase(s.begin() + p.axis);
      expect_shape(y, s, "gather");
      break;
    }
  }
}

}  // namespace

int64_t Graph::macs(const Node& n) const {
  if (n.outputs.empty() || n.inputs.size() < 2) return 0;
  const int64_t out = shape_numel(tensor(n.outputs[0]).shape);
  if (n.kind() == OpKind::Conv) {   // N·Cout·Ho·Wo · (Cin/g)·kh·kw
    const Shape& w = tensor(n.inputs[1]).shape;
    return out * shape_numel(Shape(w.begin() + 1, w.end()));
  }
  if (n.kind() == OpKind::Gemm) {   // batch·M·N · K
    const Shape& a = tensor(n.inputs[0]).shape;
    if (a.empty()) return 0;
    const int64_t k = a.size() == 1 ? a[0] : (n.as<GemmParams>().trans_a ? a[a.size() - 2] : a.back());
    return out * k;
  }
  return 0;
}

int64_t Graph::total_macs() const {
  int64_t s = 0;
  for (const Node& n : nodes) s += macs(n);
  return s;
}

void Graph::validate() const {
  const auto nt = static_cast<int64_t>(tensors.size());
  auto in_range = [&](int id) { return id >= 0 && id < nt; };
  // available[id]: the value exists at the current point of the node order.
  std::vector<bool> available(tensors.size(), false);
  std::vector<int> producer(tensors.size(), -1);
  for (int64_t i = 0; i < nt; ++i) available[i] = tensors[i].is_const();
  for (size_t i = 0; i < inputs.size(); ++i) {
    const int id = inputs[i];
    if (!in_range(id)) throw std::runtime_error("graph input " + std::to_string(i) + ": tensor id " + std::to_string(id) + " out of range");
    if (tensors[id].is_const()) throw std::runtime_error("graph input '" + tensors[id].name + "' is a constant");
    if (available[id]) throw std::runtime_error("graph input '" + tensors[id].name + "' listed twice");
    available[id] = true;
  }
  for (size_t k = 0; k < nodes.size(); ++k) {
    const Node& n = nodes[k];
    const std::string who = "node '" + n.name + "' (" + op_name(n.kind()) + ")";
    for (int id : n.inputs) {
      if (!in_range(id)) throw std::runtime_error(who + ": input tensor id " + std::to_string(id) + " out of range");
      if (!available[id])
        throw std::runtime_error(who + ": input '" + tensors[id].name + "' (%" + std::to_string(id) + ") is not " +
                                 (producer[id] < 0 ? "produced by any earlier node" : "available") + " (topological order)");
    }
    if (n.outputs.size() != 1) throw std::runtime_error(who + ": has " + std::to_string(n.outputs.size()) + " outputs, expected 1");
    const int o = n.outputs[0];
    if (!in_range(o)) throw std::runtime_error(who + ": output tensor id " + std::to_string(o) + " out of range");
    if (available[o])
      throw std::runtime_error(who + ": output '" + tensors[o].name + "' (%" + std::to_string(o) + ") is already " +
                               (tensors[o].is_const() ? "a constant" : producer[o] >= 0 ? "produced by node '" + nodes[producer[o]].name + "'" : "a graph input"));
    available[o] = true;
    producer[o] = static_cast<int>(k);
    try {
      check_node(*this, n);
    } catch (const std::exception& e) {
      throw std::runtime_error(who + ": " + e.what());
    }
  }
  for (int64_t i = 0; i < nt; ++i)
    if (!available[i]) throw std::runtime_error("tensor '" + tensors[i].name + "' (%" + std::to_string(i) + ") is never produced");
  for (int id : outputs)
    if (!in_range(id)) throw std::runtime_error("graph output: tensor id " + std::to_string(id) + " out of range");
}

}  // namespace edgesim
