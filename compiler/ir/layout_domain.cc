// layout_domains / is_rows_layer (layout_domain.h).
#include "compiler/ir/layout_domain.h"

namespace edgesim {

namespace {

bool spatial(const Graph& g, int t) {
  const size_t r = g.tensor(t).shape.size();
  return (r == 3 || r == 4) && !g.tensor(t).is_const();
}

bool image_seed(const Node& n) { return n.kind() == OpKind::Conv || n.kind() == OpKind::Pool; }

bool sequence_seed(const Node& n) {
  switch (n.kind()) {
    case OpKind::Gemm: case OpKind::Softmax: case OpKind::Norm: case OpKind::Act: case OpKind::FloatChain:
    case OpKind::Mean: case OpKind::Gather:
      return true;
    case OpKind::Transpose: return n.as<TransposeParams>().relayout.empty();
    case OpKind::Mul: return n.inputs.size() == 2;
    default: return false;
  }
}

bool passes(const Node& n, bool sequence) {
  switch (n.kind()) {
    case OpKind::Add: case OpKind::Mul: case OpKind::Requant: case OpKind::Clip: case OpKind::Pad:
    case OpKind::Concat: case OpKind::Quantize: case OpKind::Dequantize:
      return true;
    case OpKind::Reshape: return sequence;
    default: return false;
  }
}

// Seeds every spatial tensor of the seed nodes, then spreads through the passing ops.
std::vector<bool> spread(const Graph& g, bool (*seed)(const Node&), bool sequence) {
  std::vector<bool> in(g.tensors.size(), false);
  auto mark = [&](const Node& n) {
    bool changed = false;
    for (const auto* v : {&n.inputs, &n.outputs})
      for (int t : *v)
        if (spatial(g, t) && !in[static_cast<size_t>(t)]) in[static_cast<size_t>(t)] = changed = true;
    return changed;
  };
  for (const Node& n : g.nodes)
    if (seed(n)) mark(n);
  for (bool changed = true; changed;) {
    changed = false;
    for (const Node& n : g.nodes) {
      if (!passes(n, sequence)) continue;
      bool any = false;
      for (const auto* v : {&n.inputs, &n.outputs})
        for (int t : *v) any = any || in[static_cast<size_t>(t)];
      if (any) changed = mark(n) || changed;
    }
  }
  return in;
}

}  // namespace

LayoutDomains layout_domains(const Graph& g) {
  LayoutDomains d;
  const std::vector<bool> img = spread(g, image_seed, false);
  d.sequence = spread(g, sequence_seed, true);
  d.image.assign(g.tensors.size(), false);
  for (size_t t = 0; t < g.tensors.size(); ++t)
    d.image[t] = spatial(g, static_cast<int>(t)) && (img[t] || !d.sequence[t]);
  return d;
}

bool is_rows_layer(const Graph& g, int node, const LayoutDomains& d) {
  const Node& n = g.nodes.at(static_cast<size_t>(node));
  if (n.outputs.size() != 1 || n.inputs.empty()) return false;
  const int out = n.outputs[0];
  const Shape& y = g.tensor(out).shape;
  if (y.empty() || shape_numel(y) == 0 || d.image[static_cast<size_t>(out)]) return false;
  for (int t : n.inputs)
    if (d.image[static_cast<size_t>(t)] || g.tensor(t).shape != y || g.tensor(t).is_const()) return false;
  const int last = static_cast<int>(y.size()) - 1;
  auto rq_ok = [&](const Requant& rq) { return rq.axis < 0 || rq.axis == last || rq.channels() <= 1; };
  // Element-wise ops join the rows scheme only on sequence tensors (a CNN's rank-2 adds keep theirs).
  const bool seq = d.sequence[static_cast<size_t>(out)];
  switch (n.kind()) {
    case OpKind::Softmax: case OpKind::Norm: case OpKind::FloatChain: return true;
    case OpKind::Act: return rq_ok(n.as<ActParams>().rq);
    case OpKind::Add: return seq && rq_ok(n.as<AddParams>().rq);
    case OpKind::Mul: return seq && rq_ok(n.as<MulParams>().rq);
    case OpKind::Requant: return seq && rq_ok(n.as<RequantParams>().rq);
    default: return false;
  }
}

bool is_rows_layer(const Graph& g, int node) { return is_rows_layer(g, node, layout_domains(g)); }

}  // namespace edgesim
