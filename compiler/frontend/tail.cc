// Dropping the NEMO / QuantLab tail (docs/dialects.md "NEMO", row "tail"; "QuantLab"): after the
// last FC the exporters append Gather, Unsqueeze, Sigmoid, LogSoftmax (and QuantLab a Concat of
// them) that DORY does not deploy. A node is part of the tail when its op is one of those and all
// of its outputs go only to graph outputs or other tail nodes. The graph outputs then become the
// tensors that feed the tail, which must be produced by a Gemm or MatMul (the last FC); otherwise
// nothing is dropped and the tail ops fail later as unsupported.
#include <set>

#include "compiler/frontend/handlers.h"

namespace edgesim::frontend {

std::vector<std::string> drop_tail(Builder& b) {
  const OnnxModel& m = b.model;
  std::vector<std::string> outs;
  for (const auto& o : m.outputs) outs.push_back(o.name);
  if (b.graph.dialect != "nemo" && b.graph.dialect != "quantlab") return outs;

  static const std::set<std::string> tail_ops = {"Gather", "Unsqueeze", "Sigmoid", "LogSoftmax",
                                                 "Softmax", "Concat", "Shape"};
  std::set<int> tail;
  for (auto it = m.nodes.rbegin(); it != m.nodes.rend(); ++it) {
    const OnnxNode& n = *it;
    if (!tail_ops.count(n.op) || !(n.domain.empty() || n.domain == "ai.onnx")) continue;
    bool only_tail = true, reaches = false;
    for (const auto& o : n.outputs) {
      if (m.is_output(o)) reaches = true;
      for (int u : m.users(o)) {
        if (!tail.count(u)) only_tail = false;
        reaches = true;
      }
    }
    if (only_tail && reaches) tail.insert(n.index);
  }
  if (tail.empty()) return outs;

  // Frontier: non-constant tensors read by tail nodes and produced outside the tail.
  std::vector<std::string> frontier;
  for (const auto& n : m.nodes) {
    if (!tail.count(n.index)) continue;
    for (const auto& i : n.inputs) {
      if (i.empty() || m.find_const(i)) continue;
      auto p = m.producer.find(i);
      if (p != m.producer.end() && tail.count(p->second)) continue;
      if (p == m.producer.end()) return outs;   // a graph input feeds the tail: not a deployable tail
      const std::string& op = m.nodes[static_cast<size_t>(p->second)].op;
      if (op != "Gemm" && op != "MatMul") return outs;
      bool seen = false;
      for (const auto& f : frontier) seen = seen || f == i;
      if (!seen) frontier.push_back(i);
    }
  }
  for (int t : tail) b.claim(t);
  std::vector<std::string> result;
  auto add = [&](const std::string& s) {
    for (const auto& r : result)
      if (r == s) return;
    result.push_back(s);
  };
  for (const auto& o : outs) {
    auto p = m.producer.find(o);
    if (p != m.producer.end() && tail.count(p->second)) {
      for (const auto& f : frontier) add(f);
    } else {
      add(o);
    }
  }
  return result;
}

}  // namespace edgesim::frontend
