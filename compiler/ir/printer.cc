// print_graph: the stable text form of a Graph (format in docs/graph.md). One line per graph
// input, per node and per graph output, in graph order; no pointers and no unordered
// containers, so the text is deterministic and usable as a golden in pass tests. Floats are
// printed with fmt's shortest round-trip form.
#include <fmt/format.h>

#include <string>

#include "compiler/ir/printer.h"

namespace edgesim {

namespace {

std::string quoted(const std::string& s) {
  std::string r = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') r += '\\';
    r += c;
  }
  return r + "\"";
}

std::string ints(const std::vector<int64_t>& v) { return fmt::format("{}", fmt::join(v, ",")); }

std::string type_str(const TensorDesc& t) { return fmt::format("{}[{}]", dtype_name(t.dtype), ints(t.shape)); }

// A per-channel vector: "name=v" when it has one entry, "name[n]" otherwise; empty: "".
template <class T>
std::string vec(const char* name, const std::vector<T>& v) {
  if (v.empty()) return "";
  if (v.size() == 1) return fmt::format(" {}={}", name, v[0]);
  return fmt::format(" {}[{}]", name, v.size());
}

std::string rq_str(const Requant& rq) { return fmt::format(" {}", rq.str()); }

std::string conv_attrs(const ConvParams& p) {
  std::string s;
  if (p.is_1d)
    s = fmt::format(" k={} s={} p={},{}", p.kw, p.sw, p.pad_l, p.pad_r);
  else
    s = fmt::format(" k={}x{} s={}x{} p={},{},{},{}", p.kh, p.kw, p.sh, p.sw, p.pad_t, p.pad_l, p.pad_b, p.pad_r);
  if (p.dh != 1 || p.dw != 1) s += p.is_1d ? fmt::format(" d={}", p.dw) : fmt::format(" d={}x{}", p.dh, p.dw);
  s += fmt::format(" g={}", p.groups);
  s += vec("bias", p.bias);
  if (p.x_zp) s += fmt::format(" xzp={}", p.x_zp);
  s += vec("wzp", p.w_zp);
  return s + rq_str(p.rq);
}

std::string gemm_attrs(const GemmParams& p) {
  std::string s;
  if (p.trans_a) s += " tA";
  if (p.trans_b) s += " tB";
  if (!p.bias.empty()) s += fmt::format(" bias=[{}]", ints(p.bias_shape));
  s += vec("azp", p.a_zp) + vec("bzp", p.b_zp);
  return s + rq_str(p.rq);
}

std::string add_attrs(const AddParams& p) {
  std::string s;
  if (p.mul1 != 1 || p.add1 != 0 || p.shift1 != 0) s += fmt::format(" in1=(*{}+{}>>{})", p.mul1, p.add1, p.shift1);
  if (p.mul2 != 1 || p.add2 != 0 || p.shift2 != 0) s += fmt::format(" in2=(*{}+{}>>{})", p.mul2, p.add2, p.shift2);
  if (p.shift_sum) s += fmt::format(" sum>>{}", p.shift_sum);
  return s + rq_str(p.rq);
}

std::string pool_attrs(const PoolParams& p) {
  std::string s = p.kind == PoolParams::Kind::Max ? " max" : " sum";
  if (p.global) {
    s += " global";
  } else if (p.is_1d) {
    s += fmt::format(" k={} s={} p={},{}", p.kw, p.sw, p.pad_l, p.pad_r);
  } else {
    s += fmt::format(" k={}x{} s={}x{} p={},{},{},{}", p.kh, p.kw, p.sh, p.sw, p.pad_t, p.pad_l, p.pad_b, p.pad_r);
  }
  if (p.ceil_mode) s += " ceil";
  if (p.x_zp) s += fmt::format(" xzp={}", p.x_zp);
  return s + rq_str(p.rq);
}

template <class Q>
std::string quant_attrs(const Q& p) {
  std::string s = p.axis >= 0 ? fmt::format(" axis={}", p.axis) : "";
  if (p.scale.size() == 1) s += fmt::format(" scale={}", p.scale[0]);
  else s += fmt::format(" scale[{}]", p.scale.size());
  return s + (p.zp.empty() ? " zp=0" : vec("zp", p.zp));
}

std::string attrs(const Node& n) {
  switch (n.kind()) {
    case OpKind::Conv: return conv_attrs(n.as<ConvParams>());
    case OpKind::Gemm: return gemm_attrs(n.as<GemmParams>());
    case OpKind::Add: return add_attrs(n.as<AddParams>());
    case OpKind::Mul: return rq_str(n.as<MulParams>().rq);
    case OpKind::Pool: return pool_attrs(n.as<PoolParams>());
    case OpKind::Clip: return fmt::format(" [{},{}]", n.as<ClipParams>().lo, n.as<ClipParams>().hi);
    case OpKind::Requant: return rq_str(n.as<RequantParams>().rq);
    case OpKind::Pad: return fmt::format(" pads={} value={}", ints(n.as<PadParams>().pads), n.as<PadParams>().value);
    case OpKind::Concat: return fmt::format(" axis={}", n.as<ConcatParams>().axis);
    case OpKind::Reshape: return "";
    case OpKind::Transpose: return fmt::format(" perm={}", ints(n.as<TransposeParams>().perm));
    case OpKind::Quantize: return quant_attrs(n.as<QuantizeParams>());
    case OpKind::Dequantize: return quant_attrs(n.as<DequantizeParams>());
    case OpKind::Softmax: {
      const auto& p = n.as<SoftmaxParams>();
      if (p.kind == SoftmaxParams::Kind::ITAMax) return fmt::format(" itamax n={}", p.n_levels);
      return fmt::format(" isoftmax A={} B={} C={} log2={} n={}", p.coeff_a, p.coeff_b, p.coeff_c, p.log2, p.n_levels);
    }
    case OpKind::Norm: {
      const auto& p = n.as<NormParams>();
      return fmt::format(" {} w=[{}]{} >>{} n={}", p.kind == NormParams::Kind::RMS ? "irmsnorm" : "ilayernorm",
                         p.weight.size(), p.bias.empty() ? "" : fmt::format(" b=[{}]", p.bias.size()), p.log2_d,
                         p.n_levels);
    }
    case OpKind::Act: {
      const auto& p = n.as<ActParams>();
      if (p.kind == ActParams::Kind::GELU) return fmt::format(" igelu b={} one={}", p.b, p.one) + rq_str(p.rq);
      return fmt::format(" ihardswish 1/6={} six={} three={}", p.one_over_six, p.six, p.three) + rq_str(p.rq);
    }
    case OpKind::Mean:
      return fmt::format(" axes={} keepdims={}", ints(n.as<MeanParams>().axes), n.as<MeanParams>().keepdims ? 1 : 0);
    case OpKind::Gather: return fmt::format(" axis={} index={}", n.as<GatherParams>().axis, n.as<GatherParams>().index);
    case OpKind::FloatChain: return fmt::format(" steps={}", n.as<FloatChainParams>().steps.size());
  }
  return "";
}

// Name of a constant operand: the weight of a conv/gemm is "w" (a constant A of a gemm is
// "a"), any other constant operand is "c<position>".
std::string const_role(const Node& n, size_t pos) {
  if (n.kind() == OpKind::Conv && pos == 1) return "w";
  if (n.kind() == OpKind::Gemm) return pos == 1 ? "w" : "a";
  return fmt::format("c{}", pos);
}

bool valid_id(const Graph& g, int id) { return id >= 0 && static_cast<size_t>(id) < g.tensors.size(); }

std::string node_line(const Graph& g, const Node& n, int layer) {
  std::string s = layer >= 0 ? fmt::format("L{} ", layer) : "   ";
  s += fmt::format("{} {}", op_name(n.kind()), quoted(n.name));
  std::string consts;
  for (size_t i = 0; i < n.inputs.size(); ++i) {
    const int id = n.inputs[i];
    if (valid_id(g, id) && g.tensor(id).is_const())
      consts += fmt::format(" {}={}", const_role(n, i), type_str(g.tensor(id)));
    else
      s += fmt::format(" %{}", id);
  }
  s += " ->";
  for (int id : n.outputs) {
    s += fmt::format(" %{}", id);
    if (valid_id(g, id)) s += fmt::format(" {}", type_str(g.tensor(id)));
  }
  s += consts + attrs(n);
  if (!n.fused.empty()) s += fmt::format(" <- {}", fmt::join(n.fused, "+"));
  if (n.engine != "cluster") s += fmt::format(" @{}{}", n.engine, n.wmem_weights ? " wmem" : "");
  return s;
}

std::string io_line(const Graph& g, const char* kind, int id) {
  if (!valid_id(g, id)) return fmt::format("{} %{} <invalid>", kind, id);
  const TensorDesc& t = g.tensor(id);
  return fmt::format("{} %{} {} {}{}", kind, id, quoted(t.name), type_str(t), t.dtype_inferred ? " inferred" : "");
}

}  // namespace

std::string print_graph(const Graph& g) {
  std::string out = fmt::format("graph {} dialect={} macs={}\n", g.name, g.dialect.empty() ? "-" : g.dialect, g.total_macs());
  for (int id : g.inputs) out += io_line(g, "input", id) + "\n";
  int layer = 0;
  for (const Node& n : g.nodes) out += node_line(g, n, Graph::is_layer(n) ? layer++ : -1) + "\n";
  for (int id : g.outputs) out += io_line(g, "output", id) + "\n";
  return out;
}

}  // namespace edgesim
