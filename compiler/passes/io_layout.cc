// The graph I/O layout pass (io_layout.h).
#include "compiler/passes/io_layout.h"

#include <algorithm>
#include <stdexcept>

#include "compiler/ir/layout_domain.h"

namespace edgesim {
namespace {

bool cluster_depthwise(const Graph& g, const Node& n) {
  if (n.kind() != OpKind::Conv || n.engine != "cluster") return false;
  return n.as<ConvParams>().depthwise(g.tensor(n.inputs.at(0)).shape.at(1), g.tensor(n.outputs.at(0)).shape.at(1));
}

bool is_activation4d(const Graph& g, int t) { return !g.tensor(t).is_const() && g.tensor(t).shape.size() == 4; }

Node relayout_node(const std::string& name, const std::string& kind, int in, int out) {
  TransposeParams p;
  p.perm = {0, 1, 2, 3};
  p.relayout = kind;
  Node n{name, p, {in}, {out}, {"Transpose"}};
  n.engine = "cluster";
  return n;
}

}  // namespace

std::vector<std::string> io_layout_names() { return {"hwc", "nchw"}; }

bool is_relayout(const Node& n) { return n.kind() == OpKind::Transpose && !n.as<TransposeParams>().relayout.empty(); }

int apply_io_layout(Graph& g, const std::string& io_layout, EngineAssignment* ea) {
  if (io_layout == "hwc") return 0;
  if (io_layout != "nchw") throw std::invalid_argument("unknown graph I/O layout '" + io_layout + "' (known: hwc, nchw)");
  if (ea && ea->why_not.size() != g.nodes.size()) ea = nullptr;   // nothing to keep aligned
  int inserted = 0;
  std::vector<Node> head, tail;
  // Only image tensors change order: a transformer's 4-D tensors (sequence domain, e.g. a KV
  // cache [1, heads, tokens, features]) are row-major in ONNX order on both sides, and Deeploy's
  // lowering transposes only around convolutions, pools and pads.
  const LayoutDomains dom = layout_domains(g);
  auto image4d = [&](int t) { return is_activation4d(g, t) && dom.image.at(static_cast<size_t>(t)); };
  for (int t : g.inputs) {
    if (!image4d(t)) continue;
    bool consumed = false, all_dw = true;
    for (const Node& n : g.nodes)
      if (std::find(n.inputs.begin(), n.inputs.end(), t) != n.inputs.end()) {
        consumed = true;
        all_dw = all_dw && cluster_depthwise(g, n);
      }
    if (!consumed || all_dw) continue;
    TensorDesc d = g.tensor(t);
    d.name += "_hwc";
    d.dtype_inferred = false;
    const int t2 = g.add_tensor(d);
    for (Node& n : g.nodes)
      for (int& i : n.inputs)
        if (i == t) i = t2;
    head.push_back(relayout_node(g.tensor(t).name + "_to_hwc", "nchw_to_hwc", t, t2));
  }
  for (int t : g.outputs) {
    if (!image4d(t) || std::find(g.inputs.begin(), g.inputs.end(), t) != g.inputs.end()) continue;
    auto producer = std::find_if(g.nodes.begin(), g.nodes.end(), [&](const Node& n) {
      return std::find(n.outputs.begin(), n.outputs.end(), t) != n.outputs.end();
    });
    if (producer == g.nodes.end()) continue;
    TensorDesc d = g.tensor(t);
    d.name += "_hwc";
    const int t2 = g.add_tensor(d);
    for (int& o : producer->outputs)
      if (o == t) o = t2;
    for (Node& n : g.nodes)   // other readers of the output inside the graph read the HWC copy
      for (int& i : n.inputs)
        if (i == t) i = t2;
    tail.push_back(relayout_node(g.tensor(t).name + "_to_nchw", "hwc_to_nchw", t2, t));
  }
  // Inside the graph: a cluster depthwise conv reads CHW, so the HWC activation another node
  // produced goes through one HWC -> NCHW Transpose on its way in (Deeploy's depthwise lowering
  // transposes only the output back, and that Transpose folds with the next layer's).
  std::vector<std::pair<size_t, Node>> before;   // (index of the depthwise node, relayout)
  for (size_t k = 0; k < g.nodes.size(); ++k) {
    Node& n = g.nodes[k];
    const int t = n.inputs.empty() ? -1 : n.inputs[0];
    if (!cluster_depthwise(g, n) || !is_activation4d(g, t)) continue;
    if (std::find(g.inputs.begin(), g.inputs.end(), t) != g.inputs.end()) continue;   // stays NCHW (above)
    TensorDesc d = g.tensor(t);
    d.name += "_chw";
    const int t2 = g.add_tensor(d);
    n.inputs[0] = t2;
    before.emplace_back(k, relayout_node(n.name + "_in_to_chw", "hwc_to_nchw", t, t2));
  }
  inserted = static_cast<int>(head.size() + tail.size() + before.size());
  if (inserted == 0) return 0;
  for (auto it = before.rbegin(); it != before.rend(); ++it) {
    g.nodes.insert(g.nodes.begin() + static_cast<std::ptrdiff_t>(it->first), it->second);
    if (ea) ea->why_not.insert(ea->why_not.begin() + static_cast<std::ptrdiff_t>(it->first), "");
  }
  g.nodes.insert(g.nodes.begin(), head.begin(), head.end());
  g.nodes.insert(g.nodes.end(), tail.begin(), tail.end());
  if (ea) {
    ea->why_not.insert(ea->why_not.begin(), head.size(), "");
    ea->why_not.insert(ea->why_not.end(), tail.size(), "");
  }
  g.validate();
  return inserted;
}

}  // namespace edgesim
