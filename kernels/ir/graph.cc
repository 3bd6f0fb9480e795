#include "kernels/ir/graph.h"

#include <stdexcept>

namespace edgesim {

const char* op_name(OpKind k) {
  switch (k) {
    case OpKind::Conv: return "conv";
    case OpKind::Gemm: return "gemm";
    case OpKind::Add: return "add";
    case OpKind::Mul: return "mul";
    case OpKind::Pool: return "pool";
    case OpKind::Clip: return "clip";
    case OpKind::Requant: return "requant";
    case OpKind::Pad: return "pad";
    case OpKind::Concat: return "concat";
    case OpKind::Reshape: return "reshape";
    case OpKind::Transpose: return "transpose";
    case OpKind::Quantize: return "quantize";
    case OpKind::Dequantize: return "dequantize";
    case OpKind::Softmax: return "softmax";
    case OpKind::Norm: return "norm";
    case OpKind::Act: return "act";
    case OpKind::Mean: return "mean";
    case OpKind::Gather: return "gather";
    case OpKind::FloatChain: return "fquant";
  }
  return "?";
}

int Graph::add_tensor(TensorDesc t) {
  tensors.push_back(std::move(t));
  return static_cast<int>(tensors.size()) - 1;
}

int Graph::find_tensor(const std::string& n) const {
  for (size_t i = 0; i < tensors.size(); ++i)
    if (tensors[i].name == n) return static_cast<int>(i);
  return -1;
}

bool Graph::is_dory_layer(const Node& n) {
  switch (n.kind()) {
    case OpKind::Conv: case OpKind::Gemm: case OpKind::Pool: case OpKind::Add: return true;
    default: return false;
  }
}

bool Graph::is_layer(const Node& n) {
  switch (n.kind()) {
    case OpKind::Mul: case OpKind::Requant: case OpKind::Softmax: case OpKind::Norm: case OpKind::Act:
    case OpKind::FloatChain:
      return true;
    default:
      return is_dory_layer(n);
  }
}

std::vector<int> Graph::dory_layer_nodes() const {
  std::vector<int> r;
  for (size_t i = 0; i < nodes.size(); ++i)
    if (is_dory_layer(nodes[i])) r.push_back(static_cast<int>(i));
  return r;
}

void Graph::bypass_node(int k) {
  const Node& n = nodes.at(static_cast<size_t>(k));
  const int out = n.outputs.at(0), in = n.inputs.at(0);
  nodes.erase(nodes.begin() + k);
  auto fix = [&](int& id) {
    if (id == out) id = in;
    if (id > out) --id;
  };
  for (Node& m : nodes) {
    for (int& id : m.inputs) fix(id);
    for (int& id : m.outputs) fix(id);
  }
  for (int& id : inputs) fix(id);
  for (int& id : outputs) fix(id);
  tensors.erase(tensors.begin() + out);
}

std::vector<int> Graph::layer_nodes() const {
  std::vector<int> r;
  for (size_t i = 0; i < nodes.size(); ++i)
    if (is_layer(nodes[i])) r.push_back(static_cast<int>(i));
  return r;
}

}  // namespace edgesim
