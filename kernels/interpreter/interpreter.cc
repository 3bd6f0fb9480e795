// Interpreter: runs the nodes of a Graph in order with the reference kernels (the golden
// model). Graph inputs are converted to their declared dtype (out-of-range, fractional or
// mis-shaped values are errors naming the input); each output is allocated from its
// TensorDesc. Rank-3 tensors of 1-D convs and pools ([N, C, L]) are presented to the kernels
// as 4-D views with H = 1. With keep_all off, a tensor is freed after its last consumer.
#include "kernels/interpreter/interpreter.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <type_traits>

#include "kernels/core/shape_rules.h"
#include "kernels/reference.h"

namespace edgesim {

Tensor convert_graph_input(const TensorDesc& d, const Tensor& t, size_t index) {
  const std::string who = "graph input " + std::to_string(index) + " '" + d.name + "'";
  if (t.shape() != d.shape)
    throw std::runtime_error(who + ": shape " + shape_str(t.shape()) + " differs from declared " + shape_str(d.shape));
  if (t.dtype() == d.dtype) return t;
  Tensor r(d.dtype, d.shape);
  if (d.dtype == DType::F32) {
    r.view().from_f64(t.to_f64());
    return r;
  }
  const std::vector<double> v = t.to_f64();
  const double lo = static_cast<double>(dtype_min(d.dtype)), hi = static_cast<double>(dtype_max(d.dtype));
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] != std::floor(v[i]) || v[i] < lo || v[i] > hi)
      throw std::runtime_error(who + ": value " + std::to_string(v[i]) + " at flat index " + std::to_string(i) +
                               " is not a " + dtype_name(d.dtype) + " integer");
    r.set_int(static_cast<int64_t>(i), static_cast<int64_t>(v[i]));
  }
  return r;
}

void run_reference(const OpParams& params, const std::vector<View>& in, const View& out, ArithMode mode) {
  auto need = [&](size_t k) {
    if (in.size() != k)
      throw std::invalid_argument("expects " + std::to_string(k) + " inputs, has " + std::to_string(in.size()));
  };
  std::visit(
      [&](const auto& p) {
        using P = std::decay_t<decltype(p)>;
        if constexpr (std::is_same_v<P, ConvParams>) { need(2); conv_reference(p, view_4d(in[0]), view_4d(in[1]), view_4d(out), mode); }
        else if constexpr (std::is_same_v<P, GemmParams>) { need(2); gemm_reference(p, in[0], in[1], out, mode); }
        else if constexpr (std::is_same_v<P, AddParams>) { need(2); add_reference(p, in[0], in[1], out, mode); }
        else if constexpr (std::is_same_v<P, MulParams>) { need(2); mul_reference(p, in[0], in[1], out, mode); }
        else if constexpr (std::is_same_v<P, PoolParams>) { need(1); pool_reference(p, view_4d(in[0]), view_4d(out), mode); }
        else if constexpr (std::is_same_v<P, ClipParams>) { need(1); clip_reference(p, in[0], out); }
        else if constexpr (std::is_same_v<P, RequantParams>) { need(1); requant_reference(p, in[0], out, mode); }
        else if constexpr (std::is_same_v<P, PadParams>) { need(1); pad_reference(p, in[0], out); }
        else if constexpr (std::is_same_v<P, ConcatParams>) { concat_reference(p, in, out); }
        else if constexpr (std::is_same_v<P, ReshapeParams>) { need(1); reshape_reference(in[0], out); }
        else if constexpr (std::is_same_v<P, TransposeParams>) { need(1); transpose_reference(p, in[0], out); }
        else if constexpr (std::is_same_v<P, QuantizeParams>) { need(1); quantize_reference(p, in[0], out); }
        else if constexpr (std::is_same_v<P, DequantizeParams>) { need(1); dequantize_reference(p, in[0], out); }
        else if constexpr (std::is_same_v<P, SoftmaxParams>) { need(1); softmax_reference(p, in[0], out); }
        else if constexpr (std::is_same_v<P, NormParams>) { need(1); norm_reference(p, in[0], out); }
        else if constexpr (std::is_same_v<P, ActParams>) { need(1); act_reference(p, in[0], out, mode); }
        else if constexpr (std::is_same_v<P, MeanParams>) { need(1); mean_reference(p, in[0], out); }
        else if constexpr (std::is_same_v<P, GatherParams>) { need(1); gather_reference(p, in[0], out); }
        else if constexpr (std::is_same_v<P, FloatChainParams>) { need(1); float_chain_reference(p, in[0], out); }
      },
      params);
}

namespace {

std::string node_label(const Node& n) { return "node '" + n.name + "' (" + op_name(n.kind()) + ")"; }

}  // namespace

InterpreterResult interpret(const Graph& g, const std::vector<Tensor>& inputs, const InterpreterOptions& opt) {
  if (inputs.size() != g.inputs.size())
    throw std::runtime_error("interpreter: graph '" + g.name + "' has " + std::to_string(g.inputs.size()) +
                             " inputs, " + std::to_string(inputs.size()) + " given");
  const size_t nt = g.tensors.size();
  auto check_id = [&](int id, const std::string& who) {
    if (id < 0 || static_cast<size_t>(id) >= nt)
      throw std::runtime_error(who + ": tensor id " + std::to_string(id) + " out of range");
  };

  InterpreterResult res;
  res.values.resize(nt);
  for (size_t i = 0; i < nt; ++i)
    if (g.tensors[i].is_const()) res.values[i] = *g.tensors[i].constant;
  for (size_t i = 0; i < inputs.size(); ++i) {
    check_id(g.inputs[i], "graph input " + std::to_string(i));
    res.values[g.inputs[i]] = convert_graph_input(g.tensor(g.inputs[i]), inputs[i], i);
  }

  // Last node reading each tensor, so that intermediates can be dropped without keep_all.
  std::vector<int> last_use(nt, -1);
  for (size_t k = 0; k < g.nodes.size(); ++k)
    for (int id : g.nodes[k].inputs)
      if (id >= 0 && static_cast<size_t>(id) < nt) last_use[id] = static_cast<int>(k);
  std::vector<bool> keep(nt, opt.keep_all);
  for (int id : g.outputs) {
    check_id(id, "graph output");
    keep[id] = true;
  }
  for (size_t i = 0; i < nt; ++i)
    if (g.tensors[i].is_const()) keep[i] = true;

  for (size_t k = 0; k < g.nodes.size(); ++k) {
    const Node& n = g.nodes[k];
    const std::string who = node_label(n);
    std::vector<View> in;
    for (int id : n.inputs) {
      check_id(id, who);
      if (!res.values[id])
        throw std::runtime_error(who + ": input '" + g.tensor(id).name + "' (%" + std::to_string(id) +
                                 ") has no value yet");
      in.push_back(std::as_const(*res.values[id]).view());
    }
    if (n.outputs.size() != 1)
      throw std::runtime_error(who + ": expects exactly one output, has " + std::to_string(n.outputs.size()));
    const int oid = n.outputs[0];
    check_id(oid, who);
    const TensorDesc& od = g.tensor(oid);
    Tensor out(od.dtype, od.shape);
    try {
      run_kernel(n.params, in, out.view(), opt.mode, opt.kernels);
    } catch (const std::exception& e) {
      throw std::runtime_error(who + ": " + e.what());
    }
    res.values[oid] = std::move(out);
    if (!keep[oid] && last_use[oid] <= static_cast<int>(k)) res.values[oid].reset();   // dead output
    for (int id : n.inputs)
      if (!keep[id] && last_use[id] == static_cast<int>(k)) res.values[id].reset();
  }

  for (int id : g.outputs) {
    if (!res.values[id])
      throw std::runtime_error("interpreter: graph output '" + g.tensor(id).name + "' was never computed");
    res.outputs.push_back(*res.values[id]);
  }
  return res;
}

}  // namespace edgesim
